//go:build unix

package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestALogLayoutWithoutRoomLeavesTheUpdateToCommitOrFailInItsOwnWords: the
// layout of the log (growlog.go) before a handle's Update after
// layoutAfter writes some 4 MB into the -wal; on a disk without that room
// SQLite fails it (SQLITE_FULL) and rolls the layout's transaction back
// itself, so that the layout's own ROLLBACK found no transaction. That was
// taken for a broken connection and failed the Update in a sentence of
// SQLite's ("laying out the log: SQL logic error: cannot rollback - no
// transaction is active"): make crash-test's full disk, 2 MiB free, stopped
// the match at line 38, where the events themselves had room for 120 lines
// more. The file may not grow past a limit here (RLIMIT_FSIZE, the crash
// test's ulimit -f; EFBIG, which SQLite reports as a full disk or as a
// write's I/O error), in a process of its own. An Update whose own commit
// then fails had SQLite's rollback too, and said "rollback: ... cannot
// rollback" in place of why its commit failed.
func TestALogLayoutWithoutRoomLeavesTheUpdateToCommitOrFailInItsOwnWords(t *testing.T) {
	for _, c := range []struct {
		name    string
		room    int64 // bytes the -wal may grow by after the layoutAfter Updates
		want    int64 // events in the record after the Update
		commits bool
	}{
		{"the Update commits where its event has room and the layout has not", 256 << 10, layoutAfter + 1, true},
		{"the Update fails in its own words where its event has no room either", 0, layoutAfter, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "full.arbiter")
			got, out := runLimitedWriter(t, "TestHelperLayoutWithoutRoom", path, c.room)
			said := got["update"]
			switch {
			case c.commits && said != "ok":
				t.Errorf("the Update after the first %d: %q, want it committed\n%s", layoutAfter, said, out)
			case !c.commits && (!strings.HasPrefix(said, "store: update: commit: ") || strings.Contains(said, "cannot rollback")):
				t.Errorf("the Update after the first %d: %q, want its commit's own failure\n%s", layoutAfter, said, out)
			}
			db, err := OpenReadOnly(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if r, err := db.Verify(context.Background(), ""); err != nil || !r.OK || r.Events != c.want {
				t.Errorf("Verify = %+v, %v; want OK with %d events", r, err, c.want)
			}
		})
	}
}

// TestHelperLayoutWithoutRoom is the writer of the test above: layoutAfter
// Updates, then the file-size limit, then one more Update, whose result it
// prints ("update: " and "ok" or its error).
func TestHelperLayoutWithoutRoom(t *testing.T) {
	_, err := writeUnderLimit(t, "TestALogLayoutWithoutRoomLeavesTheUpdateToCommitOrFailInItsOwnWords", layoutAfter, func(room int64) bool { return room == 0 })
	if err == nil {
		fmt.Println("update: ok")
	} else {
		fmt.Printf("update: %v\n", err)
	}
}

// runLimitedWriter runs the writer helper (a test of this package's binary)
// in a process of its own on the record at path, where the -wal may grow by
// room bytes, and returns its output's "key: value" lines, and the output.
func runLimitedWriter(t *testing.T, helper, path string, room int64) (map[string]string, []byte) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperDBEnv+"="+path, "ARBITER_TEST_ROOM="+fmt.Sprint(room))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the writer failed: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok {
			got[k] = v
		}
	}
	return got, out
}

// writeUnderLimit is a writer helper's part (it skips unless run by
// runLimitedWriter for the test named parent): before Updates, then a file
// size limit ARBITER_TEST_ROOM bytes past the -wal's end, then one Update
// of one more event, padded to 64 KiB when pad says so for that room. It
// returns the limit and the last Update's error.
func writeUnderLimit(t *testing.T, parent string, before int, pad func(room int64) bool) (uint64, error) {
	path := os.Getenv(helperDBEnv)
	if path == "" || os.Getenv("ARBITER_TEST_ROOM") == "" {
		t.Skip("helper process for " + parent)
	}
	var room int64
	fmt.Sscan(os.Getenv("ARBITER_TEST_ROOM"), &room)
	db := openTest(t, path)
	appendEvents(t, db, before)
	st, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	limit := uint64(st.Size() + room)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatal(err)
	}
	_, err = db.Update(context.Background(), func(tx *Tx) error {
		e := testEvent(before)
		if pad(room) {
			e.Payload = []byte(`{"pad":"` + strings.Repeat("x", 64<<10) + `"}`)
		}
		_, err := tx.Append(e)
		return err
	})
	return limit, err
}
