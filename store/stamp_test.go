package store

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
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
		{"two of the DB's own commits at once, the second begun as the first committed: not changed", func(t *testing.T, db *DB, _ string) {
			ownCommitsAtOnce(t, db)
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
		{"a byte of a committed frame changed within the tick of the DB's own commit (its stat as the commit left it): changed", func(t *testing.T, db *DB, path string) {
			appendEvents(t, db, 1)
			flipInTick(t, path+"-wal", walHeaderSize+walFrameHeaderSize+100)
		}, true},
		{"another copy's log of the same size written over it in place after the DB's own commit: changed", func(t *testing.T, db *DB, path string) {
			appendEvents(t, db, 1)
			other, otherPath := newTestDB(t)
			appendEvents(t, other, 3)
			b, err := os.ReadFile(otherPath + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(b)) != fi.Size() {
				t.Fatalf("the other copy's log holds %d bytes, this one %d", len(b), fi.Size())
			}
			f, err := os.OpenFile(path+"-wal", os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt(b, 0); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a byte of a frame past the committed ones written after the watch's look and before the DB's next commit: changed", func(t *testing.T, db *DB, path string) {
			// a log restarted: its first frames anew, the older ones after them
			rawExec(t, path, "PRAGMA wal_checkpoint(RESTART)")
			appendEvents(t, db, 1)
			db.WALChanged() // the other connection's checkpoint, told
			idx, ok := readWALIndex(path)
			if !ok || idx.mxFrame != 1 {
				t.Fatalf("the wal-index after the restart: %+v, %v; want one frame", idx, ok)
			}
			off := walHeaderSize + 3*int64(walFrameHeaderSize+idx.pageSize) + walFrameHeaderSize + 5 // the fourth frame, stale
			if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() <= off {
				t.Fatalf("the log (%v) does not reach byte %d: %v", fi.Size(), off, err)
			}
			f, err := os.OpenFile(path+"-wal", os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt([]byte{0x5a}, off); err != nil {
				t.Fatal(err)
			}
			f.Close()
			later(t, path+"-wal")
			appendEvents(t, db, 1) // the second frame: the edited one stays past it
		}, true},
		{"a byte of the last committed frame changed within the tick of the DB's own commit: changed", func(t *testing.T, db *DB, path string) {
			appendEvents(t, db, 1)
			idx, ok := readWALIndex(path)
			if !ok {
				t.Fatal("no wal-index")
			}
			last := walHeaderSize + int64(idx.mxFrame-1)*int64(walFrameHeaderSize+idx.pageSize)
			flipInTick(t, path+"-wal", last+walFrameHeaderSize+int64(idx.pageSize)-1)
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

// TestTheDBsOwnCommitsLeaveTheLogsTimesUnasked: the looks at the -wal
// around the DB's own commits ask for its identity and size only, except
// the first commit's after the watch's look (WALChanged), which compares
// its times with what the watch saw. A look that reads the times gives
// the log's next write a fine-grained time of its own (Linux 6.13 on:
// multigrain timestamps), a dirty inode, and on an ext4 without a journal
// a second write in every commit's fdatasync, its inode's table block
// (docs/performance.md, "Commit one event, twelfth pass").
func TestTheDBsOwnCommitsLeaveTheLogsTimesUnasked(t *testing.T) {
	for _, tc := range []struct {
		name  string
		do    func(t *testing.T, db *DB)
		timed int
	}{
		{"twenty commits, no watch: no look asks the times", func(t *testing.T, db *DB) { appendEvents(t, db, 20) }, 0},
		{"the watch's look, then five commits: the watch's and the first commit's", func(t *testing.T, db *DB) {
			db.WALChanged()
			appendEvents(t, db, 5)
		}, 2},
		{"two watch's looks, each followed by two commits: two each", func(t *testing.T, db *DB) {
			for range 2 {
				db.WALChanged()
				appendEvents(t, db, 2)
			}
		}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := newTestDB(t)
			appendEvents(t, db, 2)
			n := 0
			lookAtLogTimed = func(path string) logLook { n++; return lookAtLog(path) }
			defer func() { lookAtLogTimed = lookAtLog }()
			tc.do(t, db)
			if n != tc.timed {
				t.Errorf("%d looks asked the -wal's times, want %d", n, tc.timed)
			}
		})
	}
}

// ownCommitsAtOnce has a second Update of db begin as the first has
// committed (a station's replica taking the authority's own command from
// the stream as the authority commits it): the first waits at its
// "after-commit" point until the second waits for the DB's connection.
func ownCommitsAtOnce(t *testing.T, db *DB) {
	t.Helper()
	start, done := make(chan struct{}), make(chan error, 1)
	go func() {
		<-start
		_, err := db.Update(context.Background(), func(tx *Tx) error {
			_, err := tx.Append(testEvent(101))
			return err
		})
		done <- err
	}()
	waits := db.sql.Stats().WaitCount
	first := true
	FaultHook = func(point string) {
		if point != "after-commit" || !first {
			return
		}
		first = false
		close(start)
		for deadline := time.Now().Add(10 * time.Second); db.sql.Stats().WaitCount == waits; {
			if time.Now().After(deadline) {
				t.Error("the second Update never waited for the connection")
				return
			}
			runtime.Gosched()
		}
	}
	defer func() { FaultHook = nil }()
	if _, err := db.Update(context.Background(), func(tx *Tx) error {
		_, err := tx.Append(testEvent(100))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestTheWriteAheadLogsChecksumsHoldAfterTheDBsOwnCommits: walIntact
// walks the frames the wal-index names committed and finds SQLite's
// checksum chain whole after the DB's own commits, and broken by a byte
// changed in any of them (the rows above: told changed).
func TestTheWriteAheadLogsChecksumsHoldAfterTheDBsOwnCommits(t *testing.T) {
	db, path := newTestDB(t)
	appendEvents(t, db, 5)
	idx, ok := readWALIndex(path)
	if !ok || idx.mxFrame == 0 {
		t.Fatalf("the wal-index: %+v, %v; want committed frames", idx, ok)
	}
	if intact, sure := walFramesIntact(path, idx); !intact || !sure {
		t.Fatalf("the %d committed frames: intact %v, sure %v", idx.mxFrame, intact, sure)
	}
	flipInTick(t, path+"-wal", walHeaderSize+walFrameHeaderSize+7)
	if intact, sure := walFramesIntact(path, idx); intact || !sure {
		t.Fatalf("a byte changed in the first frame: intact %v, sure %v", intact, sure)
	}
}

// flipInTick changes the byte at off of the file at path as a hex editor
// would, and gives the file back the modification time it had: an edit
// within the file system's tick of the DB's own write, which its stat
// does not tell.
func flipInTick(t *testing.T, path string, off int64) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x01
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if !stampOf(path).Same(Stamp{info: fi, size: fi.Size(), mod: fi.ModTime()}) {
		t.Fatal("the stat moved")
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

// A record opened through a symbolic link (a shortcut on the desktop to the
// match's folder's file): SQLite keeps its -wal and -shm beside the file the
// link names, so the watch looks at that -wal, not at one beside the link.
// Another writer's commit and a byte changed in the -wal are told changed,
// the DB's own commits are not, and the file is not said to be replaced
// (nor missing its -wal) while the link names it; a file renamed over the
// file the link names, or the link pointed at another file, is replaced.
func TestARecordOpenedThroughASymlinkIsWatchedWhereItsFilesAre(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need a privilege on Windows")
	}
	ctx := context.Background()
	open := func(t *testing.T) (db *DB, link, real string) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "match"), 0o755); err != nil {
			t.Fatal(err)
		}
		real = filepath.Join(dir, "match", "match.arbiter")
		link = filepath.Join(dir, "shortcut.arbiter")
		first := openTest(t, real)
		first.Close()
		if err := os.Symlink(filepath.Join("match", "match.arbiter"), link); err != nil {
			t.Fatal(err)
		}
		db = openTest(t, link)
		appendEvents(t, db, 2)
		return db, link, real
	}
	t.Run("the -wal is beside the file the link names", func(t *testing.T) {
		_, link, real := open(t)
		if _, err := os.Stat(real + "-wal"); err != nil {
			t.Fatalf("no -wal beside %s: %v", real, err)
		}
		if _, err := os.Lstat(link + "-wal"); err == nil {
			t.Log("SQLite put a -wal beside the link")
		}
	})
	for _, tc := range []struct {
		name    string
		do      func(t *testing.T, db *DB, real string)
		changed bool
	}{
		{"the DB's own commits: not changed", func(t *testing.T, db *DB, _ string) { appendEvents(t, db, 3) }, false},
		{"another connection's commit to the file the link names: changed", func(t *testing.T, _ *DB, real string) {
			rawExec(t, real, `INSERT INTO meta (key, value) VALUES ('other', 'x')`)
		}, true},
		{"a byte of a committed frame in its -wal changed within the tick of the DB's own commit: changed", func(t *testing.T, db *DB, real string) {
			appendEvents(t, db, 1)
			flipInTick(t, real+"-wal", walHeaderSize+walFrameHeaderSize+100)
		}, true},
	} {
		t.Run("WALChanged: "+tc.name, func(t *testing.T) {
			db, _, real := open(t)
			db.WALChanged()
			tc.do(t, db, real)
			if got := db.WALChanged(); got != tc.changed {
				t.Errorf("WALChanged() = %v, want %v", got, tc.changed)
			}
		})
	}
	for _, tc := range []struct {
		name     string
		do       func(t *testing.T, link, real string)
		replaced bool
	}{
		{"opened and written: not replaced", func(*testing.T, string, string) {}, false},
		{"a file renamed over the one the link names: replaced", func(t *testing.T, _, real string) {
			other := filepath.Join(filepath.Dir(real), "other")
			writeFile(t, other, []byte("x"))
			if err := os.Rename(other, real); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"the link pointed at another file: replaced", func(t *testing.T, link, real string) {
			other := filepath.Join(filepath.Dir(real), "other")
			writeFile(t, other, []byte("x"))
			if err := os.Remove(link); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, link); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run("Replaced: "+tc.name, func(t *testing.T) {
			db, link, real := open(t)
			tc.do(t, link, real)
			if got := db.Replaced(db.Stamp()); got != tc.replaced {
				t.Errorf("Replaced = %v, want %v", got, tc.replaced)
			}
		})
	}
	t.Run("opened again through the link while held elsewhere: its -wal is found", func(t *testing.T) {
		_, link, real := open(t)
		// another process's handle: the file the link names has its -wal
		ro, err := OpenReadOnly(ctx, link)
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		if ro.OpenedWithoutLog() {
			t.Errorf("a record whose -wal stands beside %s is said to have none", real)
		}
	})
}
