//go:build !nostation

package gui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/lang"

	"arbiter/match"
)

// The advice fits the station it is given on (issue 27): on the operator's
// laptop, whose console is in operator mode already, the human's press is
// not the operator's — it is made at the arbiter's console, and the
// laptop says so (before: "switch to operator mode (Ctrl+M)"); its button
// is disabled with that reason as its tip, and so are the arbiter's own
// actions. The computer's press is the operator's, as ever.
func TestTheLaptopSaysTheHumansPressIsMadeAtTheArbitersConsole(t *testing.T) {
	const pin = "correct horse battery"
	h, lc := stationHarness(t, match.RoleArbiter, pin, 0)
	h.c.pin, h.c.hallPIN, h.c.mode = pin, pin, match.RoleArbiter
	h.c.startGame()
	h.wait()
	laptop, laptopRec := joinLaptop(t, h, pin, lc.Now)
	waitHead(t, laptopRec, h.lastEvent().Seq)
	laptop.refresh()
	if laptop.mode != match.RoleOperator {
		t.Fatalf("the laptop's console is in %s mode", laptop.mode)
	}
	white := 0
	if laptop.sideAt(0) != 0 {
		white = 1
	}
	before := h.lastEvent().Seq
	laptop.pressSlot(white) // Kasparov's clock, on the laptop
	h.sent(laptop)
	said := refusalShown(laptop)
	if !strings.Contains(said, "Garry Kasparov's press is given at the arbiter's console") || strings.Contains(said, "Ctrl+M") {
		t.Errorf("the laptop says %q", said)
	}
	if e := h.lastEvent(); e.Seq != before {
		t.Fatalf("the refused press wrote event %d (%s)", e.Seq, e.Kind)
	}
	ids := []actionID{actPressLeft, actPressRight}
	b := laptop.buttons[ids[white]]
	b.MouseIn(nil)
	if tip := laptop.bar.tipShown(); !b.Disabled() || !strings.Contains(tip, "Garry Kasparov's press is given at the arbiter's console") {
		t.Errorf("the laptop's button for Kasparov's clock: disabled %v, tip %q", b.Disabled(), tip)
	}
	b.MouseOut()
	for _, id := range []actionID{actPause, actResume, actStartGame} {
		if b := laptop.buttons[id]; !b.Disabled() || !strings.Contains(b.why, "at the arbiter's console") {
			t.Errorf("the laptop's %q: disabled %v, why %q", b.Text, b.Disabled(), b.why)
		}
	}
	for _, ov := range laptop.win.Canvas().Overlays().List() {
		if slices.Contains(labelTexts(ov), lang.L("Not done")) {
			laptop.win.Canvas().Overlays().Remove(ov) // the refusal read: a later one is its own
		}
	}

	// Kasparov presses at the arbiter's console and moves; Deep Blue's
	// press is the operator's, on the laptop
	lc.Advance(2 * time.Second)
	h.c.pressSlot(h.whiteSlot())
	h.wait()
	h.typeMove("e4")
	h.wait()
	waitHead(t, laptopRec, h.lastEvent().Seq)
	laptop.refresh()
	lc.Advance(2 * time.Second)
	moved := h.lastEvent().Seq
	laptop.pressSlot(1 - white)
	h.sent(laptop)
	if said := refusalShown(laptop); said != "" {
		t.Fatalf("the laptop refuses Deep Blue's press: %q", said)
	}
	// The laptop's send returns once its record holds the press; the
	// authority answered it once the stream held it, and its own record
	// commits it after that (station.Station.beforeCommit): waited for.
	waitHead(t, h.core, moved+1)
	if e := h.lastEvent(); e.Seq != moved+1 || e.Kind != match.KindPress || e.Role != "operator" {
		t.Errorf("Deep Blue's press on the laptop is event %d, %s by %s", e.Seq, e.Kind, e.Role)
	}
}
