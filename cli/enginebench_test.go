package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/engine"
	"arbiter/match"
	"arbiter/service"
)

// TestEngineRelayAtTheLaptopMeasured is make bench's measure of the bridge
// at an operator's laptop (ARBITER_ENGINE_BENCH=N samples; scripts/bench.sh):
// the human's move given at the arbiter's station, the authority (so its
// commit there, an upper bound of it: that station's own command returns
// only once its polling sees its record hold it), to the bridge's go line
// written at the laptop, beside the
// laptop's own command round trip (the bridge's engine.move with --play,
// given to the authority until this station's record holds it) in the same
// run; goal: relay p99 ≤ 2 × the round trip's p99. The bridge runs in this
// process (its trace has the instants), the stations too.
func TestEngineRelayAtTheLaptopMeasured(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ARBITER_ENGINE_BENCH"))
	if n <= 0 {
		t.Skip("a measure: make bench runs it (ARBITER_ENGINE_BENCH=N)")
	}
	first, laptop := protectedStationAndLaptop(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec, err := engine.Open(ctx, laptop, match.Actor{Role: match.RoleOperator}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	goAt := make(chan time.Time, 16)
	var roundTrips []time.Duration
	trace := &engine.Trace{
		Wrote: func(text string, at time.Time) {
			if strings.HasPrefix(text, "go ") {
				goAt <- at
			}
		},
		Gave: func(cmd match.Command, from, to time.Time, err error) {
			if m, ok := cmd.(match.EngineMove); ok && m.Play && err == nil {
				mu.Lock()
				roundTrips = append(roundTrips, to.Sub(from))
				mu.Unlock()
			}
		},
	}
	done := make(chan error, 1)
	go func() {
		done <- engine.Run(ctx, rec, engine.Options{Cmd: fakeEngine("-delay", "1ms", "-prefer", "g1f3,f3g1"), Play: true, Restarts: engine.DefaultRestarts, Trace: trace})
	}()
	defer func() {
		cancel()
		<-done
		rec.Close()
	}()
	link, err := service.Dial(ctx, first, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	human := service.StationCommand{G: service.Global{DB: first, Role: match.RoleBlack, PIN: signPIN}, RoleGiven: true}
	<-goAt
	waitPly(t, laptop, 1, 30*time.Second)
	relay := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		given := time.Now()
		gctx, gcancel := context.WithTimeout(ctx, 30*time.Second)
		cmd := human
		cmd.Cmd = match.Move{Input: []string{"g8f6", "f6g8"}[i%2]}
		_, err := link.Send(gctx, cmd)
		gcancel()
		if err != nil {
			t.Fatalf("the human's move %d: %v", i, err)
		}
		select {
		case at := <-goAt:
			relay = append(relay, at.Sub(given))
		case <-time.After(30 * time.Second):
			t.Fatalf("no go line after the human's move %d", i)
		}
		waitPly(t, first, 2*i+3, 30*time.Second)
	}
	mu.Lock()
	rts := slices.Clone(roundTrips)
	mu.Unlock()
	pct := func(ds []time.Duration, p float64) int64 {
		slices.Sort(ds)
		return ds[int(p*float64(len(ds)-1))].Nanoseconds()
	}
	line := fmt.Sprintf("engine-laptop samples=%d relay-p50-ns=%d relay-p99-ns=%d roundtrip-p50-ns=%d roundtrip-p99-ns=%d",
		n, pct(relay, 0.5), pct(relay, 0.99), pct(rts, 0.5), pct(rts, 0.99))
	t.Log(line)
	fmt.Println(line)
}
