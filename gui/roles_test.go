package gui

import (
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/match"
	"arbiter/store"
)

// events reads the record back from the database file.
func (h *harness) events() []store.Event {
	h.t.Helper()
	evs, err := h.core.DB().EventsAfter(h.ctx, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	return evs
}

// last is the newest event of kind in the record ("" for none).
func (h *harness) last(kind string) (store.Event, bool) {
	evs := h.events()
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Kind == kind {
			return evs[i], true
		}
	}
	return store.Event{}, false
}

// dbBytes is the database file as it stands (a refusal leaves it as it was).
func (h *harness) dbBytes() string {
	h.t.Helper()
	b, err := os.ReadFile(h.dbPath)
	if err != nil {
		h.t.Fatal(err)
	}
	wal, _ := os.ReadFile(h.dbPath + "-wal")
	return string(b) + string(wal)
}

// rolesGame opens a console in mode on the 1996 match (Kasparov White,
// Deep Blue Black), game 1 started.
func rolesGame(t *testing.T, mode match.Role) *harness {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	if mode == match.RoleOperator {
		h.c.do(actArbiterMode) // to operator mode, as Ctrl+M does
	}
	if h.c.mode != mode {
		t.Fatalf("console in %s mode, want %s", h.c.mode, mode)
	}
	h.ft.advance(3 * time.Second)
	return h
}

// Every console action goes through the core's permission check as who
// really acts; the record names that actor (issue 14, rule 7, 6.12).
func TestTheConsoleActsAsWhoReallyActs(t *testing.T) {
	type step func(h *harness)
	pressWhite := func(h *harness) { h.c.win.Canvas().Unfocus(); h.key(defaultKeyLeft) }
	whiteMoves := func(h *harness) { pressWhite(h); h.typeMove("e4"); h.ft.advance(2 * time.Second) }
	cases := []struct {
		name    string
		mode    match.Role
		before  step
		do      step
		kind    string // the event the action records ("" refused)
		role    string
		refusal string // part of the one-sentence refusal shown
	}{
		{"operator mode: Esc on the computer's turn is refused (rule 7)", match.RoleOperator, whiteMoves,
			func(h *harness) { h.c.win.Canvas().Unfocus(); h.key(defaultKeyCall) }, "", "", "Rule 7"},
		{"operator mode: Esc on the human's turn is the operator's 6.12b call", match.RoleOperator, nil,
			func(h *harness) { h.c.win.Canvas().Unfocus(); h.key(defaultKeyCall) }, match.KindPause, "operator", ""},
		{"arbiter mode: Esc is the human player's 6.12b call, recorded as him", match.RoleArbiter, whiteMoves,
			func(h *harness) { h.c.win.Canvas().Unfocus(); h.key(defaultKeyCall) }, match.KindPause, "white", ""},
		{"arbiter mode: the arbiter's own stop (6.12a) has its own key", match.RoleArbiter, nil,
			func(h *harness) { h.c.win.Canvas().Unfocus(); h.key(defaultKeyStop); h.key(fyne.KeyReturn) }, match.KindPause, "arbiter", ""},
		{"operator mode acts only as the operator: the human's move needs arbiter mode (lent while unlocked)", match.RoleOperator, nil,
			func(h *harness) { h.typeMove("e4") }, match.KindMove, "arbiter", ""},
		{"operator mode acts only as the operator: the human's press needs arbiter mode (lent while unlocked)", match.RoleOperator, nil,
			pressWhite, match.KindPress, "arbiter", ""},
		{"operator mode acts only as the operator: the move after the human's press needs arbiter mode too", match.RoleOperator, pressWhite,
			func(h *harness) { h.typeMove("e4") }, match.KindMove, "arbiter", ""},
		{"operator mode: the computer's press and move are the operator's", match.RoleOperator, whiteMoves,
			func(h *harness) { h.c.win.Canvas().Unfocus(); h.key(defaultKeyRight); h.typeMove("e5") }, match.KindMove, "operator", ""},
		{"arbiter mode: a move is entered by the arbiter", match.RoleArbiter, pressWhite,
			func(h *harness) { h.typeMove("e4") }, match.KindMove, "arbiter", ""},
		{"arbiter mode: the human's draw offer is recorded as his", match.RoleArbiter, nil,
			func(h *harness) { h.c.do(actOfferWhite) }, match.KindDrawOffer, "white", ""},
		{"arbiter mode: the human's answer to a draw offer is recorded as his", match.RoleArbiter, func(h *harness) { h.c.do(actOfferBlack) },
			func(h *harness) { h.c.do(actDrawDecline) }, match.KindDrawDecline, "white", ""},
		{"arbiter mode: the computer's draw offer is entered by the arbiter", match.RoleArbiter, nil,
			func(h *harness) { h.c.do(actOfferBlack) }, match.KindDrawOffer, "arbiter", ""},
		{"operator mode acts only as the operator: the human's draw offer needs arbiter mode and is recorded as his", match.RoleOperator, nil,
			func(h *harness) { h.c.do(actOfferWhite) }, match.KindDrawOffer, "white", ""},
		{"operator mode: the computer's draw offer is the operator's", match.RoleOperator, nil,
			func(h *harness) { h.c.do(actOfferBlack) }, match.KindDrawOffer, "operator", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := rolesGame(t, tc.mode)
			if tc.before != nil {
				tc.before(h)
			}
			n := len(h.events())
			bytes := h.dbBytes()
			tc.do(h)
			if tc.kind == "" {
				if got := len(h.events()); got != n {
					t.Fatalf("the refused action wrote %d event(s)", got-n)
				}
				if h.dbBytes() != bytes {
					t.Error("the refused action changed the database file")
				}
				shown := refusalShown(h.c) + h.c.moveErr.Text
				if !strings.Contains(shown, tc.refusal) {
					t.Errorf("shown %q, want the core's refusal naming %q", shown, tc.refusal)
				}
				if strings.Count(strings.TrimSuffix(shown, "."), ". ") > 0 {
					t.Errorf("the refusal %q is more than one sentence", shown)
				}
				return
			}
			e, ok := h.last(tc.kind)
			if !ok || e.Seq <= int64(n) {
				t.Fatalf("no %s event was recorded (shown: %q %q)", tc.kind, refusalShown(h.c), h.c.moveErr.Text)
			}
			if e.Role != tc.role {
				t.Errorf("the %s event is recorded as %q, want %q", tc.kind, e.Role, tc.role)
			}
		})
	}
}

