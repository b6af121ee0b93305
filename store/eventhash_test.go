package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"
)

// TestAnEventsHashIsThatOfItsEncodingAndAllocatesOnlyItsHex: EventHash
// is the SHA-256 of EncodeEvent's bytes, for an event with and without a
// receipt and one whose encoding is longer than the room it is encoded
// in on the stack; and hashing a move's event allocates only the hex
// string (its encoding's buffer was allocated at every event appended
// and checked, with copies of its text fields).
func TestAnEventsHashIsThatOfItsEncodingAndAllocatesOnlyItsHex(t *testing.T) {
	move := Event{Seq: 7, Match: 1, Game: 2, At: time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC), Role: "operator", Actor: "Feng-hsiung Hsu",
		Kind: "move", Payload: []byte(`{"san":"Nf3","uci":"g1f3","press":true,"input":"Nf3"}`), Prev: strings.Repeat("ab", 32)}
	received := move
	received.Received = move.At.Add(time.Second)
	long := move
	long.Payload = []byte(`{"note":"` + strings.Repeat("x", 3*hashOnStack) + `"}`)
	for _, tc := range []struct {
		name string
		e    Event
	}{
		{"a move", move},
		{"a move with its receipt", received},
		{"an event longer than the room on the stack", long},
	} {
		t.Run(tc.name+": the hash of its encoding", func(t *testing.T) {
			sum := sha256.Sum256(EncodeEvent(tc.e))
			if got, want := EventHash(tc.e), hex.EncodeToString(sum[:]); got != want {
				t.Errorf("EventHash = %s, want %s", got, want)
			}
			if got := appendEvent([]byte("x"), tc.e); !bytes.Equal(got[1:], EncodeEvent(tc.e)) {
				t.Error("appendEvent after a byte is not that byte and the encoding")
			}
		})
	}
	t.Run("a move's hash allocates only its hex", func(t *testing.T) {
		if got := testing.AllocsPerRun(100, func() { EventHash(move) }); got > 1 {
			t.Errorf("EventHash allocates %v times, want 1", got)
		}
	})
}
