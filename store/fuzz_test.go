package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"
)

func FuzzParseHeader(f *testing.F) {
	good := make([]byte, headerLen)
	copy(good, sqliteMagic)
	binary.BigEndian.PutUint16(good[16:], 4096)
	good[18], good[19] = 2, 2
	binary.BigEndian.PutUint32(good[68:], ApplicationID)
	f.Add(good)
	f.Add(good[:100])
	f.Add([]byte("SQLite format 3\x00"))
	f.Add([]byte("[Event \"?\"]\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := parseHeader(b)
		if err != nil {
			return
		}
		if !bytes.HasPrefix(b, []byte(sqliteMagic)) || len(b) < 100 {
			t.Errorf("accepted a header without the SQLite magic or shorter than 100 bytes")
		}
		if h.pageSize < 512 || h.pageSize > 65536 || h.pageSize&(h.pageSize-1) != 0 {
			t.Errorf("accepted page size %d", h.pageSize)
		}
		if len(b) < headerLen && h.rootCells != -1 {
			t.Errorf("rootCells %d from a %d-byte header", h.rootCells, len(b))
		}
	})
}

// FuzzNormalize checks the payload and text rules of Append: whatever is
// accepted is valid UTF-8, a compact JSON object, and stable when normalised
// again, so that what is hashed is what is stored.
func FuzzNormalize(f *testing.F) {
	f.Add("move", "operator", "Hsu", []byte(`{ "san" : "e4" }`), int64(0))
	f.Add("", "white", "", []byte(`{}`), int64(1))
	f.Add("x", "black", "\xff", []byte(`[]`), int64(-1))
	f.Add("x", "system", "", []byte("{\"a\":\"\\u00e9\\n\"}\n"), int64(1<<62))
	f.Fuzz(func(t *testing.T, kind, role, actor string, payload []byte, ns int64) {
		e := Event{Match: 1, At: time.Unix(0, ns), Kind: kind, Role: role, Actor: actor, Payload: payload}
		n, err := normalize(e)
		if err != nil {
			return
		}
		if n.Kind == "" || !validRole(n.Role) || !utf8.ValidString(n.Actor) || !utf8.ValidString(n.Kind) {
			t.Errorf("accepted %+v", n)
		}
		var obj map[string]any
		if err := json.Unmarshal(n.Payload, &obj); err != nil {
			t.Errorf("accepted payload %q that is not a JSON object: %v", n.Payload, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, n.Payload); err != nil || !bytes.Equal(compact.Bytes(), n.Payload) {
			t.Errorf("stored payload %q is not compact", n.Payload)
		}
		again, err := normalize(n)
		if err != nil || EventHash(again) != EventHash(n) {
			t.Errorf("normalising twice changed the event: %v", err)
		}
		if n.At.UnixNano() != e.At.UnixNano() {
			t.Errorf("instant changed: %d → %d", e.At.UnixNano(), n.At.UnixNano())
		}
	})
}

// FuzzEncodeEventInjective checks that two events share an encoding only if
// they share every hashed field.
func FuzzEncodeEventInjective(f *testing.F) {
	f.Add("ab", "c", []byte("{}"), "a", "bc", []byte("{}"), int64(1), int64(1))
	f.Add("", "x", []byte(""), "x", "", []byte(""), int64(0), int64(0))
	f.Fuzz(func(t *testing.T, actorA, kindA string, payA []byte, actorB, kindB string, payB []byte, seqA, seqB int64) {
		a := Event{Seq: seqA, Match: 1, At: t0, Role: "white", Actor: actorA, Kind: kindA, Payload: payA, Prev: GenesisPrev}
		b := Event{Seq: seqB, Match: 1, At: t0, Role: "white", Actor: actorB, Kind: kindB, Payload: payB, Prev: GenesisPrev}
		if bytes.Equal(EncodeEvent(a), EncodeEvent(b)) != sameFields(a, b) {
			t.Errorf("encodings equal = %v, fields equal = %v", bytes.Equal(EncodeEvent(a), EncodeEvent(b)), sameFields(a, b))
		}
	})
}
