package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Heartbeat says which process holds the console and when it last said so.
// It is kept in a single-row table outside the hash chain: it is operational
// state, not evidence.
type Heartbeat struct {
	Wall time.Time // wall-clock instant of the beat, stored as Unix nanoseconds
	PID  int
	Host string
}

// WriteHeartbeat replaces the heartbeat row in one short transaction.
func (db *DB) WriteHeartbeat(ctx context.Context, hb Heartbeat) error {
	if db.readOnly {
		return fmt.Errorf("store: write heartbeat: %w", ErrReadOnly)
	}
	err := db.withConn(ctx, func(c *conn) error {
		db.beforeOwnWrite()
		defer db.afterOwnWrite()
		db.reportSync(ctx, c)
		return c.exec(ctx,
			`INSERT INTO heartbeat (id, wall_ns, pid, host) VALUES (1, ?, ?, ?)
		 ON CONFLICT (id) DO UPDATE SET wall_ns = excluded.wall_ns, pid = excluded.pid, host = excluded.host`,
			hb.Wall.UnixNano(), int64(hb.PID), hb.Host)
	})
	if err != nil {
		return fmt.Errorf("store: write heartbeat: %w", mapErr(err))
	}
	return nil
}

// ReadHeartbeat returns the last heartbeat written, and false if none was.
func (db *DB) ReadHeartbeat(ctx context.Context) (Heartbeat, bool, error) {
	var hb Heartbeat
	var ns int64
	err := db.sql.QueryRowContext(ctx, "SELECT wall_ns, pid, host FROM heartbeat WHERE id = 1").Scan(&ns, &hb.PID, &hb.Host)
	if errors.Is(err, sql.ErrNoRows) {
		return Heartbeat{}, false, nil
	}
	if err != nil {
		return Heartbeat{}, false, fmt.Errorf("store: read heartbeat: %w", mapErr(err))
	}
	hb.Wall = time.Unix(0, ns).UTC()
	return hb, true, nil
}

// SetMeta stores a key/value fact about the file (not hashed, not evidence).
func (db *DB) SetMeta(ctx context.Context, key, value string) error {
	if db.readOnly {
		return fmt.Errorf("store: set meta %q: %w", key, ErrReadOnly)
	}
	err := db.withConn(ctx, func(c *conn) error {
		db.beforeOwnWrite()
		defer db.afterOwnWrite()
		db.reportSync(ctx, c)
		return c.exec(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	})
	if err != nil {
		return fmt.Errorf("store: set meta %q: %w", key, mapErr(err))
	}
	return nil
}

// Meta returns the value stored under key; the error wraps ErrNotFound if
// there is none.
func (db *DB) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := db.sql.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("store: meta %q: %w", key, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("store: meta %q: %w", key, mapErr(err))
	}
	return v, nil
}
