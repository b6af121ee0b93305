package match

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"arbiter/store"
)

// Messages signed beside the hash chain (docs/store.md, "Signatures"). Each
// is a sequence of fields, each written as its length (8 bytes, big-endian)
// followed by its bytes, as in the chain's own encoding.

func fields(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = binary.BigEndian.AppendUint64(b, uint64(len(p)))
		b = append(b, p...)
	}
	return b
}

func i64(n int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }

// CommandMessage is what a role signs for a command: its id, whose
// credential signs, the station that will append it, its instant and, for
// each event it writes, the game, role, kind and payload (its arguments as
// they will stand in the record).
func CommandMessage(id, signer, station string, evs []store.Event) []byte {
	parts := [][]byte{[]byte("arbiter-command-v1"), []byte(id), []byte(signer), []byte(station),
		i64(evs[0].At.UnixNano()), i64(int64(len(evs)))}
	for _, e := range evs {
		parts = append(parts, i64(int64(e.Game)), []byte(e.Role), []byte(e.Kind), e.Payload)
	}
	return fields(parts...)
}

// StationMessage is what the appending station signs: the event's hash.
func StationMessage(hash string) []byte {
	return fields([]byte("arbiter-station-v1"), []byte(hash))
}

// HeadMessage is what the arbiter signs for the chain's head at event seq.
func HeadMessage(seq int64, hash string) []byte {
	return fields([]byte("arbiter-head-v1"), i64(seq), []byte(hash))
}

func pubHex(k ed25519.PrivateKey) string { return hex.EncodeToString(k.Public().(ed25519.PublicKey)) }

func sign(k ed25519.PrivateKey, msg []byte) string { return hex.EncodeToString(ed25519.Sign(k, msg)) }

func verifySig(pub, sig string, msg []byte) bool {
	p, err1 := hex.DecodeString(pub)
	s, err2 := hex.DecodeString(sig)
	if err1 != nil || err2 != nil || len(p) != ed25519.PublicKeySize || len(s) != ed25519.SignatureSize {
		return false
	}
	return ed25519.Verify(ed25519.PublicKey(p), msg, s)
}

func newStationKey() ed25519.PrivateKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return k
}

func newCommandID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// signatures are the rows a command's events get: the command's signature
// by signer's key (if any), the station's signature of each event's hash
// and, with the arbiter's key, his signature of the new head when a game
// ended in the command (or head is set).
//
// A command given at another station (req) gets, instead of the command's
// signature, its request signature by the signer's credential (pub).
func signatures(evs []store.Event, signer string, key ed25519.PrivateKey, req *SignedRequest, station, arbiter ed25519.PrivateKey, head bool) []store.Signature {
	var out []store.Signature
	if len(evs) == 0 {
		return nil
	}
	sp := pubHex(station)
	if req != nil {
		out = append(out, requestRow(req, req.pub, evs[0].Seq, len(evs)))
	} else if key != nil {
		id := newCommandID()
		out = append(out, store.Signature{Seq: evs[0].Seq, Kind: store.SigCommand, Count: int64(len(evs)), Cmd: id,
			Signer: signer, Station: sp, Key: pubHex(key), Sig: sign(key, CommandMessage(id, signer, sp, evs))})
	}
	for _, e := range evs {
		out = append(out, store.Signature{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: sp, Sig: sign(station, StationMessage(e.Hash))})
		if e.Kind == KindGameEnd {
			head = true
		}
	}
	if arbiter != nil && head {
		last := evs[len(evs)-1]
		out = append(out, headSignature(arbiter, last.Seq, last.Hash))
	}
	return out
}

func headSignature(k ed25519.PrivateKey, seq int64, hash string) store.Signature {
	return store.Signature{Seq: seq, Kind: store.SigHead, Count: 1, Key: pubHex(k), Sig: sign(k, HeadMessage(seq, hash))}
}

