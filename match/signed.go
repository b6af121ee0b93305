package match

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"arbiter/internal/phrase"
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
	// ArbiterKeys are the arbiter's keys in the order registered: the
	// first, which anchors the record ('verify --key'), then each rotation.
	ArbiterKeys []ArbiterKey
	// MatchID is the match's random id from match.new ("" in a record made
	// before match ids): 'verify --match' checks it.
	MatchID string
}

// FirstKey is the fingerprint of the arbiter's first key, the one that
// anchors the record ("" when it has none).
func (s Seal) FirstKey() string {
	if len(s.ArbiterKeys) == 0 {
		return ""
	}
	return s.ArbiterKeys[0].Fingerprint()
}

// RecordReport is the result of checking the record: the hash chain, then
// every signature beside it.
type RecordReport struct {
	store.VerifyReport
	Seal          Seal
	ProtectedFrom int64 // the first event recorded under an arbiter credential (0: never)
	Signatures    int   // signatures found valid
	Unsigned      int64 // events after the last signed head
	// StationsCertifiedFrom is the claim from which on the stations' keys
	// are certified by the match's CA (stationkey.go; 0: none is, a record
	// of one machine or made before branch hcert, checked as before).
	StationsCertifiedFrom int64
	// StationsCA is the fingerprint (SHA-256 of its certificate, hex) of
	// the match's CA anchored at StationsCertifiedFrom ("" for none):
	// 'verify --ca' checks it (CheckCA).
	StationsCA string
}

// Anchors are what a record is checked against besides itself, each
// written down outside it ("" for one not given): a head printed earlier
// (64 hex digits), the fingerprint of the arbiter's first key (16 to 64 hex
// digits: a prefix will do) and the match id (MatchIDDigits hex digits).
type Anchors struct {
	Head, Key, MatchID string
	// CA is the fingerprint of the match's CA (SHA-256 of its
	// certificate, 16 to 64 hex digits: a prefix will do), written down
	// when the first station made it or read from a station's
	// credentials or an invitation (branch hanchor).
	CA string
}

// VerifyRecord checks the whole record of db: the chain (docs/store.md),
// every signature, the arbiter's head signatures and, when given, that
// wantHead is in the chain and that the arbiter's first key has the
// fingerprint wantKey (a prefix of 16 or more hex digits is enough). The
// first event at which anything fails is named by seq and kind.
func VerifyRecord(ctx context.Context, db *store.DB, wantHead, wantKey string) (RecordReport, error) {
	return VerifyRecordAgainst(ctx, db, Anchors{Head: wantHead, Key: wantKey})
}

// VerifyRecordAgainst is VerifyRecord with every anchor: also the match id.
func VerifyRecordAgainst(ctx context.Context, db *store.DB, want Anchors) (RecordReport, error) {
	evs, sigs, err := db.Record(ctx)
	if err != nil {
		return RecordReport{}, err
	}
	r := verifyWhole(evs, sigs, want)
	return r, checkBeside(ctx, db, &r, len(evs))
}

// checkBeside is what verify checks of the file beside its events: the
// schema (checkSchema), then the log beside it (checkLog).
func checkBeside(ctx context.Context, db *store.DB, r *RecordReport, events int) error {
	if err := checkSchema(ctx, db, r, events); err != nil {
		return err
	}
	checkLog(ctx, db, r)
	return nil
}

// checkLog finds a -wal beside the record that takes back an event its
// main file holds (store.DB.LogTakesBack: another copy's log put beside a
// closed record): the record then does not verify, at that event. Only
// verify asks (it reads the file read-only, with whatever log lies beside
// it); Open refuses such a record to write (store-log-takes-back).
func checkLog(ctx context.Context, db *store.DB, r *RecordReport) {
	if !r.OK {
		return
	}
	if seq, back := db.LogTakesBack(ctx); back {
		r.broken(seq, "", problem(CodeLogTakesBack, seq))
	}
}

// checkSchema finds what another program added to the record's schema
// (store.DB.SchemaEdits: a trigger, which can drop an appended event
// without an error, an index, a view, a table), or dropped or changed of
// its append-only triggers (store.DB.GuardEdits): the record then does not
// verify, after its n events, and nothing more is written to it.
func checkSchema(ctx context.Context, db *store.DB, r *RecordReport, n int) error {
	if !r.OK {
		return nil
	}
	edits, err := db.SchemaEdits(ctx)
	if err != nil {
		return err
	}
	if len(edits) > 0 {
		r.broken(int64(n)+1, "", problem(CodeSchemaEdited, strings.Join(edits, ", ")))
		return nil
	}
	// a table's definition rewritten (PRAGMA writable_schema, branch
	// hattack): the names stay, so SchemaEdits saw nothing
	tables, err := db.TableEdits(ctx)
	if err != nil {
		return err
	}
	if len(tables) > 0 {
		r.broken(int64(n)+1, "", problem(CodeTableChanged, problem(tableWords[tables[0]])))
		return nil
	}
	// the append-only triggers dropped or made again otherwise (branch
	// htrust): SchemaEdits names only what was added
	dropped, changed, err := db.GuardEdits(ctx)
	switch {
	case err != nil:
		return err
	case len(dropped) > 0:
		r.broken(int64(n)+1, "", problem(CodeTriggerDropped, guardWord(dropped)))
	case len(changed) > 0:
		r.broken(int64(n)+1, "", problem(CodeTriggerChanged, guardWord(changed)))
	}
	if !r.OK {
		return nil
	}
	// rows no walk reads, put there after the tables' definitions were
	// edited and put back (branch hattack): the names are Arbiter's again
	outside, err := db.RowsOutsideChain(ctx)
	switch {
	case err != nil:
		return err
	case outside > 0:
		r.broken(int64(n)+1, "", problem(CodeRowsOutsideChain, outside))
	}
	return nil
}

