package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/match"
)

// topEntries are the text fields of the topmost dialog, in order.
func topEntries(t *testing.T, c *console) []*formEntry {
	t.Helper()
	top := c.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog is open")
	}
	var es []*formEntry
	for _, o := range test.LaidOutObjects(top) {
		if e, ok := o.(*formEntry); ok {
			es = append(es, e)
		}
	}
	return es
}

// Game → Start from a position… starts the next game from a FEN with its
// side to move and the clocks given; a bad FEN or reading gets one
// sentence and changes nothing (issue 13).
func TestAGameStartsFromAPositionInTheConsole(t *testing.T) {
	const fen = "8/8/4k3/8/8/4K3/4P3/8 b - - 0 60"
	cases := []struct {
		name         string
		fen, w, b    string
		refusal      string // "" accepted
		white, black time.Duration
	}{
		{"the side to move in the FEN moves first, with the clocks given", fen, "0:10:00", "0:04:59.5", "", 10 * time.Minute, 4*time.Minute + 59500*time.Millisecond},
		{"a clock left empty starts with its period's time (move 60: the second period)", fen, "", "0:01:00", "", 30 * time.Minute, time.Minute},
		{"a FEN without kings is refused in one sentence", "8/8/8/8/8/8/8/8 w - - 0 1", "", "", "kings", 0, 0},
		{"a malformed FEN is refused in one sentence", "not a fen", "", "", "The FEN", 0, 0},
		{"a malformed clock reading is refused in one sentence", fen, "1:5", "", "is not a clock reading", 0, 0},
		{"no FEN is refused in one sentence", "", "0:10:00", "", "No position given", 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("40/2400:1800", "")
			n, bytes := len(h.events()), h.dbBytes()
			h.c.do(actStartFrom)
			es := topEntries(t, h.c)
			if len(es) != 3 || h.c.win.Canvas().Focused() != es[0] {
				t.Fatalf("the dialog has %d fields, the FEN's not focused", len(es))
			}
			test.Type(es[0], tc.fen)
			test.Type(es[1], tc.w)
			test.Type(es[2], tc.b)
			h.key(fyne.KeyReturn)
			if tc.refusal != "" {
				if len(h.events()) != n || h.dbBytes() != bytes {
					t.Fatal("the refused start changed the record")
				}
				got := topDialogTexts(h.c)
				if !strings.Contains(got, tc.refusal) {
					t.Errorf("the dialog shows %q, want a sentence with %q", got, tc.refusal)
				}
				h.key(fyne.KeyEscape)
				if h.c.win.Canvas().Overlays().Top() != nil {
					t.Error("Esc does not close the dialog")
				}
				return
			}
			g := h.game()
			if g == nil || g.State != match.Running {
				t.Fatalf("no game runs (%q)", topDialogTexts(h.c))
			}
			if s, _ := g.Clock.Running(); s != clock.Black || g.ToMove() != clock.Black {
				t.Errorf("%v's clock runs, %v to move; want Black's (the FEN's side to move)", s, g.ToMove())
			}
			now := h.ft.Now()
			if w, b := g.Clock.Remaining(clock.White, now), g.Clock.Remaining(clock.Black, now); w != tc.white || b != tc.black {
				t.Errorf("clocks %s / %s, want %s / %s", w, b, tc.white, tc.black)
			}
			if e, ok := h.last(match.KindGameStart); !ok || !strings.Contains(string(e.Payload), "4k3") || e.Role != "arbiter" {
				t.Errorf("the game.start event %s (%s) does not carry the FEN", e.Payload, e.Role)
			}
			if h.c.win.Canvas().Overlays().Top() != nil {
				t.Error("the dialog stays open")
			}
			h.ft.advance(time.Second)
			h.typeMove("Kd6")
			if h.ply() != 1 {
				t.Errorf("Black's first move from the position was not recorded: %q", h.c.moveErr.Text)
			}
		})
	}
}

// shownDialogTexts are the texts of the labels shown (not hidden) in the
// topmost dialog.
func shownDialogTexts(t *testing.T, c *console) string {
	t.Helper()
	top := c.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog is open")
	}
	var b strings.Builder
	walkShown(top, fyne.Position{}, func(o fyne.CanvasObject, _ fyne.Position) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	})
	return b.String()
}

// A refusal in a form speaks of what was given: once the field is
// corrected it is no longer shown (it stood under the corrected FEN, saying
// the FEN was wrong, until the form was given again), and the form given
// again says what is wrong now, if anything.
func TestARefusalInAFormGoesOnceAFieldIsChanged(t *testing.T) {
	const good = "8/8/4k3/8/8/4K3/4P3/8 b - - 0 60"
	for _, tc := range []struct {
		name    string
		field   int    // the field corrected: 0 the FEN, 1 White's clock
		typed   string // what is typed into it after the refusal
		refusal string // the refusal first shown
	}{
		{"a FEN refused is no longer shown once the FEN is corrected", 0, good, "The FEN"},
		{"a FEN refused is no longer shown once a character of it is typed", 0, "", "The FEN"},
		{"a clock reading refused is no longer shown once the reading is corrected", 1, "0:10:00", "is not a clock reading"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("40/2400:1800", "")
			h.c.do(actStartFrom)
			es := topEntries(t, h.c)
			fen, white := "not a fen", ""
			if tc.field == 1 {
				fen, white = good, "1:5"
			}
			test.Type(es[0], fen)
			test.Type(es[1], white)
			h.key(fyne.KeyReturn)
			if got := shownDialogTexts(t, h.c); !strings.Contains(got, tc.refusal) {
				t.Fatalf("the dialog shows %q, want the refusal %q", got, tc.refusal)
			}
			if tc.typed == "" {
				test.Type(es[tc.field], "0") // one key in the field
			} else {
				es[tc.field].SetText("")
				test.Type(es[tc.field], tc.typed)
			}
			if got := shownDialogTexts(t, h.c); strings.Contains(got, tc.refusal) {
				t.Errorf("after the field was changed the dialog still shows the refusal: %q", got)
			}
			if tc.typed == "" {
				return
			}
			h.key(fyne.KeyReturn)
			if g := h.game(); g == nil || g.State != match.Running {
				t.Fatalf("the corrected form started no game (%q)", topDialogTexts(h.c))
			}
		})
	}
}
