//go:build !nostation

package service

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"arbiter/station"
)

// A link prepares a command on its replica once the replica holds the
// authority's last match event: it waits while the replica catches up,
// however long that takes within a minute, and gives up after 5 s without
// a new event (a stream without a leader), preparing on what it holds.
// While the authority's last match event is not known (the link's first
// time answer on its way, and a station just joined that names no
// authority yet), it waits for it. The clock is a fake one: the replica's
// events arrive as it moves, the target is known when it is told.
func TestALinkWaitsForItsReplicaWhileItCatchesUp(t *testing.T) {
	known := func(seq int64) func(time.Duration) (int64, bool) {
		return func(time.Duration) (int64, bool) { return seq, true }
	}
	knownAfter := func(d time.Duration, seq int64) func(time.Duration) (int64, bool) {
		return func(e time.Duration) (int64, bool) {
			if e < d {
				return 0, false // as the link tells it: nothing heard
			}
			return seq, true
		}
	}
	for _, tc := range []struct {
		name     string
		target   func(elapsed time.Duration) (int64, bool) // the authority's last match event, once known
		arrive   func(elapsed time.Duration) int64         // the replica's last event after elapsed
		wantSeq  int64
		wantTime time.Duration // how long it waited, to the poll
	}{
		{"a replica that holds the event is not waited for", known(96), func(time.Duration) int64 { return 96 }, 96, 0},
		{"a replica a second behind is waited for", known(96), func(e time.Duration) int64 { return min(40+int64(e/(20*time.Millisecond)), 96) }, 96, 1120 * time.Millisecond},
		{"a replica just joined is waited for while it catches up, past 5 s in all", known(96),
			func(e time.Duration) int64 { return min(int64(e/(100*time.Millisecond)), 96) }, 96, 9600 * time.Millisecond},
		{"a replica that stands still is given up after 5 s", known(96), func(time.Duration) int64 { return 40 }, 40, 5 * time.Second},
		{"a replica that stops moving is given up 5 s after its last event", known(96),
			func(e time.Duration) int64 { return min(int64(e/(100*time.Millisecond)), 60) }, 60, 11 * time.Second},
		{"a replica that creeps on is waited for a minute at most", known(1_000_000), func(e time.Duration) int64 { return int64(e / time.Second) }, 60, 60 * time.Second},
		{"an empty replica is not prepared on before the authority's first answer says what it must hold", knownAfter(300*time.Millisecond, 96),
			func(e time.Duration) int64 { return min(int64(e/(20*time.Millisecond)), 96) }, 96, 1920 * time.Millisecond},
		{"the replica is waited for up to 5 s without moving from the authority's first answer", knownAfter(4*time.Second, 96),
			func(time.Duration) int64 { return 40 }, 40, 9 * time.Second},
		{"a link whose first time requests go unanswered prepares on what its replica holds", knownAfter(4*time.Second, 0),
			func(time.Duration) int64 { return 40 }, 40, 4 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
			clock := start
			now := func() time.Time { return clock }
			sleep := func(d time.Duration) { clock = clock.Add(d) }
			var seq int64
			read := func() (int64, error) { seq = tc.arrive(clock.Sub(start)); return seq, nil }
			seq = tc.arrive(0)
			target := func() (int64, bool) { return tc.target(clock.Sub(start)) }
			if err := catchUp(context.Background(), seq, target, read, now, sleep); err != nil {
				t.Fatal(err)
			}
			if seq != tc.wantSeq {
				t.Errorf("prepared on event %d, want %d", seq, tc.wantSeq)
			}
			if waited := clock.Sub(start); waited < tc.wantTime || waited > tc.wantTime+catchUpPoll {
				t.Errorf("waited %v, want %v (to the poll)", waited, tc.wantTime)
			}
		})
	}
}

// Reading the replica fails, or the command is given up: the wait ends
// with that error and nothing is prepared.
func TestALinkStopsWaitingForItsReplicaOnAnErrorOrWhenTheCommandEnds(t *testing.T) {
	clock := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	sleep := func(d time.Duration) { clock = clock.Add(d) }
	broken := errors.New("disk")
	reads := 0
	target := func() (int64, bool) { return 96, true }
	err := catchUp(context.Background(), 40, target, func() (int64, error) {
		if reads++; reads == 2 {
			return 0, broken
		}
		return 40, nil
	}, now, sleep)
	if !errors.Is(err, broken) {
		t.Errorf("a failed read: %v, want %v", err, broken)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := catchUp(ctx, 40, target, func() (int64, error) { return 40, nil }, now, sleep); !errors.Is(err, context.Canceled) {
		t.Errorf("a command given up: %v, want %v", err, context.Canceled)
	}
}

// The target a link's catch-up waits for is the authority's last match
// event as the link's time answers show it (or this machine's station's
// status: none here); it is not known while the link has heard nothing
// and still asks, and known as nothing to wait for once its first tries
// went unanswered.
func TestALinkKnowsTheAuthoritysLastMatchEventOnlyOnceItHeardItOrGaveUpAsking(t *testing.T) {
	for _, tc := range []struct {
		name      string
		answered  bool
		authSeq   int64
		gaveUp    bool
		wantSeq   int64
		wantKnown bool
	}{
		{"a link that has heard nothing and still asks does not know it", false, 0, false, 0, false},
		{"a link answered knows it", true, 96, false, 96, true},
		{"a link answered knows it when the authority's record has no match event", true, 0, false, 0, true},
		{"a link whose first tries went unanswered waits for nothing", false, 0, true, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Link{db: filepath.Join(t.TempDir(), "laptop.db"), first: make(chan struct{}), authSeq: tc.authSeq}
			if tc.answered {
				l.samples.Add(station.TimeSample{MatchSeq: tc.authSeq})
			}
			if tc.gaveUp {
				close(l.first)
			}
			if seq, known := l.authMatchSeq(); seq != tc.wantSeq || known != tc.wantKnown {
				t.Errorf("authMatchSeq() = %d, %v; want %d, %v", seq, known, tc.wantSeq, tc.wantKnown)
			}
		})
	}
}
