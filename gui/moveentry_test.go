package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// shownHint is the text the empty move field shows.
func shownHint(t *testing.T, e *moveEntry) *canvas.Text {
	t.Helper()
	for _, o := range test.WidgetRenderer(e).Objects() {
		if txt, ok := o.(*canvas.Text); ok {
			return txt
		}
	}
	t.Fatal("the move field shows no text")
	return nil
}

func TestTheMoveFieldShowsTheLongestHintThatFits(t *testing.T) {
	test.NewTempApp(t)
	const long, short = "Zug (SAN oder UCI), Eingabetaste zeichnet auf", "Zug, dann Eingabetaste"
	for _, tc := range []struct {
		name  string
		width float32
		want  string
	}{
		{"a wide field shows the whole hint", 900, long},
		{"a field too narrow for the hint shows the shorter one instead of running past its edge", 250, short},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newMoveEntry(nil)
			e.SetPlaceHolder(long, short)
			e.Resize(fyne.NewSize(tc.width, 40))
			txt := shownHint(t, e)
			if txt.Text != tc.want {
				t.Fatalf("a %v px field shows %q, want %q", tc.width, txt.Text, tc.want)
			}
			if w := fyne.MeasureText(txt.Text, txt.TextSize, txt.TextStyle).Width; w > tc.width {
				t.Errorf("the hint is %v px wide in a %v px field", w, tc.width)
			}
			e.SetText("e4")
			if txt := shownHint(t, e); txt.Text != "e4" {
				t.Errorf("with a move typed the field shows %q", txt.Text)
			}
		})
	}
}