// tableWords say Arbiter's tables (store.DB.TableEdits' names) in the words
// of each face: the names are SQL's.
var tableWords = map[string]Code{
	"events": CodeTableEvents, "signatures": CodeTableSignatures, "heartbeat": CodeTableHeartbeat, "meta": CodeTableMeta,
}

// guardWord says which append-only triggers (store.DB.GuardEdits' names,
// docs/store.md) a problem is of, in the words of each face: the names
// are SQL's, which the German would carry untranslated.
func guardWord(names []string) any {
	switch {
	case len(names) > 1:
		return problem(CodeGuardBoth)
	case names[0] == "events_no_delete":
		return problem(CodeGuardDelete)
	}
	return problem(CodeGuardUpdate)
}

// verifyWhole is the whole check of a record (Verify's): checkRecord with
// every signature verified, then the moves given at other stations on
// their positions (checkRequestMoves).
func verifyWhole(evs []store.Event, sigs []store.Signature, want Anchors) RecordReport {
	r := checkRecord(evs, sigs, want, true)
	if r.OK {
		checkCommandIDs(&r, evs, sigs)
	}
	if r.OK {
		checkRequestMoves(&r, evs, sigs)
	}
	return r
}

// checkCommandIDs finds a command recorded twice under one id: a command
// is committed once (a station answers a retried id from the record), so a
// second command or request row with an id the record holds already is a
// replay — a request signed for one position put in another place, with
// events of the forger's signed by a station key of his own.
func checkCommandIDs(r *RecordReport, evs []store.Event, sigs []store.Signature) {
	commandIDs{}.check(r, evs, sigs)
}

// commandIDs is the seq of the first command or request row of each
// command id of the events checked (App.Watch keeps it from check to
// check, and checks only the rows after them).
type commandIDs map[string]int64

// check adds the command and request rows of sigs to ids and names in r
// the first that repeats an id (the earliest second row; of it, the first
// row's seq), as the record's events evs hold it.
func (ids commandIDs) check(r *RecordReport, evs []store.Event, sigs []store.Signature) {
	var replay, of int64
	for _, s := range sigs {
		if s.Kind != store.SigCommand && s.Kind != store.SigRequest {
			continue
		}
		first, ok := ids[s.Cmd]
		switch {
		case !ok:
			ids[s.Cmd] = s.Seq
		case s.Seq < first:
			if replay == 0 || first < replay {
				replay, of = first, s.Seq
			}
			ids[s.Cmd] = s.Seq
		case s.Seq >= first && (replay == 0 || s.Seq < replay):
			replay, of = s.Seq, first
		}
	}
	if replay >= 1 && replay <= int64(len(evs)) {
		e := evs[replay-1]
		r.broken(e.Seq, e.Kind, problem(CodeReplayedCommand, e.Seq, e.Kind, of))
	}
}

// checkRequestMoves checks, on the positions, that each move given at
// another station is the move its role signed: the input signed
// (requestMove checked that the event carries it) names the move the
// event records (uci, san) in the position it was made in. The events are
// replayed as the record is opened; a record that does not replay is the
// opening's to report.
func checkRequestMoves(r *RecordReport, evs []store.Event, sigs []store.Signature) {
	m := newMovesReplay(sigs)
	if len(m.moves) == 0 {
		return
	}
	st := NewState()
	for _, e := range evs {
		if ok, stop := m.check(r, st, e); !ok || stop {
			return
		}
		if st.Apply(e) != nil {
			return
		}
	}
}

// signedMove is a move a request signed: the move, the request's events
// and its signer.
type signedMove struct {
	move   Move
	count  int64
	signer string
}

// movesReplay checks the moves given at other stations as the events are
// replayed, each against the position before it (checkRequestMoves; the
// watch, on the events after those it checked).
type movesReplay struct {
	moves  map[int64]signedMove // the request's first event's seq → the move it signed
	signed *signedMove          // the request whose events are being replayed
	end    int64                // the seq after its events
}

// newMovesReplay takes the moves the request rows of sigs signed.
func newMovesReplay(sigs []store.Signature) *movesReplay {
	m := &movesReplay{moves: map[int64]signedMove{}}
	for _, s := range sigs {
		if s.Kind != store.SigRequest {
			continue
		}
		if req, code := requestOf(s); code == "" {
			if mv, ok := requested[Move](req); ok {
				m.moves[s.Seq] = signedMove{mv, s.Count, s.Signer}
			}
		}
	}
	return m
}

