package station

import (
	"crypto/ed25519"
	"encoding/json"
	"time"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// wireEvent is one stream message: one event exactly as the record holds it,
// with the command it belongs to (id, part of parts) so that a replica
// applies a command's events in one transaction.
type wireEvent struct {
	Cmd   string `json:"cmd"`
	Part  int    `json:"part"`
	Parts int    `json:"parts"`
	Seq   int64  `json:"seq"`
	Match int64  `json:"match"`
	Game  int    `json:"game"`
	AtNS  int64  `json:"at_ns"`
	// ReceivedNS is the instant the event was received (store.Event's
	// Received; 0: none, an event written before receipts were recorded).
	ReceivedNS int64  `json:"received_ns,omitempty"`
	Role       string `json:"role"`
	Actor      string `json:"actor"`
	Kind       string `json:"kind"`
	Payload    string `json:"payload"` // the stored bytes, as a string so JSON never rewrites them
	Prev       string `json:"prev"`
	Hash       string `json:"hash"`
	// Sigs are the signatures the record keeps at this event's seq (the
	// command's at its first event, the station's at each, the arbiter's
	// head at its last), exactly as the signatures table holds them.
	Sigs []wireSig `json:"sigs,omitempty"`
}

// wireSig is one row of the signatures table.
type wireSig struct {
	Kind    string `json:"kind"`
	Count   int64  `json:"count"`
	Cmd     string `json:"cmd,omitempty"`
	Signer  string `json:"signer,omitempty"`
	Station string `json:"station,omitempty"`
	Key     string `json:"key"`
	Sig     string `json:"sig"`
	Request string `json:"request,omitempty"`
}

func (w wireSig) signature(seq int64) store.Signature {
	return store.Signature{Seq: seq, Kind: w.Kind, Count: w.Count, Cmd: w.Cmd, Signer: w.Signer, Station: w.Station, Key: w.Key, Sig: w.Sig, Request: w.Request}
}

// encodeEvents makes the stream messages of one command: its events and
// the signatures beside them (those whose seq is one of the events').
func encodeEvents(id string, evs []store.Event, sigs []store.Signature) [][]byte {
	out := make([][]byte, len(evs))
	for i, e := range evs {
		w := wireEvent{Cmd: id, Part: i + 1, Parts: len(evs), Seq: e.Seq, Match: e.Match, Game: e.Game,
			AtNS: e.At.UnixNano(), ReceivedNS: unixNS(e.Received), Role: e.Role, Actor: e.Actor, Kind: e.Kind, Payload: string(e.Payload),
			Prev: e.Prev, Hash: e.Hash}
		for _, s := range sigs {
			if s.Seq == e.Seq {
				w.Sigs = append(w.Sigs, wireSig{Kind: s.Kind, Count: s.Count, Cmd: s.Cmd, Signer: s.Signer, Station: s.Station, Key: s.Key, Sig: s.Sig, Request: s.Request})
			}
		}
		b, err := json.Marshal(w)
		if err != nil {
			panic(err) // only strings and integers
		}
		out[i] = b
	}
	return out
}

func decodeEvent(data []byte) (wireEvent, store.Event, error) {
	var w wireEvent
	if err := json.Unmarshal(data, &w); err != nil {
		return w, store.Event{}, why(CodeAlarmUnreadable, err)
	}
	if w.Parts < 1 || w.Part < 1 || w.Part > w.Parts {
		return w, store.Event{}, why(CodeAlarmParts, w.Seq, w.Part, w.Parts)
	}
	e := store.Event{Seq: w.Seq, Match: w.Match, Game: w.Game, At: time.Unix(0, w.AtNS).UTC(), Role: w.Role,
		Actor: w.Actor, Kind: w.Kind, Payload: []byte(w.Payload), Prev: w.Prev, Hash: w.Hash}
	if w.ReceivedNS != 0 {
		e.Received = time.Unix(0, w.ReceivedNS).UTC()
	}
	return w, e, nil
}

// unixNS is t in Unix nanoseconds, 0 for the zero time.
func unixNS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// Request is a command sent to the authority: {id, role, instant,
// command: {kind, …}} and who sent and signed it (docs/stations.md, "One
// authority"). The command is a value in its canonical encoding
// (match.EncodeCommand), which the authority decodes and runs with
// match.App.Do; no command-line words cross the network. It carries no
// credential: where the command was given, the role's key was unlocked and
// signed it (match.SignedRequest, version 2: over the request's canonical
// JSON); the authority checks the signature against the credential's
// public key in the record. A station's own requests carry instead of a
// command the station joining (Member), a refused connection (Refused) or
// the arbiter's head signature (SignedHead).
type Request struct {
	ID   string `json:"id"`   // command id: the same on every retry
	From string `json:"from"` // the sending station
	Role string `json:"role"` // the role the command is given in
	// At is the instant stamped where the command was given (match
	// timeline).
	At time.Time `json:"instant"`
	// Command is the command's canonical encoding.
	Command json.RawMessage `json:"command,omitempty"`
	// Signer, HeadSeq, Head and Sig are the role's signature of the
	// request (none on an unprotected match, or when no credential was given).
	Signer  string `json:"signer,omitempty"`
	HeadSeq int64  `json:"head_seq,omitempty"`
	Head    string `json:"head,omitempty"`
	Sig     string `json:"sig,omitempty"`
	// Tried and TriedGiven report a wrong credential given where the
	// command was given ("arbiter", "operator", "player:NAME"; "passphrase"
	// or "key"): the authority records the attempt and refuses the command.
	Tried      string `json:"tried,omitempty"`
	TriedGiven string `json:"tried_given,omitempty"`
	// SignedHead, instead of a command, is the arbiter's signature of the
	// head after his command, made where he gave it: the authority checks
	// it against its record and appends it to the heads stream
	// (docs/stations.md, "Signed heads").
	SignedHead *HeadNote `json:"signed_head,omitempty"`
	// Member, instead of a command, records a record holder joining
	// (station.member); Refused a connection or message the sender's server
	// refused (station.refused). Only record holders send them.
	Member  *MemberInfo  `json:"member,omitempty"`
	Refused *RefusalNote `json:"refused,omitempty"`
	// Stamp is set by the authority before it runs the command (not sent).
	Stamp *match.Stamp `json:"-"`
	// AtGiven: the instant was given (--at), not stamped. Given with the
	// arbiter's credential it is recorded as given (he records earlier
	// instants: a recovery); any other is bounded as a stamp is.
	AtGiven bool  `json:"at_given,omitempty"`
	RTT     int64 `json:"rtt_ns,omitempty"`
}

// RefusalNote is a refused connection or message a record holder's server
// reported: the kind ("tls", "publish"), what the server said, the peer, and
// how many more of the same peer and kind it left out since the last one
// recorded (RefusalWindow).
type RefusalNote struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	More   int    `json:"more"`
	Peer   string `json:"peer,omitempty"`
}

