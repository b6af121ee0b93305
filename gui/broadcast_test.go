package gui

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"arbiter/match"
)

func TestViewBroadcastServesTheMatchReadOnlyAndStops(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(3 * time.Second)
	h.typeMove("e4")
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
