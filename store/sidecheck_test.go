package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestASideFilePutInPlaceOrRemovedWhileTheRecordIsHeldIsSaid (principle 1,
// any edit of the file is detected): the -wal and -shm a handle's
// connection uses are the ones beside the record when it opened them; one
// renamed over them (another copy's, or a file of the intruder's) or
// removed while the handle holds the record is not what SQLite writes: the
// handle's own reads find the record as it was, and its commits go into a
// file nobody finds under its name. SideFileReplaced names it after the
// watch's look (WALChanged); the handle's own commits, another handle's,
// an outside checkpoint and outside readers never raise it.
func TestASideFilePutInPlaceOrRemovedWhileTheRecordIsHeldIsSaid(t *testing.T) {
	ctx := context.Background()
	// another copy of a record of the same events, open (its -wal and -shm
	// there), from which the intruder takes the log
	otherCopy := func(t *testing.T) string {
		other := filepath.Join(t.TempDir(), "copy.arbiter")
		odb := openTest(t, other)
		appendEvents(t, odb, 2)
		return other
	}
	putOver := func(t *testing.T, side string, b []byte) {
		tmp := side + ".new"
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, side); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		act  func(t *testing.T, db *DB, path string)
		want string // the side file said replaced ("": none)
	}{
		{"another copy's -wal renamed over the record's is said replaced", func(t *testing.T, db *DB, path string) {
			b, err := os.ReadFile(otherCopy(t) + "-wal") // SQLite holds no lock on a -wal
			if err != nil {
				t.Fatal(err)
			}
			putOver(t, path+"-wal", b)
		}, "-wal"},
		{"the record's own -wal copied and renamed over it (the same bytes, another file) is said replaced", func(t *testing.T, db *DB, path string) {
			b, err := os.ReadFile(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			putOver(t, path+"-wal", b)
		}, "-wal"},
		{"the -wal removed is said replaced", func(t *testing.T, db *DB, path string) {
			if err := os.Remove(path + "-wal"); err != nil {
				t.Fatal(err)
			}
		}, "-wal"},
		{"a -shm of the intruder's renamed over the record's is said replaced", func(t *testing.T, db *DB, path string) {
			putOver(t, path+"-shm", make([]byte, 32768))
		}, "-shm"},
		{"the -shm removed is said replaced", func(t *testing.T, db *DB, path string) {
			if err := os.Remove(path + "-shm"); err != nil {
				t.Fatal(err)
			}
		}, "-shm"},
		{"the -wal replaced and the handle's next commit made is said replaced", func(t *testing.T, db *DB, path string) {
			b, err := os.ReadFile(otherCopy(t) + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			putOver(t, path+"-wal", b)
			appendEvents(t, db, 1)
		}, "-wal"},
		{"the handle's own commits, through a checkpoint and the log's restart, are not", func(t *testing.T, db *DB, path string) {
			appendEvents(t, db, 3)
			if _, err := db.sql.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
				t.Fatal(err)
			}
			appendEvents(t, db, 3)
		}, ""},
		{"the handle's connection made anew, the last to hold the record (SQLite made both files anew), is not", func(t *testing.T, db *DB, path string) {
			// a connection left unusable (a failed BEGIN) is discarded
			if err := db.withConn(ctx, func(*conn) error { return driver.ErrBadConn }); !errors.Is(err, driver.ErrBadConn) {
				t.Fatal(err)
			}
			for _, side := range []string{"-wal", "-shm"} {
				if _, err := os.Stat(path + side); !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("the %s is still there (%v): the case is not tried", side, err)
				}
			}
			appendEvents(t, db, 1)
		}, ""},
		{"another handle's commits and close, and an outside checkpoint, are not", func(t *testing.T, db *DB, path string) {
			second, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			appendEvents(t, second, 2)
			second.Close()
			rawExec(t, path, "PRAGMA wal_checkpoint(TRUNCATE)")
			ro, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := ro.Record(ctx); err != nil {
				t.Fatal(err)
			}
			ro.Close()
			appendEvents(t, db, 1)
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, path := newTestDB(t)
			appendEvents(t, db, 3)
			db.WALChanged()
			if got := db.SideFileReplaced(); got != "" {
				t.Fatalf("before: %q said replaced", got)
			}
			tc.act(t, db, path)
			db.WALChanged() // the watch's look
			want := ""
			if tc.want != "" {
				want = path + tc.want
			}
			if got := db.SideFileReplaced(); got != want {
				t.Fatalf("SideFileReplaced() = %q, want %q", got, want)
			}
			if got := db.SideFileReplaced(); got != want {
				t.Fatalf("said again: %q, want %q", got, want)
			}
		})
	}
}
