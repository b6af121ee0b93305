package match

import (
	"context"
	"os"
	"testing"
	"time"

	"arbiter/store"
)

// TestVerifyNamesAnotherCopysLogPutBesideAClosedRecord (principle 1: any
// edit of the file is detected; hwal's leftover): SQLite applies whatever
// -wal lies beside a closed record, and an older copy's log of the same
// record (or another record's) made the record read as that copy, which
// verified on its chain alone — only --head or --match told. Verify now
// reads the main file alone too, as the read-write open does
// (store-log-takes-back), and names the first event the log takes back
// (record-check-log-takes-back); the record's own log, which only adds to
// its file (a console still writing it), verifies as before.
func TestVerifyNamesAnotherCopysLogPutBesideAClosedRecord(t *testing.T) {
	play := func(t *testing.T) (*fixture, string) {
		f := newFixture(t)
		f.newMatch(MatchNew{})
		f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
		f.moves(30*time.Second, "e4", "c5")
		return f, f.db.Path()
	}
	verify := func(t *testing.T, path string) RecordReport {
		t.Helper()
		db, err := store.OpenReadOnly(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		r, err := VerifyRecord(context.Background(), db, "", "")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("an older copy's -wal put beside the closed record is named at the record's last event", func(t *testing.T) {
		f, path := play(t)
		older, err := os.ReadFile(path + "-wal")
		if err != nil || len(older) == 0 {
			t.Fatalf("no log to copy (%d bytes): %v", len(older), err)
		}
		f.moves(30*time.Second, "Nf3", "d6")
		last := f.app.State().Seq
		if err := f.db.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+"-wal", older, 0o600); err != nil {
			t.Fatal(err)
		}
		os.Remove(path + "-shm")
		r := verify(t, path)
		if r.OK || r.Why == nil || r.Why.Code != string(CodeLogTakesBack) || r.BadSeq != last {
			t.Fatalf("verify says %v at event %d (%q), want %s at event %d", r.OK, r.BadSeq, r.Problem, CodeLogTakesBack, last)
		}
	})
	t.Run("the record's own log, its console still writing it, verifies", func(t *testing.T) {
		f, path := play(t)
		f.moves(30*time.Second, "Nf3")
		if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
			t.Fatalf("no log beside the open record: %v", err)
		}
		if r := verify(t, path); !r.OK {
			t.Fatalf("verify: %s", r.Problem)
		}
	})
}
