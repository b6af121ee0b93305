package store

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// TestAReceivedEventIsHashedWithTheV2EncodingGolden pins the encoding of
// an event that records the instant it was received (arbiter-event-v2):
// if it fails, every record written since migration 0005 would stop
// verifying. The golden file doubles as the worked example in
// docs/store.md. Regenerate with -update only for a new domain.
func TestAReceivedEventIsHashedWithTheV2EncodingGolden(t *testing.T) {
	e := Event{
		Seq: 1, Match: 1, Game: 1,
		At:       time.Date(1996, 2, 10, 20, 0, 0, 5, time.UTC),
		Received: time.Date(1996, 2, 10, 20, 0, 0, 250_000_000, time.UTC),
		Role:     "operator",
		Actor:    "Feng-hsiung Hsu",
		Kind:     "move",
		Payload:  []byte(`{"san":"e4","uci":"e2e4"}`),
		Prev:     GenesisPrev,
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "event: seq %d, match %d, game %d, at_ns %d, received_ns %d, role %q, actor %q, kind %q, payload %s, prev %s\n",
		e.Seq, e.Match, e.Game, e.At.UnixNano(), e.Received.UnixNano(), e.Role, e.Actor, e.Kind, e.Payload, e.Prev)
	fmt.Fprintf(&b, "encoding:\n%s", hex.Dump(EncodeEvent(e)))
	fmt.Fprintf(&b, "hash: %s\n", EventHash(e))
	matchGolden(t, "hash_vector_v2.golden", b.Bytes(), "records written since migration 0005")
}

func TestTheInstantReceivedIsCoveredByTheChain(t *testing.T) {
	base := testEvent(1)
	base.Seq, base.Prev, base.Received = 1, GenesisPrev, t0.Add(time.Second)
	t.Run("an event without a receipt keeps the v1 encoding", func(t *testing.T) {
		e := base
		e.Received = time.Time{}
		if got := string(EncodeEvent(e)[8:24]); got != HashDomain {
			t.Errorf("domain %q, want %q", got, HashDomain)
		}
	})
	t.Run("an event with a receipt is encoded as v2", func(t *testing.T) {
		if got := string(EncodeEvent(base)[8:24]); got != HashDomainV2 {
			t.Errorf("domain %q, want %q", got, HashDomainV2)
		}
	})
	t.Run("one nanosecond of the receipt changes the hash", func(t *testing.T) {
		e := base
		e.Received = e.Received.Add(1)
		if EventHash(e) == EventHash(base) {
			t.Error("the hash did not change")
		}
	})
	t.Run("dropping the receipt changes the hash", func(t *testing.T) {
		e := base
		e.Received = time.Time{}
		if EventHash(e) == EventHash(base) {
			t.Error("the hash did not change")
		}
	})
	t.Run("an edited receipt in the file is caught by Verify", func(t *testing.T) {
		db, path := newTestDB(t)
		for i := 0; i < 3; i++ {
			e := testEvent(i)
			e.Received = e.At.Add(time.Millisecond)
			if _, err := db.Update(context.Background(), func(tx *Tx) error { _, err := tx.Append(e); return err }); err != nil {
				t.Fatal(err)
			}
		}
		raw := rawDB(t, path)
		defer raw.Close()
		mustExec(t, raw, `DROP TRIGGER events_no_update`)
		mustExec(t, raw, `UPDATE events SET received_ns = received_ns + 1 WHERE seq = 2`)
		r, err := db.Verify(context.Background(), "")
		if err != nil || r.OK || r.BadSeq != 2 {
			t.Errorf("Verify = %+v, %v; want event 2 edited", r, err)
		}
	})
}

// TestARecordWrittenBeforeReceiptsKeepsItsHeadAndTakesNewEvents: a file of
// schema 4 (no received_ns column) reads read-only without migrating, is
// migrated by a read-write open after its backup with the same head, and
// then takes events with receipts (v2) after its v1 events.
func TestARecordWrittenBeforeReceiptsKeepsItsHeadAndTakesNewEvents(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.arbiter")
	db := openTest(t, path)
	old := appendEvents(t, db, 4)
	db.Close()
	rawExec(t, path, "ALTER TABLE events DROP COLUMN received_ns", "PRAGMA user_version = 4")
	head := old[3].Hash

	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ro.Verify(ctx, head)
	ro.Close()
	if err != nil || !r.OK || r.Events != 4 {
		t.Fatalf("read-only Verify of the schema-4 file = %+v, %v; want 4 intact events", r, err)
	}

	db = openTest(t, path)
	if h := headerOf(t, path+".bak-v4"); h.userVersion != 4 {
		t.Errorf("backup user_version %d, want 4", h.userVersion)
	}
	e := testEvent(9)
	e.Received = e.At.Add(2 * time.Second)
	evs, err := db.Update(ctx, func(tx *Tx) error { _, err := tx.Append(e); return err })
	if err != nil {
		t.Fatal(err)
	}
	if r, err := db.Verify(ctx, head); err != nil || !r.OK || r.Events != 5 || r.HeadSeq != 4 {
		t.Errorf("Verify after migration = %+v, %v; want 5 intact events, the old head at 4", r, err)
	}
	got, err := db.EventsAfter(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !got[0].Received.IsZero() || got[0].Hash != head {
		t.Errorf("the old event 4 reads back with received %v, hash %s; want none and %s", got[0].Received, got[0].Hash, head)
	}
	if !got[1].Received.Equal(e.Received) || got[1].Hash != evs[0].Hash {
		t.Errorf("the new event reads back with received %v; want %v", got[1].Received, e.Received)
	}
}
