// Package forgery rewrites a record as an attacker who has the file and has
// read docs/store.md would, for the tests of the attacks on the arbiter's
// key (issue 24): it copies a record into a new file event by event, with
// edits, and signs every command, station and head signature anew with
// keys of its own.
//
// The signed messages are built here from the description in
// docs/store.md ("What is signed"), not with package match's code, so
// that the tests also show the description is enough to forge with — and
// that only the anchors written down elsewhere (the arbiter's first key,
// the match id, a head) catch such a record. Nothing outside tests imports
// this package.
package forgery

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"arbiter/store"
)

func fields(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = binary.BigEndian.AppendUint64(b, uint64(len(p)))
		b = append(b, p...)
	}
	return b
}

func i64(n int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }

func commandMessage(id, signer, station string, evs []store.Event) []byte {
	parts := [][]byte{[]byte("arbiter-command-v1"), []byte(id), []byte(signer), []byte(station),
		i64(evs[0].At.UnixNano()), i64(int64(len(evs)))}
	for _, e := range evs {
		parts = append(parts, i64(int64(e.Game)), []byte(e.Role), []byte(e.Kind), e.Payload)
	}
	return fields(parts...)
}

// PublicHex is a key's public half in hex, as the record holds it.
func PublicHex(k ed25519.PrivateKey) string {
	return hex.EncodeToString(k.Public().(ed25519.PublicKey))
}

func sign(k ed25519.PrivateKey, msg []byte) string { return hex.EncodeToString(ed25519.Sign(k, msg)) }

// NewKey is a fresh Ed25519 key.
func NewKey() ed25519.PrivateKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	return k
}

func stationRow(e store.Event, k ed25519.PrivateKey) store.Signature {
	return store.Signature{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: PublicHex(k),
		Sig: sign(k, fields([]byte("arbiter-station-v1"), []byte(e.Hash)))}
}

func headRow(e store.Event, k ed25519.PrivateKey) store.Signature {
	return store.Signature{Seq: e.Seq, Kind: store.SigHead, Count: 1, Key: PublicHex(k),
		Sig: sign(k, fields([]byte("arbiter-head-v1"), i64(e.Seq), []byte(e.Hash)))}
}

// Rewrite copies the record at src into the new file dst, passing each
// event through edit (which may change anything but its place), and signs
// it anew: every command and head signature with arbiter (the record's
// commands must all be signed by the arbiter's credential), every station
// signature with a key of the forger's in place of each station's key. It
// returns dst's events.
func Rewrite(ctx context.Context, src, dst string, arbiter ed25519.PrivateKey, edit func(e *store.Event)) ([]store.Event, error) {
	out, forged, sigs, err := rechain(ctx, src, dst, edit)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	stations := map[string]ed25519.PrivateKey{}
	stationFor := func(orig string) ed25519.PrivateKey {
		if stations[orig] == nil {
			stations[orig] = NewKey()
		}
		return stations[orig]
	}
	var rows []store.Signature
	for _, s := range sigs {
		e := forged[s.Seq-1]
		switch s.Kind {
		case store.SigCommand:
			if s.Signer != "arbiter" {
				return nil, fmt.Errorf("forgery: event %d is signed by the %s's credential; only the arbiter's commands are signed anew", s.Seq, s.Signer)
			}
			st := PublicHex(stationFor(s.Station))
			s.Station, s.Key, s.Sig = st, PublicHex(arbiter), sign(arbiter, commandMessage(s.Cmd, s.Signer, st, forged[s.Seq-1:s.Seq-1+s.Count]))
		case store.SigStation:
			s = stationRow(e, stationFor(s.Key))
		case store.SigHead:
			s = headRow(e, arbiter)
		default:
			return nil, fmt.Errorf("forgery: %s signatures are not signed anew", s.Kind)
		}
		rows = append(rows, s)
	}
	return forged, put(ctx, out, rows)
}

// rechain copies the events of the record at src into the new file dst,
// each passed through edit (given the event as src holds it) and chained
// anew by dst's Append, and returns dst (open; the caller closes it), its
// events and src's signature rows as they are.
func rechain(ctx context.Context, src, dst string, edit func(e *store.Event)) (*store.DB, []store.Event, []store.Signature, error) {
	in, err := store.OpenReadOnly(ctx, src)
	if err != nil {
		return nil, nil, nil, err
	}
	evs, sigs, err := in.Record(ctx)
	in.Close()
	if err != nil {
		return nil, nil, nil, err
	}
	out, err := store.Open(ctx, dst)
	if err != nil {
		return nil, nil, nil, err
	}
	var forged []store.Event
	if _, err := out.Update(ctx, func(tx *store.Tx) error {
		for _, e := range evs {
			edit(&e)
			e.Seq, e.Prev, e.Hash = 0, "", ""
			got, err := tx.Append(e)
			if err != nil {
				return err
			}
			forged = append(forged, got)
		}
		return nil
	}); err != nil {
		out.Close()
		return nil, nil, nil, err
	}
	return out, forged, sigs, nil
}

