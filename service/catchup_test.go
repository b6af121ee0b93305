//go:build !nostation

package service

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A link prepares a command on its replica once the replica holds the
// authority's last match event: it waits while the replica catches up,
// however long that takes within a minute, and gives up after 5 s without
// a new event (a stream without a leader), preparing on what it holds.
// The clock is a fake one: the replica's events arrive as it moves.
func TestALinkWaitsForItsReplicaWhileItCatchesUp(t *testing.T) {
	for _, tc := range []struct {
		name     string
		target   int64
		arrive   func(elapsed time.Duration) int64 // the replica's last event after elapsed
		wantSeq  int64
		wantTime time.Duration // how long it waited, to the poll
	}{
		{"a replica that holds the event is not waited for", 96, func(time.Duration) int64 { return 96 }, 96, 0},
		{"a replica a second behind is waited for", 96, func(e time.Duration) int64 { return min(40+int64(e/(20*time.Millisecond)), 96) }, 96, 1120 * time.Millisecond},
		{"a replica just joined is waited for while it catches up, past 5 s in all", 96,
			func(e time.Duration) int64 { return min(int64(e/(100*time.Millisecond)), 96) }, 96, 9600 * time.Millisecond},
		{"a replica that stands still is given up after 5 s", 96, func(time.Duration) int64 { return 40 }, 40, 5 * time.Second},
		{"a replica that stops moving is given up 5 s after its last event", 96,
			func(e time.Duration) int64 { return min(int64(e/(100*time.Millisecond)), 60) }, 60, 11 * time.Second},
		{"a replica that creeps on is waited for a minute at most", 1_000_000, func(e time.Duration) int64 { return int64(e / time.Second) }, 60, 60 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
			clock := start
			now := func() time.Time { return clock }
			sleep := func(d time.Duration) { clock = clock.Add(d) }
			var seq int64
			read := func() (int64, error) { seq = tc.arrive(clock.Sub(start)); return seq, nil }
			seq = tc.arrive(0)
			if err := catchUp(context.Background(), seq, tc.target, read, now, sleep); err != nil {
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
	err := catchUp(context.Background(), 40, 96, func() (int64, error) {
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
	if err := catchUp(ctx, 40, 96, func() (int64, error) { return 40, nil }, now, sleep); !errors.Is(err, context.Canceled) {
		t.Errorf("a command given up: %v, want %v", err, context.Canceled)
	}
}