// Seal is what a report prints to show the record is the arbiter's: the
// last head he signed and his key's fingerprint.
type Seal struct {
	Protected  bool   // the match has an arbiter credential
	Signed     bool   // events carry signatures (false for older PIN records)
	ArbiterKey string // fingerprint (SHA-256 of the public key, hex) of the arbiter's key at the head
	HeadSeq    int64  // the event whose hash the arbiter signed last (0: none yet)
	Head       string // that event's hash
	Signature  string // the arbiter's signature of HeadMessage(HeadSeq, Head), hex
}

// RecordReport is the result of checking the record: the hash chain, then
// every signature beside it.
type RecordReport struct {
	store.VerifyReport
	Seal          Seal
	ProtectedFrom int64 // the first event recorded under an arbiter credential (0: never)
	Signatures    int   // signatures found valid
	Unsigned      int64 // events after the last signed head
}

// VerifyRecord checks the whole record of db: the chain (docs/store.md),
// every signature, the arbiter's head signatures and, when given, that
// wantHead is in the chain and that the arbiter's key has the fingerprint
// wantKey (a prefix of 16 or more hex digits is enough). The first event at
// which anything fails is named by seq and kind.
func VerifyRecord(ctx context.Context, db *store.DB, wantHead, wantKey string) (RecordReport, error) {
	evs, sigs, err := db.Record(ctx)
	if err != nil {
		return RecordReport{}, err
	}
	return checkRecord(evs, sigs, wantHead, wantKey, true), nil
}

