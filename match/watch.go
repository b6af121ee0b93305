package match

import (
	"context"
	"strings"

	"arbiter/internal/phrase"
	"arbiter/store"
)

// watch is what Watch last saw of the record outside the App's own
// commits — SQLite's data_version on the App's connection and the main
// file's stamp — and what its last check found holding: the walk through
// the record (the signatures after the last head verified once, not at
// every check) and the signature rows it walked, which a later check
// finds as they were or says edited.
type watch struct {
	seen    bool
	version int64
	stamp   store.Stamp
	walk    *IncomingWalk
	sigs    []store.Signature
	// ids: the command ids of the events walked; pos: the match after them
	// (checkNew: what only Verify checked before)
	ids commandIDs
	pos *State
}

// Watch looks whether anything but the App's own commits changed the
// record since it last looked, and if so checks the whole record again as
// New does (every hash, the last signed head and the signatures after
// it): an edit of any event, old or new, made while the App runs is
// found at the next call, not at the next open. It is the console's poll
// (every tenth of a second): while nothing changes it costs one pragma
// and two stat(2)s; SQLite's data_version changes when another connection
// commits (sqlite3, the command line, the engine bridge, a station's
// replica written in this process), the main file's stamp when its bytes
// change by other means (a hex editor), the write-ahead log's when bytes
// are written into it behind SQLite (store.DB.WALChanged), and none when
// someone only reads it. The first call checks the record whole.
//
// A check after the first walks only the events added since the last
// (store.IncomingWalk: their signatures verified once) and compares every
// signature row the last check walked with the row the record holds now:
// a row edited, of any event, old or new, is a problem
// (CodeSignatureEdited, or what Verify's check of every signature says of
// it). Every event's hash is computed again at each check.
//
// A record that no longer verifies is taken as New takes it: the problem
// is kept (Why), the state is rebuilt from the events before the first
// that fails (the clocks stand at the last sound instant), nothing more
// is appended, and the function set with SetChanged is told. A record
// that verifies but no longer holds the events the state was built from
// (cut off, or rewritten with its hashes made anew) is taken the same
// way, and so is a record whose file is no longer under its name (another
// file renamed over it, or removed: CodeFileReplaced), or whose -wal or
// -shm is no longer the one its connection uses (CodeSideFileReplaced,
// store.DB.SideFileReplaced), whose state is kept as it was. Events
// another process appended are taken as Refresh takes them.
func (a *App) Watch(ctx context.Context) error {
	a.watchMu.Lock()
	defer a.watchMu.Unlock()
	a.mu.Lock()
	broken, w, base := a.problem != nil, a.watch, a.state
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
	wal := a.db.WALChanged()
	var gone *phrase.Error
	if a.db.Replaced(stamp) {
		gone = problem(CodeFileReplaced, a.db.Path())
	} else if side := a.db.SideFileReplaced(); side != "" {
		// the App's own reads find the record as it was: the check below
		// finds nothing, and its commits would go where nobody finds them
		gone = problem(CodeSideFileReplaced, side)
	}
	if gone != nil {
		a.mu.Lock()
		a.problem = gone
		a.mu.Unlock()
		a.notify()
		return nil
	}
	if w.seen && v == w.version && stamp.Same(w.stamp) && !wal {
		return nil
	}
	a.mu.Lock()
	a.watch.seen = false // until this check ends: a call after an error checks again
	a.mu.Unlock()
	if !w.seen || v == w.version && (!stamp.Same(w.stamp) || wal) {
		// bytes may have changed behind SQLite: read them from the file
		// (another connection's commit, data_version moved, has SQLite
		// drop every page it holds by itself). The first check too: the
		// pages the App's own commits left cached hid bytes written into
		// the -wal before it (a station's first watch, a second after it
		// started: the edit went unseen until the next open)
		if err := a.db.Uncache(ctx); err != nil {
			return err
		}
	}
	evs, sigs, err := a.db.Record(ctx)
	if err != nil {
		return err
	}
	rep, walk := w.check(evs, sigs)
	switch {
	case !rep.OK:
	case int64(len(evs)) < seq:
		rep.broken(int64(len(evs))+1, "", problem(CodeShorter))
	case seq > 0 && evs[seq-1].Hash != head:
		e := evs[seq-1]
		rep.broken(e.Seq, e.Kind, store.Problem(store.CodeEdited, store.EventName(e.Seq, e.Kind)))
	}
	var ids commandIDs
	var pos *State
	if rep.OK {
		ids, pos = w.checkNew(&rep, evs, sigs, base)
	}
	// the schema as New checks it (an object added, a guard trigger
	// dropped or changed: branch htrust; a table's definition rewritten,
	// rows outside the chain: branch hattack), at every commit of another
	// connection: a definition rewritten with PRAGMA writable_schema, and
	// a row put in at seq -1, move data_version but not SQLite's
	// schema_version, which alone was looked at before (a few reads of
	// the schema and one key range, beside the walk's whole read)
	if rep.OK && (!w.seen || v != w.version) {
		if err := checkSchema(ctx, a.db, &rep, len(evs)); err != nil {
			return err
		}
	}
	a.mu.Lock()
	a.watch = watch{seen: true, version: v, stamp: stamp}
	if rep.OK {
		a.watch.walk, a.watch.sigs, a.watch.ids, a.watch.pos = walk, sigs, ids, pos
	}
	switch {
	case a.problem != nil:
		a.mu.Unlock()
		return nil
	case rep.OK && (a.state.Seq != seq || int64(len(evs)) == seq):
		// nothing new, or the App's own command (or Refresh) moved the
		// state on meanwhile: what it read is newer than this
		a.mu.Unlock()
		return nil
	case rep.OK && a.state == base && pos != nil && pos.Seq == int64(len(evs)):
		// checkNew replayed them on the state: taken as keepLocked takes them
		a.seal, a.state = rep.Seal, pos
		a.mu.Unlock()
		a.notify()
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

// check checks the record evs, sigs as New checks it. After a check that
// held (w.walk), the events it walked are hashed again, the signature rows
// it walked must be as they were, and only the events after them are
// walked, every signature of theirs verified (IncomingWalk.CheckEvery: also
// under a later head, which vouches for the events, not for their rows);
// else the record is walked whole. A
// signature row that is not as it was is named by Verify's check of every
// signature, or, if that holds, as edited. It returns the report and, when
// the record holds, the walk through it.
func (w watch) check(evs []store.Event, sigs []store.Signature) (RecordReport, *IncomingWalk) {
	n := 0
	if w.walk != nil {
		n = w.walk.Walked()
	}
	if n > 0 {
		// a row of an event no longer in the record is the record cut
		// short, which the whole walk and the App's length say
		// (record-check-shorter), not an edited row of "event 4 ()"
		if bad, ok := sameRows(w.sigs, sigs, int64(n)); !ok && int(bad.Seq) <= len(evs) {
			if rep := checkRecord(evs, sigs, Anchors{}, true); !rep.OK {
				return rep, nil
			}
			var rep RecordReport
			rep.VerifyReport = store.VerifyEvents(evs, "")
			kind := ""
			if int(bad.Seq) >= 1 && int(bad.Seq) <= len(evs) {
				kind = evs[bad.Seq-1].Kind
			}
			rep.broken(bad.Seq, kind, problem(CodeSignatureEdited, bad.Seq, kind, bad.Kind))
			return rep, nil
		}
		if n > len(evs) {
			n = 0 // cut short: the whole walk says so
		} else if r := store.VerifyEvents(evs[:n], ""); !r.OK {
			return checkRecord(evs, sigs, Anchors{}, false), nil
		}
	}
	if n == 0 || w.walk == nil {
		return (&IncomingWalk{}).Check(nil, evs, sigs)
	}
	// the walk looks at the rows of the events after those it walked and
	// at head signatures only (the others were compared above): it sorts
	// what it is given, so it is given no more
	var after []store.Signature
	for _, s := range sigs {
		if s.Seq > int64(n) || s.Kind == store.SigHead {
			after = append(after, s)
		}
	}
	return w.walk.CheckEvery(evs[:n], evs[n:], after)
}

// checkNew runs on the events the check walked since the last (all, the
// first time) what Verify checks beyond the walk (verifyWhole): a command
// id the record holds already (CodeReplayedCommand) and, replayed on the
// match after the events before them, a move given at another station
// that is not the move its role signed (CodeRequestOtherMove). Before
// branch hwal only Verify ran them: a request replayed at the record's end
// while a console or a station ran on it was taken, its move played, until
// the next verify. The cost is the new events' (their rows, each applied
// once; the App takes the state so replayed when it is the one they
// follow), not the record's. r is the walk's report, which holds; it
// returns the ids and the match after the events (nil: not known, when
// one does not apply: the next check starts from the App's state).
func (w watch) checkNew(r *RecordReport, evs []store.Event, sigs []store.Signature, base *State) (commandIDs, *State) {
	ids, from := w.ids, int64(0)
	if ids == nil || w.walk == nil {
		ids = commandIDs{}
	} else {
		from = int64(w.walk.Walked())
	}
	ids.check(r, evs, rowsAfter(sigs, from))
	if !r.OK {
		return nil, nil
	}
	st := w.pos
	if st == nil || w.walk == nil {
		st = base // the events before it were checked as New checks them
	}
	if st.Seq > int64(len(evs)) {
		return ids, nil
	}
	if st != base && base.Seq > st.Seq && base.Seq <= int64(len(evs)) && !requestsUpTo(rowsAfter(sigs, st.Seq), base.Seq) {
		// The replay from the last check's match up to the App's state
		// checks no signed move (no request among those events) and ends
		// where the App's state stands: those are the events the state
		// was built from (the walk verified their hashes, Watch the
		// state's head among them). It starts there: a station's check
		// after its own checkpoint replayed every move it had applied
		// since its first check (3-12 ms on two loaded cores at 450
		// events, docs/performance.md, "The station figure's tail, second
		// pass").
		st = base
	}
	m := newMovesReplay(rowsAfter(sigs, st.Seq))
	st = st.clone()
	for _, e := range evs[st.Seq:] {
		ok, stop := m.check(r, st, e)
		if !ok {
			return nil, nil
		}
		if stop {
			m = &movesReplay{} // not readable on the match: the replay's to report, as Verify leaves it
		}
		if st.Apply(e) != nil {
			return ids, nil
		}
	}
	return ids, st
}

// rowsAfter is the signature rows of sigs (in the store's order, by seq)
// of the events after event from.
func rowsAfter(sigs []store.Signature, from int64) []store.Signature {
	i := len(sigs)
	for i > 0 && sigs[i-1].Seq > from {
		i--
	}
	return sigs[i:]
}

// sameRows reports whether every signature row of old is in now as it was
// and now holds no other row of the first n events but a head signature
// (the arbiter signs a head after its event); when not, bad is a row that
// differs (as old held it, or as now holds it when old had none). Both
// are in the store's order, by seq and kind.
func sameRows(old, now []store.Signature, n int64) (bad store.Signature, ok bool) {
	j := 0
	for _, o := range old {
		for j < len(now) && before(now[j], o) {
			if now[j].Seq <= n && now[j].Kind != store.SigHead {
				return now[j], false // a row the last check did not walk
			}
			j++
		}
		if j == len(now) || now[j] != o {
			return o, false
		}
		j++
	}
	for ; j < len(now); j++ {
		if now[j].Seq <= n && now[j].Kind != store.SigHead {
			return now[j], false
		}
	}
	return store.Signature{}, true
}

// before reports whether a comes before b in the store's order.
func before(a, b store.Signature) bool {
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	return strings.Compare(a.Kind, b.Kind) < 0
}

// requestsUpTo reports whether rows (in the store's order, by seq) hold a
// request's signature of an event up to seq.
func requestsUpTo(rows []store.Signature, seq int64) bool {
	for _, s := range rows {
		if s.Seq > seq {
			return false
		}
		if s.Kind == store.SigRequest {
			return true
		}
	}
	return false
}
