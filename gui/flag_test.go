package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"arbiter/match"
)

// A fallen flag is said with its exact instant in the status line and on the
// clock, and offered for recording; a move after it asks the arbiter first;
// every action that ends a game asks, and Enter confirms (issue 14, 6.8, 6.9).
func TestAFallenFlagIsSaidAndAsksTheArbiterFirst(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("60", "") // one minute sudden death
	h.c.do(actStartGame)
	h.c.win.Canvas().Unfocus()
	t.Run("the status line says the flag has fallen at its exact instant", func(t *testing.T) {
		h.ft.advance(time.Minute - time.Millisecond)
		if strings.Contains(h.c.notice.Text, "flag") || h.c.buttons[actFlagWhite].Visible() {
			t.Fatalf("the flag is said 1 ms early: %q", h.c.notice.Text)
		}
		h.ft.advance(time.Millisecond)
		if want := "White's flag has fallen at 20:01:00.000"; !strings.Contains(h.c.notice.Text, want) {
			t.Errorf("notice = %q, want %q", h.c.notice.Text, want)
		}
		if !strings.Contains(h.c.clocks[0].flag.Text, "FLAG 20:01:00.000") {
			t.Errorf("White's clock shows %q", h.c.clocks[0].flag.Text)
		}
		if b := h.c.buttons[actFlagWhite]; !b.Visible() || h.c.buttons[actFlagBlack].Visible() {
			t.Errorf("the action bar does not offer White's flag (and only it)")
		}
	})
	t.Run("a move after the fallen flag asks the arbiter first", func(t *testing.T) {
		h.ft.advance(2 * time.Second)
		n := len(h.events())
		h.typeMove("e4")
		if len(h.events()) != n {
			t.Fatal("the move was recorded without asking")
		}
		if got := topDialogTexts(h.c); !strings.Contains(got, "Record the move e4 anyway?") {
			t.Fatalf("no question: %q", got)
		}
		h.ft.advance(5 * time.Second) // the arbiter thinks: the move keeps its instant
		h.key(fyne.KeyReturn)
		if h.ply() != 1 {
			t.Fatalf("Enter did not record the move (ply %d)", h.ply())
		}
		if used := h.game().Sheet.Entries()[0].Used; used != 62*time.Second {
			t.Errorf("e4 used %s, want 1m2s: the instant it was entered", used)
		}
	})
	t.Run("recording the flag asks first and Enter confirms; the 6.9 verdict is shown", func(t *testing.T) {
		h.c.win.Canvas().Unfocus()
		h.c.do(actFlagWhite)
		if got := topDialogTexts(h.c); !strings.Contains(got, "White's flag fell at 20:01:00.000") || !strings.Contains(got, "6.9") {
			t.Fatalf("the question does not name the instant and 6.9: %q", got)
		}
		if g := h.game(); !g.Live() {
			t.Fatal("the game ended before the arbiter confirmed")
		}
		h.key(fyne.KeyReturn)
		if g := h.game(); g.Result != "0-1" {
			t.Fatalf("result %q after the flag, want 0-1", g.Result)
		}
		if !strings.Contains(topDialogTexts(h.c), "(6.9)") {
			t.Errorf("the verdict is not shown: %q", topDialogTexts(h.c))
		}
		h.key(fyne.KeyReturn)
	})
	t.Run("after the game Stop clocks and Offer draw are disabled", func(t *testing.T) {
		for _, id := range []actionID{actCallArbiter, actDrawOffer, actPause} {
			if !h.c.buttons[id].Disabled() {
				t.Errorf("%s is enabled after the game", id)
			}
		}
	})
}

func TestResigningAsksAndEnterConfirms(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.c.do(actResignBlack)
	if !h.game().Live() {
		t.Fatal("the resignation was recorded without asking")
	}
	h.key(fyne.KeyReturn)
	if g := h.game(); g.Result != "1-0" {
		t.Fatalf("Enter did not confirm the resignation: %q", g.Result)
	}
}

