package gui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/match"
)

// correctDialog is the position reset of rule 10 (an operator's error) and
// Article 6.13 (an irregularity): Arbiter → Correct a position (rule 10)….
//
// Opening it stops the clocks (a pause by the arbiter whose reason names
// rule 10 / 6.13), so the figures stand still while the arbiter weighs them;
// they stay stopped until the arbiter resumes.
//
// The arbiter picks the mistaken move on the game's scoresheet in the dialog
// (or types its ply; by default the last move), the cause, whether the human
// waives the rule-10 recovery bonus, and the reason. The dialog then shows
// the four ways of setting the clocks side by side, as
// match.CorrectionPreview computes them: record, proportional, keep and set
// (set with two H:MM:SS fields, filled from the record for the chosen ply
// and refilled when the ply changes, until the arbiter edits them). Each
// reading is the final one: under rule 10 the human's includes the recovery
// bonus (unless waived); under 6.13 there is none. Each column gives both sides'
// readings, periods and moves and how they were obtained; a method that
// would leave a side negative time (proportional, record) is refused with
// its figure and cannot be chosen. Choosing a column resets the game with
// that method through match.App.Correct, which recomputes the figures at
// the instant of the command. Any refusal is shown in the dialog, which
// stays open.
//
// Like the board and the clock views it holds no console: it reads the
// match and the time through a correctFeed and gives the reset to it.
type correctDialog struct {
	feed    correctFeed
	d       dialog.Dialog
	ply     *formEntry
	cause   *widget.RadioGroup
	noBonus *widget.Check
	reason  *formEntry
	summary *widget.Label
	errText *widget.Label
	setW    *formEntry
	setB    *formEntry
	plies   *widget.List // the game's moves, one a row: pick the mistaken one
	labels  []string
	// setEdited is true once the arbiter typed into a set field; filling
	// tells the fields' OnChanged that the dialog itself writes them
	setEdited, filling bool
	cols               map[string]*correctColumn
	opts               match.CorrectionOptions
	ok                 bool // opts holds a valid preview
}

// correctFeed is what the correction dialog reads and whom it tells.
type correctFeed struct {
	state func() *match.State // the match as recorded
	now   func() time.Time
	// correct gives the reset (the console gives it as the arbiter, and
	// shows what it did once the dialog closed; method: the method's
	// heading); a refusal it returns is shown in the dialog, which stays
	// open
	correct func(method string, args match.Correct) error
	// onRefused is told of each refusal the dialog shows
	onRefused func(error)
	// onClosed is told when the dialog closed, by a reset or by Cancel
	onClosed func()
}

// correctColumn is one method's outcome.
type correctColumn struct {
	method string
	title  *canvas.Text
	white  *widget.Label
	black  *widget.Label
	work   *widget.Label
	why    *widget.Label
	// body scrolls the column's readings, refusal and calculation above
	// its button: in German a refused method's lines need more room than
	// a 1280×800 screen leaves, and were drawn behind the button
	body   *container.Scroll
	choose *widget.Button
}

// methodWord is a method as the incident log says it, mid-sentence.
func methodWord(m string) string { return translate(match.MethodEffect(m)) }

// methodTitle is a method's heading in the dialog.
func methodTitle(m string) string {
	switch m {
	case match.MethodRecord:
		return translate("From the record")
	case match.MethodProportional:
		return translate("Proportional (rule 10)")
	case match.MethodKeep:
		return translate("Keep the clocks")
	case match.MethodSet:
		return translate("Set by the arbiter")
	}
	return m
}

func (c *console) correctDialog() {
	g := c.game()
	if g == nil || !g.Live() || g.Sheet == nil {
		c.showError(errText(translate("no game is in progress: only a game in progress can be reset")))
		return
	}
	if g.Sheet.Ply() == 0 {
		c.showError(errText(translate("no move has been recorded in this game: there is nothing to take back")))
		return
	}
	arb := c.arbiter() // the PIN lent for this action, also once the authority answered
	if _, running := g.Clock.Running(); running && g.Pressed == nil {
		// the figures must not drift while the arbiter weighs them; the
		// cause says why (a correction: the record's log, the PDF and the
		// PGN an appeals board reads say "position correction (rule 10 /
		// 6.13)", where they said "the game cannot be played"); accepted on
		// the computer's turn, where a fault's would be refused (rule 7)
		// (on a station's record the dialog opens once this record holds
		// the pause)
		c.give(arb, c.now(), match.Pause{Cause: match.CauseCorrection}, func(_ match.Result, err error) {
			if err != nil {
				c.showError(err)
				return
			}
			c.openCorrectDialog(arb)
		})
		return
	}
	c.openCorrectDialog(arb)
}

