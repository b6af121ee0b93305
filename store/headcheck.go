package store

import (
	"sync"
)

// headChecks holds the checks set with SetHeadCheck, per open DB (a side
// table, as beforeCommit is).
var headChecks sync.Map // *DB -> func(Event, bool) error

// SetHeadCheck installs fn on db (nil removes it). Before the first Append
// of every Update on db, the last event the file holds is read whole —
// as the file holds it now, whoever wrote to it — and given to fn (ok
// false: the file holds none); if fn returns an error, the Append and so
// the Update fail with it and nothing is written. A station uses it to
// check that its record still ends with the event it wrote, its hash
// recomputed from what the file holds (package station): an edited or
// damaged file stops it before it appends anything after it.
func (db *DB) SetHeadCheck(fn func(last Event, ok bool) error) {
	if fn == nil {
		headChecks.Delete(db)
		return
	}
	headChecks.Store(db, fn)
}

// checkHead runs db's head check, if any, on the file's last event; it
// returns that event's seq and hash for Append.
func (tx *Tx) checkHead(fn func(Event, bool) error) (int64, string, error) {
	evs, err := tx.c.events(tx.ctx, sqlLastEvent)
	if err != nil {
		return 0, "", err
	}
	if len(evs) == 0 {
		return 0, "", fn(Event{}, false)
	}
	if err := fn(evs[0], true); err != nil {
		return 0, "", err
	}
	return evs[0].Seq, evs[0].Hash, nil
}

func (db *DB) headCheck() func(Event, bool) error {
	if fn, ok := headChecks.Load(db); ok {
		return fn.(func(Event, bool) error)
	}
	return nil
}
