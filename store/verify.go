package store

import (
	"context"
	"fmt"
	"strings"

	"arbiter/internal/phrase"
)

// VerifyReport is the result of checking the hash chain.
type VerifyReport struct {
	OK      bool
	Events  int64
	Head    string // 64 lowercase hex of the last event's hash
	BadSeq  int64  // first event that does not match (0 if OK)
	BadKind string // the kind of the event at BadSeq as recorded, "" if it is missing
	Problem string // one sentence saying what is wrong, in English (Why's), "" if OK
	// Why is the problem as a phrase (store/problems.go: its code and
	// arguments), which each face says in its words; nil if OK.
	Why *phrase.Error
	// HeadSeq is the Seq of the event whose hash equals the wantHead passed
	// to Verify (0 if none was given or it was not found). Events after it
	// were appended after that head was written down.
	HeadSeq int64
}

// Verify reads the whole log in seq (rowid) order from one snapshot,
// recomputes every event's hash and checks every Prev link. It reports the
// first event at which the chain breaks and says how: edited (hash mismatch),
// missing (a gap in Seq, or deleted and renumbered), out of order (an event
// whose hash is valid only under another Seq), inserted (events that sit
// between an event and the predecessor it recorded), or a copy of an earlier
// event.
//
// If wantHead is not "", it must equal the hash of some event in the chain —
// normally the head hash written on the scoresheet or printed at the end of
// a session. This catches what a chain cannot show by itself: a cut-off tail
// and a chain rebuilt from scratch. When only the head check fails, BadSeq
// is Events+1.
//
// A broken chain is reported in the VerifyReport, not as an error; the error
// is for failures to read the file.
func (db *DB) Verify(ctx context.Context, wantHead string) (VerifyReport, error) {
	var evs []Event
	err := db.withConn(ctx, func(c *conn) (err error) {
		evs, err = c.events(ctx, sqlEventsAfter, int64(0))
		return err
	})
	if err != nil {
		return VerifyReport{}, fmt.Errorf("store: verify: %w", err)
	}
	return verifyChain(evs, strings.ToLower(strings.TrimSpace(wantHead)), 0), nil
}

// verifyChain checks the chain of evs; the first checked were verified
// before, so their hashes are taken as their own (only the links between
// events are checked for them).
func verifyChain(evs []Event, wantHead string, checked int) VerifyReport {
	r := VerifyReport{Events: int64(len(evs))}
	if len(evs) > 0 {
		r.Head = evs[len(evs)-1].Hash
	}
	kindAt := func(seq int64) string {
		for _, e := range evs {
			if e.Seq == seq {
				return e.Kind
			}
		}
		return ""
	}
	// name names an event by its seq and kind: "event 7 (move)".
	name := func(seq int64) *phrase.Error { return EventName(seq, kindAt(seq)) }
	bad := func(seq int64, code Code, a ...any) VerifyReport {
		r.BadSeq = seq
		r.BadKind = kindAt(seq)
		r.Why = Problem(code, a...)
		r.Problem = r.Why.Error()
		return r
	}
	seqOfHash := make(map[string]int64, len(evs))
	for _, e := range evs {
		seqOfHash[e.Hash] = e.Seq
	}
	prev := GenesisPrev
	for i, e := range evs {
		p := int64(i) + 1
		if e.Seq != p {
			r := bad(p, CodeMissingGoesOn, p, name(e.Seq))
			r.BadKind = ""
			return r
		}
		selfOK := i < checked || EventHash(e) == e.Hash
		if selfOK && e.Prev == prev {
			prev = e.Hash
			continue
		}
		if selfOK {
			// A self-consistent event that does not link to its predecessor.
			if p == 1 {
				return bad(1, CodeNotFirst, name(1))
			}
			if q, ok := seqOfHash[e.Prev]; ok && q < p-1 {
				return bad(q+1, CodeInsertedBefore, name(q+1), p, q)
			}
			if e.Prev == GenesisPrev && p > 1 {
				return bad(1, CodeInsertedAsFirst, name(1), p)
			}
			return bad(p-1, CodeRehashed, name(p-1), p)
		}
		s := recoverSeq(e, int64(2*len(evs)+16))
		switch {
		case s == 0:
			return bad(p, CodeEdited, name(p))
		case s < p && evs[s-1].Hash == e.Hash:
			// The row is event s again, as it was: a duplicate, which no
			// index refuses (docs/store.md, "No index but the key").
			return bad(p, CodeCopy, name(p), s)
		case s < p:
			return bad(s, CodeInsertedMoved, name(s), s, p)
		case s > p:
			for _, f := range evs[i+1:] {
				if f.Prev == prev {
					return bad(p, CodeOutOfOrder, name(p), s)
				}
			}
			var r VerifyReport
			if s == p+1 {
				r = bad(p, CodeMissingRenumbered, p, name(p), s)
			} else {
				r = bad(p, CodeManyMissing, p, s-1, name(p), s)
			}
			r.BadKind = ""
			return r
		default:
			// Valid under its own Seq but the hash disagrees: cannot happen,
			// since selfOK was false; treat as an edit.
			return bad(p, CodeEdited, name(p))
		}
	}
	if wantHead != "" {
		s, ok := seqOfHash[wantHead]
		if !ok {
			return bad(r.Events+1, CodeHeadNotInChain, shortHash(wantHead))
		}
		r.HeadSeq = s
	}
	r.OK = true
	return r
}

// recoverSeq returns the Seq under which e's stored hash is valid, searching
// 1..limit, or 0 if there is none (the event's content was changed).
func recoverSeq(e Event, limit int64) int64 {
	for s := int64(1); s <= limit; s++ {
		e.Seq = s
		if EventHash(e) == e.Hash {
			return s
		}
	}
	return 0
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