// check checks e, the next event, on st, the match before it: ok false
// (r says why) when e is the move of a request and not the move it signed;
// stop when e cannot be read on st (the replay's to report).
func (m *movesReplay) check(r *RecordReport, st *State, e store.Event) (ok, stop bool) {
	if sm, found := m.moves[e.Seq]; found {
		m.signed, m.end = &sm, e.Seq+sm.count
	}
	if m.signed != nil && e.Seq >= m.end {
		m.signed = nil
	}
	if m.signed == nil || e.Kind != KindMove {
		return true, false
	}
	var p MovePayload
	g := st.Game(int(e.Game))
	if g == nil || g.Sheet == nil || json.Unmarshal(e.Payload, &p) != nil {
		return true, true
	}
	if mv, err := g.Sheet.Try(p.Input); err != nil || mv.UCI != p.UCI || mv.SAN != p.SAN {
		r.broken(e.Seq, e.Kind, problem(CodeRequestOtherMove, e.Seq, e.Kind, m.signed.move.Input, signerWord(m.signed.signer)))
		return false, true
	}
	m.signed = nil
	return true, false
}

// checkRecord checks evs and sigs. With full false only the last head
// signature and the signatures after it are checked cryptographically
// (what every command does on opening), and the arbiter's key rotations,
// whose keys sign the heads; every signature's presence and key are
// checked either way.
func checkRecord(evs []store.Event, sigs []store.Signature, want Anchors, full bool) RecordReport {
	return checkRecordAfter(evs, sigs, want, full, 0)
}

// checkRecordAfter is checkRecord for a record whose first checked events'
// hashes were verified before (store.VerifyEventsAfter).
func checkRecordAfter(evs []store.Event, sigs []store.Signature, want Anchors, full bool, checked int) RecordReport {
	return checkRecordRows(evs, sigs, want, full, full, checked)
}

// checkOpened is the check of a record an App opens (New, StateAt):
// checkRecord without every signature verified, but with the rows'
// fields and the heads the arbiter's commands signed (rows), so that a
// record whose head was deleted while it was closed — in its file or in a
// -wal put beside it — is never appended to.
func checkOpened(evs []store.Event, sigs []store.Signature) RecordReport {
	return checkRecordRows(evs, sigs, Anchors{}, false, true, 0)
}

// checkRecordRows is checkRecordAfter that also checks the signature rows'
// fields and the heads the arbiter's commands signed when rows is set
// (verify's whole check and an App's open: a station's replica, whose
// heads may come after their events, does not).
func checkRecordRows(evs []store.Event, sigs []store.Signature, want Anchors, full, rows bool, checked int) RecordReport {
	var r RecordReport
	r.VerifyReport = store.VerifyEventsAfter(evs, want.Head, checked)
	if !r.OK {
		return r
	}
	k := newRecordCheck(evs, sigs, full)
	k.rows = rows
	if !k.walk(&r) {
		return r
	}
	fail := k.fail(&r)
	if want.Key != "" {
		if r = checkFirstKey(r, want.Key, fail); !r.OK {
			return r
		}
	}
	if want.MatchID != "" {
		if r = checkMatchID(r, evs, want.MatchID); !r.OK {
			return r
		}
	}
	if want.CA != "" {
		if r = checkCA(r, want.CA, fail); !r.OK {
			return r
		}
	}
	return r
}

// walk checks the signatures after the chain (r holds the chain's report):
// the commands from k.start on, the last head signature, the seal. It
// reports whether the record holds; when not, r says where and why.
func (k *recordCheck) walk(r *RecordReport) bool {
	fail := k.fail(r)
	if bad := k.commands(r); bad != nil {
		fail(bad.i, bad.code, bad.args...)
		return false
	}
	k.counted = r.Signatures
	if bad, cut := k.headSignatures(r); cut {
		r.broken(bad, "", problem(CodeHeadCut, bad))
		return false
	} else if bad > 0 {
		fail(int(bad-1), CodeHeadMismatch)
		return false
	}
	if k.rows && k.extra.Seq >= 1 && k.extra.Seq <= int64(k.evs.len()) {
		fail(int(k.extra.Seq-1), CodeSignatureFields, k.extra.Kind)
		return false
	}
	if k.rows {
		if bad := k.headRemoved(); bad != nil {
			fail(bad.i, bad.code, bad.args...)
			return false
		}
	}
	k.seal(r)
	return true
}

// headRemoved finds a command the arbiter signed where it was appended
// whose head signature is not in the record (branch hanchor): such a
// command is committed with his signature of the head at its last event,
// in one transaction (App.appendAndSign, since 2026-12-01), so a record
// that holds the command and not that head had the signature deleted —
// the arbiter's latest, as a rule, which left the record verifying to his
// head before. Only in a record with a match id (made after that), and
// only in verify's whole check and an App's open (checkOpened; a running
// core's watch finds a row deleted as an edit), not in a station
// replica's walk, whose heads may come after their events. A head signed
// at an export, or sent by the
// arbiter's station after a command given there (a request row), stands
// alone, and its deletion is not found here (docs/reliability.md, "The
// arbiter's latest head signature").
func (k *recordCheck) headRemoved() *badEvent {
	if k.first == nil {
		k.first = firstOf(k.evs)
	}
	if k.first.matchID == "" {
		return nil
	}
	heads := make(map[int64]bool, len(k.heads))
	for _, h := range k.heads {
		heads[h.Seq] = true
	}
	var end int64
	for _, c := range k.cmds {
		if c.Kind != store.SigCommand || c.Signer != "arbiter" {
			continue
		}
		if last := c.Seq + c.Count - 1; !heads[last] && (end == 0 || last < end) && last <= int64(k.evs.len()) {
			end = last
		}
	}
	if end == 0 {
		return nil
	}
	return bad(int(end-1), CodeHeadRemoved)
}

