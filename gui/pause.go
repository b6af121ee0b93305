package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/internal/phrase"
	"arbiter/match"
)

// causeLabel is how the console names a cause of a pause (match.PauseCauses).
func causeLabel(cause string) string {
	switch cause {
	case match.CauseFault:
		return translate("technical fault")
	case match.CausePowerFailure:
		return translate("power failure (rule 7)")
	case match.CauseUnplayable:
		return translate("the game cannot be played")
	case match.CauseCorrection:
		return translate("position correction (rule 10 / 6.13)")
	case match.CauseOther:
		return translate("another cause")
	}
	return cause
}

// pause is the arbiter's own stop of the clocks (Article 6.12a): the
// console asks for the cause (match.PauseCauses, "other" chosen) and an
// optional reason. The clocks stop at the instant the arbiter asked for it
// (the key or the menu), not when he has answered: the dialog only says
// why. Enter stops them, Escape or Cancel leaves them running. The core
// refuses what it refuses (rule 7: never a fault on the computer's turn),
// and the dialog shows that sentence and stays open.
func (c *console) pause() {
	g := c.game()
	if g == nil || !g.Live() {
		c.showError(errText(translate("no game is in progress")))
		return
	}
	if _, ok := g.Clock.Running(); !ok {
		c.showError(errText(tr("the clocks are already stopped (%s)", pauseWhy(g.Paused))))
		return
	}
	at := c.now()
	// On the computer's turn a technical fault is never a cause (rule 7:
	// its clock keeps running): it is offered disabled, saying why.
	running, _ := g.Clock.Running()
	var causes []string
	var labels []string
	var barred fyne.CanvasObject
	for _, k := range match.PauseCauses() {
		if k == match.CauseCorrection {
			continue // the correction dialog stops the clocks for it (Arbiter → Correct a position)
		}
		if m := c.state().Match; k == match.CauseFault && m != nil && m.Computer != "" && g.Name(running) == m.Computer {
			r := widget.NewRadioGroup([]string{causeLabel(k)}, nil)
			r.Disable()
			why := widget.NewLabel(sentence(match.ErrorFor(match.CodeNoPauseForFault)))
			why.Wrapping = fyne.TextWrapWord
			why.SizeName = theme.SizeNameCaptionText
			barred = container.NewVBox(r, why)
			continue
		}
		causes = append(causes, k)
		labels = append(labels, causeLabel(k))
	}
	cause := widget.NewRadioGroup(labels, nil)
	cause.Required = true
	cause.SetSelected(causeLabel(match.CauseOther))
	var causeBox fyne.CanvasObject = cause
	if barred != nil {
		causeBox = container.NewVBox(cause, barred)
	}
	reason := entryWith("")
	reason.SetPlaceHolder(translate("optional"))
	when := widget.NewLabel(tr("at %s, the instant you asked", c.timeOfDay(at)))
	c.formDialog(translate("Stop the clocks (6.12a)"), translate("Stop the clocks"), []*widget.FormItem{
		widget.NewFormItem(translate("Clocks stop"), when),
		widget.NewFormItem(translate("Cause"), causeBox),
		widget.NewFormItem(translate("Reason"), reason),
	}, func() error {
		chosen := match.CauseOther
		for i, l := range labels {
			if l == cause.Selected {
				chosen = causes[i]
			}
		}
		text := reason.Text
		if text == "" {
			text = "stopped by the arbiter"
		}
		return c.giveAtFromDialog(c.arbiter(), at, match.Pause{Reason: text, Cause: chosen}, nil)
	})
}

// pauseWhy is why the clocks stand still, for the status line: the reason,
// with the cause before it when it is a fault or a power failure (rule 7)
// or when the arbiter gave no reason of his own.
func pauseWhy(p match.PauseInfo) string {
	why := translate(p.Reason)
	own := p.Reason != "" && p.Reason != "stopped by the arbiter"
	switch {
	case p.Cause == "" || p.Cause == match.CauseOther:
		return why
	case !own:
		return causeLabel(p.Cause)
	case p.Cause == match.CauseUnplayable:
		return why
	}
	return causeLabel(p.Cause) + ": " + why
}

// capitalFirst begins a sentence with a capital letter.
func capitalFirst(s string) string { return phrase.CapitalFirst(s) }
