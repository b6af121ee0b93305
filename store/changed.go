package store

import (
	"context"
	"fmt"
)

// DataVersion is SQLite's data_version on the DB's one connection: it
// changes when any other connection — another process, or another handle
// in this one — commits to the file, and never for this DB's own commits.
// A follower of the record (the engine bridge, docs/engine.md) polls it to
// learn within a millisecond that another writer committed, at the cost of
// one pragma, and reads the events only then.
func (db *DB) DataVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := db.sql.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("store: data version: %w", mapErr(err))
	}
	return v, nil
}
