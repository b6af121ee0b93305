package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"os"
)

// A log laid out by SQLite for a handle that keeps writing (docs/store.md,
// "The file"; docs/performance.md, "A log laid out before it is needed").
//
// Until its first checkpoint a write-ahead log grows with every commit, and
// a commit that grows a file has its fdatasync write the file's size (its
// inode) as well as its frames: in the first ~430 commits after an Open
// (walAutocheckpoint was 500 then) the p99 of a commit was twice that of
// the commits that overwrite the log afterwards. So once a handle has run layoutAfter Updates, before its
// next, while the log is smaller than walAutocheckpoint pages, SQLite
// itself writes that many pages into it and takes them back: a transaction
// that fills a table it creates, with a page cache too small to hold them
// (SQLite then writes the pages it must evict into the log, as frames of no
// commit), rolled back. The rollback leaves the file as it was (nothing of
// it is ever committed: no reader, and no recovery after a crash, reads
// frames past the last commit's), and the log as long as the frames
// written; the next commit writes over their start and its sync puts the
// log's new size on the disk once (10-16 ms on the development VM), and
// every commit after it until the checkpoint overwrites blocks already
// there. Only SQLite opens the files (docs/store.md, "One way in to the
// file").

// layoutAfter is the number of Updates a handle runs before the log is
// laid out. The layout costs about what 60-200 commits that grow the log
// lose, so a command that commits a few times and closes (the command
// line, a script's step, most tests) never pays it; the console, which
// commits at every action of a match, pays it once, at its 33rd.
const layoutAfter = 32

// growTable is the table created, and dropped by the rollback, to lay out
// the log: never committed, so never seen by any reader.
const growTable = "arbiter_log_layout"

// growLogPages is how many pages the log is laid out to before a handle's
// Update after layoutAfter: as many as it holds before SQLite's automatic
// checkpoint copies it into the file.
const growLogPages = walAutocheckpoint

// laidOutPages is how many pages LayOutLog lays the log out to: a station's
// record, whose owner copies the log between commands once it holds
// idleCheckpointPages (checkpoint.go), so that pages past those would be
// written at its start for nothing.
const laidOutPages = idleCheckpointPages

// growCache is the page cache, in pages, during the layout: small, so that
// SQLite writes nearly every page into the log.
const growCache = 16

// growLog lays out the log, if it is shorter than pages pages. It runs on
// the handle's connection, outside any transaction. A failure leaves
// nothing behind (the transaction is rolled back) and is returned.
func (db *DB) growLog(ctx context.Context, c *conn, pages int64) error {
	var pageSize int64
	if err := c.query(ctx, "PRAGMA page_size", func(v []driver.Value) error { return scanned(v, &pageSize) }); err != nil {
		return err
	}
	frame := pageSize + walFrameHeader
	want := walHeaderSize + pages*frame
	var have int64
	if st, err := os.Stat(db.side + "-wal"); err == nil {
		have = st.Size()
	}
	if have >= want-frame {
		return nil
	}
	rows := (want - have) / frame
	var cache int64
	if err := c.query(ctx, "PRAGMA cache_size", func(v []driver.Value) error { return scanned(v, &cache) }); err != nil {
		return err
	}
	if err := c.once(ctx, fmt.Sprintf("PRAGMA cache_size = %d", growCache)); err != nil {
		return err
	}
	defer c.once(context.Background(), fmt.Sprintf("PRAGMA cache_size = %d", cache))
	if err := c.begin(ctx); err != nil {
		return err // the connection is discarded (begin)
	}
	// a row of most of a page each: one page per row
	err := c.once(ctx, "CREATE TABLE "+growTable+" (b BLOB)")
	if err == nil {
		err = c.once(ctx, fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d) "+
			"INSERT INTO "+growTable+" SELECT zeroblob(%d) FROM n", rows, pageSize*3/4))
	}
	if e := c.exec(context.Background(), sqlRollback); e != nil && (err == nil || !c.outsideTransaction()) {
		return fmt.Errorf("%w (%w)", e, driver.ErrBadConn)
	}
	// else SQLite rolled the layout back itself when it failed (as it
	// does on a disk without room for it, SQLITE_FULL), and ROLLBACK found
	// no transaction: the connection serves on, and the Update goes on
	// with the log as it is, to commit its events or say itself that the
	// disk is full, where it failed in SQLite's words "cannot rollback - no
	// transaction is active" (make crash-test's full disk)
	c.pagesWritten() // the layout's frames are not commits: not counted
	return mapErr(err)
}

// outsideTransaction says whether the connection is outside any
// transaction: a BEGIN there begins one (deferred: it takes no lock),
// which it ends; inside one, BEGIN fails.
func (c *conn) outsideTransaction() bool {
	if c.once(context.Background(), "BEGIN") != nil {
		return false
	}
	return c.once(context.Background(), sqlRollback) == nil
}

// LayOutLog lays out the write-ahead log now (growLog), to laidOutPages,
// for a handle that will keep writing from here on and have its log
// copied between commands (a station's record, laid out as the station
// starts, IdleCheckpoints): its layout is then not among the commands it
// runs, the one after layoutAfter included.
func (db *DB) LayOutLog(ctx context.Context) error {
	if db.readOnly {
		return nil
	}
	return db.withConn(ctx, func(c *conn) error {
		db.beforeOwnWrite()
		defer db.afterOwnWrite()
		if err := db.growLog(ctx, c, laidOutPages); err != nil {
			return err
		}
		db.laidOut = true
		return nil
	})
}

// once runs query, which returns no rows, without keeping it prepared.
func (c *conn) once(ctx context.Context, query string) error {
	e, ok := c.dc.(driver.ExecerContext)
	if !ok {
		return fmt.Errorf("store: the SQLite driver cannot execute statements")
	}
	_, err := e.ExecContext(ctx, query, nil)
	return err
}

// The write-ahead log's layout (https://sqlite.org/fileformat.html#walformat).
const (
	walHeaderSize  = 32
	walFrameHeader = 24
)
