package store

import (
	"context"
	"fmt"
	"strings"
)

// Signature is one row of the signatures table: an Ed25519 signature kept
// beside the hash chain. The store does not interpret it; package match
// says what is signed and checks it (docs/store.md, "Signatures").
type Signature struct {
	Seq     int64  // the first (command) or only (station, head) event it covers
	Kind    string // "command", "station" or "head"
	Count   int64  // command: the number of events the command wrote; else 1
	Cmd     string // command: the command's id
	Signer  string // command: whose credential signed ("arbiter", "operator", "player:NAME")
	Station string // command: the station key named in the command
	Key     string // the public key, 64 lowercase hex
	Sig     string // the signature, 128 lowercase hex
	// Request: request only, the signed fields of a command given at
	// another station (JSON, match.SignedRequest), so that verify re-checks it.
	Request string
}

// Signature kinds.
const (
	SigCommand = "command"
	SigStation = "station"
	SigHead    = "head"
	SigRequest = "request" // the role's signature of a command sent to a station's authority
)

// PutSignature stores a signature in the transaction. A head signature
// that is already stored for the same event is kept as it is.
func (tx *Tx) PutSignature(s Signature) error {
	if err := tx.check(); err != nil {
		return err
	}
	if s.Count == 0 {
		s.Count = 1
	}
	put := sqlPutSignature
	if s.Kind == SigHead {
		put = sqlPutHead
	}
	err := tx.c.exec(tx.ctx, put, s.Seq, s.Kind, s.Count, s.Cmd, s.Signer, s.Station, s.Key, s.Sig, s.Request)
	if err != nil {
		return fmt.Errorf("store: put %s signature of event %d: %w", s.Kind, s.Seq, mapErr(err))
	}
	tx.signed = append(tx.signed, s)
	return nil
}

// Signatures returns every stored signature ordered by seq and kind. A file
// of schema 2 or older (opened read-only, not migrated) has none.
func (db *DB) Signatures(ctx context.Context) (sigs []Signature, err error) {
	err = db.withConn(ctx, func(c *conn) error {
		sigs, err = c.signatures(ctx)
		return err
	})
	return sigs, err
}

// Record is the whole record read from one snapshot: the events and the
// signatures beside them.
func (db *DB) Record(ctx context.Context) (evs []Event, sigs []Signature, err error) {
	err = db.withConn(ctx, func(c *conn) error {
		return c.in(ctx, func() error {
			if evs, err = c.events(ctx, sqlEventsAfter, int64(0)); err != nil {
				return fmt.Errorf("store: record: %w", err)
			}
			sigs, err = c.signatures(ctx)
			return err
		})
	})
	if err != nil {
		return nil, nil, err
	}
	return evs, sigs, nil
}

// Signatures in the transaction's snapshot.
func (tx *Tx) Signatures() ([]Signature, error) {
	if err := tx.check(); err != nil {
		return nil, err
	}
	return tx.c.signatures(tx.ctx)
}

// VerifyEvents checks the hash chain of evs as Verify does (evs must be the
// whole log in seq order).
func VerifyEvents(evs []Event, wantHead string) VerifyReport {
	return verifyChain(evs, strings.ToLower(strings.TrimSpace(wantHead)), 0)
}

// VerifyEventsAfter is VerifyEvents for evs whose first checked events
// were verified before (a station's replica, as it applied them): their
// hashes are taken as their own, and only the links between events are
// checked again for them, so that checking one more event does not hash
// the whole record again.
func VerifyEventsAfter(evs []Event, wantHead string, checked int) VerifyReport {
	return verifyChain(evs, strings.ToLower(strings.TrimSpace(wantHead)), checked)
}