// fail names the event at index i in r as the first that does not hold,
// and why: the problem code, whose arguments follow the event's seq and
// kind.
func (k *recordCheck) fail(r *RecordReport) func(i int, code Code, a ...any) RecordReport {
	return func(i int, code Code, a ...any) RecordReport {
		e := k.evs.at(i)
		r.broken(e.Seq, e.Kind, problem(code, append([]any{e.Seq, e.Kind}, a...)...))
		return *r
	}
}

// recordCheck is the state of checkRecord's walk through a record: its
// signatures by kind, the arbiter's key at each event, the event from which
// signatures are checked cryptographically, and the credentials registered
// so far. start is the first event the walk checks (an IncomingWalk
// checked those before it).
type recordCheck struct {
	evs            eventView
	start          int
	cmds, stations map[int64]store.Signature
	heads          []store.Signature
	keys           *ArbiterKeyring
	full           bool
	from           int64
	creds          map[string]string // credential ID -> hex public key
	protected      bool
	// head is the last head signature verified (headOK) and its result:
	// the walk asks it twice, the signature is verified once.
	head    store.Signature
	headIs  int8 // 0: not verified, 1: holds, -1: does not
	first   *firstEvent
	counted int // signatures found valid at the events, before the heads'
	// sk: the match's CA and the authority's certified key (stationkey.go)
	sk stationKeys
	// extra is the first signature row that carries a field its kind does
	// not (extraFields; Seq 0: none)
	extra store.Signature
	// rows: the rows' fields and the heads of the arbiter's commands are
	// checked (checkRecordRows)
	rows bool
}

// extraFields reports whether the signature row s carries a field its kind
// never does (branch hanchor): a station's and a head signature cover one
// event and name no command, signer, station or request; a command's names
// no request. Nothing reads those fields, so an edit of them changed
// nothing signed, and verify passed the edited row; it is an edit of the
// file all the same.
func extraFields(s store.Signature) bool {
	switch s.Kind {
	case store.SigStation, store.SigHead:
		return s.Count != 1 || s.Cmd != "" || s.Signer != "" || s.Station != "" || s.Request != ""
	case store.SigCommand:
		return s.Request != ""
	}
	return false
}

// eventView is the record a check walks: the events checked before
// (prior) and those just added, without copying them into one slice.
type eventView struct{ prior, added []store.Event }

func (v eventView) len() int { return len(v.prior) + len(v.added) }

func (v eventView) at(i int) *store.Event {
	if i < len(v.prior) {
		return &v.prior[i]
	}
	return &v.added[i-len(v.prior)]
}

// slice is the events from index i to j (copied only when they straddle
// the two parts).
func (v eventView) slice(i, j int) []store.Event {
	n := len(v.prior)
	switch {
	case j <= n:
		return v.prior[i:j]
	case i >= n:
		return v.added[i-n : j-n]
	}
	out := make([]store.Event, 0, j-i)
	return append(append(out, v.prior[i:]...), v.added[:j-n]...)
}

// all is the whole record in one slice.
func (v eventView) all() []store.Event { return v.slice(0, v.len()) }

// firstEvent is what the seal reads of the record's first event.
type firstEvent struct {
	matchID   string
	pinRecord bool // an older record: match.new with a PIN, no signatures
}

func firstOf(evs eventView) *firstEvent {
	f := &firstEvent{}
	if evs.len() == 0 {
		return f
	}
	e := evs.at(0)
	f.matchID = matchIDOf(e)
	f.pinRecord = e.Kind == KindMatchNew && strings.Contains(string(e.Payload), `"pin_hash"`)
	return f
}

// badEvent is the first problem found: the index of the event and what is
// wrong with it (a problem code and its arguments after the event's seq
// and kind).
type badEvent struct {
	i    int
	code Code
	args []any
}

func bad(i int, code Code, a ...any) *badEvent {
	return &badEvent{i: i, code: code, args: a}
}

// newRecordCheck sorts the signatures by kind and finds the last head
// signature to start from. Pass 1: the arbiter's key at each event, from
// the credential events (no cryptography). Pass 2 (commands) checks that
// each of these keys was registered as it must be (the first signing its
// own registration, each later one signed by the key it replaces),
// cryptographically even on opening.
func newRecordCheck(evs []store.Event, sigs []store.Signature, full bool) *recordCheck {
	k := &recordCheck{evs: eventView{prior: evs}, cmds: map[int64]store.Signature{}, stations: map[int64]store.Signature{}, full: full, creds: map[string]string{}}
	for _, s := range sigs {
		if extraFields(s) && (k.extra.Seq == 0 || s.Seq < k.extra.Seq) {
			k.extra = s
		}
		switch s.Kind {
		case store.SigCommand, store.SigRequest:
			k.cmds[s.Seq] = s
		case store.SigStation:
			k.stations[s.Seq] = s
		case store.SigHead:
			k.heads = append(k.heads, s)
		}
	}
	k.keys = arbiterKeysAt(evs)
	if !full && len(k.heads) > 0 && k.headOK(k.heads[len(k.heads)-1]) {
		k.from = k.heads[len(k.heads)-1].Seq
	}
	return k
}

