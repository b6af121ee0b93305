package gui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/match"
)

const modesPIN = "arbiter passphrase"

// protectedGame is the 1996 match protected by modesPIN (Kasparov White,
// the human; Deep Blue Black, the computer), game 1 started, at a console
// in arbiter mode that was given the PIN: arbiter mode unlocked.
func protectedGame(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", modesPIN)
	h.c.pin, h.c.hallPIN, h.c.mode = modesPIN, modesPIN, match.RoleArbiter
	h.c.refresh()
	h.c.do(actStartGame)
	if g := h.game(); g == nil || !g.Live() {
		t.Fatalf("the game did not start: %q", refusalShown(h.c))
	}
	return h
}

// pinAsked reports whether the console's topmost dialog asks for the PIN.
func pinAsked(c *console) bool {
	e, ok := c.win.Canvas().Focused().(*formEntry)
	return ok && e.Password && c.win.Canvas().Overlays().Top() != nil
}

// givePIN types pin into the open PIN prompt and confirms it.
func givePIN(t *testing.T, c *console, pin string) {
	t.Helper()
	e, ok := c.win.Canvas().Focused().(*formEntry)
	if !ok || !e.Password {
		t.Fatal("no PIN field has the focus")
	}
	test.Type(e, pin)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
}

// movesBy are the roles the record names for the game's moves, in order.
func movesBy(h *harness) []string {
	var roles []string
	for _, e := range h.events() {
		if e.Kind == match.KindMove {
			roles = append(roles, e.Role)
		}
	}
	return roles
}

// One console for both sides (issue 27): once the PIN was given, arbiter
// mode stays unlocked, so one person entering both sides — the operator's
// moves in operator mode, the human's in arbiter mode — is asked for the
// PIN not once in 15 moves each (before: at every switch back to arbiter
// mode, about 15 prompts); in operator mode itself the human's moves need
// arbiter mode and are the arbiter's, the computer's are the operator's.
func TestOneConsoleForBothSidesAsksForThePINOnceNotAtEverySwitch(t *testing.T) {
	for _, tc := range []struct {
		name   string
		toggle bool // Ctrl+M before each move: arbiter mode for Kasparov, operator mode for Deep Blue
	}{
		{"switching modes for each side", true},
		{"staying in operator mode, the human's moves lent arbiter mode", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := protectedGame(t)
			if !tc.toggle {
				h.c.do(actArbiterMode)
			}
			prompts := 0
			moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
			for i := 0; i < 30; i++ {
				human := i%2 == 0
				if tc.toggle && (h.c.mode == match.RoleArbiter) != human {
					h.c.do(actArbiterMode)
				}
				if pinAsked(h.c) {
					prompts++
					givePIN(t, h.c, modesPIN)
				}
				h.ft.advance(5 * time.Second)
				h.typeMove(moves[i%4])
				if pinAsked(h.c) {
					prompts++
					givePIN(t, h.c, modesPIN)
				}
			}
			if prompts != 0 {
				t.Errorf("the PIN was asked %d times for 15 moves of each side, want never", prompts)
			}
			roles := movesBy(h)
			if len(roles) != 30 {
				t.Fatalf("%d moves recorded, want 30 (%q)", len(roles), h.c.moveErr.Text)
			}
			for i, r := range roles {
				want := "arbiter"
				if i%2 == 1 {
					want = "operator"
				}
				if r != want {
					t.Fatalf("move %d recorded as %s, want %s (all: %v)", i+1, r, want, roles)
				}
			}
		})
	}
}

// Ctrl+Shift+L locks arbiter mode: the console goes to operator mode, and
// arbiter mode asks for the PIN again.
func TestTheArbiterLocksArbiterModeWithCtrlShiftL(t *testing.T) {
	h := protectedGame(t)
	h.c.win.Canvas().(fyne.Shortcutable).TypedShortcut(shortcuts[actLock])
	if h.c.mode != match.RoleOperator || h.c.unlocked() {
		t.Fatalf("after Ctrl+Shift+L: %s mode, unlocked %v; want operator mode, locked", h.c.mode, h.c.unlocked())
	}
	if !strings.Contains(h.c.where.Text, "OPERATOR mode") || strings.Contains(h.c.where.Text, "unlocked") {
		t.Errorf("the status line says %q", h.c.where.Text)
	}
	h.c.do(actArbiterMode)
	if !pinAsked(h.c) {
		t.Fatal("Ctrl+M after locking does not ask for the PIN")
	}
	givePIN(t, h.c, modesPIN)
	if h.c.mode != match.RoleArbiter {
		t.Fatalf("the PIN gave %s mode", h.c.mode)
	}
	h.c.do(actArbiterMode) // to operator mode: arbiter mode stays unlocked
	if !strings.Contains(h.c.where.Text, "arbiter unlocked") {
		t.Errorf("the status line in operator mode, arbiter mode unlocked, says %q", h.c.where.Text)
	}
}

