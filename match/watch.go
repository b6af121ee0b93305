package match

import (
	"context"

	"arbiter/store"
)

// watch is what Watch last saw of the record outside the App's own
// commits: SQLite's data_version on the App's connection and the main
// file's stamp.
type watch struct {
	seen    bool
	version int64
	stamp   store.Stamp
}

// Watch looks whether anything but the App's own commits changed the
// record since it last looked, and if so checks the whole record again as
// New does (every hash, the last signed head and the signatures after
// it): an edit of any event, old or new, made while the App runs is
// found at the next call, not at the next open. It is the console's poll
// (every tenth of a second): while nothing changes it costs one pragma
// and one stat(2); SQLite's data_version changes when another connection
// commits (sqlite3, the command line, the engine bridge, a station's
// replica written in this process), the file's stamp when its bytes
// change by other means (a hex editor), and neither when someone only
// reads it. The first call checks the record whole.
//
// A record that no longer verifies is taken as New takes it: the problem
// is kept (Why), the state is rebuilt from the events before the first
// that fails (the clocks stand at the last sound instant), nothing more
// is appended, and the function set with SetChanged is told. A record
// that verifies but no longer holds the events the state was built from
// (cut off, or rewritten with its hashes made anew) is taken the same
// way. Events another process appended are taken as Refresh takes them.
func (a *App) Watch(ctx context.Context) error {
	a.mu.Lock()
	broken, w := a.problem != nil, a.watch
	seq, head := a.state.Seq, a.state.Head // the record read below holds them, unless edited
	a.mu.Unlock()
	if broken {
		return nil // known already: nothing runs on it
	}
	// looked at before the record is read: a commit after this is seen
	// by the next call
	v, err := a.db.DataVersion(ctx)
	if err != nil {
		return err
	}
	stamp := a.db.Stamp()
	if w.seen && v == w.version && stamp.Same(w.stamp) {
		return nil
	}
	if w.seen && !stamp.Same(w.stamp) {
		// bytes may have changed behind SQLite: read them from the file
		if err := a.db.Uncache(ctx); err != nil {
			return err
		}
	}
	evs, sigs, err := a.db.Record(ctx)
	if err != nil {
		return err
	}
	rep := checkRecord(evs, sigs, Anchors{}, false)
	switch {
	case !rep.OK:
	case int64(len(evs)) < seq:
		rep.broken(int64(len(evs))+1, "", problem(CodeShorter))
	case seq > 0 && evs[seq-1].Hash != head:
		e := evs[seq-1]
		rep.broken(e.Seq, e.Kind, store.Problem(store.CodeEdited, store.EventName(e.Seq, e.Kind)))
	}
	a.mu.Lock()
	a.watch = watch{seen: true, version: v, stamp: stamp}
	switch {
	case a.problem != nil:
		a.mu.Unlock()
		return nil
	case rep.OK && (a.state.Seq != seq || int64(len(evs)) == seq):
		// nothing new, or the App's own command (or Refresh) moved the
		// state on meanwhile: what it read is newer than this
		a.mu.Unlock()
		return nil
	case rep.OK:
		a.seal = rep.Seal
		return a.keepLocked(evs[seq:])
	}
	st := NewState()
	for _, e := range evs[:max(0, min(len(evs), int(rep.BadSeq)-1))] {
		if err := st.Apply(e); err != nil {
			a.mu.Unlock()
			return err
		}
	}
	a.problem, a.state, a.seal = rep.Why, st, rep.Seal
	a.mu.Unlock()
	a.notify()
	return nil
}