func (k *recordCheck) headOK(h store.Signature) bool {
	if k.headIs != 0 && h == k.head {
		return k.headIs > 0
	}
	if h.Seq < 1 || h.Seq > int64(k.evs.len()) {
		return false
	}
	ok := k.keys.CheckHead(h, k.evs.at(int(h.Seq-1)).Hash) == nil
	k.head, k.headIs = h, -1
	if ok {
		k.headIs = 1
	}
	return ok
}

// crypto reports whether the signatures at seq are checked cryptographically.
func (k *recordCheck) crypto(seq int64) bool { return k.full || seq > k.from }

// commands walks the events: before the match is protected none carries a
// signature; after, each is a system event or an auth.fail signed by its
// station, or one of a command signed by its credential.
func (k *recordCheck) commands(r *RecordReport) *badEvent {
	for i := k.start; i < k.evs.len(); {
		e := *k.evs.at(i)
		c, hasCmd := k.cmds[e.Seq]
		if !k.protected {
			if cred := credentialIn(e); cred != nil && cred.Role == "arbiter" {
				k.protected = true
				r.ProtectedFrom = e.Seq
			} else if hasCmd || k.stations[e.Seq].Key != "" {
				return bad(i, CodeSignedUnprotected)
			} else {
				if b := k.station(i, e, store.Signature{}, false); b != nil {
					return b
				}
				i++
				continue
			}
		}
		if !hasCmd {
			if e.Kind != KindAuthFail && e.Role != string(RoleSystem) {
				return bad(i, CodeUnsigned)
			}
			if e.Role == string(RoleSystem) && !systemKind(e) {
				return bad(i, CodeSystemKind)
			}
			if credentialIn(e) != nil {
				return bad(i, CodeCredentialUnsigned)
			}
			if code := checkStation(e, k.stations[e.Seq], "", k.crypto(e.Seq)); code != "" {
				return bad(i, code)
			}
			if b := k.station(i, e, k.stations[e.Seq], true); b != nil {
				return b
			}
			r.Signatures++
			i++
			continue
		}
		if c.Count < 1 || i+int(c.Count) > k.evs.len() {
			return bad(i, CodeCommandBeyond)
		}
		if b := k.command(r, i, c); b != nil {
			return b
		}
		i += int(c.Count)
	}
	return nil
}

// command checks the command signature c of the events from index i on.
func (k *recordCheck) command(r *RecordReport, i int, c store.Signature) *badEvent {
	group := k.evs.slice(i, i+int(c.Count))
	rotation, b := k.registrations(i, c, group)
	if b != nil {
		return b
	}
	want := k.creds[c.Signer]
	if want == "" && c.Signer == "arbiter" {
		if cred := credentialIn(group[0]); cred != nil && cred.Role == "arbiter" {
			want = cred.PublicKey // a new arbiter credential signs its own registration
		}
	}
	if want == "" || c.Key != want {
		return bad(i, CodeWrongKey, signerWord(c.Signer))
	}
	certified, msg := c.Station, []byte(nil)
	if c.Kind == store.SigRequest {
		var b *badEvent
		if certified, msg, b = k.request(i, c, group); b != nil {
			return b
		}
		if k.sk.ca != "" && certified != k.sk.key {
			// appended by a station other than the authority (stationkey.go)
			return bad(i, CodeRequestNotAuthority, k.sk.authority)
		}
	}
	for j, g := range group {
		if !signerMay(c.Signer, g) {
			return bad(i+j, CodeRoleSigner, Role(g.Role), signerWord(c.Signer))
		}
		if code := checkStation(g, k.stations[g.Seq], certified, k.crypto(g.Seq)); code != "" {
			return bad(i+j, code)
		}
		r.Signatures++
	}
	if msg == nil {
		msg = CommandMessage(c.Cmd, c.Signer, c.Station, group)
	}
	if (k.crypto(group[len(group)-1].Seq) || rotation) && !verifySig(c.Key, c.Sig, msg) {
		return bad(i, CodeCommandMismatch, signerWord(c.Signer))
	}
	r.Signatures++
	for _, g := range group {
		if cred := credentialIn(g); cred != nil {
			k.creds[cred.ID()] = cred.PublicKey
		}
	}
	return nil
}