// A PIN given for one arbiter action from operator mode, arbiter mode
// locked, lends arbiter mode to that action only (issue 14, point 10); it
// unlocks arbiter mode, which stays unlocked (issue 27): switching back to
// it asks for nothing.
func TestAPINForOneActionLeavesTheConsoleInOperatorMode(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "arbiter passphrase")
	h.c.pin = "arbiter passphrase"
	h.c.hallPIN = "arbiter passphrase" // given at this console (cmdAs)
	h.c.mode = match.RoleArbiter
	h.c.do(actStartGame)
	h.c.do(actLock) // Ctrl+Shift+L: operator mode, arbiter mode locked
	if h.c.mode != match.RoleOperator || h.c.unlocked() {
		t.Fatalf("after locking: %s mode, unlocked %v", h.c.mode, h.c.unlocked())
	}
	h.ft.advance(time.Second)
	h.c.win.Canvas().Unfocus()
	h.key(defaultKeyCall) // Kasparov's turn: the operator's call
	if g := h.game(); g.State != match.Paused {
		t.Fatalf("the call did not stop the clocks: %s (%q)", g.State, refusalShown(h.c))
	}
	h.c.do(actResume)
	pin, ok := h.c.win.Canvas().Focused().(*formEntry)
	if !ok {
		t.Fatal("no PIN field has the focus")
	}
	test.Type(pin, "arbiter passphrase")
	pin.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if g := h.game(); g.State != match.Running {
		t.Fatalf("the PIN did not resume the clocks: %s", g.State)
	}
	if e, _ := h.last(match.KindResume); e.Role != "arbiter" {
		t.Errorf("resume recorded as %q, want arbiter", e.Role)
	}
	if h.c.mode != match.RoleOperator || !h.c.unlocked() {
		t.Errorf("after the action the console is in %s mode (unlocked: %v), want operator mode, arbiter mode unlocked", h.c.mode, h.c.unlocked())
	}
	h.c.do(actArbiterMode)
	if h.c.mode != match.RoleArbiter || len(h.c.dialogs) != 0 {
		t.Errorf("Ctrl+M after the PIN: %s mode, %d dialogs open; want arbiter mode without a question", h.c.mode, len(h.c.dialogs))
	}
}
