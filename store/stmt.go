package store

import (
	"context"
	"database/sql"
)

// The statements of a command's write path, prepared once per handle
// (docs/performance.md): compiling SQL is most of the processor time of a
// commit in the transpiled SQLite, and a command runs the same few
// statements every time. database/sql keeps each one prepared on the
// handle's one connection (prepared again by itself on a new one) and
// lends it to each transaction (sql.Tx.StmtContext).
const (
	sqlHead        = "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"
	sqlLastEvent   = "SELECT " + eventColumns + " FROM events ORDER BY seq DESC LIMIT 1"
	sqlEventsAfter = "SELECT " + eventColumns + " FROM events WHERE seq > ? ORDER BY seq"
	sqlInsertEvent = `INSERT INTO events (seq, match, game, at_ns, received_ns, role, actor, kind, payload, prev, hash)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlInsertSignature = ` INTO signatures (seq, kind, count, cmd, signer, station, key, sig, request)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlPutSignature  = "INSERT" + sqlInsertSignature
	sqlPutHead       = "INSERT OR IGNORE" + sqlInsertSignature
	sqlAllSignatures = "SELECT seq, kind, count, cmd, signer, station, key, sig, request FROM signatures ORDER BY seq, kind"
)

// preparedSQL lists the statements prepare keeps: those run at every
// command on a handle that writes.
var preparedSQL = []string{sqlHead, sqlLastEvent, sqlEventsAfter, sqlInsertEvent, sqlPutSignature, sqlPutHead, sqlAllSignatures}

// prepare prepares preparedSQL on a handle that writes, once its schema is
// current (Open, after the migrations). It must run before any
// transaction: preparing on the DB needs its one connection free.
func (db *DB) prepare(ctx context.Context) error {
	db.stmts = make(map[string]*sql.Stmt, len(preparedSQL))
	for _, q := range preparedSQL {
		s, err := db.sql.PrepareContext(ctx, q)
		if err != nil {
			db.closeStmts()
			return mapErr(err)
		}
		db.stmts[q] = s
	}
	return nil
}

func (db *DB) closeStmts() {
	for q, s := range db.stmts {
		s.Close()
		delete(db.stmts, q)
	}
}

// queryer runs query, prepared when the handle has it prepared: on the
// handle (tx nil) or lent to the transaction tx.
type queryer struct {
	db *DB
	tx *sql.Tx
}

func (q queryer) stmt(ctx context.Context, query string) *sql.Stmt {
	s := q.db.stmts[query]
	if s == nil || q.tx == nil {
		return s
	}
	return q.tx.StmtContext(ctx, s)
}

func (q queryer) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := q.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	if q.tx != nil {
		return q.tx.QueryContext(ctx, query, args...)
	}
	return q.db.sql.QueryContext(ctx, query, args...)
}

func (q queryer) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := q.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	if q.tx != nil {
		return q.tx.QueryRowContext(ctx, query, args...)
	}
	return q.db.sql.QueryRowContext(ctx, query, args...)
}

func (q queryer) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := q.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	if q.tx != nil {
		return q.tx.ExecContext(ctx, query, args...)
	}
	return q.db.sql.ExecContext(ctx, query, args...)
}