// checkRecord checks evs and sigs. With full false only the last head
// signature and the signatures after it are checked cryptographically
// (what every command does on opening); every signature's presence and key
// are checked either way.
func checkRecord(evs []store.Event, sigs []store.Signature, wantHead, wantKey string, full bool) RecordReport {
	var r RecordReport
	r.VerifyReport = store.VerifyEvents(evs, wantHead)
	if !r.OK {
		return r
	}
	fail := func(i int, format string, a ...any) RecordReport {
		e := evs[i]
		r.OK = false
		r.BadSeq, r.BadKind = e.Seq, e.Kind
		r.Problem = fmt.Sprintf("event %d (%s) ", e.Seq, e.Kind) + fmt.Sprintf(format, a...)
		return r
	}
	cmds := map[int64]store.Signature{}
	stations := map[int64]store.Signature{}
	var heads []store.Signature
	for _, s := range sigs {
		switch s.Kind {
		case store.SigCommand, store.SigRequest:
			cmds[s.Seq] = s
		case store.SigStation:
			stations[s.Seq] = s
		case store.SigHead:
			heads = append(heads, s)
		}
	}
	// Pass 1: the arbiter's key at each event, from the credential events
	// (no cryptography), to find the last head signature to start from.
	arbAt := make([]string, len(evs))     // hex public key valid after event i
	arbBefore := make([]string, len(evs)) // and before it (a re-key's own head is signed by the old key)
	cur := ""
	for i, e := range evs {
		arbBefore[i] = cur
		if c := credentialIn(e); c != nil && c.Role == "arbiter" {
			cur = c.PublicKey
		}
		arbAt[i] = cur
	}
	// Only on opening (full false): the last head signature, if it
	// verifies, vouches for everything before it, so only later events'
	// signatures are checked. Otherwise every signature is checked, in
	// order, so that the first event that fails is named.
	headOK := func(h store.Signature) bool {
		i := int(h.Seq - 1)
		return h.Seq >= 1 && h.Seq <= int64(len(evs)) && h.Key != "" && (h.Key == arbAt[i] || h.Key == arbBefore[i]) &&
			verifySig(h.Key, h.Sig, HeadMessage(h.Seq, evs[i].Hash))
	}
	from := int64(0)
	if !full && len(heads) > 0 && headOK(heads[len(heads)-1]) {
		from = heads[len(heads)-1].Seq
	}
	crypto := func(seq int64) bool { return full || seq > from }
	creds := map[string]string{} // credential ID -> hex public key
	protected := false
	for i := 0; i < len(evs); {
		e := evs[i]
		c, hasCmd := cmds[e.Seq]
		if !protected {
			if cred := credentialIn(e); cred != nil && cred.Role == "arbiter" {
				protected = true
				r.ProtectedFrom = e.Seq
			} else if hasCmd || stations[e.Seq].Key != "" {
				return fail(i, "carries signatures although the match was not protected then (signatures were added to an unprotected record)")
			} else {
				i++
				continue
			}
		}
		if !hasCmd {
			if e.Kind != KindAuthFail && e.Role != string(RoleSystem) {
				return fail(i, "carries no signature of a credential (it was added or changed without one)")
			}
			if bad := checkStation(e, stations[e.Seq], "", crypto(e.Seq)); bad != "" {
				return fail(i, "%s", bad)
			}
			r.Signatures++
			i++
			continue
		}
		if c.Count < 1 || i+int(c.Count) > len(evs) {
			return fail(i, "has a command signature that covers events not in the record (the record was cut off or events were deleted)")
		}
		group := evs[i : i+int(c.Count)]
		want := creds[c.Signer]
		if want == "" && c.Signer == "arbiter" {
			if cred := credentialIn(e); cred != nil && cred.Role == "arbiter" {
				want = cred.PublicKey // a new arbiter credential signs its own registration
			}
		}
		if want == "" || c.Key != want {
			return fail(i, "is signed with a key that is not the %s's credential", c.Signer)
		}
		certified, msg := c.Station, []byte(nil)
		if c.Kind == store.SigRequest {
			// given at another station: the role signed the request, and
			// the events are certified by the one station that appended them
			req, bad := requestOf(c)
			if bad != "" {
				return fail(i, "%s", bad)
			}
			if bad := checkRequest(req, evs, i); bad != "" {
				if req.Seq >= 1 && req.Seq <= int64(i) {
					return fail(int(req.Seq-1), "does not match the record the %s signed a later request on, at event %d (it was edited and re-hashed)", c.Signer, e.Seq)
				}
				return fail(i, "%s", bad)
			}
			certified, msg = stations[e.Seq].Key, req.RequestMessage()
		}
		for k, g := range group {
			if !signerMay(c.Signer, g) {
				return fail(i+k, "was recorded for the %s but signed with the %s's credential", g.Role, c.Signer)
			}
			if bad := checkStation(g, stations[g.Seq], certified, crypto(g.Seq)); bad != "" {
				return fail(i+k, "%s", bad)
			}
			r.Signatures++
		}
		if msg == nil {
			msg = CommandMessage(c.Cmd, c.Signer, c.Station, group)
		}
		if crypto(group[len(group)-1].Seq) && !verifySig(c.Key, c.Sig, msg) {
			return fail(i, "does not match the command the %s signed (it was edited, reordered or re-hashed)", c.Signer)
		}
		r.Signatures++
		for _, g := range group {
			if cred := credentialIn(g); cred != nil {
				creds[cred.ID()] = cred.PublicKey
			}
		}
		i += int(c.Count)
	}
	for j := len(heads) - 1; j >= 0; j-- {
		h := heads[j]
		if h.Seq < 1 || h.Seq > int64(len(evs)) {
			r.OK, r.BadSeq, r.Problem = false, h.Seq, fmt.Sprintf("a head signature names event %d, which is not in the record (the record was cut off)", h.Seq)
			return r
		}
		if (full || h.Seq >= from) && !headOK(h) {
			return fail(int(h.Seq-1), "does not match the head the arbiter signed there (the record was rewritten up to this event)")
		}
		r.Signatures++
		if r.Seal.HeadSeq == 0 {
			r.Seal.HeadSeq, r.Seal.Head, r.Seal.Signature = h.Seq, evs[h.Seq-1].Hash, h.Sig
		}
		if !full && h.Seq <= from {
			break
		}
	}
	r.Seal.Protected = protected
	r.Seal.Signed = protected
	if !protected && len(evs) > 0 && evs[0].Kind == KindMatchNew && strings.Contains(string(evs[0].Payload), `"pin_hash"`) {
		r.Seal.Protected = true // an older record: a PIN, no signatures
	}
	if protected {
		r.Seal.ArbiterKey = Fingerprint(creds["arbiter"])
		r.Unsigned = int64(len(evs)) - r.Seal.HeadSeq
	}
	if wantKey != "" {
		want := strings.ToLower(strings.Join(strings.Fields(wantKey), ""))
		// Any arbiter key of the record will do: each later one was
		// registered under the signature of the one before it.
		first, found := "", false
		for _, e := range evs {
			if c := credentialIn(e); c != nil && c.Role == "arbiter" {
				if first == "" {
					first = c.PublicKey
				}
				if len(want) >= 16 && strings.HasPrefix(Fingerprint(c.PublicKey), want) {
					found = true
				}
			}
		}
		if first == "" {
			r.OK, r.BadSeq, r.Problem = false, 1, "the record carries no arbiter key, so it is not signed by the key it is checked against (it is unprotected or was stripped of its credentials)"
			return r
		}
		if !found {
			i := int(r.ProtectedFrom - 1)
			return fail(i, "registers the arbiter key %s, not the key %s it is checked against (the record was re-keyed)", HexBlocks(Fingerprint(first)), HexBlocks(want))
		}
	}
	return r
}

