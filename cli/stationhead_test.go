//go:build !nostation

package cli

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/station"
	"arbiter/store"
)

// lastSignedHead is what verify says of the record at db: the event whose
// head the arbiter signed last and how many events follow it.
func lastSignedHead(t *testing.T, db string) (head string, seq, after int) {
	t.Helper()
	head, seq, after, errs := signedHead(t, db)
	if errs != "" {
		t.Fatalf("verify %s names no signed head: %s", db, errs)
	}
	return head, seq, after
}

// signedHead is lastSignedHead, or what verify said when it names no
// signed head (a station that has just joined may hold no event yet).
func signedHead(t *testing.T, db string) (head string, seq, after int, unsigned string) {
	t.Helper()
	out, errs, code := arb(t, db, "verify")
	if code != 0 {
		t.Fatalf("verify %s: exit %d: %s", db, code, errs)
	}
	m := regexp.MustCompile(`the arbiter signed the head at event (\d+)(?:, the last event|; (\d+) events? after it)`).FindStringSubmatch(errs)
	if m == nil {
		return strings.TrimSpace(out), 0, 0, errs
	}
	seq, _ = strconv.Atoi(m[1])
	after, _ = strconv.Atoi(m[2]) // "" (the last event) is 0
	return strings.TrimSpace(out), seq, after, ""
}

// waitSignedHead waits until the record at db reaches head with no event
// after the arbiter's last signed head (another process applies the
// events and the heads streams).
func waitSignedHead(t *testing.T, db, head string) int {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got, seq, after, unsigned := signedHead(t, db)
		if got == head && after == 0 && unsigned == "" {
			return seq
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: head %.12s, the last signed at event %d with %d events after it; want %.12s signed", filepath.Base(db), got, seq, after, head)
		}
		time.Sleep(50 * time.Millisecond) // the station applies the streams in its goroutines
	}
}

func TestTheArbiterSignsTheHeadAfterHisCommandAtAnyStation(t *testing.T) {
	first, laptop := protectedStationAndLaptop(t)
	records := []string{first, laptop}

	t.Run("the arbiter's command at the authority's station has the head after it signed, on every station", func(t *testing.T) {
		head, _, _ := lastSignedHead(t, first)
		for _, db := range records {
			waitSignedHead(t, db, head)
		}
	})
	t.Run("the operator's move with his own credential leaves one event after the last signed head, as on one machine", func(t *testing.T) {
		mustArb(t, laptop, "move", "e4")
		_, _, after := lastSignedHead(t, laptop)
		if after != 1 {
			t.Errorf("%d events after the last signed head, want 1", after)
		}
	})
	t.Run("the arbiter's credential given at the operator's laptop signs the head after his command", func(t *testing.T) {
		mustArb(t, laptop, "--as", "operator", "--pin", signPIN, "incident", "note", "--text", "the arbiter at the laptop")
		head, seq, after := lastSignedHead(t, laptop) // Forward returns once this station's record holds the head
		if after != 0 {
			t.Fatalf("the laptop's record: the head at event %d signed, %d events after it", seq, after)
		}
		waitSignedHead(t, first, head)
	})
	t.Run("a game end given with the arbiter's credential is signed on every station", func(t *testing.T) {
		mustArb(t, first, "--pin", signPIN, "resign", "white")
		head, _, _ := lastSignedHead(t, first)
		for _, db := range records {
			waitSignedHead(t, db, head)
		}
	})
	t.Run("a head signature by another key is refused by the authority and recorded nowhere", func(t *testing.T) {
		rdb, err := openRecordReadOnly(context.Background(), first)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := rdb.EventsAfter(context.Background(), 0)
		rdb.Close()
		if err != nil {
			t.Fatal(err)
		}
		e := evs[len(evs)-2] // an event whose head is not signed yet
		_, other, _ := ed25519.GenerateKey(nil)
		note := station.HeadNote{Seq: e.Seq, Hash: e.Hash, Key: hex.EncodeToString(other.Public().(ed25519.PublicKey)),
			Sig: hex.EncodeToString(ed25519.Sign(other, match.HeadMessage(e.Seq, e.Hash)))}
		rep := submitRaw(t, first, station.Request{ID: "forged-head-1", From: "intruder", Role: "arbiter", At: stationNow(t, first), SignedHead: &note})
		if !strings.Contains(rep.Error, "refused") {
			t.Fatalf("the authority answered %+v", rep)
		}
		for _, db := range records {
			for _, s := range recordSignatures(t, db) {
				if s.Kind == store.SigHead && s.Key == note.Key {
					t.Errorf("%s holds the forged head signature of event %d", filepath.Base(db), s.Seq)
				}
			}
			if _, errs, code := arb(t, db, "verify"); code != 0 {
				t.Errorf("%s does not verify: %s", filepath.Base(db), errs)
			}
		}
	})
}
