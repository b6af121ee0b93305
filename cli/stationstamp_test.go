//go:build !nostation

package cli

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"arbiter/internal/testnet"
	"arbiter/match"
	"arbiter/service"
)

// costlyUnlocks has every passphrase unlock of a forwarded command cost
// cost on clock (argon2id's time, on the match's clock) and counts them.
func costlyUnlocks(t *testing.T, clock *testnet.Clock, cost time.Duration) (count func() int) {
	var mu sync.Mutex
	n := 0
	prev := service.UnlockCredential
	service.UnlockCredential = func(c *match.Credential, pass string, key ed25519.PrivateKey) (ed25519.PrivateKey, bool) {
		if pass != "" {
			mu.Lock()
			n++
			mu.Unlock()
			clock.Advance(cost)
		}
		return prev(c, pass, key)
	}
	t.Cleanup(func() { service.UnlockCredential = prev })
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// recordEvents are the events of the record at db, read from the file.
func recordEvents(t *testing.T, db string) []service.Event {
	t.Helper()
	rdb, err := openRecordReadOnly(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	evs, _, err := rdb.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// recordSignatures is the signatures table of the record at db.
func recordSignatures(t *testing.T, db string) []service.Signature {
	t.Helper()
	rdb, err := openRecordReadOnly(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	sigs, err := rdb.Signatures(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sigs
}

// lastEventOf is the last event of the record at db.
func lastEventOf(t *testing.T, db string) service.Event {
	t.Helper()
	evs := recordEvents(t, db)
	if len(evs) == 0 {
		t.Fatal("the record has no events")
	}
	return evs[len(evs)-1]
}

// A command of the command line is stamped once it is ready to be sent —
// its link up, its offset estimated, the replica caught up and the role's
// key unlocked (--pin: argon2id) — and then signed and sent at once: a
// press given with --pin is recorded at its stamp, not raised (issue 17,
// docs/stations.md "Exact clocks across machines"). The station and the
// command share one clock that stands still except that each unlock moves
// it by 100 ms: a stamp taken before the unlock would reach the authority
// 100 ms late and be raised.
func TestStationCommandIsStampedOnceItsKeyIsUnlockedAndNotRaised(t *testing.T) {
	clock := testnet.NewClock(start.Add(time.Minute))
	stationClock = clock.Now
	t.Cleanup(func() { stationClock = nil })
	unlocks := costlyUnlocks(t, clock, 100*time.Millisecond)
	first, _, _ := signedStation(t)

	mustArb(t, first, "--pin", signPIN, "game", "start")
	if e := lastEventOf(t, first); e.Kind != match.KindGameStart || e.Role != string(match.RoleArbiter) {
		t.Fatalf("last event %s by %s, want the arbiter's start", e.Kind, e.Role)
	}
	for _, tc := range []struct {
		name string
		args []string
		kind string
	}{
		{"the operator's move given with his passphrase", []string{"--as", "operator", "--secret", signOperator, "move", "e4"}, match.KindMove},
		{"a player's press given with the arbiter's PIN", []string{"--as", "black", "--pin", signPIN, "press"}, match.KindPress},
	} {
		t.Run(tc.name+" is recorded at its stamp, not raised, its key unlocked once", func(t *testing.T) {
			clock.Advance(time.Second)
			before := unlocks()
			mustArb(t, first, tc.args...)
			if got := unlocks() - before; got != 1 {
				t.Fatalf("the key was unlocked %d times, want once", got)
			}
			e := lastEventOf(t, first)
			var p match.PressStamp
			if e.Kind != tc.kind || json.Unmarshal(e.Payload, &p) != nil {
				t.Fatalf("last event %s %s, want %s", e.Kind, e.Payload, tc.kind)
			}
			// the clock moved only in the unlock: the stamp is the instant
			// after it
			if p.Raised || p.PressedNS != e.At.UnixNano() || !e.At.Equal(clock.Now()) {
				t.Fatalf("recorded at %v, payload %s; want it at its stamp %v, not raised", e.At, e.Payload, clock.Now())
			}
		})
	}
}