// HexBlocks writes hex in blocks of eight, to be read out and copied by
// hand: the console, the CLI and the reports print heads and fingerprints
// so ('arbiter verify --head' and '--key' ignore the spaces).
func HexBlocks(h string) string {
	var b strings.Builder
	for i := 0; i < len(h); i += 8 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(h[i:min(i+8, len(h))])
	}
	return b.String()
}

func checkStation(e store.Event, s store.Signature, certified string, crypto bool) string {
	if s.Key == "" {
		return "has no station signature (it was added or changed afterwards)"
	}
	if certified != "" && s.Key != certified {
		return "was appended by a station other than the one named in its command"
	}
	if crypto && !verifySig(s.Key, s.Sig, StationMessage(e.Hash)) {
		return "does not match the hash its station signed (it was edited and re-hashed)"
	}
	return ""
}

// signerMay reports whether the credential signer may sign an event of e's role.
func signerMay(signer string, e store.Event) bool {
	switch Role(e.Role) {
	case RoleSystem:
		return true
	case RoleArbiter:
		return signer == "arbiter"
	case RoleOperator:
		return signer == "arbiter" || signer == "operator"
	case RoleWhite, RoleBlack:
		return signer == "arbiter" || signer == "player:"+e.Actor
	}
	return false
}

// credentialIn is the credential an event registers, if any.
func credentialIn(e store.Event) *Credential {
	switch e.Kind {
	case KindMatchNew:
		var p struct {
			Credential *Credential `json:"credential"`
		}
		if json.Unmarshal(e.Payload, &p) == nil && p.Credential != nil {
			return p.Credential
		}
	case KindCredentialAdd:
		var c Credential
		if json.Unmarshal(e.Payload, &c) == nil && c.PublicKey != "" {
			return &c
		}
	}
	return nil
}

// CheckIncoming checks a record as opening it does (the chain, every
// signature's presence and key, and cryptographically the signatures after
// the arbiter's last signed head). A station checks the record with each
// command that comes in from the stream before it commits it.
func CheckIncoming(evs []store.Event, sigs []store.Signature) RecordReport {
	return checkRecord(evs, sigs, "", "", false)
}

// SignSystemEvent puts this process's station signature of e (appended in
// tx) beside it when the match is protected: the system's own events, the
// stations' among them, carry no command signature, only their station's.
func (a *App) SignSystemEvent(tx *store.Tx, e store.Event) error {
	if a.State().ArbiterCredential() == nil {
		return nil // unprotected (or an older record with a PIN only): nothing is signed
	}
	return tx.PutSignature(store.Signature{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: pubHex(a.station), Sig: sign(a.station, StationMessage(e.Hash))})
}
