package gui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
	"arbiter/store"
)

// topRadio is the first radio group of the topmost dialog.
func topRadio(t *testing.T, c *console) *widget.RadioGroup {
	t.Helper()
	top := c.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog is open")
	}
	for _, o := range test.LaidOutObjects(top) {
		if r, ok := o.(*widget.RadioGroup); ok {
			return r
		}
	}
	t.Fatal("the dialog has no choice of cause")
	return nil
}

// On the computer's turn a technical fault is never a cause of the
// arbiter's stop (rule 7): the dialog offers it disabled, saying why, and
// it cannot be chosen (issue 27: before, it was offered and always
// refused).
func TestTheFaultCauseIsDisabledOnTheComputersTurnWithRule7AsTheReason(t *testing.T) {
	for _, tc := range []struct {
		name     string
		computer bool // the computer's turn
	}{
		{"on the human's turn a fault may be chosen", false},
		{"on the computer's turn the fault is disabled, citing rule 7", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := rolesGame(t, match.RoleArbiter)
			if tc.computer {
				h.c.win.Canvas().Unfocus()
				h.key(defaultKeyLeft)
				h.typeMove("e4")
				h.ft.advance(2 * time.Second)
			}
			h.c.win.Canvas().Unfocus()
			h.key(defaultKeyStop)
			r := topRadio(t, h.c)
			offered := slices.Contains(r.Options, causeLabel(match.CauseFault))
			texts := topDialogTexts(h.c)
			var disabled []string
			for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
				if d, ok := o.(*widget.RadioGroup); ok && d.Disabled() {
					disabled = append(disabled, d.Options...)
				}
			}
			if offered == tc.computer {
				t.Errorf("the fault among the choices: %v, want %v", offered, !tc.computer)
			}
			if barred := slices.Contains(disabled, causeLabel(match.CauseFault)); barred != tc.computer {
				t.Errorf("the fault shown disabled: %v, want %v", barred, tc.computer)
			}
			if tc.computer && !strings.Contains(texts, "Rule 7: during a technical fault the computer's clock keeps running") {
				t.Errorf("the dialog does not say why: %q", texts)
			}
			h.key(fyne.KeyEscape)
		})
	}
}

// pauseCause is the cause a pause event records.
func pauseCause(t *testing.T, e store.Event) string {
	t.Helper()
	var p match.SidePayload
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		t.Fatal(err)
	}
	return p.Cause
}

// The arbiter's own stop of the clocks (6.12a) asks for the cause; the
// clocks stop at the instant of the key; a fault on the computer's turn is
// refused by the core with rule 7 cited, and the dialog says so (issue 13).
func TestTheArbitersStopAsksForTheCause(t *testing.T) {
	whiteMoves := func(h *harness) {
		h.c.win.Canvas().Unfocus()
		h.key(defaultKeyLeft)
		h.typeMove("e4")
		h.ft.advance(2 * time.Second)
	}
	cases := []struct {
		name     string
		before   func(h *harness)
		cause    string // the cause chosen ("" keeps the default)
		key      fyne.KeyName
		want     string // the cause recorded, "" for nothing recorded
		shown    string // part of the dialog's text after Enter
		stayOpen bool
	}{
		{"6.12a: F9 then Enter stops the clocks for the default cause other", nil, "", fyne.KeyReturn, match.CauseOther, "", false},
		{"6.12a: a fault on the human's turn stops the clocks", nil, match.CauseFault, fyne.KeyReturn, match.CauseFault, "", false},
		{"rule 7: a power failure stops the computer's clock too", whiteMoves, match.CausePowerFailure, fyne.KeyReturn, match.CausePowerFailure, "", false},
		{"6.12a: Esc cancels and the clocks keep running", nil, match.CauseUnplayable, fyne.KeyEscape, "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := rolesGame(t, match.RoleArbiter)
			if tc.before != nil {
				tc.before(h)
			}
			n := len(h.events())
			bytes := h.dbBytes()
			h.c.win.Canvas().Unfocus()
			h.key(defaultKeyStop)
			pressed := h.ft.Now()
			if got := topDialogTexts(h.c); !strings.Contains(got, "the instant you asked") {
				t.Fatalf("F9 asks nothing: %q", got)
			}
			r := topRadio(t, h.c)
			if r.Selected != causeLabel(match.CauseOther) {
				t.Errorf("the cause %q is chosen at first, want other", r.Selected)
			}
			if tc.cause != "" {
				r.SetSelected(causeLabel(tc.cause))
			}
			h.ft.advance(4 * time.Second) // the arbiter chooses: the instant stays the key's
			h.key(tc.key)
			if tc.want == "" {
				if len(h.events()) != n || h.dbBytes() != bytes {
					t.Fatal("nothing may be recorded")
				}
				if g := h.game(); g.State != match.Running {
					t.Errorf("the game is %s, want running", g.State)
				}
				open := h.c.win.Canvas().Overlays().Top() != nil
				if open != tc.stayOpen {
					t.Errorf("dialog open %v, want %v", open, tc.stayOpen)
				}
				if got := topDialogTexts(h.c); !strings.Contains(got, tc.shown) {
					t.Errorf("the dialog shows %q, want %q", got, tc.shown)
				}
				return
			}
			e, ok := h.last(match.KindPause)
			if !ok || e.Seq <= int64(n) {
				t.Fatalf("no pause was recorded (%q)", topDialogTexts(h.c))
			}
			if e.Role != "arbiter" || pauseCause(t, e) != tc.want {
				t.Errorf("the pause is recorded as %s for %q, want arbiter for %q", e.Role, pauseCause(t, e), tc.want)
			}
			if !e.At.Equal(pressed) {
				t.Errorf("the clocks stopped at %s, want the key's instant %s", e.At, pressed)
			}
			if g := h.game(); g.State != match.Paused || g.Paused.Cause != tc.want {
				t.Errorf("the game is %s (cause %q)", g.State, g.Paused.Cause)
			}
			if h.c.win.Canvas().Overlays().Top() != nil {
				t.Error("the dialog stays open after the clocks stopped")
			}
		})
	}
}

