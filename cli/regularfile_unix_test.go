//go:build unix && !nostation

package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childWithin runs 'arbiter ARGS' as another process and returns its exit
// status and standard error; a process still running after d fails the
// test (it waits on a FIFO, say).
func childWithin(t *testing.T, d time.Duration, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	var errb strings.Builder
	cmd.Stderr = &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("arbiter %s still ran after %v: %s", strings.Join(args, " "), d, errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, errb.String()
}

// A key file or an invitation that is a FIFO, a device or a folder is
// refused at once in one sentence saying what it is; before, a FIFO held
// the command for ever.
func TestKeyFilesAndInvitationsMustBeRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "match.db")
	newMatchAt(t, db)
	before := fileHash(t, db)
	for _, f := range []struct{ what, path, says string }{
		{"a FIFO", fifo, "is a named pipe (FIFO), not a regular file"},
		{"a device", os.DevNull, "is a device, not a regular file"},
		{"a folder", folder, "is a folder, not a regular file"},
	} {
		for _, c := range []struct {
			name string
			args []string
			says string
		}{
			{"a key file", []string{"--db", db, "--as", "operator", "--key-file", f.path, "incident", "note", "--text", "x"}, "The key file " + f.path},
			{"an invitation", []string{"--db", filepath.Join(dir, "joined.db"), "station", "join", f.path}, "The invitation " + f.path},
		} {
			t.Run(c.name+" that is "+f.what+" is refused at once in one sentence", func(t *testing.T) {
				code, errs := childWithin(t, 15*time.Second, c.args...)
				if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.says+" "+f.says) {
					t.Fatalf("exit %d, %q; want exit 1 and %q", code, errs, c.says+" "+f.says)
				}
			})
		}
	}
	if es, _ := os.ReadDir(dir); len(es) != 3 || fileHash(t, db) != before {
		t.Errorf("the refused commands wrote: %v", es)
	}
}
