package gui

import (
	"testing"

	"arbiter/match"
)

// TestBackgroundWorkRedrawsOnlyOnNewEvents: the 2 s poll and the 3 s
// heartbeat run while a clock runs; a redraw of the whole console on each
// would cost CPU for nothing.
func TestBackgroundWorkRedrawsOnlyOnNewEvents(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	refreshes := 0
	h.c.onRefresh = func() { refreshes++ }
	before := refreshes
	t.Run("a poll that finds no new event redraws nothing", func(t *testing.T) {
		for range 3 {
			if err := h.core.Refresh(h.ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := refreshes - before; n != 0 {
			t.Errorf("%d redraws after 3 polls with no new event, want 0", n)
		}
	})
	t.Run("a heartbeat redraws nothing", func(t *testing.T) {
		before := refreshes
		if err := h.core.Beat(h.ctx, h.ft.Now()); err != nil {
			t.Fatal(err)
		}
		if n := refreshes - before; n != 0 {
			t.Errorf("%d redraws after a heartbeat, want 0", n)
		}
	})
	t.Run("a poll that finds an event written by another process redraws once", func(t *testing.T) {
		other := h.otherApp(t)
		if _, err := other.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, match.Pause{Reason: "lights"}); err != nil {
			t.Fatal(err)
		}
		before := refreshes
		if err := h.core.Refresh(h.ctx); err != nil {
			t.Fatal(err)
		}
		if n := refreshes - before; n != 1 {
			t.Errorf("%d redraws after a poll found one event, want 1", n)
		}
		if g := h.game(); g.State != match.Paused {
			t.Errorf("the console shows the game %s, want paused", g.State)
		}
	})
}