// openCorrectDialog shows the correction dialog on the game in progress,
// the clocks stopped; arb is the arbiter who resets.
func (c *console) openCorrectDialog(arb match.Actor) {
	g := c.game()
	if g == nil || !g.Live() || g.Sheet == nil || g.Sheet.Ply() == 0 {
		return // the game ended or was reset meanwhile (at another station)
	}
	var cd *correctDialog
	done := func(method string, out match.Result) {
		res, ok := out.Corrected()
		if !ok {
			return
		}
		format := "Position before %s restored (%s); %d plies struck out. The clocks are stopped: resume with Ctrl+R."
		if len(res.Options.Struck) == 1 {
			format = "Position before %s restored (%s); %d ply struck out. The clocks are stopped: resume with Ctrl+R."
		}
		msg := tr(format, localSAN(res.Options.Mistake), method, len(res.Options.Struck))
		if res.Bonus > 0 {
			msg += " " + tr("%s received %s (rule 10).", c.game().Name(res.BonusSide), clock.FormatReading(res.Bonus))
		}
		c.info(translate("Position corrected"), msg)
	}
	feed := correctFeed{
		state: c.state,
		now:   func() time.Time { return c.now() },
		correct: func(method string, args match.Correct) error {
			// what it did is shown once the dialog closed (onClosed)
			c.submitting = true
			defer func() { c.submitting = false }()
			return c.giveFromDialog(arb, args, func(res match.Result) { done(method, res) })
		},
		onRefused: c.noteWriteError,
		onClosed: func() {
			if c.correcting == cd {
				c.correcting = nil
			}
			pending := c.pending
			c.pending = nil
			for _, f := range pending {
				f()
			}
		},
	}
	cd = newCorrectDialog(c.win, g, feed)
	c.correcting = cd
	c.showDialog(cd.d)
	c.win.Canvas().Focus(cd.reason)
}

