package store

import (
	"bytes"
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
		{"another copy's -wal written over the record's in place (cp: the same file) is said replaced", func(t *testing.T, db *DB, path string) {
			b, err := os.ReadFile(otherCopy(t) + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, path+"-wal", b)
		}, "-wal"},
		{"an older copy of the record's own -wal written over it in place is said replaced", func(t *testing.T, db *DB, path string) {
			b, err := os.ReadFile(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			appendEvents(t, db, 2)
			writeFile(t, path+"-wal", b)
		}, "-wal"},
		{"a copy's -wal with the record's salts, written on at the copy and longer than the record's, written over it in place is said replaced", func(t *testing.T, db *DB, path string) {
			// the record and its log copied as they stood (another station's
			// copy), then both written on: the copy's log keeps the salts,
			// its frames after the copy are the copy's events, not ours
			copied := filepath.Join(t.TempDir(), "copy.arbiter")
			for _, side := range []string{"", "-wal"} {
				b, err := os.ReadFile(path + side)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, copied+side, b)
			}
			cdb := openTest(t, copied)
			appendEvents(t, cdb, 3)
			// ours, after the copy, another event than the copy's first
			if _, err := db.Update(ctx, func(tx *Tx) error { _, err := tx.Append(testEvent(7)); return err }); err != nil {
				t.Fatal(err)
			}
			ours, err := os.ReadFile(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(copied + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b[16:24], ours[16:24]) || len(b) <= len(ours) {
				t.Fatalf("the copy's log (%d bytes, salts %x) is not longer with the record's salts (%d bytes, %x): the case is not tried", len(b), b[16:24], len(ours), ours[16:24])
			}
			writeFile(t, path+"-wal", b)
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

// TestALogPutBesideAClosedRecordThatTakesItBackIsRefusedAtOpen (principle
// 1): SQLite applies whatever -wal lies beside a file nobody holds over
// its pages at the next open. A log put beside a closed record — an older
// copy's of the same record, another record's — made it open as that copy,
// events the file held gone, and verify passed (only a head or match id
// written down elsewhere told); the next close of a handle that writes
// made it the file's for good. Open now refuses it, in one sentence, the
// files left as they were (a read-only open never writes them); the -wal
// moved away, the record opens as written. A
// record's own log, holding commits its file does not yet (another
// connection writing it, or one killed), opens as before.
func TestALogPutBesideAClosedRecordThatTakesItBackIsRefusedAtOpen(t *testing.T) {
	ctx := context.Background()
	// a record of n events, closed (its log copied into it and removed),
	// and the log of a copy taken after its first `older` events
	closedRecord := func(t *testing.T, n, older int) (path string, olderLog []byte) {
		db, path := newTestDB(t)
		appendEvents(t, db, older)
		b, err := os.ReadFile(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		appendEvents(t, db, n-older)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return path, b
	}
	for _, tc := range []struct {
		name string
		log  func(t *testing.T) (path string, log []byte, back int64)
	}{
		{"an older copy's -wal of the same record put beside it is refused", func(t *testing.T) (string, []byte, int64) {
			path, b := closedRecord(t, 6, 3)
			return path, b, 6
		}},
		{"another record's -wal put beside it is refused", func(t *testing.T) (string, []byte, int64) {
			path, _ := closedRecord(t, 6, 3)
			_, b := closedRecord(t, 2, 2)
			return path, b, 6
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, log, back := tc.log(t)
			writeFile(t, path+"-wal", log)
			sum, walSum := fileSum(t, path), fileSum(t, path+"-wal")
			db, err := Open(ctx, path)
			if err == nil {
				evs, _ := db.EventsAfter(ctx, 0)
				db.Close()
				t.Fatalf("opened, holding %d events", len(evs))
			}
			if ErrorCode(err) != CodeLogTakesBack || !strings.Contains(err.Error(), fmt.Sprintf("would change event %d the file holds", back)) {
				t.Fatalf("the refusal: %v, want %s naming event %d", err, CodeLogTakesBack, back)
			}
			// read-only (verify, status): the record as SQLite reads it,
			// never written, so the file stays as it was
			ro, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			ro.Close()
			if fileSum(t, path) != sum || fileSum(t, path+"-wal") != walSum {
				t.Fatal("a refused open or a read-only one changed the files")
			}
			if err := os.Remove(path + "-wal"); err != nil {
				t.Fatal(err)
			}
			os.Remove(path + "-shm")
			db = openTest(t, path)
			if evs, err := db.EventsAfter(ctx, 0); err != nil || len(evs) != 6 {
				t.Fatalf("the -wal moved away: %d events (%v), want 6", len(evs), err)
			}
		})
	}
	t.Run("a record's own log, holding commits its file does not, opens as before", func(t *testing.T) {
		path, _ := closedRecord(t, 3, 3)
		keep := rawDB(t, path) // another connection: the closing handle below is not the last
		t.Cleanup(func() { keep.Close() })
		if _, err := keep.Exec("SELECT count(*) FROM events"); err != nil {
			t.Fatal(err)
		}
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		appendEvents(t, db, 3)
		db.Close()
		if !walHasContent(path) {
			t.Fatal("the -wal holds nothing: the case is not tried")
		}
		for _, open := range []func(context.Context, string) (*DB, error){Open, OpenReadOnly} {
			db, err := open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := db.EventsAfter(ctx, 0)
			db.Close()
			if err != nil || len(evs) != 6 {
				t.Fatalf("%d events (%v), want 6", len(evs), err)
			}
		}
	})
}
