//go:build !nostation

package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/station"
)

// Nobody records the future at a station's authority either (issue 24: the
// operator's laptop's --at two hours ahead was accepted): a request whose
// instant is later than its first receipt by a record holder plus the round
// trip that holder measured is refused by the authority, whoever sends it,
// and writes nothing; an --at two hours ahead given at the laptop is
// refused there in one sentence. The arbiter's credential records an
// earlier instant at a station as given (not raised), marked late.
func TestAStationsStampLaterThanItsReceiptIsRefused(t *testing.T) {
	const pin = "the arbiter's passphrase"
	dir := t.TempDir()
	first := filepath.Join(dir, "arbiter.db")
	mustArb(t, first, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch+` --pin "`+pin+`"`))
	serveInBackground(t, first, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	began := time.Now().Add(-time.Minute)
	mustArb(t, first, "--pin", pin, "--at", began.UTC().Format(time.RFC3339Nano), "game", "start")
	inv := filepath.Join(dir, "laptop.invite")
	mustArb(t, first, "--pin", pin, "station", "invite", "--role", "operator", "--name", "laptop", "-o", inv)
	laptop := filepath.Join(dir, "laptop.db")
	serveInBackground(t, laptop, "station", "join", inv)
	events := func() int { return len(recordEvents(t, first)) }

	t.Run("the operator's --at two hours ahead is refused at the laptop in one sentence", func(t *testing.T) {
		n := events()
		_, errs, code := arb(t, laptop, "--at", time.Now().Add(2*time.Hour).UTC().Format(time.RFC3339Nano), "move", "e4")
		if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "nobody records an instant that has not yet come") {
			t.Fatalf("exit %d, %q", code, errs)
		}
		if events() != n {
			t.Fatal("the refused command wrote an event")
		}
	})
	t.Run("a request stamped two hours ahead is refused by the authority and writes nothing", func(t *testing.T) {
		n := events()
		rep := submitRaw(t, first, station.Request{ID: "ahead-1", From: "laptop", Role: "operator",
			At: time.Now().Add(2 * time.Hour), AtGiven: true, Command: []byte(`{"kind":"move","input":"e4"}`)})
		if rep.Refusal == nil || rep.Refusal.Code != match.CodeFuture {
			t.Fatalf("the authority answered %+v", rep)
		}
		if events() != n {
			t.Fatal("the refused request wrote an event")
		}
	})
	t.Run("the arbiter's --at half a minute back is recorded as given and marked late", func(t *testing.T) {
		claimed := time.Now().Add(-30 * time.Second)
		mustArb(t, laptop, "--pin", pin, "--at", claimed.UTC().Format(time.RFC3339Nano), "move", "e4")
		evs := recordEvents(t, first)
		e := evs[len(evs)-1]
		if e.Kind != match.KindMove || !e.At.Equal(claimed) || e.Received.Sub(e.At) < 30*time.Second {
			t.Fatalf("the move is recorded at %v, received %v; want %v as given, received 30 s later", e.At, e.Received, claimed)
		}
		var st struct {
			RecordedLate []struct{ Seq int64 } `json:"recorded_late"`
		}
		json.Unmarshal([]byte(mustArb(t, first, "status", "--json")), &st)
		if n := len(st.RecordedLate); n == 0 || st.RecordedLate[n-1].Seq != e.Seq {
			t.Fatalf("status --json recorded_late %+v, want event %d", st.RecordedLate, e.Seq)
		}
	})
}
