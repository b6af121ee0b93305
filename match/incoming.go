package match

import (
	"maps"
	"slices"
	"strings"

	"arbiter/store"
)

// IncomingWalk is CheckIncoming's walk through a station's record, kept by
// its replica between the commands it applies (docs/stations.md, "The
// record on every station"): the events walked, the credentials they
// registered, whether the match is protected and from which event, the
// arbiter's key at each event, the last head signature the record holds
// and the signatures counted. A command coming in is checked by advancing
// the walk over its events only: every link, every signature's presence
// and key, and cryptographically every signature after the last head
// signature that holds, as CheckIncoming checks them on the whole record.
// The walk of the events before is not done again: they do not change,
// what their checks depend on (the credentials and keys registered before
// them, their own signatures) does not change, and the one thing that can —
// the last head signature, from which on signatures are checked
// cryptographically — only moves forward, which checks them less, never
// more (TestAnIncomingWalkAdvancedCommandByCommandIsTheWalkOfTheWholeRecord).
//
// The zero value has walked nothing. Check does not change the walk: it
// returns the walk advanced, which the caller keeps once the events are
// committed (one Check at a time on a walk and the walks it returned: they
// share the arbiter's keyring).
type IncomingWalk struct {
	walked        int
	creds         map[string]string // credential ID -> hex public key; copied before a change
	protected     bool
	protectedFrom int64
	signatures    int // found valid at the events walked (the head's not counted)
	keys          ArbiterKeyring
	head          store.Signature // the head signature at the highest seq the record holds (Seq 0: none)
	headIs        int8            // 0: not verified yet, 1: holds, -1: does not
	first         *firstEvent
	stations      stationKeys // the match's CA and the authority's certified key
}

// Walked is the number of events walked.
func (w *IncomingWalk) Walked() int { return w.walked }

// LastHead is the head signature at the highest seq the walk knows of
// (Seq 0: none).
func (w *IncomingWalk) LastHead() store.Signature { return w.head }

// NoteHead takes a head signature put beside the record other than with a
// command (the heads stream): it counts from the next Check, verified
// there, if it is the one at the highest seq.
func (w *IncomingWalk) NoteHead(h store.Signature) {
	if h.Kind == store.SigHead && h.Seq > w.head.Seq {
		w.head, w.headIs = h, 0
	}
}

// Check checks the record prior+added as CheckIncoming(prior+added, the
// record's signatures) would, where the walk has walked the first Walked()
// events of prior (hashed when they were applied) and sigs holds the
// signatures of the events after them (any others are not looked at, but
// for head signatures). It returns the report and, when the record holds,
// the walk advanced over it (nil when not).
func (w *IncomingWalk) Check(prior, added []store.Event, sigs []store.Signature) (RecordReport, *IncomingWalk) {
	return w.check(prior, added, sigs, false)
}

// CheckEvery is Check with every signature of the added events verified
// cryptographically, also those at or before the last head signature: the
// head vouches for the events' hashes, not for the signature rows beside
// them, which the watch (App.Watch) compares with the rows it walked once
// it has walked them. Events its App took without a check (a station's
// own, applied through the App's connection, which moves no stamp) are
// walked only at the next change another writer makes — after which an
// altered row of theirs under a head signed meanwhile went unseen until
// the next verify (the station's watch test failed so about one run in
// three).
func (w *IncomingWalk) CheckEvery(prior, added []store.Event, sigs []store.Signature) (RecordReport, *IncomingWalk) {
	return w.check(prior, added, sigs, true)
}

func (w *IncomingWalk) check(prior, added []store.Event, sigs []store.Signature, every bool) (RecordReport, *IncomingWalk) {
	v := eventView{prior: prior, added: added}
	n := v.len()
	var r RecordReport
	if w.walked > n {
		r.Events = int64(n)
		r.broken(int64(n)+1, "", problem(CodeShorter))
		return r, nil
	}
	r.VerifyReport = w.chain(v, len(prior))
	if !r.OK {
		return r, nil
	}
	sorted := slices.Clone(sigs)
	slices.SortStableFunc(sorted, func(a, b store.Signature) int {
		if a.Seq != b.Seq {
			return int(a.Seq - b.Seq)
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	k := &recordCheck{evs: v, start: w.walked, cmds: map[int64]store.Signature{}, stations: map[int64]store.Signature{},
		creds: maps.Clone(w.creds), protected: w.protected, head: w.head, headIs: w.headIs, first: w.first, full: every, sk: w.stations}
	if k.creds == nil {
		k.creds = map[string]string{}
	}
	last := w.head
	for _, s := range sorted {
		if s.Seq <= int64(w.walked) && s.Kind != store.SigHead {
			continue
		}
		switch s.Kind {
		case store.SigCommand, store.SigRequest:
			k.cmds[s.Seq] = s
		case store.SigStation:
			k.stations[s.Seq] = s
		case store.SigHead:
			if s.Seq > last.Seq { // the first at a seq: the record keeps it (INSERT OR IGNORE)
				last = s
			}
		}
	}
	keys := w.keys
	for i := keys.Len(); i < n; i++ {
		keys.Add(*v.at(i))
	}
	k.keys = &keys
	if last.Seq > 0 {
		k.heads = []store.Signature{last}
		if k.headOK(last) {
			k.from = last.Seq
		}
	}
	r.ProtectedFrom, r.Signatures = w.protectedFrom, w.signatures
	if k.first == nil && n > 0 {
		k.first = firstOf(v)
	}
	if !k.walk(&r) {
		return r, nil
	}
	next := &IncomingWalk{walked: n, creds: k.creds, protected: k.protected, protectedFrom: r.ProtectedFrom,
		signatures: k.counted, keys: keys, head: last, first: k.first, stations: k.sk}
	if k.head == last {
		next.headIs = k.headIs
	}
	return r, next
}

// chain checks the links and hashes of the events not walked yet (the
// hashes of prior's were checked as they were applied), as
// store.VerifyEventsAfter checks them in the whole record; when one does
// not hold, the report is VerifyEventsAfter's own.
func (w *IncomingWalk) chain(v eventView, hashed int) store.VerifyReport {
	n := v.len()
	prev := store.GenesisPrev
	if w.walked > 0 {
		prev = v.at(w.walked - 1).Hash
	}
	for i := w.walked; i < n; i++ {
		e := v.at(i)
		if e.Seq != int64(i)+1 || e.Prev != prev || (i >= hashed && store.EventHash(*e) != e.Hash) {
			return store.VerifyEventsAfter(v.all(), "", hashed)
		}
		prev = e.Hash
	}
	r := store.VerifyReport{OK: true, Events: int64(n)}
	if n > 0 {
		r.Head = v.at(n - 1).Hash
	}
	return r
}
