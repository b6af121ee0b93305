package store

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arbiter/internal/outside"
)

// Outside readers between commands (docs/store.md, "One way in to the
// file"): a process that holds the record in SQLite must never open or
// close the file by other means, because closing any descriptor of a file
// drops all the process's POSIX locks on it; the first outside reader that
// closes then takes the write-ahead log for its own and deletes it, and the
// writer goes on writing into a deleted file.

const (
	writerDBEnv     = "ARBITER_STORE_WRITER_DB"
	writerSecondEnv = "ARBITER_STORE_WRITER_SECOND"
)

// TestHelperWriterWithASecondHandle is not a test: the outside-reader test
// runs the test binary again with only this function selected. It holds the
// record as the console does (Open), opens and closes a second handle on the
// same file as the broadcast, a status read or a station's contacts do, then
// appends one event for every line on standard input, looks at the -wal as
// the watch does after it (its checksums read through the -shm), and prints
// "ok N" once event N is committed.
func TestHelperWriterWithASecondHandle(t *testing.T) {
	path := os.Getenv(writerDBEnv)
	if path == "" {
		t.Skip("helper process for TestAnOutsideReaderNeverCostsAnAcknowledgedEvent")
	}
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var second *DB
	switch os.Getenv(writerSecondEnv) {
	case "read-only":
		second, err = OpenReadOnly(ctx, path)
	case "read-write":
		second, err = Open(ctx, path)
	case "read-only, through a symbolic link,":
		link := path + ".link"
		if err := os.Symlink(path, link); err != nil {
			t.Fatal(err)
		}
		second, err = OpenReadOnly(ctx, link)
	default:
		t.Fatalf("%s=%q", writerSecondEnv, os.Getenv(writerSecondEnv))
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := second.Verify(ctx, ""); err != nil {
		t.Fatal(err)
	}
	second.Close()
	sc := bufio.NewScanner(os.Stdin)
	for i := 0; sc.Scan(); i++ {
		evs, err := db.Update(ctx, func(tx *Tx) error {
			_, err := tx.Append(testEvent(i))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		db.WALChanged() // the watch's look after a write: the -shm and the -wal read (walIntact)
		fmt.Printf("ok %d\n", evs[0].Seq)
	}
	t.Fatal("standard input closed; the test kills this process")
}

// TestAnOutsideReaderNeverCostsAnAcknowledgedEvent: a writer that has opened
// and closed a second handle on its record (the console with the broadcast
// on, a station reading its contacts) keeps every event it acknowledged
// through kill -9, whatever outside reader read the file between its
// commands. On the code before it the first outside reader deleted the
// write-ahead log under the writer and the kill lost every event after it.
func TestAnOutsideReaderNeverCostsAnAcknowledgedEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	for _, second := range []string{"read-only", "read-write", "read-only, through a symbolic link,"} {
		for _, reader := range outside.ForTest(t) {
			t.Run(fmt.Sprintf("a writer that closed a second %s handle keeps every acknowledged event when %s reads between commands", second, reader.Name), func(t *testing.T) {
				ctx := context.Background()
				path := filepath.Join(t.TempDir(), "match.arbiter")
				db := openTest(t, path)
				appendEvents(t, db, 1)
				db.Close()

				w := startWriter(t, path, second)
				acked := int64(1)
				for i := 0; i < 6; i++ {
					n, err := w.append()
					if err != nil {
						t.Fatal(err)
					}
					acked = n
					if got, err := reader.Count(path); err != nil {
						t.Fatal(err)
					} else if got != n {
						t.Errorf("%s counted %d events after the writer acknowledged event %d", reader.Name, got, n)
					}
				}
				rep := w.killAndVerify(t, ctx, path)
				if rep.Events != acked {
					t.Fatalf("after kill -9 the file holds %d events; the writer acknowledged %d", rep.Events, acked)
				}
			})
		}
	}
}

// writerProcess is TestHelperWriterWithASecondHandle run as another process
// on a record: it appends one event at each append and says the seq it
// committed; the test kills it (SIGKILL) and reads what the file kept.
type writerProcess struct {
	cmd   *exec.Cmd
	in    io.Writer
	lines *bufio.Scanner
	errb  strings.Builder
}

// startWriter starts the writer on path with its second handle opened as
// second; it is killed when the test ends if it still runs.
func startWriter(t *testing.T, path, second string) *writerProcess {
	t.Helper()
	w := &writerProcess{cmd: exec.Command(os.Args[0], "-test.run=^TestHelperWriterWithASecondHandle$", "-test.count=1")}
	w.cmd.Env = append(os.Environ(), writerDBEnv+"="+path, writerSecondEnv+"="+second)
	in, err := w.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w.cmd.Stderr = &w.errb
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.in, w.lines = in, bufio.NewScanner(out)
	t.Cleanup(func() { w.cmd.Process.Kill(); w.cmd.Wait() })
	return w
}

// append asks the writer for one more event and returns the seq it
// acknowledged, or an error saying why it acknowledged none (it stopped, or
// said something else, with what it wrote to stderr).
func (w *writerProcess) append() (int64, error) {
	fmt.Fprintln(w.in, "append")
	if !w.lines.Scan() {
		return 0, fmt.Errorf("the writer stopped: %s", w.errb.String())
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(w.lines.Text(), "ok "), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("the writer said %q: %s", w.lines.Text(), w.errb.String())
	}
	return n, nil
}

// killAndVerify kills the writer with SIGKILL and returns the verification
// of what the file at path holds then; the test fails unless it verifies.
func (w *writerProcess) killAndVerify(t *testing.T, ctx context.Context, path string) VerifyReport {
	t.Helper()
	w.cmd.Process.Kill() // SIGKILL
	w.cmd.Wait()
	after, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	rep, err := after.Verify(ctx, "")
	if err != nil || !rep.OK {
		t.Fatalf("after kill -9 the record does not verify: %v %+v", err, rep)
	}
	return rep
}
