package store

import (
	"context"
	"sync"
)

// beforeCommit holds the hooks set with SetBeforeCommit, per open DB. It is a
// side table (not a field of DB) so that the hook stays one small addition.
var beforeCommit sync.Map // *DB -> func(context.Context, []Event, []Signature) error

// SetBeforeCommit installs fn on db (nil removes it). Update calls it after
// its fn returned nil and before COMMIT, with the events appended in the
// transaction (never with none) and the signatures put beside them in
// the same transaction. If fn returns an error the transaction is
// rolled back and Update returns that error unchanged, so nothing is
// written. Stations use it to put a command's events into the replicated
// stream before the local replica commits them (package station).
func (db *DB) SetBeforeCommit(fn func(ctx context.Context, evs []Event, sigs []Signature) error) {
	if fn == nil {
		beforeCommit.Delete(db)
		return
	}
	beforeCommit.Store(db, fn)
}

func (db *DB) runBeforeCommit(ctx context.Context, evs []Event, sigs []Signature) error {
	if len(evs) == 0 {
		return nil
	}
	fn, ok := beforeCommit.Load(db)
	if !ok {
		return nil
	}
	return fn.(func(context.Context, []Event, []Signature) error)(ctx, evs, sigs)
}
