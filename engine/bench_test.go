package engine

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/match"
)

// relayTimes collects, from the bridge's trace, when each go line was
// written and how long each command took.
type relayTimes struct {
	mu       sync.Mutex
	goAt     chan time.Time // each go line (not ponder) as written
	bestRead time.Time
	played   []time.Duration // bestmove read → the engine's move committed (--play)
}

func newRelayTimes() *relayTimes { return &relayTimes{goAt: make(chan time.Time, 16)} }

func (rt *relayTimes) trace() *Trace {
	return &Trace{
		Wrote: func(text string, at time.Time) {
			if strings.HasPrefix(text, "go ") && !strings.HasPrefix(text, "go ponder") {
				rt.goAt <- at
			}
		},
		Read: func(text string, at time.Time) {
			if strings.HasPrefix(text, "bestmove ") {
				rt.mu.Lock()
				rt.bestRead = at
				rt.mu.Unlock()
			}
		},
		Gave: func(cmd match.Command, _, to time.Time, err error) {
			if m, ok := cmd.(match.EngineMove); ok && m.Play && err == nil {
				rt.mu.Lock()
				rt.played = append(rt.played, to.Sub(rt.bestRead))
				rt.mu.Unlock()
			}
		},
	}
}

// percentile is the p-th percentile of ds (sorted here).
func percentile(ds []time.Duration, p float64) time.Duration {
	slices.Sort(ds)
	if len(ds) == 0 {
		return 0
	}
	return ds[int(p*float64(len(ds)-1))]
}

// BenchmarkEngineRelayOneMachine measures, on one machine, the human's move
// committed (by another handle on the record, as another process commits
// it) to the bridge's go line written (goal p99 ≤ 5 ms), and the engine's
// bestmove read to its move committed with --play, beside the human's plain
// move command's commit in the same run. Each sample is one move of each
// side: the fake engine and the human shuffle their knights.
func BenchmarkEngineRelayOneMachine(b *testing.B) {
	r := newRig(b, "acm1996", true, "")
	rt := newRelayTimes()
	rec, err := Open(context.Background(), r.path, match.Actor{Role: match.RoleOperator}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, rec, Options{Cmd: fakeCmd("-delay", "1ms", "-prefer", "g1f3,f3g1"), Play: true, Restarts: DefaultRestarts, Trace: rt.trace()})
	}()
	defer func() {
		cancel()
		<-done
		rec.Close()
	}()
	now := func() time.Time { return time.Now().UTC() }
	waitPly := func(ply int) {
		deadline := time.Now().Add(30 * time.Second)
		for {
			if err := r.app.Refresh(r.ctx); err != nil {
				b.Fatal(err)
			}
			if r.app.State().CurrentGame().Sheet.Ply() >= ply {
				return
			}
			if time.Now().After(deadline) {
				b.Fatalf("the engine's move on ply %d did not come", ply)
			}
			time.Sleep(200 * time.Microsecond) // the bridge commits in its goroutine
		}
	}
	<-rt.goAt // the first go (the computer White)
	waitPly(1)
	relay := make([]time.Duration, 0, b.N)
	commit := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mv := []string{"g8f6", "f6g8"}[i%2]
		t0 := time.Now()
		if _, err := r.app.Do(r.ctx, match.Cmd{Now: now, Actor: match.Actor{Role: match.RoleBlack}}, match.Move{Input: mv}); err != nil {
			b.Fatal(err)
		}
		committed := time.Now()
		commit = append(commit, committed.Sub(t0))
		relay = append(relay, (<-rt.goAt).Sub(committed))
		waitPly(2*i + 3)
	}
	b.StopTimer()
	rt.mu.Lock()
	played := slices.Clone(rt.played)
	rt.mu.Unlock()
	b.ReportMetric(float64(percentile(relay, 0.5).Nanoseconds()), "relay-p50-ns")
	b.ReportMetric(float64(percentile(relay, 0.99).Nanoseconds()), "relay-p99-ns")
	b.ReportMetric(float64(percentile(played, 0.5).Nanoseconds()), "play-p50-ns")
	b.ReportMetric(float64(percentile(played, 0.99).Nanoseconds()), "play-p99-ns")
	b.ReportMetric(float64(percentile(commit, 0.5).Nanoseconds()), "commit-p50-ns")
	b.ReportMetric(float64(percentile(commit, 0.99).Nanoseconds()), "commit-p99-ns")
}
