package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"unsafe"
)

var errBadConn = driver.ErrBadConn

// FaultHook, when non-nil, is called by Update at the points
//
//	"before-begin"  before BEGIN IMMEDIATE
//	"after-insert"  after each event row is inserted (once per Append)
//	"before-commit" after fn returned nil, before COMMIT
//	"after-commit"  after COMMIT returned
//
// It exists for crash tests: a hook that panics or kills the process shows
// that a transaction is committed whole or not at all. See fault.go for the
// ARBITER_FAULT environment variable that sets it. Set it only while no
// Update is running.
var FaultHook func(point string)

func fault(point string) {
	if h := FaultHook; h != nil {
		h(point)
	}
}

// Tx is the write transaction passed to the fn of Update. It must not be used
// after fn returns.
type Tx struct {
	ctx       context.Context
	c         *conn                   // the handle's connection, inside its transaction
	headCheck func(Event, bool) error // the DB's head check (SetHeadCheck), if any
	loaded    bool
	last      *Event // the file's last event, read by EventsAfter (lastRead; nil: the file has none): a pointer, as few transactions read it (a Tx is allocated at every Update)
	lastRead  bool
	headSeq   int64
	headHash  string
	appended  []Event
	signed    []Signature // put in this transaction (for the before-commit hook)
	done      bool
}

// Update runs fn inside one write transaction (BEGIN IMMEDIATE), so that
// what fn reads with tx.EventsAfter is exactly what precedes the events it
// appends with tx.Append, whichever process wrote them.
//
// If fn returns an error (or panics), the transaction is rolled back, nothing
// is written, and the error is returned unchanged (the panic is re-raised).
// Otherwise Update commits and returns the appended events with Seq, Prev and
// Hash filled in; it returns only after the commit is durable.
func (db *DB) Update(ctx context.Context, fn func(tx *Tx) error) (events []Event, err error) {
	if db.readOnly {
		return nil, fmt.Errorf("store: update %s: %w", db.path, ErrReadOnly)
	}
	var fnErr error // fn's own error, returned unchanged
	err = db.withConn(ctx, func(c *conn) (err error) {
		db.beforeOwnWrite()
		defer db.afterOwnWrite()
		if db.updates++; db.updates == layoutAfter+1 && !db.laidOut {
			if err := db.growLog(ctx, c, growLogPages); errors.Is(err, errBadConn) {
				return fmt.Errorf("store: update: laying out the log: %w", err)
			}
			// otherwise the commit goes on with the log as it is
		}
		if err := db.checkpointBeforeBegin(c); errors.Is(err, errBadConn) {
			return err
		}
		// otherwise SQLite's own checkpoint copies the log later
		fault("before-begin")
		if db.heldUpdate(ctx) {
			// its events are durable elsewhere when it commits: no fsync
			// (heldsync.go); FULL again after it, whatever its end
			if err := c.exec(ctx, sqlSyncNormal); err != nil {
				return fmt.Errorf("store: update: synchronous: %w", mapErr(err))
			}
			defer func() {
				if e := c.exec(context.Background(), sqlSyncFull); e != nil {
					if err == nil {
						err = errSyncNotRestored
					} else {
						err = fmt.Errorf("%w (%w)", err, errBadConn)
					}
				}
			}()
		}
		if err := c.begin(ctx); err != nil {
			return fmt.Errorf("store: update: begin: %w", err)
		}
		tx := &Tx{ctx: ctx, c: c, headCheck: db.headCheck()}
		committed := false
		defer func() {
			tx.done = true
			if committed {
				return
			}
			if e := c.exec(context.Background(), sqlRollback); e != nil && (err == nil || !c.outsideTransaction()) {
				// a connection still inside its transaction never serves again
				err = fmt.Errorf("store: update: rollback: %w (%w)", e, errBadConn)
			}
			// else SQLite rolled the transaction back itself when its
			// COMMIT failed (as it does on a disk without room for the
			// log's frames, SQLITE_FULL): err says why, where it said
			// "cannot rollback - no transaction is active"
		}()
		if fnErr = fn(tx); fnErr != nil {
			return fnErr
		}
		fault("before-commit")
		if fnErr = db.runBeforeCommit(ctx, tx.appended, tx.signed); fnErr != nil {
			return fnErr
		}
		db.reportSync(ctx, c)
		// COMMIT runs to its end whatever becomes of ctx: the driver
		// reports a context that ended while COMMIT ran as ctx.Err() even
		// when the transaction committed, and the caller would be told
		// "failed" of events the record holds.
		if err := c.exec(context.Background(), sqlCommit); err != nil {
			return fmt.Errorf("store: update: commit: %w", mapErr(err))
		}
		committed = true
		if tx.loaded {
			c.noteHead(tx.headSeq, tx.headHash)
		}
		db.logPages += c.pagesWritten()
		fault("after-commit")
		events = tx.appended
		return nil
	})
	if fnErr != nil {
		return nil, fnErr
	}
	if err != nil && !isSyncNotRestored(err) { // committed, its connection discarded
		return nil, err
	}
	return events, nil
}

