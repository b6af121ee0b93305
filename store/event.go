package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Event is one entry of the log.
type Event struct {
	Seq   int64     // 1-based, contiguous
	Match int64     // match id (one match per file; the match layer uses 1)
	Game  int       // game number, 0 = match-level event
	At    time.Time // the instant it happened, UTC, nanoseconds (stored as INTEGER unix nanoseconds)
	// Received is the instant the event was received where it was
	// recorded (the machine's clock on one machine; a station's command:
	// its first receipt by a record holder, on the match timeline), beside
	// the instant At it claims. Zero for events written before it was
	// recorded (migration 0005): they keep the encoding arbiter-event-v1.
	Received time.Time
	Role     string // arbiter | operator | white | black | system
	Actor    string // name of the person in that role at that time
	Kind     string // e.g. "move", "press", "game.start"
	Payload  []byte // JSON object text, stored verbatim (compact); hashed verbatim
	Prev     string // hex SHA-256 of the previous event (GenesisPrev for the first)
	Hash     string // hex SHA-256 over the canonical encoding, see EventHash
}

// GenesisPrev is the Prev of event 1: 64 zeros.
var GenesisPrev = strings.Repeat("0", 64)

// HashDomain is the first field of the hashed encoding of an event without
// a receipt (written before migration 0005); HashDomainV2 that of an event
// with one, whose encoding has the field received after at. A new encoding
// would get a new domain string.
const (
	HashDomain   = "arbiter-event-v1"
	HashDomainV2 = "arbiter-event-v2"
)

// Roles lists the roles an event may be recorded under.
var Roles = []string{"arbiter", "operator", "white", "black", "system"}

func validRole(r string) bool {
	for _, x := range Roles {
		if r == x {
			return true
		}
	}
	return false
}

// EncodeEvent returns the canonical byte string that EventHash hashes:
// fields, each written as an unsigned 64-bit big-endian length followed by
// that many bytes. An event with a receipt (Received not zero):
//
//	1  "arbiter-event-v2" (HashDomainV2)
//	2  Seq           8 bytes, int64 big-endian two's complement
//	3  Match         8 bytes, int64 big-endian
//	4  Game          8 bytes, int64 big-endian
//	5  At            8 bytes, int64 big-endian, Unix nanoseconds
//	6  Received      8 bytes, int64 big-endian, Unix nanoseconds
//	7  Role          UTF-8 bytes
//	8  Actor         UTF-8 bytes
//	9  Kind          UTF-8 bytes
//	10 Payload       the stored JSON bytes, verbatim
//	11 Prev          64 ASCII bytes, lowercase hex
//
// An event without one (written before migration 0005) has the ten fields
// of "arbiter-event-v1" (HashDomain): the same without Received.
//
// Because every field is length-prefixed, two different events can never
// share an encoding. Event.Hash is not part of the encoding.
func EncodeEvent(e Event) []byte {
	return appendEvent(make([]byte, 0, encodedLen(e)), e)
}

// encodedLen is the length of EncodeEvent(e), or a little more.
func encodedLen(e Event) int {
	return 16*11 + len(HashDomainV2) + len(e.Role) + len(e.Actor) + len(e.Kind) + len(e.Payload) + len(e.Prev)
}

// appendEvent appends EncodeEvent(e) to b.
func appendEvent(b []byte, e Event) []byte {
	if e.Received.IsZero() {
		b = appendField(b, HashDomain)
	} else {
		b = appendField(b, HashDomainV2)
	}
	b = appendInt(b, e.Seq)
	b = appendInt(b, e.Match)
	b = appendInt(b, int64(e.Game))
	b = appendInt(b, e.At.UnixNano())
	if !e.Received.IsZero() {
		b = appendInt(b, e.Received.UnixNano())
	}
	b = appendField(b, e.Role)
	b = appendField(b, e.Actor)
	b = appendField(b, e.Kind)
	b = appendField(b, e.Payload)
	return appendField(b, e.Prev)
}

// appendField appends one field of the encoding: its length, 8 bytes
// big-endian, then its bytes.
func appendField[T string | []byte](b []byte, p T) []byte {
	b = binary.BigEndian.AppendUint64(b, uint64(len(p)))
	return append(b, p...)
}

// appendInt appends an integer field: the length 8, then the value's 8
// bytes big-endian.
func appendInt(b []byte, v int64) []byte {
	b = binary.BigEndian.AppendUint64(b, 8)
	return binary.BigEndian.AppendUint64(b, uint64(v))
}

// hashOnStack is the room EventHash encodes an event in without going to
// the heap: a move's encoding is about 330 bytes; a longer one is
// encoded on the heap, the same bytes.
const hashOnStack = 1024

// EventHash returns the lowercase hex SHA-256 of EncodeEvent(e). It
// encodes e in room on its stack (hashOnStack), where EncodeEvent's
// buffer, and the conversions of its text fields, were allocated at every
// event appended and every event checked (docs/performance.md, "Commit
// and move, tenth pass").
func EventHash(e Event) string {
	var room [hashOnStack]byte
	sum := sha256.Sum256(appendEvent(room[:0], e))
	var h [2 * sha256.Size]byte
	hex.Encode(h[:], sum[:])
	return string(h[:])
}

// normalize checks e as Append would store it and returns it with At in UTC
// and Payload compacted. An empty payload becomes "{}".
func normalize(e Event) (Event, error) {
	bad := func(format string, a ...any) (Event, error) {
		return Event{}, fmt.Errorf("%w: %s", ErrInvalidEvent, fmt.Sprintf(format, a...))
	}
	if e.Kind == "" {
		return bad("the kind is empty; give every event a kind such as \"move\"")
	}
	if !validRole(e.Role) {
		return bad("role %q is not one of %s; record the event under one of those roles", e.Role, strings.Join(Roles, ", "))
	}
	for name, s := range map[string]string{"kind": e.Kind, "actor": e.Actor} {
		if !utf8.ValidString(s) {
			return bad("the %s is not valid UTF-8 text; re-enter it", name)
		}
	}
	if e.At.IsZero() {
		return bad("the time is missing; stamp the event with the instant it happened")
	}
	if e.At.Year() < 1678 || e.At.Year() > 2261 {
		return bad("the time %s cannot be stored in Unix nanoseconds; check the clock", e.At)
	}
	if !e.Received.IsZero() && (e.Received.Year() < 1678 || e.Received.Year() > 2261) {
		return bad("the time it was received, %s, cannot be stored in Unix nanoseconds; check the clock", e.Received)
	}
	if e.Game < 0 {
		return bad("game number %d is negative; use 0 for match-level events", e.Game)
	}
	payload := bytes.TrimSpace(e.Payload)
	if len(payload) == 0 {
		payload = []byte("{}")
	}
	if !utf8.Valid(payload) {
		return bad("the payload is not valid UTF-8; encode it as JSON text")
	}
	// json.Compact checks the text as it goes: one pass, not two
	var compact bytes.Buffer
	if payload[0] != '{' || json.Compact(&compact, payload) != nil {
		return bad("the payload is not a JSON object; pass JSON text such as {\"san\":\"e4\"}")
	}
	e.Payload = compact.Bytes()
	e.At = e.At.UTC()
	if !e.Received.IsZero() {
		e.Received = e.Received.UTC()
	}
	return e, nil
}
