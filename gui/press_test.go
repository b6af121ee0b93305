package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"arbiter/clock"
	"arbiter/match"
)

// pressAndType presses the mover's clock with its key, waits, and types the
// move (press first).
func (h *harness) pressAndType(mv string, wait time.Duration) {
	h.t.Helper()
	g := h.game()
	key := h.c.keyLeft
	if h.c.sideAt(1) == g.ToMove() {
		key = h.c.keyRight
	}
	h.key(key)
	h.ft.advance(wait)
	h.typeMove(mv)
}

// Press first is the default (6.7a: the move is complete at the press); a
// move typed afterwards completes the entry without changing the instant.
func TestPressFirstIsTheDefaultForTheOfficialClock(t *testing.T) {
	h := newPressFirstHarness(t, match.RoleArbiter)
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	if h.c.movePresses {
		t.Fatal("a fresh console enters moves typing first; the default must be press first")
	}
	if !strings.Contains(h.c.notice.Text, "completes the move (6.7a)") {
		t.Errorf("the notice does not say how to enter a move press first: %q", h.c.notice.Text)
	}
	if it := h.c.movePressesItem; it == nil || it.Checked || !strings.HasPrefix(it.Label, "Typing first") {
		t.Errorf("the View menu does not offer typing first, labelled, unchecked: %+v", it)
	}
	t.Run("a typed move without a press is refused and nothing is recorded", func(t *testing.T) {
		n := len(h.events())
		h.ft.advance(2 * time.Second)
		h.typeMove("e4")
		if len(h.events()) != n || h.ply() != 0 {
			t.Fatalf("the move was recorded without a press")
		}
		// the side to move and its key, as the notice names them
		if want := "Press first (6.7a): press White's clock (F1 or a click on it) once the move is made, then enter the move."; h.c.moveErr.Text != want {
			t.Errorf("under the move field: %q, want %q", h.c.moveErr.Text, want)
		}
		h.c.moveEntry.SetText("")
	})
	t.Run("a click on the running clock presses it at that instant", func(t *testing.T) {
		test.Tap(h.c.clocks[0].obj.(*tapArea))
		if p := h.game().Pressed; p == nil || *p != clock.White {
			t.Fatalf("the click did not press White's clock")
		}
		h.ft.advance(9 * time.Second)
		h.typeMove("e4")
		if h.ply() != 1 {
			t.Fatalf("e4 after the press not recorded: %q", h.c.moveErr.Text)
		}
		if used := h.game().Sheet.Entries()[0].Used; used != 2*time.Second {
			t.Errorf("e4 used %s, want 2s: the press, not the typing, ends the move", used)
		}
	})
	t.Run("a click on the stopped clock does nothing", func(t *testing.T) {
		test.Tap(h.c.clocks[0].obj.(*tapArea))
		if h.game().Pressed != nil {
			t.Fatal("a click on the stopped clock recorded a press")
		}
	})
	t.Run("a mating move needs no press and is accepted when entered", func(t *testing.T) {
		for _, mv := range []string{"e5", "Qh5", "Nc6", "Bc4", "Nf6"} {
			h.pressAndType(mv, time.Second)
		}
		h.ft.advance(3 * time.Second)
		h.typeMove("Qxf7#")
		if g := h.game(); g.Result != "1-0" {
			t.Fatalf("Qxf7# typed without a press did not end the game: %q (%q)", g.Result, h.c.moveErr.Text)
		}
	})
}

// A move the console itself refuses (no press, no game in progress) is
// selected in the move field, as a move the core refuses is: the next move
// typed replaces it instead of being appended to it ("e4" then "d4" gave
// "e4d4").
func TestAMoveTheConsoleRefusesIsReplacedByTheNextOneTyped(t *testing.T) {
	for _, tc := range []struct {
		name    string
		started bool // the game is in progress
		refusal string
	}{
		{"a move typed before the press is replaced by the next one typed", true, "Press first"},
		{"a move typed before any game is replaced by the next one typed", false, "No game is in progress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newPressFirstHarness(t, match.RoleArbiter)
			h.newMatch("acm1996", "")
			if tc.started {
				h.c.do(actStartGame)
			}
			h.typeMove("e4")
			if !strings.HasPrefix(h.c.moveErr.Text, tc.refusal) {
				t.Fatalf("under the move field: %q, want the refusal %q", h.c.moveErr.Text, tc.refusal)
			}
			test.Type(h.c.moveEntry, "d4")
			if h.c.moveEntry.Text != "d4" {
				t.Errorf("after the refused e4 the next move typed gives %q in the field, want d4", h.c.moveEntry.Text)
			}
		})
	}
}