// Arbiter mode locks itself after a period without input that the arbiter
// chooses (Arbiter → Lock arbiter mode after…; default 10 minutes); any
// input starts the period again.
func TestArbiterModeLocksItselfAfterThePeriodWithoutInputHeChooses(t *testing.T) {
	t.Run("10 minutes by default, counted from the last input", func(t *testing.T) {
		h := protectedGame(t)
		h.ft.advance(9 * time.Minute)
		h.key(fyne.KeyF5) // any key is input
		h.ft.advance(9 * time.Minute)
		if h.c.mode != match.RoleArbiter || !h.c.unlocked() {
			t.Fatalf("locked within 10 minutes of the last input: %s mode", h.c.mode)
		}
		h.ft.advance(61 * time.Second)
		if h.c.mode != match.RoleOperator || h.c.unlocked() {
			t.Fatalf("after 10 minutes without input: %s mode, unlocked %v; want locked", h.c.mode, h.c.unlocked())
		}
		h.c.do(actArbiterMode)
		if !pinAsked(h.c) {
			t.Error("arbiter mode after the lock does not ask for the PIN")
		}
	})
	t.Run("the period chosen is kept and applies", func(t *testing.T) {
		h := protectedGame(t)
		h.c.do(actLockAfter)
		r := topRadio(t, h.c)
		if r.Selected != "10 minutes" {
			t.Errorf("the dialog offers %q first, want 10 minutes", r.Selected)
		}
		r.SetSelected("2 minutes")
		h.key(fyne.KeyReturn)
		if got := h.c.fa.Preferences().Int("lockAfterMinutes"); got != 2 {
			t.Errorf("the preference holds %d minutes, want 2", got)
		}
		h.ft.advance(time.Minute + 50*time.Second)
		if !h.c.unlocked() {
			t.Fatal("locked before 2 minutes without input")
		}
		h.ft.advance(15 * time.Second)
		if h.c.unlocked() || h.c.mode != match.RoleOperator {
			t.Errorf("after 2 minutes without input: %s mode, unlocked %v", h.c.mode, h.c.unlocked())
		}
	})
}

// Operator mode acts only as the operator (issue 27): with arbiter mode
// locked, a console that still holds the PIN the arbiter gave for the
// operator's commands asks for the PIN before a human's action — a press,
// a draw answer, a resignation — and records it as the arbiter's (the
// human's draw offer and answer as his own, authorised by that PIN); before,
// it declined a draw for the human without asking. The press keeps the
// instant of the key.
func TestOperatorModeActsOnlyAsTheOperator(t *testing.T) {
	h := protectedGame(t)
	h.c.do(actLock)
	h.c.do(actDrawOffer) // operator mode: Deep Blue's offer, the operator's
	if e, _ := h.last(match.KindDrawOffer); e.Role != "operator" {
		t.Fatalf("the offer in operator mode is recorded as %q, want the operator's (%q)", e.Role, refusalShown(h.c))
	}
	n := len(h.events())
	h.c.do(actDrawDecline) // Kasparov's answer
	if !pinAsked(h.c) || len(h.events()) != n {
		t.Fatalf("operator mode declined for the human without asking (PIN asked %v, %d events written)", pinAsked(h.c), len(h.events())-n)
	}
	givePIN(t, h.c, modesPIN)
	if e, _ := h.last(match.KindDrawDecline); e.Seq <= int64(n) || e.Role != "white" {
		t.Fatalf("the decline is recorded as %q (event %d), want Kasparov's (white), authorised by the arbiter's PIN", e.Role, e.Seq)
	}
	if h.c.mode != match.RoleOperator {
		t.Errorf("after the human's answer the console is in %s mode, want operator mode", h.c.mode)
	}

	h.c.do(actLock)
	h.c.win.Canvas().Unfocus()
	pressed := h.ft.Now()
	h.key(defaultKeyLeft) // Kasparov's clock: his press needs arbiter mode
	if !pinAsked(h.c) {
		t.Fatal("the human's press in operator mode, arbiter mode locked, asks for no PIN")
	}
	h.ft.advance(3 * time.Second) // the PIN is typed
	givePIN(t, h.c, modesPIN)
	e, _ := h.last(match.KindPress)
	if e.Role != "arbiter" || !e.At.Equal(pressed) {
		t.Fatalf("the press is recorded as %q at %v, want the arbiter's at the key's instant %v", e.Role, e.At, pressed)
	}
}