// Signed is the request as its role signed it (nil: unsigned). At the
// authority the instant is the one stamped where it was given (Stamp's
// Pressed), whatever the authority raised it to.
func (r Request) Signed() *match.SignedRequest {
	if r.Sig == "" {
		return nil
	}
	at := r.At
	if r.Stamp != nil {
		at = r.Stamp.Pressed
	}
	return &match.SignedRequest{ID: r.ID, From: r.From, Role: r.Role, Signer: r.Signer, AtNS: at.UnixNano(), Seq: r.HeadSeq, Head: r.Head,
		Command: r.Command, Sig: r.Sig}
}

// Sign has key, the credential signer's unlocked key, sign the request on
// the sender's head (seq, hash).
func (r *Request) Sign(signer string, seq int64, head string, key ed25519.PrivateKey) {
	r.Signer, r.HeadSeq, r.Head = signer, seq, head
	sr := match.SignedRequest{ID: r.ID, From: r.From, Role: r.Role, Signer: signer, AtNS: r.At.UnixNano(), Seq: seq, Head: head, Command: r.Command}
	sr.Sign(key)
	r.Sig = sr.Sig
}

// HeadNote is the arbiter's signature of the chain's head at event Seq
// (match.HeadMessage), whose hash is Hash, by his key Key: a message of the
// heads stream, and what a station sends to the authority to have it
// appended there.
type HeadNote struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
	Key  string `json:"key"`
	Sig  string `json:"sig"`
}