// newCorrectDialog builds the dialog for the game g (a game in progress
// with a move) in win, pointed at the last move and previewed now; the
// caller shows cd.d.
func newCorrectDialog(win fyne.Window, g *match.Game, feed correctFeed) *correctDialog {
	cd := &correctDialog{feed: feed, cols: map[string]*correctColumn{}}
	for _, e := range g.Sheet.Entries() {
		cd.labels = append(cd.labels, tr("ply %d", e.Ply)+"   "+localSAN(e.Label()))
	}
	cd.ply = entryWith(fmt.Sprint(g.Sheet.Ply()))
	cd.plies = widget.NewList(func() int { return len(cd.labels) },
		func() fyne.CanvasObject { return widget.NewLabel("ply 999   999... Qxh8=Q+") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(cd.labels[i]) })
	cd.plies.OnSelected = func(i widget.ListItemID) {
		if want := fmt.Sprint(i + 1); cd.ply.Text != want {
			cd.ply.SetText(want)
		}
	}
	causes := []string{translate("operator error (rule 10)"), translate("irregularity (6.13)")}
	cd.cause = widget.NewRadioGroup(causes, func(string) { cd.preview() })
	cd.cause.Horizontal = true
	cd.cause.SetSelected(causes[0])
	cd.noBonus = widget.NewCheck(translate("no recovery bonus (the human waives it)"), func(bool) { cd.preview() })
	cd.reason = entryWith("")
	cd.reason.SetPlaceHolder(translate("what went wrong"))
	cd.summary = widget.NewLabel("")
	cd.summary.Wrapping = fyne.TextWrapWord
	cd.errText = widget.NewLabel("")
	cd.errText.Importance = widget.DangerImportance
	cd.errText.Wrapping = fyne.TextWrapWord
	cd.errText.Hide()
	cd.setW = entryWith("")
	cd.setB = entryWith("")
	cd.ply.OnChanged = func(s string) {
		if n, ok := atoiOr(s, 0); ok && n >= 1 && n <= len(cd.labels) {
			cd.plies.Select(n - 1)
		}
		cd.preview()
	}
	for _, e := range []*formEntry{cd.setW, cd.setB} {
		e.OnChanged = func(string) {
			if !cd.filling {
				cd.setEdited = true
			}
		}
	}
	cd.reason.OnSubmitted = func(string) {} // Enter must not choose a method by itself

	var cols []fyne.CanvasObject
	for _, m := range match.CorrectionMethods {
		col := &correctColumn{method: m}
		col.title = canvas.NewText(methodTitle(m), themeColor(theme.ColorNameForeground))
		col.title.TextStyle.Bold = true
		col.white = widget.NewLabel("")
		col.white.Wrapping = fyne.TextWrapWord
		col.black = widget.NewLabel("")
		col.black.Wrapping = fyne.TextWrapWord
		col.work = widget.NewLabel("")
		col.work.Wrapping = fyne.TextWrapWord
		col.work.SizeName = theme.SizeNameCaptionText
		col.why = widget.NewLabel("")
		col.why.Wrapping = fyne.TextWrapWord
		col.why.Importance = widget.DangerImportance
		col.why.Hide()
		method := m
		col.choose = widget.NewButton(tr("Reset: %s", methodTitle(m)), func() { cd.apply(method) })
		col.choose.Importance = widget.HighImportance
		cd.cols[m] = col
		body := container.NewVBox(col.title, col.white, col.black)
		if m == match.MethodSet {
			body.Add(widget.NewForm(widget.NewFormItem(translate("White"), cd.setW), widget.NewFormItem(translate("Black"), cd.setB)))
		}
		body.Add(col.why)
		body.Add(col.work)
		col.body = container.NewVScroll(body)
		cols = append(cols, card(container.NewBorder(nil, col.choose, nil, nil, col.body)))
	}
	pick := container.NewHBox(container.NewGridWrap(fyne.NewSize(260, 130), cd.plies),
		container.NewVBox(widget.NewLabel(translate("or the ply")), container.NewGridWrap(fyne.NewSize(90, 36), cd.ply)))
	form := widget.NewForm(
		widget.NewFormItem(translate("Mistaken move"), pick),
		widget.NewFormItem(translate("Cause"), cd.cause),
		widget.NewFormItem("", cd.noBonus),
		widget.NewFormItem(translate("Reason"), cd.reason),
	)
	cancel := widget.NewButton(translate("Cancel"), func() { cd.d.Hide() })
	top := container.NewVBox(form, cd.summary)
	bottom := container.NewVBox(cd.errText, container.NewHBox(layoutSpacer(), cancel))
	content := container.NewBorder(top, bottom, nil, nil, container.NewGridWithColumns(4, cols...))
	cd.d = dialog.NewCustomWithoutButtons(translate("Correct a position (rule 10, 6.13)"), content, win)
	escapeCloses(content, cd.d.Hide)
	cd.d.SetOnClosed(feed.onClosed)
	cd.plies.Select(g.Sheet.Ply() - 1)
	cd.plies.ScrollToBottom()
	cd.preview()
	cd.d.Resize(fyne.NewSize(1180, 700))
	return cd
}

// preview recomputes the four outcomes for the ply in the dialog, now.
func (cd *correctDialog) preview() {
	if cd.summary == nil || cd.cols[match.MethodSet] == nil {
		return // still being built
	}
	cd.ok = false
	n, okN := atoiOr(cd.ply.Text, 0)
	var err error
	if !okN || n < 1 {
		err = errText(tr("%q is not a ply number: give 1 for White's first move, 2 for Black's, and so on", cd.ply.Text))
	} else {
		cd.opts, err = match.CorrectionPreview(cd.feed.state(), n, cd.feed.now())
	}
	if err != nil {
		cd.summary.SetText(sentence(err))
		for _, col := range cd.cols {
			col.white.SetText("")
			col.black.SetText("")
			col.work.SetText("")
			col.why.Hide()
			col.choose.Disable()
		}
		return
	}
	cd.ok = true
	o := cd.opts
	s := tr("Mistaken move %s; struck out: %s. Restored position: %s to move; the clocks stay stopped until the arbiter resumes.",
		localSAN(o.Mistake), localSAN(strings.Join(o.Struck, " ")), translate(match.Colour(o.ToMove)))
	if cd.cause.Selected == cd.cause.Options[0] && o.Human != "" {
		s += " " + tr("Rule 10: %s then receives %s unless waived.", o.Human, clock.FormatReading(match.RecoveryBonus))
	}
	cd.summary.SetText(s)
	cd.fillSet()
	for _, oc := range o.Outcomes {
		col := cd.cols[oc.Method]
		if col == nil {
			continue
		}
		col.white.SetText(cd.sideLine(clock.White, oc.Sides[clock.White], oc.Possible))
		col.black.SetText(cd.sideLine(clock.Black, oc.Sides[clock.Black], oc.Possible))
		col.work.SetText(translate("White") + ": " + say(oc.Working[clock.White]) + "\n" + translate("Black") + ": " + say(oc.Working[clock.Black]))
		if oc.Possible {
			col.why.Hide()
			col.choose.Enable()
		} else {
			col.why.SetText(translate("Refused") + ": " + say(oc.Why))
			col.why.Show()
			col.choose.Disable()
		}
		if oc.Method == match.MethodSet {
			col.white.SetText(tr("White: period %d, %d moves", oc.Sides[clock.White].Period, oc.Sides[clock.White].Moves))
			col.black.SetText(tr("Black: period %d, %d moves", oc.Sides[clock.Black].Period, oc.Sides[clock.Black].Moves))
			work := translate("The readings given above (H:MM:SS).")
			if cd.bonus() > 0 {
				work += " " + tr("%s then receives %s (rule 10).", o.Human, clock.FormatReading(cd.bonus()))
			}
			col.work.SetText(work)
		}
	}
}

