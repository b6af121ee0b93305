package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"testing"
	"time"
)

// connSync reads PRAGMA synchronous on the handle's connection, outside
// any transaction (1 NORMAL, 2 FULL).
func connSync(t *testing.T, db *DB) int64 {
	t.Helper()
	var level int64 = -1
	if err := db.withConn(context.Background(), func(c *conn) error {
		return c.query(context.Background(), "PRAGMA synchronous", func(v []driver.Value) error {
			level = v[0].(int64)
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return level
}

// TestAnUpdateCommitsWithoutFsyncOnlyWhenItsHandleAndItsUpdateSayItsEventsAreHeldElsewhere
// (docs/stations.md, "The record holders' commits without a second
// fsync"): an Update commits with synchronous=NORMAL, as its connection
// says inside the transaction, only when the handle was told its events
// are held elsewhere (SetEventsHeldElsewhere) and the Update is marked so
// (HeldElsewhere); every other commit is FULL, and the connection is at
// FULL again after it, whatever its end (a commit, fn's error), so that
// the heartbeat and a meta row written after it wait for the disk. Without
// the change every level is FULL and the first case fails.
func TestAnUpdateCommitsWithoutFsyncOnlyWhenItsHandleAndItsUpdateSayItsEventsAreHeldElsewhere(t *testing.T) {
	const normal, full = 1, 2
	var seen []int
	CommitSyncHook = func(_ string, level int) { seen = append(seen, level) }
	defer func() { CommitSyncHook = nil }()
	errFn := errors.New("fn refuses")
	for _, tc := range []struct {
		name          string
		handle, held  bool
		fnErr         error
		want          []int // the Update's level (none when fn refuses), then the heartbeat's and the meta row's
		wantCommitted bool
	}{
		{"a marked Update on a handle told so commits without fsync; the heartbeat and a meta row after it with it", true, true, nil, []int{normal, full, full}, true},
		{"an Update not marked commits with fsync on a handle told so", true, false, nil, []int{full, full, full}, true},
		{"a marked Update commits with fsync on a handle not told so (the laptop's)", false, true, nil, []int{full, full, full}, true},
		{"a marked Update whose fn refuses leaves the connection at FULL", true, true, errFn, []int{full, full}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := newTestDB(t)
			db.SetEventsHeldElsewhere(tc.handle)
			ctx := context.Background()
			if tc.held {
				ctx = HeldElsewhere(ctx)
			}
			seen = nil
			evs, err := db.Update(ctx, func(tx *Tx) error {
				if _, err := tx.Append(testEvent(0)); err != nil {
					return err
				}
				return tc.fnErr
			})
			if !errors.Is(err, tc.fnErr) || (len(evs) == 1) != tc.wantCommitted {
				t.Fatalf("Update: %v, %d events; want %v", err, len(evs), tc.fnErr)
			}
			if got := connSync(t, db); got != full {
				t.Errorf("the connection after the Update is at synchronous %d, want %d (FULL)", got, full)
			}
			if err := db.WriteHeartbeat(context.Background(), Heartbeat{Wall: time.Now(), PID: 1, Host: "h"}); err != nil {
				t.Fatal(err)
			}
			if err := db.SetMeta(context.Background(), "k", "v"); err != nil {
				t.Fatal(err)
			}
			if len(seen) != len(tc.want) {
				t.Fatalf("levels %v, want %v", seen, tc.want)
			}
			for i := range seen {
				if seen[i] != tc.want[i] {
					t.Fatalf("levels %v, want %v", seen, tc.want)
				}
			}
			if r, err := db.Verify(context.Background(), ""); err != nil || !r.OK || (r.Events == 1) != tc.wantCommitted {
				t.Fatalf("verify: %v %+v", err, r)
			}
		})
	}
}
