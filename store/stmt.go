package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// The record's own statements — every command's transaction, and the
// reads of the events and signatures — run on the handle's one connection
// at the driver's level (docs/performance.md): each is prepared once on
// the connection and run again and again, where database/sql would
// compile it at every call (it keeps a statement prepared only inside its
// own transactions, and those start a goroutine each, to watch their
// context). Compiling SQL was most of the processor time of a commit in
// the transpiled SQLite.
const (
	sqlBegin       = "BEGIN IMMEDIATE"
	sqlRead        = "BEGIN" // a read transaction: one snapshot for several reads
	sqlCommit      = "COMMIT"
	sqlRollback    = "ROLLBACK"
	sqlHead        = "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"
	sqlHashAt      = "SELECT hash FROM events WHERE seq = ?"
	sqlLastEvent   = "SELECT " + eventColumns + " FROM events ORDER BY seq DESC LIMIT 1"
	sqlEventsAfter = "SELECT " + eventColumns + " FROM events WHERE seq > ? ORDER BY seq"
	// sqlEventsAfterV4 reads a file of schema 4 or older, opened read-only
	// (so not migrated): it has no received_ns column, and no event a receipt.
	sqlEventsAfterV4   = "SELECT " + eventColumnsV4 + " FROM events WHERE seq > ? ORDER BY seq"
	sqlInsertEvent     = "INSERT INTO events (" + eventColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	sqlInsertSignature = " INTO signatures (seq, kind, count, cmd, signer, station, key, sig, request) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
	sqlPutSignature    = "INSERT" + sqlInsertSignature
	sqlPutHead         = "INSERT OR IGNORE" + sqlInsertSignature
	sqlAllSignatures   = "SELECT seq, kind, count, cmd, signer, station, key, sig, request FROM signatures ORDER BY seq, kind"
	sqlSignaturesTable = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'signatures'"
)

// conn is the handle's connection as the driver has it, with the
// statements prepared on it. It is used only inside withConn, which holds
// the connection.
type conn struct {
	dc    driver.Conn
	stmts map[string]driver.Stmt
	// autockpt: SQLite's automatic checkpoint as set on the connection
	// (0: the DSN's, walAutocheckpoint; checkpoint.go)
	autockpt int
	// args holds a statement's arguments as the driver takes them, reused
	// from call to call (named): the driver binds them before the call
	// returns, and a commit's INSERT allocated a new slice of eleven
	// (docs/performance.md, "Commit and move, ninth pass").
	args []driver.NamedValue
	// last is the file's last event as the connection's own last commit
	// left it (ownHead)
	last ownHead
}

// ownHead is the seq and hash of the file's last event as a commit of
// the connection left it, with the pager's data version after that
// commit (SQLITE_FCNTL_DATA_VERSION).
type ownHead struct {
	seq     int64
	hash    string
	version uint32
	ok      bool
}

// dataVersion is the pager's data version on c (SQLITE_FCNTL_DATA_VERSION:
// no system call): SQLite moves it at every commit of the connection's own
// and whenever a transaction it begins finds that another connection
// committed (its page cache dropped). ok is false when the driver cannot
// tell.
func (c *conn) dataVersion() (v uint32, ok bool) {
	f, isFC := c.dc.(interface {
		FileControlDataVersion(dbName string) (uint32, error)
	})
	if !isFC {
		return 0, false
	}
	v, err := f.FileControlDataVersion("main")
	return v, err == nil
}

// noteHead keeps seq and hash as the file's last event after a commit of
// the connection's own, with the data version that commit left.
func (c *conn) noteHead(seq int64, hash string) {
	v, ok := c.dataVersion()
	c.last = ownHead{seq: seq, hash: hash, version: v, ok: ok}
}