// bonus is the rule-10 recovery bonus the human receives with the cause and
// waiver chosen now (none under 6.13).
func (cd *correctDialog) bonus() time.Duration {
	if !cd.ok || cd.cause.Selected != cd.cause.Options[0] || cd.noBonus.Checked || cd.opts.Human == "" {
		return 0
	}
	return match.RecoveryBonus
}

// sideLine is one side's final clock after a method: reading (with the
// recovery bonus when it applies to that side), period and moves.
func (cd *correctDialog) sideLine(s clock.Side, cs match.ClockSetting, possible bool) string {
	r := cs.Remaining
	if b := cd.bonus(); b > 0 && possible && s == cd.opts.HumanSide {
		return tr("%s: %s (period %d, %d moves, with %s rule 10)", translate(match.Colour(s)), clock.FormatReading((r + b).Truncate(time.Second)), cs.Period, cs.Moves, "+"+clock.FormatReading(b))
	}
	return tr("%s: %s (period %d, %d moves)", translate(match.Colour(s)), clock.FormatReading(r.Truncate(time.Second)), cs.Period, cs.Moves)
}

// fillSet fills the set fields from the record for the chosen ply (the
// clocks now where the record cannot give them), until the arbiter edits
// them.
func (cd *correctDialog) fillSet() {
	if cd.setEdited || !cd.ok {
		return
	}
	r := cd.opts.Readings
	if oc, ok := cd.opts.Outcome(match.MethodRecord); ok && oc.Possible {
		r = [2]time.Duration{oc.Sides[clock.White].Remaining, oc.Sides[clock.Black].Remaining}
	}
	cd.filling = true
	cd.setW.SetText(clock.FormatReading(r[clock.White].Truncate(time.Second)))
	cd.setB.SetText(clock.FormatReading(r[clock.Black].Truncate(time.Second)))
	cd.filling = false
}

// apply resets the game by method.
func (cd *correctDialog) apply(method string) {
	fail := func(err error) {
		cd.errText.SetText(sentence(err))
		cd.errText.Show()
		cd.feed.onRefused(err)
	}
	n, ok := atoiOr(cd.ply.Text, 0)
	if !ok || n < 1 {
		fail(errText(tr("%q is not a ply number: give 1 for White's first move, 2 for Black's, and so on", cd.ply.Text)))
		return
	}
	args := match.Correct{Ply: n, Method: method, Reason: strings.TrimSpace(cd.reason.Text), NoBonus: cd.noBonus.Checked, Cause: match.CauseOperatorError}
	if cd.cause.Selected == cd.cause.Options[1] {
		args.Cause = match.CauseIrregularity
	}
	if args.Reason == "" {
		fail(errText(translate("a position reset needs a reason: say what went wrong")))
		return
	}
	if method == match.MethodSet {
		var err error
		if args.White, err = match.ParseClockReading(cd.setW.Text); err != nil {
			fail(phrase.Errorf("%s: %v", phrase.Word("White"), err))
			return
		}
		if args.Black, err = match.ParseClockReading(cd.setB.Text); err != nil {
			fail(phrase.Errorf("%s: %v", phrase.Word("Black"), err))
			return
		}
	}
	if err := cd.feed.correct(methodWord(method), args); err != nil { // mid-sentence: "(clocks from the record)"
		fail(err)
		return
	}
	cd.d.Hide()
}
