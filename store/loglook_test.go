package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTheLogsLookTellsWhatItsStampTells: lookAtLog, the watch's look at
// the -wal around every commit (stamp.go), tells a change exactly where
// stampOf (os.Stat) does: not for the file untouched, and for a byte
// written with the size kept, a file grown, the time moved alone,
// another file renamed over it, and none left; two looks at no file are
// the same.
func TestTheLogsLookTellsWhatItsStampTells(t *testing.T) {
	for _, tc := range []struct {
		name    string
		do      func(t *testing.T, path string)
		changed bool
	}{
		{"nothing done: the same", func(*testing.T, string) {}, false},
		{"a byte written, the size kept: changed", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte{'x'}, 3); err != nil {
				t.Fatal(err)
			}
			later(t, path)
		}, true},
		{"grown, the time kept: changed", func(t *testing.T, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("0123456789abcdef"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"the time moved alone: changed", later, true},
		{"another file renamed over it, its size and time the same: changed", func(t *testing.T, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			other := path + ".copy"
			if err := os.WriteFile(other, []byte("0123456789"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(other, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"removed: changed", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.arbiter-wal")
			if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
				t.Fatal(err)
			}
			look, stamp := lookAtLog(path), stampOf(path)
			tc.do(t, path)
			if got := !lookAtLog(path).same(look); got != tc.changed {
				t.Errorf("lookAtLog told changed = %v, want %v", got, tc.changed)
			}
			if got := !stampOf(path).Same(stamp); got != tc.changed {
				t.Errorf("stampOf told changed = %v, want %v (the reference)", got, tc.changed)
			}
		})
	}
	t.Run("no file looked at twice: the same, and not the zero look", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "none-wal")
		if !lookAtLog(path).same(lookAtLog(path)) {
			t.Error("two looks at no file differ")
		}
		if lookAtLog(path).same(logLook{}) {
			t.Error("no file is the same as a file that could not be looked at")
		}
	})
}

// later moves the file's modification time a second on, its bytes kept.
func later(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	at := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

// TestTheLogsShapeIsWhatItsLookSays: lookAtLogShape, the look around the
// DB's own commits that leaves the times unasked (stamp.go), sees the same
// file (device and inode, as the -wal's identity is kept: sidecheck.go)
// and size as lookAtLog, and no file where it sees none.
func TestTheLogsShapeIsWhatItsLookSays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.arbiter-wal")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	shape, look := lookAtLogShape(path, cPath(path)), lookAtLog(path)
	if !shape.sameFile(look) || !shape.sameShape(look) || !look.sameShape(shape) {
		t.Errorf("the shape %+v is not the look %+v", shape, look)
	}
	if err := os.WriteFile(path, []byte("0123456789abcdef"), 0o644); err != nil {
		t.Fatal(err)
	}
	if lookAtLogShape(path, cPath(path)).sameShape(shape) {
		t.Error("the file grown has the same shape")
	}
	gone := filepath.Join(t.TempDir(), "none-wal")
	if s := lookAtLogShape(gone, cPath(gone)); !s.isGone() || !s.sameShape(lookAtLog(gone)) {
		t.Errorf("no file: shape %+v", s)
	}
}