// ownHead is the file's last event as the connection's own last commit
// left it, inside a write transaction (which holds the lock: none can
// follow it) that finds the data version as that commit left it: no other
// connection committed since, and the connection did not commit again
// without noting its head, nor forget its pages (forgetPages). ok is false
// otherwise: the head is read from the file (head). It spares every
// Update's first Append the head's query (a B-tree descent and its rows'
// values: docs/performance.md, "Commit one event, twelfth pass").
func (c *conn) ownHead() (seq int64, hash string, ok bool) {
	if !c.last.ok {
		return 0, "", false
	}
	if v, vok := c.dataVersion(); !vok || v != c.last.version {
		c.last.ok = false
		return 0, "", false
	}
	return c.last.seq, c.last.hash, true
}

// forgetPages has the connection forget the pages it holds (PRAGMA
// shrink_memory, Uncache) and the head its last commit left, which the
// data version does not tell apart from the file's bytes read again.
func (c *conn) forgetPages(ctx context.Context) error {
	c.last = ownHead{}
	return c.once(ctx, "PRAGMA shrink_memory")
}

// withConn runs f on the handle's connection (waiting for it while another
// call holds it: all operations are serialised on it). A connection f
// leaves unusable — it returned an error wrapping driver.ErrBadConn, or
// panicked — has its statements closed and is discarded by database/sql.
func (db *DB) withConn(ctx context.Context, f func(c *conn) error) error {
	sc, err := db.sql.Conn(ctx)
	if err != nil {
		return mapErr(err)
	}
	defer sc.Close()
	return sc.Raw(func(dc any) (err error) {
		c := db.raw
		if c == nil || c.dc != dc {
			c = &conn{dc: dc.(driver.Conn), stmts: map[string]driver.Stmt{}}
			db.raw = c
		}
		ok := false
		defer func() {
			if !ok || errors.Is(err, driver.ErrBadConn) {
				c.close()
				db.raw = nil
				db.newConnection() // sidecheck.go
			}
		}()
		if err = c.autocheckpoint(context.Background(), db); err != nil {
			ok = true
			return err
		}
		err = f(c)
		ok = true
		return err
	})
}

// closeConn closes the statements prepared on the connection, so that
// closing the handle closes the connection (a statement left open keeps
// SQLite's connection, its file descriptors and the write-ahead log's
// last checkpoint, from closing).
func (db *DB) closeConn() {
	if db.raw == nil {
		return
	}
	_ = db.withConn(context.Background(), func(c *conn) error {
		c.close()
		db.raw = nil
		return nil
	})
}

func (c *conn) close() {
	for q, s := range c.stmts {
		s.Close()
		delete(c.stmts, q)
	}
}

// stmt is query prepared on the connection (prepared now the first time).
func (c *conn) stmt(ctx context.Context, query string) (driver.Stmt, error) {
	if s, ok := c.stmts[query]; ok {
		return s, nil
	}
	p, ok := c.dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, fmt.Errorf("store: the SQLite driver cannot prepare statements")
	}
	s, err := p.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = s
	return s, nil
}

// named is args as the driver takes them, in the connection's buffer:
// valid until the next call; the caller clears it once the driver has
// bound them, so that it keeps no value alive.
func (c *conn) named(args []driver.Value) []driver.NamedValue {
	nv := c.args[:0]
	for i, a := range args {
		nv = append(nv, driver.NamedValue{Ordinal: i + 1, Value: a})
	}
	c.args = nv
	return nv
}

// exec runs query, which returns no rows.
func (c *conn) exec(ctx context.Context, query string, args ...driver.Value) error {
	_, err := c.execCount(ctx, query, args...)
	return err
}

// execCount is exec that returns the number of rows the statement changed.
func (c *conn) execCount(ctx context.Context, query string, args ...driver.Value) (int64, error) {
	s, err := c.stmt(ctx, query)
	if err != nil {
		return 0, err
	}
	nv := c.named(args)
	res, err := s.(driver.StmtExecContext).ExecContext(ctx, nv)
	clear(nv)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// query runs query and calls row with each row's values (INTEGER as
// int64, TEXT as string), which are valid only during the call.
func (c *conn) query(ctx context.Context, query string, row func(v []driver.Value) error, args ...driver.Value) error {
	s, err := c.stmt(ctx, query)
	if err != nil {
		return err
	}
	nv := c.named(args)
	rows, err := s.(driver.StmtQueryContext).QueryContext(ctx, nv)
	clear(nv)
	if err != nil {
		return err
	}
	defer rows.Close()
	v := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(v); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if err := row(v); err != nil {
			return err
		}
	}
}

