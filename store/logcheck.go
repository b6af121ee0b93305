package store

import (
	"context"
	"database/sql"
	"time"
)

// A -wal beside a record that another process does not write (a console
// closed, or killed) is the log SQLite applies over the main file at the
// next open: its frames replace the file's pages, whatever file they were
// written for. SQLite does not tie a log to its file, so a log put beside
// the record while no console held it — an older copy's of the same
// record, another station's, another match's — was taken as the record's:
// the record opened as that copy, events the file held gone, and it
// verified (a record cut to an earlier head, or another match, is caught
// only by an anchor written down elsewhere: verify --head, --match), while
// the next close checkpointed the log into the file for good.
//
// A record's own log only ever adds to its file (events are never changed,
// and a checkpoint copies into the file what the log holds), so every event
// the main file holds by itself the record holds too, the same event at
// the same seq. logTakesBack reads the main file alone (SQLite's
// immutable=1 leaves the -wal aside) for its last events whose hashes
// hold — a page being copied by another process's checkpoint may read
// torn, and its rows are then left out — then, after it, the record with
// its log, and compares.

// logTakesBack reports whether the -wal beside the file at path (not held
// by this process, with a log of content beside it, of an Arbiter schema
// with received_ns) takes back an event its main file holds: seq is that
// event. It is false when it cannot tell (the main file alone unreadable).
func logTakesBack(ctx context.Context, path string) (seq int64, back bool) {
	last, ok := mainFileLastEvent(ctx, path)
	if !ok {
		return 0, false
	}
	d, err := dsn(path, "mode=ro", "_pragma=busy_timeout(5000)", "_pragma=query_only(1)")
	if err != nil {
		return 0, false
	}
	db, err := sql.Open("sqlite", d)
	if err != nil {
		return 0, false
	}
	defer db.Close()
	var hash string
	switch err := db.QueryRowContext(ctx, "SELECT hash FROM events WHERE seq = ?", last.Seq).Scan(&hash); {
	case err == sql.ErrNoRows:
		return last.Seq, true
	case err != nil:
		return 0, false // the record with its log is the open's to read
	}
	return last.Seq, hash != last.Hash
}

// mainFileLastEvent is the last event of the main file at path alone,
// among its last few, whose hash holds (ok false: none, or unreadable).
func mainFileLastEvent(ctx context.Context, path string) (Event, bool) {
	d, err := dsn(path, "mode=ro", "immutable=1", "_pragma=query_only(1)")
	if err != nil {
		return Event{}, false
	}
	db, err := sql.Open("sqlite", d)
	if err != nil {
		return Event{}, false
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "SELECT "+eventColumns+" FROM events ORDER BY seq DESC LIMIT 8")
	if err != nil {
		return Event{}, false
	}
	defer rows.Close()
	for rows.Next() {
		var e Event
		var at, received int64
		var payload string
		if rows.Scan(&e.Seq, &e.Match, &e.Game, &at, &received, &e.Role, &e.Actor, &e.Kind, &payload, &e.Prev, &e.Hash) != nil {
			continue
		}
		e.At, e.Payload = time.Unix(0, at).UTC(), []byte(payload)
		if received != 0 {
			e.Received = time.Unix(0, received).UTC()
		}
		if EventHash(e) == e.Hash {
			return e, true
		}
	}
	return Event{}, false
}

// LogTakesBack reports whether the -wal beside the record takes back an
// event its main file holds (seq: that event), as Open refuses a record
// to write over (CodeLogTakesBack): for verify, which opens the record
// read-only and reads it with whatever log lies beside it. A closed record
// whose -wal was swapped for an older copy's, or another record's, verified
// on its chain alone before branch hleft (only --head or --match told). A
// record's own log only adds to its file, whoever holds it meanwhile (a
// running console's, one killed), so it is never said to take back; false
// also when it cannot tell (no log of content, the main file alone
// unreadable, a schema before received_ns).
func (db *DB) LogTakesBack(ctx context.Context) (seq int64, back bool) {
	if !walHasContent(db.path) {
		return 0, false
	}
	return logTakesBack(ctx, db.path)
}
