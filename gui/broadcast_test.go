package gui

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/match"
)

// afterE4 is a console with a game in progress after 1. e4.
func afterE4(t *testing.T) *harness {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(3 * time.Second)
	h.typeMove("e4")
	return h
}

func TestViewBroadcastServesTheMatchReadOnlyAndStops(t *testing.T) {
	h := afterE4(t)
	before := h.eventCount()
	h.c.do(actBroadcast)
	h.submitPath("127.0.0.1:0")
	broadcastMu.Lock()
	live := broadcasts[h.c]
	broadcastMu.Unlock()
	if live == nil {
		t.Fatalf("View → Broadcast started nothing: %s", topDialogTexts(h.c))
	}
	t.Cleanup(h.c.stopBroadcast)
	if d := live.srv.Delay(); d != 0 {
		t.Errorf("the address and Enter started a broadcast delayed by %s", d)
	}
	t.Run("the feed serves the game in progress", func(t *testing.T) {
		res, err := http.Get("http://" + live.addr + "/games.pgn")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b), "1. e4") || !strings.Contains(string(b), `[Result "*"]`) {
			t.Errorf("GET /games.pgn: %d\n%s", res.StatusCode, b)
		}
	})
	t.Run("the console says where it broadcasts", func(t *testing.T) {
		if !strings.Contains(topDialogTexts(h.c), live.addr) {
			t.Errorf("dialog: %s", topDialogTexts(h.c))
		}
	})
	t.Run("a bad address is refused in one sentence and starts nothing", func(t *testing.T) {
		h.c.stopBroadcast()
		h.c.do(actBroadcast)
		h.submitPath(":8080")
		broadcastMu.Lock()
		defer broadcastMu.Unlock()
		if broadcasts[h.c] != nil || !strings.Contains(topDialogTexts(h.c), "is not an address to listen on") {
			t.Errorf("dialog: %s", topDialogTexts(h.c))
		}
	})
	if h.eventCount() != before {
		t.Errorf("broadcasting wrote %d events", h.eventCount()-before)
	}
}

// dialogEntries are the fields of the topmost dialog, in order.
func dialogEntries(c *console) []*formEntry {
	var out []*formEntry
	for _, o := range test.LaidOutObjects(c.win.Canvas().Overlays().Top()) {
		if e, ok := o.(*formEntry); ok {
			out = append(out, e)
		}
	}
	return out
}

func TestViewBroadcastAsksForTheDelayBesideTheAddress(t *testing.T) {
	h := afterE4(t)
	start := func(addr, delay string) {
		h.c.do(actBroadcast)
		fields := dialogEntries(h.c)
		if len(fields) != 2 || fields[0].Text != "127.0.0.1:8080" || fields[1].Text != "0" {
			t.Fatalf("the dialog asks for %d fields, not the address and the delay (0)", len(fields))
		}
		fields[0].SetText(addr)
		fields[1].SetText(delay)
		h.c.win.Canvas().Focus(fields[0])
		h.key(fyne.KeyReturn)
	}
	t.Run("a delay that is no duration is refused in one sentence and starts nothing", func(t *testing.T) {
		start("127.0.0.1:0", "soon")
		broadcastMu.Lock()
		defer broadcastMu.Unlock()
		if broadcasts[h.c] != nil || !strings.Contains(topDialogTexts(h.c), "is not a delay") {
			t.Errorf("dialog: %s", topDialogTexts(h.c))
		}
	})
	t.Run("with a delay the feed shows the match as it stood that long ago", func(t *testing.T) {
		h.c.win.Canvas().Overlays().Top().Hide()
		h.c.win.Canvas().Overlays().Remove(h.c.win.Canvas().Overlays().Top())
		start("127.0.0.1:0", "15m")
		broadcastMu.Lock()
		live := broadcasts[h.c]
		broadcastMu.Unlock()
		if live == nil {
			t.Fatalf("nothing started: %s", topDialogTexts(h.c))
		}
		defer h.c.stopBroadcast()
		if live.srv.Delay() != 15*time.Minute || !strings.Contains(topDialogTexts(h.c), "as it stood 15m0s ago") {
			t.Errorf("delay %s; dialog: %s", live.srv.Delay(), topDialogTexts(h.c))
		}
		pgn := func() string {
			res, err := http.Get("http://" + live.addr + "/games.pgn")
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return string(b)
		}
		if got := pgn(); strings.Contains(got, "e4") {
			t.Errorf("a move of a moment ago is on a feed delayed by 15 minutes:\n%s", got)
		}
		updated := live.srv.Updated()
		h.ft.advance(15 * time.Minute)
		deadline := time.After(10 * time.Second)
		for !strings.Contains(pgn(), "1. e4") {
			select {
			case <-updated:
			case <-deadline:
				t.Fatalf("15 minutes later the feed still lacks 1. e4:\n%s", pgn())
			}
		}
	})
}