// A wrong PIN typed at a console in operator mode (the operator's console)
// is recorded as tried by the operator against the arbiter's credential
// (issue 27; before, as an attempt by the arbiter).
func TestAWrongPINAtTheOperatorsConsoleIsTriedByTheOperator(t *testing.T) {
	h := protectedGame(t)
	h.c.do(actLock)
	h.c.do(actArbiterMode)
	givePIN(t, h.c, "not the passphrase")
	e, ok := h.last(match.KindAuthFail)
	if !ok {
		t.Fatal("the wrong PIN was not recorded")
	}
	var p match.AuthFailPayload
	if json.Unmarshal(e.Payload, &p) != nil || p.Credential != "arbiter" {
		t.Errorf("auth.fail payload %s, want the arbiter's credential", e.Payload)
	}
	if m := h.core.State().Match; e.Role != "operator" || e.Actor != m.Operators[0] {
		t.Errorf("the attempt is recorded as %s (%s), want the operator (%s)", e.Role, e.Actor, m.Operators[0])
	}
}

// Actions a role cannot take now are disabled, with the reason as the
// button's tip (issue 27): before, the red Stop clocks button stayed
// enabled in operator mode on the computer's turn, where the core always
// refuses it (rule 7).
func TestActionsARoleCannotTakeNowAreDisabledWithTheReason(t *testing.T) {
	tipOf := func(h *harness, id actionID) string {
		b := h.c.buttons[id]
		b.MouseIn(nil)
		defer b.MouseOut()
		return h.c.bar.tipShown()
	}
	computersTurn := func(h *harness) {
		h.c.win.Canvas().Unfocus()
		h.key(defaultKeyLeft)
		h.typeMove("e4")
		h.ft.advance(2 * time.Second)
	}
	for _, tc := range []struct {
		name   string
		mode   match.Role
		before func(h *harness)
		id     actionID
		tip    string // "" : enabled
	}{
		{"operator mode, the computer's turn: the call is refused by rule 7", match.RoleOperator, computersTurn, actCallArbiter, "Rule 7: the computer's clock must keep running on its turn"},
		{"operator mode, the human's turn: the operator may call the arbiter", match.RoleOperator, nil, actCallArbiter, ""},
		{"arbiter mode, the computer's turn: the call is the human's", match.RoleArbiter, computersTurn, actCallArbiter, ""},
		{"the clock that does not run cannot be pressed", match.RoleArbiter, nil, actPressRight, "Black's clock is not running"},
		{"the running clock can be pressed", match.RoleArbiter, nil, actPressLeft, ""},
		{"the running clock cannot be pressed while the other side's press waits for its move", match.RoleArbiter, func(h *harness) {
			h.c.win.Canvas().Unfocus()
			h.key(defaultKeyLeft) // White pressed; the move is not entered yet
		}, actPressRight, "White already pressed: enter that move first"},
		{"resume while a clock runs", match.RoleArbiter, nil, actResume, "A clock is already running"},
		{"start a game while one is in progress", match.RoleArbiter, nil, actStartGame, "Game 1 is in progress"},
		{"stopped clocks cannot be stopped again", match.RoleArbiter, func(h *harness) { h.c.do(actCallArbiter) }, actPause, "already stopped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := rolesGame(t, tc.mode)
			if tc.before != nil {
				tc.before(h)
			}
			h.c.refresh()
			b := h.c.buttons[tc.id]
			if disabled := b.Disabled(); disabled != (tc.tip != "") {
				t.Fatalf("%q disabled: %v, want %v", b.Text, disabled, tc.tip != "")
			}
			if got := tipOf(h, tc.id); !strings.Contains(got, tc.tip) || (tc.tip == "" && got != "") {
				t.Errorf("the tip of %q says %q, want %q", b.Text, got, tc.tip)
			}
		})
	}
	t.Run("the tip is said in German", func(t *testing.T) {
		inGerman(t)
		h := rolesGame(t, match.RoleOperator)
		computersTurn(h)
		h.c.refresh()
		if got := tipOf(h, actCallArbiter); !strings.Contains(got, "Regel 7") {
			t.Errorf("the German tip says %q", got)
		}
	})
	t.Run("the tip draws above the button inside the window and hides when the pointer leaves", func(t *testing.T) {
		h := rolesGame(t, match.RoleOperator)
		computersTurn(h)
		h.c.refresh()
		b := h.c.buttons[actCallArbiter]
		b.MouseIn(nil)
		tip := h.c.bar.tip.obj
		abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.c.bar)
		if !tip.Visible() || tip.Position().Y >= 0 || abs.Y+tip.Position().Y < 0 || tip.Position().X+tip.Size().Width > h.c.bar.Size().Width {
			t.Errorf("the tip stands at %v (%v) in a bar of %v at %v", tip.Position(), tip.Size(), h.c.bar.Size(), abs)
		}
		b.MouseOut()
		if h.c.bar.tipShown() != "" {
			t.Error("the tip stays after the pointer left")
		}
	})
}