// registrations checks the credentials a command registers: only the
// arbiter hands them out, and a new arbiter key is signed by the key it
// replaces (the first by itself). rotation: the command registers an
// arbiter key.
func (k *recordCheck) registrations(i int, c store.Signature, group []store.Event) (rotation bool, b *badEvent) {
	for j, g := range group {
		cred := credentialIn(g)
		if cred == nil {
			continue
		}
		if c.Signer != "arbiter" {
			return false, bad(i+j, CodeRegisteredByOther, credentialWord(cred.ID()), signerWord(c.Signer))
		}
		if cred.Role != "arbiter" {
			continue
		}
		rotation = true
		if old := k.creds["arbiter"]; old != "" && c.Key != old {
			return false, bad(i+j, CodeForgedRotation, HexBlocks(Fingerprint(old)))
		}
	}
	return rotation, nil
}

// request checks a command given at another station: the role signed the
// request (its message), on a record that was this one, and the events are
// certified by the one station that appended them.
func (k *recordCheck) request(i int, c store.Signature, group []store.Event) (certified string, msg []byte, b *badEvent) {
	req, code := requestOf(c)
	if code != "" {
		return "", nil, bad(i, code)
	}
	if b := checkRequest(req, func(seq int64) string { return k.evs.at(int(seq - 1)).Hash }, i); b != nil {
		if req.Seq >= 1 && req.Seq <= int64(i) {
			return "", nil, bad(int(req.Seq-1), CodeRequestRecordEdited, signerWord(c.Signer), group[0].Seq)
		}
		return "", nil, b
	}
	for j, g := range group {
		// the command the arbiter signed names the key the record registers
		if cred := credentialIn(g); cred != nil && cred.Role == "arbiter" && !requestCarriesKey(req, cred.PublicKey) {
			return "", nil, bad(i+j, CodeRequestForgedRotation)
		}
	}
	if b := requestMove(req, group, i); b != nil {
		return "", nil, b
	}
	return k.stations[group[0].Seq].Key, req.RequestMessage(), nil
}

// requestMove checks the move event of a move given at another station
// against the move its role signed. A request signs the command, not the
// events the authority made of it, and those events are vouched for by the
// station key that appended them, which the record names only in their
// rows: without this, anyone with the file could put another move (or the
// same move at another instant) in the place of the last moves given at
// stations, signed by a station key of his own, and verify passed. The move
// event must carry the input signed and, when it pressed the clock, the
// instant stamped where it was given (its pressed_ns; the event's own
// instant is that one, or raised to the receipt's bound, never earlier —
// but for a stamp later than its receipt, lowered exactly to the receipt
// and marked lowered; a record written before such stamps were lowered
// has none, and is read as written).
// That the input is the move recorded (san, uci) is checked on the
// positions by VerifyRecordAgainst (checkRequestMoves).
func requestMove(req SignedRequest, group []store.Event, i int) *badEvent {
	if em, ok := requested[EngineMove](req); ok {
		return requestEngineMove(em, req, group, i)
	}
	m, ok := requested[Move](req)
	if !ok {
		return nil
	}
	for j, e := range group {
		if e.Kind != KindMove {
			continue
		}
		var p MovePayload
		if json.Unmarshal(e.Payload, &p) != nil || p.Input != m.Input ||
			(p.Press && (p.PressedNS != req.AtNS || (e.At.UnixNano() < req.AtNS && !lowered(e, p.PressStamp)))) {
			return bad(i+j, CodeRequestOtherMove, m.Input, signerWord(req.Signer))
		}
		return nil
	}
	return bad(i, CodeRequestOtherMove, m.Input, signerWord(req.Signer))
}

// lowered reports whether e's instant is its stamp lowered to the
// receipt: marked so, the receipt the event records, and earlier than
// the instant stamped (Cmd.lowered) — or, marked clamped as well, lowered
// no further than the clock's previous press, which lies between the
// receipt and the stamp (tx.clockBound).
func lowered(e store.Event, p PressStamp) bool {
	at := e.At.UnixNano()
	if !p.Lowered || e.Received.UnixNano() != p.ReceivedNS || p.ReceivedNS >= p.PressedNS {
		return false
	}
	if p.Clamped {
		return p.ReceivedNS < at && at <= p.PressedNS
	}
	return at == p.ReceivedNS
}

// requestEngineMove checks the engine.move event of an engine's move given
// at another station against the one its role signed: the move (uci) and
// the instant the bridge read it, recorded as signed or, when it was later
// than the command's receipt, lowered exactly to the receipt, marked
// lowered and the instant signed kept as read (EngineMove.run).
func requestEngineMove(m EngineMove, req SignedRequest, group []store.Event, i int) *badEvent {
	for j, e := range group {
		if e.Kind != KindEngineMove {
			continue
		}
		var p EngineMovePayload
		if json.Unmarshal(e.Payload, &p) != nil || p.UCI != m.UCI || !engineReadAsSigned(e, p, m.Received) {
			return bad(i+j, CodeRequestOtherMove, m.UCI, signerWord(req.Signer))
		}
		return nil
	}
	return bad(i, CodeRequestOtherMove, m.UCI, signerWord(req.Signer))
}

// engineReadAsSigned reports whether the engine.move e (payload p) records
// the instant read as signed: as it is, or lowered to its receipt.
func engineReadAsSigned(e store.Event, p EngineMovePayload, signed time.Time) bool {
	at := func(s string) time.Time {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}
		}
		return t
	}
	if !p.Lowered {
		return p.Read == "" && at(p.Received).Equal(signed)
	}
	got := at(p.Received)
	return at(p.Read).Equal(signed) && !got.IsZero() && got.Equal(e.Received) && got.Before(signed)
}

