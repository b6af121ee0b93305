package station

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/store"
)

// A replica checks an incoming command's signatures on the record it
// applied, not on the whole file read again at every command
// (docs/performance.md): so what it holds must be the record, event for
// event, after every command — its own and those another station gave.
func TestAReplicaHoldsItsRecordEventForEventAfterEveryCommand(t *testing.T) {
	dir := t.TempDir()
	s, db := startFirst(t, dir)
	ldb := openDB(t, filepath.Join(dir, "l.db"))
	laptop, err := Start(context.Background(), Config{Name: "laptop", Role: "operator", DB: ldb, Dial: []string{s.Engine().ClientURL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer laptop.Stop()
	// seq: the command's last event, as its answer names it (the
	// authority answers once the stream holds it, and takes it into its
	// view after its own commit: docs/stations.md)
	same := func(t *testing.T, st *Station, db *store.DB, seq uint64) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := st.Replica().WaitSeq(ctx, seq); err != nil {
			t.Fatal(err)
		}
		evs, _, err := db.Record(ctx)
		if err != nil {
			t.Fatal(err)
		}
		st.Replica().mu.Lock()
		held := st.Replica().events
		st.Replica().mu.Unlock()
		if len(held) != len(evs) {
			t.Fatalf("%s holds %d events, its record %d", st.Name(), len(held), len(evs))
		}
		for i := range evs {
			if held[i].Seq != evs[i].Seq || held[i].Hash != evs[i].Hash || store.EventHash(held[i]) != evs[i].Hash || string(held[i].Payload) != string(evs[i].Payload) {
				t.Fatalf("%s holds event %d as %+v, its record as %+v", st.Name(), evs[i].Seq, held[i], evs[i])
			}
		}
	}
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	for i, mv := range []string{"e4", "c5", "Nf3", "d6"} {
		by, role := s, "white"
		if i%2 == 1 {
			by, role = laptop, "operator"
		}
		r := submit(t, by, req(role, match.Move{Input: mv}))
		t.Run("after "+mv+" given at "+by.Name()+", each replica holds its record", func(t *testing.T) {
			same(t, s, db, r.Seq)
			same(t, laptop, ldb, r.Seq)
		})
	}
}
