package store

import (
	"context"
	"database/sql/driver"
	"fmt"
)

// The log copied before the Update that would cross walAutocheckpoint
// (docs/store.md, "The file"; docs/performance.md, "Commit one event,
// eleventh pass").
//
// SQLite's automatic checkpoint runs inside the COMMIT that takes the log
// past walAutocheckpoint pages, and the write transaction after it restarts
// the log: it writes the log's header with new salts and syncs it before
// its frames. So each checkpoint made two slow commits, the copy's and the
// next one (0.4-1.2 ms, twice a commit's p50). A handle whose commits are
// its own (no owner checkpointing it between commands: IdleCheckpoints
// off) copies the log itself instead, before the BEGIN of the Update that
// finds it within checkpointAhead pages of walAutocheckpoint: a PASSIVE
// checkpoint on the handle's connection, outside any transaction, which
// syncs the log, copies it and syncs the file, as SQLite's own does; the
// same Update's commit restarts the log. One slow Update per cycle instead
// of two. SQLite's own checkpoint stays at walAutocheckpoint for what this
// count does not see (other connections' commits, a log left by another
// process, a transaction of more than checkpointAhead pages). Durability is
// unchanged: every commit is synced before Update returns
// (synchronous=FULL), and nothing but SQLite writes the files.

// checkpointAhead is how many pages short of walAutocheckpoint a handle's
// commits must have written into the log for the next Update to copy it
// first: more than a commit of a few events writes, so that SQLite's own
// does not run first.
const checkpointAhead = 16

// checkpointBeforeBegin copies the log (PASSIVE) when the handle's commits
// wrote walAutocheckpoint-checkpointAhead pages into it since the last copy.
// The pages are counted from the handle's commits (logPages); when they
// reach the mark, the wal-index says how many frames the log holds, so that
// a log SQLite copied and restarted by itself meanwhile is counted anew
// rather than copied again. A failed checkpoint leaves the log as it was
// (SQLite's own copies it later); only a connection that can no longer
// serve is reported.
func (db *DB) checkpointBeforeBegin(c *conn) error {
	const due = walAutocheckpoint - checkpointAhead
	if db.idleCheckpoints || db.logPages < due {
		return nil
	}
	if idx, ok := readWALIndex(db.path); ok && int(idx.mxFrame) < due {
		db.logPages = int(idx.mxFrame)
		return nil
	}
	db.logPages = 0
	err := c.query(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)", func([]driver.Value) error { return nil })
	if err != nil {
		return fmt.Errorf("store: update: copying the log into the file: %w", err)
	}
	return nil
}