// The rule 10 / 6.13 dialog stops the clocks for the cause "correction":
// accepted on the computer's turn too, where a fault would be refused
// (rule 7). The incident log (and so the PDF and the PGN) says the clocks
// were stopped for a position correction, in English and German; it said
// "the game cannot be played" (the cause "unplayable"), which an appeals
// board would read as another incident.
func TestTheCorrectionDialogsPauseGivesItsCause(t *testing.T) {
	for _, tc := range []struct{ language, want string }{
		{"en", "cause: position correction (rule 10 / 6.13)."},
		{"de", "Ursache: Stellungskorrektur (Regel 10 / 6.13)."},
	} {
		t.Run(tc.language, func(t *testing.T) {
			if tc.language == "de" {
				inGerman(t)
			}
			theCorrectionDialogsPauseGivesItsCause(t, tc.want)
		})
	}
}

func theCorrectionDialogsPauseGivesItsCause(t *testing.T, want string) {
	h := rolesGame(t, match.RoleArbiter)
	h.c.win.Canvas().Unfocus()
	h.key(defaultKeyLeft)
	h.typeMove("e4") // Deep Blue to move
	h.ft.advance(2 * time.Second)
	h.c.do(actCorrect)
	e, ok := h.last(match.KindPause)
	if !ok {
		t.Fatalf("the dialog did not stop the clocks (%q)", refusalShown(h.c))
	}
	if got := pauseCause(t, e); got != match.CauseCorrection || e.Role != "arbiter" {
		t.Errorf("the pause is %s's for %q, want the arbiter's for correction", e.Role, got)
	}
	if got := strings.Join(logRows(h.c.state().Match, h.game()), "\n"); !strings.Contains(got, want) {
		t.Errorf("the log does not say %q:\n%s", want, got)
	}
}

// The German console asks for the cause in German, says why a fault is no
// cause on the computer's turn (rule 7) in German, and shows a pause's
// cause in the log in German.
func TestTheCauseOfAPauseIsSaidInGerman(t *testing.T) {
	inGerman(t)
	h := rolesGame(t, match.RoleArbiter)
	h.c.win.Canvas().Unfocus()
	h.key(defaultKeyLeft)
	h.typeMove("e4") // Deep Blue to move
	h.c.win.Canvas().Unfocus()
	h.key(defaultKeyStop)
	r := topRadio(t, h.c)
	if got := strings.Join(r.Options, " | "); got != "Stromausfall (Regel 7) | die Partie kann nicht gespielt werden | anderer Grund" {
		t.Errorf("the causes are offered as %q", got)
	}
	if got := topDialogTexts(h.c); !strings.Contains(got, "Regel 7: Bei einer technischen Störung") {
		t.Errorf("why a fault is no cause is not said in German: %q", got)
	}
	r.SetSelected(r.Options[0])
	h.key(fyne.KeyReturn)
	if got := strings.Join(logRows(h.c.state().Match, h.game()), "\n"); !strings.Contains(got, "Ursache: Stromausfall (Regel 7). vom Schiedsrichter angehalten") {
		t.Errorf("the log does not say the cause in German:\n%s", got)
	}
}
