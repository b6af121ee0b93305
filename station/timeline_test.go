package station

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// stillClock is the hall's time, standing still except when the test moves
// it: every machine's clock is it plus that machine's skew, so a time
// sample's round trip is 0 and every offset is exact.
type stillClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stillClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *stillClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// skewedHolders makes three record holders, arbiter (the first, its clock
// the hall's), appeals (+3 s) and display (-2 s), each keeping its offset
// to the match timeline in a file beside its record.
func skewedHolders(t *testing.T, clk *stillClock) ([]*holder, []string) {
	dir := t.TempDir()
	skews := map[string]time.Duration{"arbiter": 0, "appeals": 3 * time.Second, "display": -2 * time.Second}
	var hs []*holder
	var routes []string
	for _, n := range []string{"arbiter", "appeals", "display"} {
		skew := skews[n]
		h := &holder{name: n, path: filepath.Join(dir, n+".db"), dir: filepath.Join(dir, n+"-js"), port: freePort(t),
			now: func() time.Time { return clk.Now().Add(skew) }, timeline: filepath.Join(dir, n+".db.station", "timeline.json")}
		hs = append(hs, h)
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", h.port))
	}
	newRecord(t, hs[0].path)
	t.Cleanup(func() {
		for _, h := range hs {
			if h.s != nil {
				h.s.Stop()
			}
		}
	})
	return hs, routes
}

// savedOffset is the offset a holder's timeline file holds (ok: there is one).
func savedOffset(t *testing.T, h *holder) (time.Duration, bool) {
	st, ok, err := readTimeline(h.timeline)
	if err != nil {
		t.Fatal(err)
	}
	return time.Duration(st.OffsetNS), ok
}

// offTimeline is how far a station's match timeline is from the arbiter's
// clock, the timeline the match started with.
func offTimeline(s *Station, clk *stillClock) time.Duration { return s.Now().Sub(clk.Now()) }

func TestEveryHolderRestartedContinuesTheMatchTimelineFromItsFile(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster and waits for a claim (about 15 s)")
	}
	clk := &stillClock{t: time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)}
	hs, routes := skewedHolders(t, clk)
	startHolders(t, hs, routes)
	// appeals and display learn the arbiter's timeline and save their
	// offsets to it (-3 s, +2 s).
	for i, want := range []time.Duration{0, -3 * time.Second, 2 * time.Second} {
		h := hs[i]
		waitFor(t, 10*time.Second, h.name+" has not saved its offset to the match timeline", func() bool {
			off, ok := savedOffset(t, h)
			return ok && off == want
		})
	}
	// A power failure: every machine goes down, and the hall's clock moves
	// on. appeals and display come back, the arbiter's machine does not:
	// no record holder that knows the timeline answers, and after 6 s one
	// of them claims authority.
	for _, h := range hs {
		h.s.Stop()
		h.s = nil
	}
	clk.Advance(10 * time.Minute)
	startHoldersN(t, hs[1:], routes, 3)
	for _, h := range hs[1:] {
		if d := offTimeline(h.s, clk); d != 0 {
			t.Errorf("%s restarted: its match timeline is %v off the one it had", h.name, d)
		}
	}
	var auth string
	waitFor(t, 30*time.Second, "no restarted holder claimed authority", func() bool {
		auth, _ = hs[1].s.Replica().Authority()
		return auth == "appeals" || auth == "display"
	})
	for _, h := range hs[1:] {
		if d := offTimeline(h.s, clk); d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("%s: the match timeline jumped by %v when %s claimed after every holder restarted", h.name, d, auth)
		}
	}
}

func TestALiveTimeSampleOverridesTheSavedTimeline(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster")
	}
	clk := &stillClock{t: time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)}
	hs, routes := skewedHolders(t, clk)
	// appeals saved an offset that is wrong now (+5 s; its clock is 3 s
	// ahead of the timeline): the authority's answer wins.
	b := fmt.Sprintf(`{"station":"appeals","offset_ns":%d,"written_ns":%d}`, int64(5*time.Second), clk.Now().UnixNano())
	if err := os.MkdirAll(filepath.Dir(hs[1].timeline), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hs[1].timeline, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	startHolders(t, hs, routes)
	waitFor(t, 10*time.Second, "appeals has no time sample from the authority", func() bool { _, u := hs[1].s.Offset(); return u >= 0 })
	if d := offTimeline(hs[1].s, clk); d != 0 {
		t.Errorf("appeals follows its saved timeline, %v off the authority's", d)
	}
	waitFor(t, 10*time.Second, "appeals did not save the authority's timeline", func() bool {
		off, _ := savedOffset(t, hs[1])
		return off == -3*time.Second
	})
}
