package gui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// labelTexts are the texts of the labels in o, laid out, in order.
func labelTexts(o fyne.CanvasObject) []string {
	var texts []string
	for _, w := range test.LaidOutObjects(o) {
		if l, ok := w.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	}
	return texts
}

// The Stations dialog on its own, with no console behind it: it shows the
// lines it is given, a label each, enables Invite… only when it may, and
// tells its callbacks of Invite… and of its closing.
func TestTheStationsViewShowsItsLinesAndTellsInviteAndClose(t *testing.T) {
	fa := test.NewTempApp(t)
	win := fa.NewWindow("console")
	win.Resize(fyne.NewSize(1280, 800))
	invited, closed := 0, 0
	v := newStationsView(win, func() { invited++ }, func() { closed++ })
	v.d.Show()

	t.Run("it shows the lines it is given, and Invite… only for a station", func(t *testing.T) {
		v.show([]string{"This record belongs to no station."}, false)
		if got := labelTexts(v.box); !slices.Equal(got, []string{"This record belongs to no station."}) {
			t.Errorf("shows %q", got)
		}
		if !v.invite.Disabled() {
			t.Error("Invite… is enabled on a record of no station")
		}
		lines := []string{"This station: arbiter (organiser), running", "Authority: arbiter", "Members (1):"}
		v.show(lines, true)
		if got := labelTexts(v.box); !slices.Equal(got, lines) {
			t.Errorf("shows %q, want %q", got, lines)
		}
		if v.invite.Disabled() {
			t.Error("Invite… is disabled on a station")
		}
	})
	t.Run("the same lines again leave the labels as they are", func(t *testing.T) {
		before := slices.Clone(v.box.Objects)
		v.show(slices.Clone(v.lines), true)
		if !slices.Equal(before, v.box.Objects) {
			t.Error("the same lines were drawn anew")
		}
	})
	t.Run("Invite… tells onInvite", func(t *testing.T) {
		test.Tap(v.invite)
		if invited != 1 || closed != 0 {
			t.Errorf("invited %d, closed %d after Invite…", invited, closed)
		}
	})
	t.Run("Close tells onClose", func(t *testing.T) {
		var closeButton *widget.Button
		for _, o := range test.LaidOutObjects(win.Canvas().Overlays().Top()) {
			if b, ok := o.(*widget.Button); ok && b.Text == "Close" {
				closeButton = b
			}
		}
		if closeButton == nil {
			t.Fatal("the dialog has no Close button")
		}
		test.Tap(closeButton)
		if closed != 1 || win.Canvas().Overlays().Top() != nil {
			t.Errorf("closed %d, dialog still shown %v", closed, win.Canvas().Overlays().Top() != nil)
		}
	})
}
