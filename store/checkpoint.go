package store

import (
	"context"
	"database/sql/driver"
	"fmt"

	"modernc.org/sqlite"
)

// Checkpoints between commands (docs/store.md, "The file"; docs/performance.md,
// "The station figure's tail").
//
// SQLite's automatic checkpoint runs inside the COMMIT that takes the log
// past walAutocheckpoint pages: that commit copies the log into the file and
// syncs both before it returns, a few milliseconds added to one command in
// some 850. A station's records all cross the mark at the same command (they
// hold the same events), so on one machine that command waited for four
// checkpoints sharing the disk. A handle whose owner knows when it is idle
// (a station, between commands) takes the checkpoint out of the commit:
// IdleCheckpoints moves SQLite's own to idleCheckpointLimit pages, kept only
// as a safety net, and the owner calls CheckpointIfDue when no command is
// running, which copies the log once it holds idleCheckpointPages pages. Every
// commit is synced as before (synchronous=FULL), and the checkpoint syncs
// the log before copying it and the file after, as SQLite's own does.

// idleCheckpointPages is how many pages the log of a handle whose owner
// checkpoints it when idle holds before CheckpointIfDue copies it: the
// copy runs between commands, so its length costs no command anything,
// and a shorter log is copied sooner (500, as chosen for every handle
// before walAutocheckpoint went to 1,000).
const idleCheckpointPages = 500

// idleCheckpointLimit is SQLite's automatic checkpoint for a handle whose
// owner checkpoints it when idle: a handle that is never idle long enough
// still has its log copied, at four times the owner's length.
const idleCheckpointLimit = 4 * idleCheckpointPages

// IdleCheckpoints, on, hands the handle's checkpoints to its owner, who
// calls CheckpointIfDue between commands; SQLite checkpoints by itself only
// once the log holds idleCheckpointLimit pages. Off gives them back to
// SQLite, at walAutocheckpoint pages (the owner stops).
func (db *DB) IdleCheckpoints(ctx context.Context, on bool) error {
	if db.readOnly {
		return nil
	}
	return db.withConn(ctx, func(c *conn) error {
		db.idleCheckpoints = on
		return c.autocheckpoint(ctx, db)
	})
}

// autocheckpoint sets SQLite's automatic checkpoint on a connection as the
// handle wants it (a new connection starts with the DSN's, walAutocheckpoint).
func (c *conn) autocheckpoint(ctx context.Context, db *DB) error {
	want := walAutocheckpoint
	if db.idleCheckpoints {
		want = idleCheckpointLimit
	}
	if c.autockpt == want || c.autockpt == 0 && want == walAutocheckpoint {
		return nil
	}
	if err := c.once(ctx, fmt.Sprintf("PRAGMA wal_autocheckpoint = %d", want)); err != nil {
		return err
	}
	c.autockpt = want
	return nil
}

// CheckpointIfDue copies the write-ahead log into the file (a PASSIVE
// checkpoint: it waits for no reader and no writer waits for it beyond the
// handle's own connection) when the commits since the last one wrote at
// least idleCheckpointPages pages; done reports whether it ran. A handle
// without IdleCheckpoints never has one due. ctx bounds the wait for the
// connection; a checkpoint begun runs to its end.
func (db *DB) CheckpointIfDue(ctx context.Context) (done bool, err error) {
	err = db.withConn(ctx, func(c *conn) error {
		if !db.idleCheckpoints || db.logPages < idleCheckpointPages {
			return nil
		}
		if err := c.query(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)", func([]driver.Value) error { return nil }); err != nil {
			return err
		}
		db.logPages, done = 0, true
		return nil
	})
	return done, err
}

// LogPagesWritten is how many pages the commits wrote into the log since
// its last checkpoint by CheckpointIfDue (as SQLite counts them).
func (db *DB) LogPagesWritten(ctx context.Context) (int, error) {
	var n int
	err := db.withConn(ctx, func(*conn) error { n = db.logPages; return nil })
	return n, err
}

// pagesWritten is the number of pages the connection wrote into the log
// since it was last asked (SQLITE_DBSTATUS_CACHE_WRITE, reset).
func (c *conn) pagesWritten() int {
	s, ok := c.dc.(interface {
		Status(op sqlite.DBStatusOp, reset bool) (int, int, error)
	})
	if !ok {
		return 0
	}
	n, _, err := s.Status(sqlite.DBStatusCacheWrite, true)
	if err != nil {
		return 0
	}
	return n
}