// in runs f inside a read transaction (BEGIN), so that its reads see one
// snapshot of the file.
func (c *conn) in(ctx context.Context, f func() error) error {
	if err := c.exec(ctx, sqlRead); err != nil {
		return err
	}
	err := f()
	if e := c.exec(context.Background(), sqlRollback); e != nil && err == nil {
		err = fmt.Errorf("%w (%w)", e, driver.ErrBadConn)
	}
	return err
}

// Columns as the driver gives them.

func integer(v driver.Value) (int64, error) {
	if n, ok := v.(int64); ok {
		return n, nil
	}
	return 0, fmt.Errorf("store: an integer column holds %T", v)
}

func text(v driver.Value) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case []byte:
		return string(t), nil
	}
	return "", fmt.Errorf("store: a text column holds %T", v)
}

// scanned reads the values of one row into dest (*int64, *int, *string,
// *[]byte, *time.Time for Unix nanoseconds with 0 as none), in order.
func scanned(v []driver.Value, dest ...any) error {
	for i, d := range dest {
		switch d := d.(type) {
		case *int64:
			n, err := integer(v[i])
			if err != nil {
				return err
			}
			*d = n
		case *int:
			n, err := integer(v[i])
			if err != nil {
				return err
			}
			*d = int(n)
		case *time.Time:
			n, err := integer(v[i])
			if err != nil {
				return err
			}
			*d = time.Time{}
			if n != 0 {
				*d = time.Unix(0, n).UTC()
			}
		case *string:
			s, err := text(v[i])
			if err != nil {
				return err
			}
			*d = s
		case *[]byte:
			s, err := text(v[i])
			if err != nil {
				return err
			}
			*d = []byte(s)
		}
	}
	return nil
}

// events runs query (sqlEventsAfter, sqlLastEvent) and returns its events.
// A file of schema 4 or older, without the received_ns column, is read with
// sqlEventsAfterV4.
func (c *conn) events(ctx context.Context, query string, args ...driver.Value) ([]Event, error) {
	var evs []Event
	err := c.query(ctx, query, func(v []driver.Value) error {
		var e Event
		var at int64
		if err := scanned(v, &e.Seq, &e.Match, &e.Game, &at, &e.Received, &e.Role, &e.Actor, &e.Kind, &e.Payload, &e.Prev, &e.Hash); err != nil {
			return err
		}
		e.At = time.Unix(0, at).UTC()
		evs = append(evs, e)
		return nil
	}, args...)
	if err != nil && query == sqlEventsAfter && strings.Contains(err.Error(), "no such column: received_ns") {
		return c.events(ctx, sqlEventsAfterV4, args...)
	}
	if err != nil {
		return nil, mapErr(err)
	}
	return evs, nil
}

// head is the seq and hash of the file's last event (0 and "" for none).
func (c *conn) head(ctx context.Context) (seq int64, hash string, err error) {
	err = c.query(ctx, sqlHead, func(v []driver.Value) error { return scanned(v, &seq, &hash) })
	return seq, hash, mapErr(err)
}

// signatures reads every signature; a file of schema 2 or older (opened
// read-only, not migrated) has none: asked of the schema, not told by
// SQLite's message.
func (c *conn) signatures(ctx context.Context) ([]Signature, error) {
	var tables int64
	if err := c.query(ctx, sqlSignaturesTable, func(v []driver.Value) error { return scanned(v, &tables) }); err != nil {
		return nil, fmt.Errorf("store: signatures: %w", mapErr(err))
	}
	if tables == 0 {
		return nil, nil
	}
	var out []Signature
	err := c.query(ctx, sqlAllSignatures, func(v []driver.Value) error {
		var s Signature
		if err := scanned(v, &s.Seq, &s.Kind, &s.Count, &s.Cmd, &s.Signer, &s.Station, &s.Key, &s.Sig, &s.Request); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: signatures: %w", mapErr(err))
	}
	return out, nil
}
