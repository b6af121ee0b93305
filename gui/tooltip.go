package gui

import (
	"fmt"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// An action the console's role cannot take now is disabled, and says why
// when the pointer rests on its button (issue 27): the red "Stop clocks"
// in operator mode on the computer's turn ("rule 7: …"), the human's press
// on the operator's laptop ("… is given at the arbiter's console"). Fyne
// has no tooltips, so the action bar draws the tip itself, above the
// button, in its own renderer: no overlay, so an open tip never takes a
// key or a tap from the console (its keys ask the canvas's overlays whether
// a dialog is open).

// actionButton is a button of the action bar with the reason it is
// disabled (why), which the bar shows as its tip while the pointer is on
// it.
type actionButton struct {
	widget.Button
	why     string
	bar     *actionBar // set by newActionBar
	hovered bool
}

func newActionButton(tapped func()) *actionButton {
	b := &actionButton{}
	b.OnTapped = tapped
	b.ExtendBaseWidget(b)
	return b
}

// allow enables the button when why is "", else disables it with why as
// its tip.
func (b *actionButton) allow(why string) {
	if why == b.why && b.Disabled() == (why != "") {
		return
	}
	b.why = why
	if why == "" {
		b.Enable()
	} else {
		b.Disable()
	}
	if b.hovered && b.bar != nil {
		b.bar.showTip(b)
	}
}

// MouseIn shows the tip of a disabled button.
func (b *actionButton) MouseIn(e *desktop.MouseEvent) {
	b.Button.MouseIn(e)
	b.hovered = true
	if b.bar != nil {
		b.bar.showTip(b)
	}
}

// MouseOut hides it.
func (b *actionButton) MouseOut() {
	b.Button.MouseOut()
	b.hovered = false
	if b.bar != nil {
		b.bar.hideTip(b)
	}
}

// tip is the reason shown above a disabled button: a framed label.
type tip struct {
	obj   *fyne.Container
	label *widget.Label
	bg    *canvas.Rectangle
	of    *actionButton // the button it is about, nil when hidden
}

func newTip() *tip {
	t := &tip{label: widget.NewLabel(""), bg: canvas.NewRectangle(themeColor(theme.ColorNameOverlayBackground))}
	t.label.Wrapping = fyne.TextWrapWord
	t.bg.StrokeColor = themeColor(theme.ColorNameSeparator)
	t.bg.StrokeWidth = 1
	t.obj = container.NewStack(t.bg, t.label)
	t.obj.Hide()
	return t
}

// tipWidth is the widest a tip is before it wraps.
const tipWidth = 420

// place lays the tip out above the button it is about, within the bar's
// width (the bar's renderer draws it beyond its top edge).
func (t *tip) place(barWidth float32) {
	if t.of == nil {
		return
	}
	t.bg.FillColor = themeColor(theme.ColorNameOverlayBackground)
	t.bg.StrokeColor = themeColor(theme.ColorNameSeparator)
	one := fyne.MeasureText(t.label.Text, theme.TextSize(), t.label.TextStyle).Width + 4*theme.Padding()
	w := min(max(one, 120), tipWidth, max(barWidth, 120))
	t.obj.Resize(fyne.NewSize(w, 0))
	h := t.label.MinSize().Height
	x := min(t.of.Position().X, max(barWidth-w, 0))
	t.obj.Move(fyne.NewPos(x, -h-theme.Padding()))
	t.obj.Resize(fyne.NewSize(w, h))
}

// showTip shows b's reason above it (nothing when it has none).
func (b *actionBar) showTip(btn *actionButton) {
	if btn.why == "" {
		b.hideTip(btn)
		return
	}
	b.tip.of = btn
	b.tip.label.SetText(btn.why)
	b.tip.obj.Show()
	b.tip.place(b.Size().Width)
	b.Refresh()
}

// hideTip hides the tip when it is btn's.
func (b *actionBar) hideTip(btn *actionButton) {
	if b.tip.of != btn {
		return
	}
	b.tip.of = nil
	b.tip.obj.Hide()
	b.Refresh()
}

// tipShown is the tip's text while it is shown ("" otherwise).
func (b *actionBar) tipShown() string {
	if b.tip.of == nil || !b.tip.obj.Visible() {
		return ""
	}
	return b.tip.label.Text
}

// writeGeometry writes where each button of the row stands, in pixels,
// one "ID x y" line (its centre) each, to geometryFile (for
// scripts/gui-check.sh, which rests the pointer on a button to show its
// tip; ARBITER_GUI_GEOMETRY plus ".bar").
func (b *actionBar) writeGeometry() {
	if b.geometryFile == "" {
		return
	}
	cv := fyne.CurrentApp().Driver().CanvasForObject(b)
	if cv == nil {
		return
	}
	s := cv.Scale()
	var lines strings.Builder
	for i, btn := range b.buttons {
		if !btn.Visible() || i >= len(b.ids) {
			continue
		}
		p := fyne.CurrentApp().Driver().AbsolutePositionForObject(btn)
		fmt.Fprintf(&lines, "%s %d %d\n", b.ids[i], int((p.X+btn.Size().Width/2)*s), int((p.Y+btn.Size().Height/2)*s))
	}
	_ = os.WriteFile(b.geometryFile, []byte(lines.String()), 0o644)
}
