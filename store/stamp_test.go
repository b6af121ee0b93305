package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTheWriteAheadLogIsToldChangedOnlyByOthersWrites (principle 1: any
// edit of the file is detected): WALChanged, which the console's and the
// station's watch call at every poll, is false after the DB's own commits
// (events, heartbeat, meta) and after readers, and true after another
// connection's commit; the watch then checks the record whole.
func TestTheWriteAheadLogIsToldChangedOnlyByOthersWrites(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		do      func(t *testing.T, db *DB, path string)
		changed bool
	}{
		{"nothing done: not changed", func(*testing.T, *DB, string) {}, false},
		{"the DB's own commits: not changed", func(t *testing.T, db *DB, _ string) { appendEvents(t, db, 3) }, false},
		{"the DB's own heartbeat and meta: not changed", func(t *testing.T, db *DB, _ string) {
			if err := db.WriteHeartbeat(ctx, Heartbeat{Wall: time.Now(), PID: 1, Host: "h"}); err != nil {
				t.Fatal(err)
			}
			if err := db.SetMeta(ctx, "k", "v"); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a reader's read: not changed", func(t *testing.T, _ *DB, path string) {
			ro, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			if _, _, err := ro.Record(ctx); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"another connection's commit: changed", func(t *testing.T, _ *DB, path string) {
			rawExec(t, path, `INSERT INTO meta (key, value) VALUES ('other', 'x')`)
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, path := newTestDB(t)
			appendEvents(t, db, 2)
			db.WALChanged() // what the watch saw last
			tc.do(t, db, path)
			if got := db.WALChanged(); got != tc.changed {
				t.Errorf("WALChanged() = %v, want %v", got, tc.changed)
			}
			if db.WALChanged() {
				t.Error("a second call with nothing done between told a change")
			}
		})
	}
}

// TestADBKnowsWhenItsFileIsReplaced: Replaced is true once the record's
// name gives another file (mv of a copy over it) or none, and false for
// the file the DB opened, however much it was written.
func TestADBKnowsWhenItsFileIsReplaced(t *testing.T) {
	for _, tc := range []struct {
		name     string
		do       func(t *testing.T, path string)
		replaced bool
	}{
		{"the file opened, written: not replaced", func(*testing.T, string) {}, false},
		{"a copy renamed over it: replaced", func(t *testing.T, path string) {
			other := filepath.Join(filepath.Dir(path), "other")
			writeFile(t, other, []byte("x"))
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"renamed away, none under its name: replaced", func(t *testing.T, path string) {
			if err := os.Rename(path, path+".away"); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, path := newTestDB(t)
			appendEvents(t, db, 2)
			tc.do(t, path)
			if got := db.Replaced(db.Stamp()); got != tc.replaced {
				t.Errorf("Replaced = %v, want %v", got, tc.replaced)
			}
		})
	}
}
