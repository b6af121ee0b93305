package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"arbiter/match"
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

// The German console writes the pieces S L T D K on its scoresheet, and the
// arbiter types them so: the move field takes them (through the core's one
// parser), the scoresheet shows the move as it was typed, and a move it
// cannot read is refused with the German form as the example.
func TestTheGermanConsoleTakesTheGermanPieceLettersItShows(t *testing.T) {
	inGerman(t)
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(time.Second)
	for _, mv := range []string{"e4", "e5", "Sf3", "Sc6", "Le2"} {
		h.ft.advance(2 * time.Second)
		h.typeMove(mv)
	}
	t.Run("Sf3, Sc6 and Le2 typed are recorded as Nf3, Nc6 and Be2", func(t *testing.T) {
		if h.ply() != 5 {
			t.Fatalf("ply %d after five moves typed, want 5 (under the move field: %q)", h.ply(), h.c.moveErr.Text)
		}
		var sans []string
		for _, e := range h.game().Sheet.Entries() {
			sans = append(sans, e.SAN)
		}
		if got, want := strings.Join(sans, " "), "e4 e5 Nf3 Nc6 Be2"; got != want {
			t.Errorf("the record's SANs %q, want %q", got, want)
		}
		if h.c.moveEntry.Text != "" || h.c.moveErr.Text != "" {
			t.Errorf("after Le2 the field holds %q, under it %q", h.c.moveEntry.Text, h.c.moveErr.Text)
		}
	})
	t.Run("the scoresheet shows them with the German letters", func(t *testing.T) {
		sheet := strings.Join(h.c.sheet.shown, "\n")
		for _, want := range []string{"2. Sf3", "Sc6", "3. Le2"} {
			if !strings.Contains(sheet, want) {
				t.Errorf("the scoresheet lacks %q:\n%s", want, sheet)
			}
		}
	})
	t.Run("a lower-case s is no knight: refused with Sf3 as the example", func(t *testing.T) {
		h.typeMove("sf6")
		if want := `"sf6" ist kein Zug: schreiben Sie SAN wie Sf3 oder Nf3, oder UCI wie g1f3.`; h.c.moveErr.Text != want {
			t.Errorf("under the move field: %q, want %q", h.c.moveErr.Text, want)
		}
		if h.ply() != 5 {
			t.Errorf("ply %d after a refused move, want 5", h.ply())
		}
	})
}
