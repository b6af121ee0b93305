package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
)

// A record's commit is durable when Update returns: its frames are in the
// write-ahead log on the disk (synchronous=FULL: one fsync, fdatasync on
// Linux, per commit). A station that holds the record runs a JetStream
// server too, which stores the match's stream with SyncAlways: every event
// the station commits is on the disk twice on the same machine, once in
// the stream's store, once in the record. Such a commit may leave out the
// second: WAL with synchronous=NORMAL writes the frames into the log (the
// system's page cache: a process killed, or any reader, finds them) and
// does not wait for the disk; a power cut may take the last of them away,
// and the stream, which holds each of them on the disk of a majority of
// its servers before anyone learns of them, gives them back (docs/
// stations.md, "The record holders' commits without a second fsync").
//
// Two things must both say so for a commit to go without its fsync: the
// handle (SetEventsHeldElsewhere, which a station turns on only while it
// runs an engine that stores the stream) and the Update (HeldElsewhere,
// given to it by the caller that knows where the events are). Any other
// write on the handle — an Update not so marked, the heartbeat, the meta
// table, a checkpoint, a backup — commits with its fsync, and a commit
// with it after commits without syncs those too (the log is one file,
// synced whole). SQLite's synchronous is a setting of the connection that
// cannot change inside a transaction: it is set to NORMAL before the
// marked Update's BEGIN and back to FULL after its COMMIT or ROLLBACK, so
// that outside a marked Update the connection is always at FULL.

type heldKey struct{}

// HeldElsewhere marks the Update run with the returned context as one
// whose events are, by the time it commits, durable outside the file: a
// station's replica applying what its stream delivered, or its authority
// committing a command after the stream acknowledged it (the before-commit
// hook, SetBeforeCommit, returns only then). On a handle that was not told
// so (SetEventsHeldElsewhere) the mark changes nothing.
func HeldElsewhere(ctx context.Context) context.Context {
	return context.WithValue(ctx, heldKey{}, true)
}

// SetEventsHeldElsewhere tells the handle that the Updates marked with
// HeldElsewhere commit events that are durable outside the file (on) —
// they then commit without waiting for the disk (synchronous=NORMAL) — or
// no longer (off: every commit waits for the disk again, the default).
func (db *DB) SetEventsHeldElsewhere(on bool) { db.eventsHeld.Store(on) }

// heldUpdate reports whether an Update run with ctx commits without its
// fsync.
func (db *DB) heldUpdate(ctx context.Context) bool {
	return db.eventsHeld.Load() && ctx.Value(heldKey{}) != nil
}

const (
	sqlSyncNormal = "PRAGMA synchronous = NORMAL"
	sqlSyncFull   = "PRAGMA synchronous = FULL"
)

// errSyncNotRestored: the connection could not be set back to FULL after
// a commit without fsync; it is discarded (a new one opens at the DSN's
// FULL), and the Update, committed, returns its events.
var errSyncNotRestored = fmt.Errorf("store: the connection's synchronous not set back to FULL: %w", driver.ErrBadConn)

// CommitSyncHook, when non-nil, is called before every write of the
// handle's connection — an Update's COMMIT, the heartbeat, a meta row —
// with the record's path and the level SQLite commits it with, as the
// connection reports it (PRAGMA synchronous: 1 NORMAL, 2 FULL; -1 when it
// could not be read). It is for tests that check which commits go
// without their fsync, and costs a statement per write while set. Set it
// only while nothing writes.
var CommitSyncHook func(path string, level int)

// reportSync calls CommitSyncHook, if set, with the connection's level.
func (db *DB) reportSync(ctx context.Context, c *conn) {
	h := CommitSyncHook
	if h == nil {
		return
	}
	level := int64(-1)
	_ = c.query(ctx, "PRAGMA synchronous", func(v []driver.Value) error {
		if n, ok := v[0].(int64); ok {
			level = n
		}
		return nil
	})
	h(db.path, int(level))
}

// isSyncNotRestored reports whether err is the Update's committed
// transaction whose connection was not set back to FULL.
func isSyncNotRestored(err error) bool { return errors.Is(err, errSyncNotRestored) }