func TestStoppedClocksAreMarked(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.c.win.Canvas().Unfocus()
	h.key(defaultKeyStop)
	h.key(fyne.KeyReturn) // the cause: other, as offered
	for i, cv := range h.c.clocks {
		if cv.frame.StrokeColor != colStopped || !strings.Contains(cv.flag.Text, "clocks stopped") {
			t.Errorf("clock %d is not marked stopped: %q", i, cv.flag.Text)
		}
	}
	if !h.c.buttons[actResume].Visible() || h.c.buttons[actResume].Disabled() {
		t.Error("no Resume button on the bar while the clocks are stopped")
	}
}

// The audience display opens full screen and takes no key for itself: the
// clock keys, the call key and a typed move reach the console (issue 14).
func TestTheAudienceDisplayForwardsTheClockKeys(t *testing.T) {
	h := newPressFirstHarness(t, match.RoleArbiter)
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.c.do(actAudience)
	a := h.c.audience
	if a == nil {
		t.Fatal("no audience window")
	}
	if !a.win.FullScreen() {
		t.Error("the audience display does not open full screen")
	}
	cv := a.win.Canvas()
	key := func(k fyne.KeyName) {
		cv.(interface{ OnTypedKey() func(*fyne.KeyEvent) }).OnTypedKey()(&fyne.KeyEvent{Name: k})
	}
	typ := func(s string) {
		for _, r := range s {
			cv.(interface{ OnTypedRune() func(rune) }).OnTypedRune()(r)
		}
	}
	h.ft.advance(4 * time.Second)
	key(defaultKeyLeft)
	if p := h.game().Pressed; p == nil {
		t.Fatal("F1 in the audience display did not press White's clock")
	}
	if w := a.clocks[0]; w.frame.StrokeColor == colRunning || !strings.Contains(w.flag.Text, "pressed") {
		t.Errorf("the audience display does not show the press: %q", w.flag.Text)
	}
	h.ft.advance(3 * time.Second)
	typ("e4")
	if h.c.moveEntry.Text != "e4" {
		t.Fatalf("the move typed in the audience display is not in the move field: %q", h.c.moveEntry.Text)
	}
	key(fyne.KeyReturn)
	if h.ply() != 1 || h.game().Sheet.Entries()[0].Used != 4*time.Second {
		t.Fatalf("Enter in the audience display did not record e4 at the press (ply %d, %q)", h.ply(), h.c.moveErr.Text)
	}
	h.ft.advance(time.Second)
	key(defaultKeyCall)
	if e, ok := h.last(match.KindPause); !ok || e.Role != "white" {
		t.Errorf("Esc in the audience display did not record Kasparov's call: %+v", e)
	}
	if h.c.audience == nil {
		t.Error("the audience display closed by itself")
	}
}

// A single fallen flag is labelled "flag fell"; "fell first" only once the
// other flag has fallen too, under the flag that fell first.
func TestAFlagIsSaidFirstOnlyWhenBothHaveFallen(t *testing.T) {
	for _, tc := range []struct{ lang, one, first string }{
		{"en", "flag fell", "fell first"},
		{"de", "Fallblättchen gefallen", "zuerst gefallen"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if tc.lang == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("60", "") // one minute sudden death
			h.c.do(actStartGame)
			h.c.win.Canvas().Unfocus()
			h.ft.advance(time.Minute)
			white, black := h.c.clocks[0], h.c.clocks[1]
			t.Run("a single fallen flag says the flag fell", func(t *testing.T) {
				if got := white.notes[0].Text; got != tc.one || !white.notes[0].Visible() {
					t.Errorf("White's note is %q (shown %v), want %q", got, white.notes[0].Visible(), tc.one)
				}
			})
			// White moves anyway (the arbiter confirms); then Black's minute runs out
			h.typeMove("e4")
			h.key(fyne.KeyReturn)
			h.ft.advance(time.Minute)
			t.Run("with both fallen the first says so and the second does not", func(t *testing.T) {
				if got := white.notes[0].Text; got != tc.first {
					t.Errorf("White's note is %q, want %q", got, tc.first)
				}
				if got := black.notes[0].Text; got != "" {
					t.Errorf("Black's note is %q, want none", got)
				}
			})
		})
	}
}
