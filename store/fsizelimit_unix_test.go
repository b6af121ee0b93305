//go:build linux || darwin

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAWriteRefusedByAFileSizeLimitIsSaidAsSuch: under a file size limit
// (RLIMIT_FSIZE, 'ulimit -f', as make crash-test sets it when it is not
// root) the kernel refuses a write past the limit with EFBIG, and SQLite
// says a write that starts at the limit "disk I/O error (778)"
// (SQLITE_IOERR_WRITE) — a sentence the user can do nothing with — and one
// cut short by it "database or disk is full (13)", which blames the disk.
// Both now say the store's sentence: the file could not grow, the disk is
// full or the file reached the size limit (named, in bytes), free space or
// lift the limit; still ErrDiskFull for errors.Is (the console's banner, a
// backup's refusal). In a process of its own, which sets the limit on
// itself.
func TestAWriteRefusedByAFileSizeLimitIsSaidAsSuch(t *testing.T) {
	for _, c := range []struct {
		name   string
		room   int64  // bytes the -wal may grow by
		sqlite string // SQLite's own words the failure carries
	}{
		{"a write that starts at the limit (SQLite: disk I/O error, 778) says the size limit", 0, "(778)"},
		{"a write that gets partway past the limit (SQLite: disk I/O error, 778) says the size limit", 6000, "(778)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "limited.arbiter")
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriteUnderAFileSizeLimit$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperDBEnv+"="+path, "ARBITER_TEST_ROOM="+fmt.Sprint(c.room))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the writer failed: %v\n%s", err, out)
			}
			got := map[string]string{}
			for _, l := range strings.Split(string(out), "\n") {
				if k, v, ok := strings.Cut(l, ": "); ok && (k == "update" || k == "code" || k == "full" || k == "limit") {
					got[k] = v
				}
			}
			said := got["update"]
			if got["code"] != string(CodeFileSizeLimit) || got["full"] != "true" {
				t.Errorf("code %q, ErrDiskFull %s; want %s and true: %q", got["code"], got["full"], CodeFileSizeLimit, said)
			}
			for _, want := range []string{"could not grow", "size limit of " + got["limit"], "ulimit -f", "lift the limit", "nothing of the failed step was written", c.sqlite} {
				if !strings.Contains(said, want) {
					t.Errorf("the error does not say %q: %q", want, said)
				}
			}
			db, err := OpenReadOnly(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if r, err := db.Verify(context.Background(), ""); err != nil || !r.OK || r.Events != 3 {
				t.Errorf("Verify = %+v, %v; want OK with the 3 events before", r, err)
			}
		})
	}
}

// TestHelperWriteUnderAFileSizeLimit is the writer of the test above: three
// Updates, then a file size limit room bytes past the -wal's end, then one
// Update of a large event, whose failure it prints (update, code, whether
// it is ErrDiskFull, the limit as said).
func TestHelperWriteUnderAFileSizeLimit(t *testing.T) {
	path := os.Getenv(helperDBEnv)
	if path == "" || os.Getenv("ARBITER_TEST_ROOM") == "" {
		t.Skip("helper process for TestAWriteRefusedByAFileSizeLimitIsSaidAsSuch")
	}
	var room int64
	fmt.Sscan(os.Getenv("ARBITER_TEST_ROOM"), &room)
	db := openTest(t, path)
	appendEvents(t, db, 3)
	st, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	limit := uint64(st.Size() + room)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatal(err)
	}
	_, err = db.Update(context.Background(), func(tx *Tx) error {
		e := testEvent(3)
		e.Payload = []byte(`{"pad":"` + strings.Repeat("x", 64<<10) + `"}`)
		_, err := tx.Append(e)
		return err
	})
	if err == nil {
		fmt.Println("update: ok")
		return
	}
	fmt.Printf("update: %v\ncode: %s\nfull: %v\nlimit: %s\n", err, ErrorCode(err), errors.Is(err, ErrDiskFull), sizeText(limit))
}