func (tx *Tx) check() error {
	if tx.done {
		return errors.New("store: transaction already finished; use the *Tx only inside the fn passed to Update")
	}
	return nil
}

func (tx *Tx) loadHead() error {
	if tx.loaded {
		return nil
	}
	var seq int64
	var hash string
	var err error
	switch {
	case tx.lastRead:
		var last Event
		if tx.last != nil {
			last = *tx.last
		}
		seq, hash = last.Seq, last.Hash
		if tx.headCheck != nil {
			err = tx.headCheck(last, seq > 0)
		}
	case tx.headCheck != nil:
		seq, hash, err = tx.checkHead(tx.headCheck)
	default:
		var ok bool
		if seq, hash, ok = tx.c.ownHead(); !ok {
			seq, hash, err = tx.c.head(tx.ctx)
		}
	}
	if err != nil {
		return err
	}
	tx.headSeq, tx.headHash, tx.loaded = seq, hash, true
	return nil
}

// EventsAfter returns the events with Seq > seq in order, including any
// appended earlier in this transaction and any committed by other processes
// before it began.
//
// The file's last event (the transaction holds the write lock, so none can
// follow it), which Append continues, is read once: without a head check,
// its seq and hash are read first, and when the file ends at seq or before
// nothing more (the usual case: nobody else wrote since); with one, the
// events are read from event seq on, the last read being the file's last,
// given to the head check whole, as the file holds it.
func (tx *Tx) EventsAfter(seq int64) ([]Event, error) {
	if err := tx.check(); err != nil {
		return nil, err
	}
	if tx.headCheck == nil && !tx.loaded {
		if err := tx.loadHead(); err != nil {
			return nil, fmt.Errorf("store: events after %d: %w", seq, err)
		}
		if tx.headSeq <= seq {
			return nil, nil
		}
	}
	if tx.loaded {
		evs, err := tx.c.events(tx.ctx, sqlEventsAfter, seq)
		if err != nil {
			return nil, fmt.Errorf("store: events after %d: %w", seq, err)
		}
		return evs, nil
	}
	evs, err := tx.c.events(tx.ctx, sqlEventsAfter, max(seq-1, 0))
	if err != nil {
		return nil, fmt.Errorf("store: events after %d: %w", seq, err)
	}
	// The file's last event, unless it ends before seq (then Append reads
	// it): the last read, or none at all (seq 0 read the whole file).
	if n := len(evs); !tx.loaded && (n > 0 || seq == 0) {
		tx.last, tx.lastRead = nil, true
		if n > 0 {
			last := evs[n-1] // the caller's slice is the caller's
			tx.last = &last
		}
	}
	if len(evs) > 0 && evs[0].Seq <= seq {
		evs = evs[1:]
	}
	return evs, nil
}