// Signature is the signatures row the note stands for.
func (h HeadNote) Signature() store.Signature {
	return store.Signature{Seq: h.Seq, Kind: store.SigHead, Count: 1, Key: h.Key, Sig: h.Sig}
}

// Reply answers a Request: the last event of the committed command, or a
// refusal (nothing was written and nothing will be for this id).
type Reply struct {
	Seq   uint64 `json:"seq,omitempty"`
	Error string `json:"error,omitempty"`
	// First is the committed command's first event (its events are
	// First…Seq).
	First uint64 `json:"first,omitempty"`
	// Refusal is the refusal's code and arguments (match.Error) when the
	// command was refused by the match, so that the face where it was
	// given says it in its own words (Error is its neutral English).
	Refusal *match.Error `json:"refusal,omitempty"`
	// Phrase is a refusal of the station itself as its code and
	// arguments (refusals.go), for the face's words likewise.
	Phrase *phrase.Error `json:"phrase,omitempty"`
	By     string        `json:"by"`
}

// receiptNote is a record holder's first receipt of a request, published
// to the other holders: the instant on its match timeline, the round trip
// it measured to the sender (0: none measured yet) and the uncertainty of
// its estimate of the timeline then (0 on the authority).
type receiptNote struct {
	ID    string `json:"id"`
	By    string `json:"by"`
	AtNS  int64  `json:"at_ns"`
	RTTNS int64  `json:"rtt_ns,omitempty"`
	UncNS int64  `json:"unc_ns,omitempty"`
}

// pingSubject is the subject on which station name answers round-trip
// measurements (a name's characters outside letters, digits, '-' and '_'
// become '_', so that it is one subject token).
func pingSubject(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return SubjectPing + "." + string(b)
}

// beat is the authority's heartbeat and its answer to a time request.
type beat struct {
	Name  string `json:"name"`
	NowNS int64  `json:"now_ns"` // the match timeline at the authority
	Seq   int64  `json:"seq"`
	Claim int64  `json:"claim"` // seq of the claim that names it
	// MatchSeq is the seq of its record's last event that is not a
	// system event (match.State.MatchSeq).
	MatchSeq int64  `json:"match_seq,omitempty"`
	Beat     bool   `json:"beat,omitempty"`
	Status   []byte `json:"-"`
	beatInfo        // role, clock uncertainty, alarm (seen.go)
}

// Kinds of the stations' own events (match.StationKindPrefix).
const (
	KindClaim   = match.KindStationClaim // {"station": NAME, "epoch": N}: NAME is the authority from here on
	KindMember  = "station.member"       // {"name", "role", "listen", "client"}: a station joined
	KindRefused = "station.refused"      // {"station", "kind", "peer", "detail", "more"}: the server refused a connection or message (at most once per peer and kind a RefusalWindow)
)

type claimPayload struct {
	Station string `json:"station"`
	Epoch   int    `json:"epoch,omitempty"`
	// the station's certificate of the key that signs the claim
	// (match.StationCertificate; none from a station without credentials)
	match.StationCertificate
}

// MemberInfo is the payload of a station.member event.
type MemberInfo struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Listen string `json:"listen,omitempty"`
	Client string `json:"client,omitempty"`
}