// systemKind reports whether e is of a kind the system records under its
// own role without a command's signature: a station's event (station.*),
// a recovery note, the suspension of a game (an incident of rule 6.10).
// Any other event needs its command's signature: before branch hharden a
// move, a game's end or a flag recorded under the system's role, signed by
// any station key, verified (a station key is not certified, so whoever
// could write into a station's stream could add one).
func systemKind(e store.Event) bool {
	switch {
	case strings.HasPrefix(e.Kind, "station."), e.Kind == KindRecovery:
		return true
	case e.Kind == KindIncident:
		var p IncidentPayload
		return json.Unmarshal(e.Payload, &p) == nil && p.Kind == "suspend"
	}
	return false
}

// requested is the command of type C (a Move, an EngineMove) a request of
// version 2 signed, if it is one.
func requested[C Command](req SignedRequest) (C, bool) {
	var none C
	if req.Version() < 2 {
		return none, false
	}
	cmd, err := DecodeCommand(req.Command)
	if err != nil {
		return none, false
	}
	m, ok := cmd.(C)
	return m, ok
}

// headSignatures checks the arbiter's head signatures from the last back
// (on opening, down to the one checking starts from) and keeps the last in
// the seal. bad is the seq of a head that does not hold; cut says a head
// names an event the record does not hold (its seq in bad).
func (k *recordCheck) headSignatures(r *RecordReport) (badSeq int64, cut bool) {
	for j := len(k.heads) - 1; j >= 0; j-- {
		h := k.heads[j]
		if h.Seq < 1 || h.Seq > int64(k.evs.len()) {
			return h.Seq, true
		}
		if (k.full || h.Seq >= k.from) && !k.headOK(h) {
			return h.Seq, false
		}
		r.Signatures++
		if r.Seal.HeadSeq == 0 {
			r.Seal.HeadSeq, r.Seal.Head, r.Seal.Signature = h.Seq, k.evs.at(int(h.Seq-1)).Hash, h.Sig
		}
		if !k.full && h.Seq <= k.from {
			break
		}
	}
	return 0, false
}

// seal fills in what the record's signatures say of it.
func (k *recordCheck) seal(r *RecordReport) {
	r.Seal.Protected = k.protected
	r.Seal.Signed = k.protected
	if k.first == nil {
		k.first = firstOf(k.evs)
	}
	if !k.protected && k.first.pinRecord {
		r.Seal.Protected = true // an older record: a PIN, no signatures
	}
	if k.protected {
		r.Seal.ArbiterKey = Fingerprint(k.creds["arbiter"])
		r.Unsigned = int64(k.evs.len()) - r.Seal.HeadSeq
	}
	r.Seal.ArbiterKeys = k.keys.Registered()
	r.StationsCertifiedFrom = k.sk.caAt
	if k.sk.ca != "" {
		if der, err := base64.StdEncoding.DecodeString(k.sk.ca); err == nil {
			r.StationsCA = CertFingerprint(der)
		}
	}
	r.Seal.MatchID = k.first.matchID
}

// checkFirstKey checks that the arbiter's first key, the one that anchors
// the record, has the fingerprint want (a prefix of 16 or more hex
// digits). A later key will not do: a record re-keyed from its first event
// can register the genuine key afterwards, signed by its own.
func checkFirstKey(r RecordReport, want string, fail func(int, Code, ...any) RecordReport) RecordReport {
	want = normalHex(want)
	ks := r.Seal.ArbiterKeys
	if len(ks) == 0 {
		r.broken(1, "", problem(CodeNoArbiterKey))
		return r
	}
	matches := func(k ArbiterKey) bool { return len(want) >= 16 && strings.HasPrefix(k.Fingerprint(), want) }
	if matches(ks[0]) {
		return r
	}
	first := ks[0]
	for _, k := range ks[1:] {
		if matches(k) {
			return fail(int(first.Seq-1), CodeRekeyedLater, HexBlocks(first.Fingerprint()), HexBlocks(want), k.Seq)
		}
	}
	return fail(int(first.Seq-1), CodeRekeyed, HexBlocks(first.Fingerprint()), HexBlocks(want))
}

// checkCA checks that the match's CA, the one the record's first claim
// carrying a CA anchors (stationkey.go), has the fingerprint want (a
// prefix of 16 or more hex digits): a record re-made from its start, or
// from its first claim on, under a CA of the forger's own verifies by
// itself, since its anchor is taken from itself (branch hanchor).
func checkCA(r RecordReport, want string, fail func(int, Code, ...any) RecordReport) RecordReport {
	want = normalHex(want)
	if r.StationsCA == "" {
		r.broken(1, "", problem(CodeNoCA))
		return r
	}
	if len(want) >= 16 && strings.HasPrefix(r.StationsCA, want) {
		return r
	}
	return fail(int(r.StationsCertifiedFrom-1), CodeOtherCA, HexBlocks(r.StationsCA), HexBlocks(want))
}