// Append validates e, fills in Seq, Prev and Hash, normalises At to UTC and
// the payload to compact JSON, and inserts it. It refuses an empty Kind, a
// Role not in Roles, a payload that is not a JSON object, and invalid UTF-8,
// with an error wrapping ErrInvalidEvent. Any Seq, Prev or Hash in e are
// ignored.
func (tx *Tx) Append(e Event) (Event, error) {
	if err := tx.check(); err != nil {
		return Event{}, err
	}
	n, err := normalize(e)
	if err != nil {
		return Event{}, fmt.Errorf("store: append %q event: %w", e.Kind, err)
	}
	e = n
	if err := tx.loadHead(); err != nil {
		return Event{}, fmt.Errorf("store: append %q event: %w", e.Kind, err)
	}
	e.Seq = tx.headSeq + 1
	e.Prev = tx.headHash
	if e.Prev == "" {
		e.Prev = GenesisPrev
	}
	e.Hash = EventHash(e)
	rows, err := tx.c.execCount(tx.ctx, sqlInsertEvent,
		e.Seq, e.Match, int64(e.Game), e.At.UnixNano(), receivedNS(e), e.Role, e.Actor, e.Kind, boundText(e.Payload), e.Prev, e.Hash)
	if err != nil {
		return Event{}, fmt.Errorf("store: append %q event: %w", e.Kind, mapErr(err))
	}
	if rows != 1 {
		// a trigger of another program's (RAISE(IGNORE)) dropped the row
		// without an error: nothing of the transaction may be said written
		return Event{}, fmt.Errorf("store: append %q event: %w", e.Kind, ErrNotWritten)
	}
	tx.headSeq, tx.headHash = e.Seq, e.Hash
	tx.appended = append(tx.appended, e)
	fault("after-insert")
	return e, nil
}

// HashAt is the hash of event seq as the file holds it ("" when it holds
// none): one row read inside the transaction, for a request signed at
// another station, which names the event its sender's record ended at.
func (tx *Tx) HashAt(seq int64) (string, error) {
	if err := tx.check(); err != nil {
		return "", err
	}
	var hash string
	err := tx.c.query(tx.ctx, sqlHashAt, func(v []driver.Value) error { return scanned(v, &hash) }, seq)
	if err != nil {
		return "", fmt.Errorf("store: event %d: %w", seq, mapErr(err))
	}
	return hash, nil
}

// EventsAfter returns the committed events with Seq > seq, in order, from
// one consistent snapshot.
func (db *DB) EventsAfter(ctx context.Context, seq int64) (evs []Event, err error) {
	err = db.withConn(ctx, func(c *conn) error {
		evs, err = c.events(ctx, sqlEventsAfter, seq)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: events after %d: %w", seq, err)
	}
	return evs, nil
}

// Head returns the Seq and Hash of the last committed event, or 0 and "" for
// an empty log.
func (db *DB) Head(ctx context.Context) (seq int64, hash string, err error) {
	err = db.withConn(ctx, func(c *conn) error {
		seq, hash, err = c.head(ctx)
		return err
	})
	if err != nil {
		return 0, "", fmt.Errorf("store: head: %w", err)
	}
	return seq, hash, nil
}

const eventColumns = "seq, match, game, at_ns, received_ns, role, actor, kind, payload, prev, hash"

// eventColumnsV4 reads a file of schema 4 or older, opened read-only (so
// not migrated): it has no received_ns column, and no event a receipt.
const eventColumnsV4 = "seq, match, game, at_ns, 0, role, actor, kind, payload, prev, hash"

// receivedNS is the received_ns column of e: 0 for none.
func receivedNS(e Event) int64 {
	if e.Received.IsZero() {
		return 0
	}
	return e.Received.UnixNano()
}

// begin starts a write transaction (BEGIN IMMEDIATE) on c. The driver
// reports a context that ended while BEGIN ran as ctx.Err() even when BEGIN
// took the write lock, which leaves c inside a transaction nobody ends: it
// would hold the lock, every other writer of the file waiting on it (a
// station's replica standing still) and its own next BEGIN refused. So a
// failed BEGIN always discards c (driver.ErrBadConn: closing the connection
// rolls back whatever it began), never returns it to the pool.
func (c *conn) begin(ctx context.Context) error {
	if err := c.exec(ctx, sqlBegin); err != nil {
		return fmt.Errorf("%w (%w)", mapErr(err), errBadConn)
	}
	return nil
}

// boundText is b as a string for a statement's argument, without a copy:
// the driver copies a text argument into SQLite's memory when it binds it,
// before the statement returns, and execCount drops its arguments then;
// b, the payload normalize made for this event, is not changed meanwhile.
// string(b) made a copy of every payload appended (docs/performance.md,
// "Move and commit, thirteenth pass").
func boundText(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