func put(ctx context.Context, db *store.DB, rows []store.Signature) error {
	_, err := db.Update(ctx, func(tx *store.Tx) error {
		for _, s := range rows {
			if err := tx.PutSignature(s); err != nil {
				return err
			}
		}
		return nil
	})
	return err
}

// AppendCommand appends e to the record at path as a command of one event
// signed by signer's credential with key, signed by a station key of the
// forger's, and with the head after it signed by head (nil: no head).
func AppendCommand(ctx context.Context, path string, e store.Event, signer string, key, head ed25519.PrivateKey) (store.Event, error) {
	db, got, err := appendOne(ctx, path, e)
	if err != nil {
		return got, err
	}
	defer db.Close()
	station, id := NewKey(), hex.EncodeToString(NewKey().Seed()[:16])
	rows := []store.Signature{{Seq: got.Seq, Kind: store.SigCommand, Count: 1, Cmd: id, Signer: signer, Station: PublicHex(station),
		Key: PublicHex(key), Sig: sign(key, commandMessage(id, signer, PublicHex(station), []store.Event{got}))}, stationRow(got, station)}
	if head != nil {
		rows = append(rows, headRow(got, head))
	}
	return got, put(ctx, db, rows)
}

// ReKey is the forgery of issue 24: the record at src rewritten into dst
// with a key of the forger's as the arbiter's in match.new, each event
// passed through edit, every signature made again with the forger's keys,
// and then the genuine arbiter credential (match.new's) appended as a
// credential.add signed by the forger's key, so that the arbiter's key at
// the record's end is the genuine one. It returns the forger's key.
func ReKey(ctx context.Context, src, dst string, edit func(e *store.Event)) (ed25519.PrivateKey, error) {
	forger := NewKey()
	var genuine json.RawMessage
	var bad error
	evs, err := Rewrite(ctx, src, dst, forger, func(e *store.Event) {
		if e.Kind == "match.new" {
			var p map[string]json.RawMessage
			if bad = json.Unmarshal(e.Payload, &p); bad != nil {
				return
			}
			genuine = p["credential"]
			p["credential"], _ = json.Marshal(map[string]string{"role": "arbiter", "kind": "key", "public_key": PublicHex(forger)})
			e.Payload, _ = json.Marshal(p)
		}
		edit(e)
	})
	switch {
	case err != nil:
		return nil, err
	case bad != nil:
		return nil, bad
	case genuine == nil:
		return nil, fmt.Errorf("forgery: %s has no arbiter credential in match.new", src)
	}
	last := evs[len(evs)-1]
	_, err = AppendCommand(ctx, dst, store.Event{Match: last.Match, At: last.At.Add(time.Second), Role: "arbiter", Actor: last.Actor,
		Kind: "credential.add", Payload: genuine}, "arbiter", forger, forger)
	return forger, err
}

// ResignTail is the forgery of a file holder on the tail of a station's
// record: the record at src copied into dst with each event from seq from
// on passed through edit (which may change anything but its place), every
// signature row kept as it is but the station signatures from from on,
// which a key of the forger's signs anew. A request signs the command given
// at another station, not the events the authority made of it, so the
// request rows stand as they were. It returns dst's events.
func ResignTail(ctx context.Context, src, dst string, from int64, edit func(e *store.Event)) ([]store.Event, error) {
	out, forged, sigs, err := rechain(ctx, src, dst, func(e *store.Event) {
		if e.Seq >= from {
			edit(e)
		}
	})
	if err != nil {
		return nil, err
	}
	defer out.Close()
	station := NewKey()
	rows := make([]store.Signature, 0, len(sigs))
	for _, s := range sigs {
		if s.Kind == store.SigStation && s.Seq >= from {
			s = stationRow(forged[s.Seq-1], station)
		}
		rows = append(rows, s)
	}
	return forged, put(ctx, out, rows)
}

// appendOne opens the record at path and appends e, chained by store's
// Append; it returns the record (open: the caller closes it) and the event
// as appended.
func appendOne(ctx context.Context, path string, e store.Event) (*store.DB, store.Event, error) {
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, store.Event{}, err
	}
	var got store.Event
	if _, err := db.Update(ctx, func(tx *store.Tx) error {
		got, err = tx.Append(e)
		return err
	}); err != nil {
		db.Close()
		return nil, got, err
	}
	return db, got, nil
}

// ReplayRequest appends e to the record at path as the events of the
// request row req (a request signed for another place in the record, kept
// as it is but for its seq), signed by a station key of the forger's.
func ReplayRequest(ctx context.Context, path string, e store.Event, req store.Signature) (store.Event, error) {
	db, got, err := appendOne(ctx, path, e)
	if err != nil {
		return got, err
	}
	defer db.Close()
	req.Seq, req.Count = got.Seq, 1
	return got, put(ctx, db, []store.Signature{req, stationRow(got, NewKey())})
}