// CertFingerprint is a certificate's fingerprint as verify prints and
// '--ca' takes it: SHA-256 of its DER, hex (what 'openssl x509
// -fingerprint -sha256' prints, without the colons).
func CertFingerprint(der []byte) string {
	h := sha256.Sum256(der)
	return hex.EncodeToString(h[:])
}

// checkMatchID checks the match id of match.new against want.
func checkMatchID(r RecordReport, evs []store.Event, want string) RecordReport {
	want = normalHex(want)
	got := r.Seal.MatchID
	switch {
	case len(evs) == 0 || evs[0].Kind != KindMatchNew:
		r.broken(1, "", problem(CodeNoMatchNew))
	case got == "":
		r.broken(1, evs[0].Kind, problem(CodeNoMatchID, int64(1), evs[0].Kind))
	case got != want:
		r.broken(1, evs[0].Kind, problem(CodeOtherMatch, int64(1), evs[0].Kind, HexBlocks(got), HexBlocks(want)))
	}
	return r
}

// normalHex is a fingerprint or id as given, in lower case without spaces.
func normalHex(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }

// matchIDOf is the match id the record's first event e records ("" for none).
func matchIDOf(e *store.Event) string {
	if e.Kind != KindMatchNew {
		return ""
	}
	var p struct {
		ID string `json:"match_id"`
	}
	if json.Unmarshal(e.Payload, &p) != nil {
		return ""
	}
	return p.ID
}

// ArbiterKeyring is the arbiter's key at each event of a record, read from
// its credential events in order without cryptography (the record's check
// verifies the registrations): it tells whether a head signature is the
// arbiter's by his key at that event. A station keeps one beside its
// replica, to check the head signatures the arbiter sends after his
// commands (docs/stations.md).
type ArbiterKeyring struct {
	at, before []string     // hex public key valid after event i+1, and before it (a re-key's own head is signed by the old key)
	registered []ArbiterKey // the first, then each rotation
	cur        string
}

// Add reads the next event of the record (event Len()+1).
func (k *ArbiterKeyring) Add(e store.Event) {
	k.before = append(k.before, k.cur)
	if c := credentialIn(e); c != nil && c.Role == "arbiter" {
		k.cur = c.PublicKey
		k.registered = append(k.registered, ArbiterKey{Seq: e.Seq, Kind: e.Kind, PublicKey: c.PublicKey})
	}
	k.at = append(k.at, k.cur)
}

// Len is the number of events read.
func (k *ArbiterKeyring) Len() int { return len(k.at) }

// Registered are the arbiter's keys in the order registered.
func (k *ArbiterKeyring) Registered() []ArbiterKey { return k.registered }

// CheckHead checks the head signature h of the event h.Seq, whose hash is
// hash: it must be a head signature, of an event read, by the arbiter's
// key at that event. It returns nil or what is wrong, as a phrase whose
// Error() is one sentence (problems.go).
func (k *ArbiterKeyring) CheckHead(h store.Signature, hash string) *phrase.Error {
	switch {
	case h.Kind != store.SigHead:
		return problem(CodeHeadNotHead, h.Kind)
	case h.Seq < 1 || h.Seq > int64(len(k.at)):
		return problem(CodeHeadNotInRecord, h.Seq)
	}
	i := h.Seq - 1
	if h.Key == "" || (h.Key != k.at[i] && h.Key != k.before[i]) {
		return problem(CodeHeadNotArbiters, h.Seq)
	}
	if !verifySig(h.Key, h.Sig, HeadMessage(h.Seq, hash)) {
		return problem(CodeHeadNotHash, h.Seq)
	}
	return nil
}

func arbiterKeysAt(evs []store.Event) *ArbiterKeyring {
	k := &ArbiterKeyring{}
	for _, e := range evs {
		k.Add(e)
	}
	return k
}

// CheckHeadSignature checks a head signature offered for the record evs:
// it must name an event of evs and be the arbiter's signature of its hash
// by his key there. It returns nil or what is wrong (CheckHead).
func CheckHeadSignature(evs []store.Event, h store.Signature) *phrase.Error {
	hash := ""
	if h.Seq >= 1 && h.Seq <= int64(len(evs)) {
		hash = evs[h.Seq-1].Hash
	}
	return arbiterKeysAt(evs).CheckHead(h, hash)
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

// checkStation checks the station signature s of e: the problem's code,
// or "" when it holds.
func checkStation(e store.Event, s store.Signature, certified string, crypto bool) Code {
	if s.Key == "" {
		return CodeStationUnsigned
	}
	if certified != "" && s.Key != certified {
		return CodeOtherStation
	}
	if crypto && !verifySig(s.Key, s.Sig, StationMessage(e.Hash)) {
		return CodeStationMismatch
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
	return checkRecord(evs, sigs, Anchors{}, false)
}

// CheckIncomingAfter is CheckIncoming for a station's replica that verified
// the hashes of the record's first checked events as it applied them:
// only the later events' hashes are computed again (their signatures, and
// every link of the chain, are checked as CheckIncoming checks them).
func CheckIncomingAfter(evs []store.Event, sigs []store.Signature, checked int) RecordReport {
	return checkRecordAfter(evs, sigs, Anchors{}, false, checked)
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
