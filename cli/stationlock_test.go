//go:build !nostation

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// stationChild runs 'arbiter --db db ARGS' as another process (this test
// binary as the program) and waits until its station writes its status
// file; the process is killed when the test ends.
func stationChild(t *testing.T, db string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--db", db}, args...)...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	var errb syncBuffer
	cmd.Stderr = &errb
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stationExits.Store(cmd, exited)
	t.Cleanup(func() { cmd.Process.Kill(); <-exited; stationExits.Delete(cmd) })
	for deadline := began.Add(60 * time.Second); ; {
		var st struct {
			WrittenNS int64 `json:"written_ns"`
		}
		if b, err := os.ReadFile(db + ".station.status.json"); err == nil && json.Unmarshal(b, &st) == nil && st.WrittenNS > began.UnixNano() {
			return cmd
		}
		select {
		case <-exited:
			t.Fatalf("the station process on %s ended: %s", db, errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the station process on %s did not start: %s", db, errb.String())
		}
		time.Sleep(10 * time.Millisecond) // polling the other process's status file
	}
}

// stationExits holds, for each stationChild process, the channel closed
// once it has ended (its Wait is the one goroutine stationChild runs).
var stationExits sync.Map // *exec.Cmd -> chan struct{}

// killStation kills a stationChild process with SIGKILL and waits until it
// has ended.
func killStation(cmd *exec.Cmd) {
	cmd.Process.Kill()
	if exited, ok := stationExits.Load(cmd); ok {
		<-exited.(chan struct{})
	}
}

// refusedChild runs 'arbiter --db db ARGS' as another process, which must
// end at once with exit 1 and one sentence; a process still running after
// 60 s (a second station serving) fails the test.
func refusedChild(t *testing.T, db string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"--db", db}, args...)...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("arbiter %s on %s still ran after 60 s: a second station for the record", strings.Join(args, " "), db)
	}
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 || strings.Count(errb.String(), "\n") != 1 {
		t.Fatalf("arbiter %s on %s: %v, %q (want exit 1 and one sentence)", strings.Join(args, " "), db, err, errb.String())
	}
	return errb.String()
}

// filesBeside lists the files of dir with their contents, except the
// files the running station rewrites in the background (its status file,
// its saved match timeline, their temporary files) and the record and
// engine store the running station itself writes.
func filesBeside(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.Contains(rel, "timeline.json") || strings.Contains(filepath.Base(rel), ".arbiter-write-") {
			return nil // written once the station knows the timeline, and then every few seconds
		}
		if strings.Contains(rel, ".station.status.json") || strings.Contains(rel, ".station"+string(filepath.Separator)) ||
			strings.HasSuffix(rel, ".db") || strings.Contains(rel, ".db-") {
			out = append(out, rel)
			return nil
		}
		b, _ := os.ReadFile(p)
		out = append(out, rel+"="+string(b))
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// One station per record: a second 'station serve' for a record whose
// station runs, or a second 'station join' on the same NEWFILE, is refused
// with one sentence (exit 1) and writes nothing; the lock is the OS's, so
// a station killed with kill -9 leaves none behind.
func TestStationOneStationPerRecordRefusesASecondAndOutlivesNoKill(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "arbiter.db")
	mustArb(t, first, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch))
	listen := fmt.Sprintf("127.0.0.1:%d", freePortPair(t))
	a := stationChild(t, first, "station", "serve", "--listen", listen)
	pid := strconv.Itoa(a.Process.Pid)

	t.Run("a second serve for the record is refused and writes nothing", func(t *testing.T) {
		before := filesBeside(t, dir)
		errs := refusedChild(t, first, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
		if !strings.Contains(errs, "station already runs for "+first+" (process "+pid+")") {
			t.Fatalf("the refusal says %q", errs)
		}
		if after := filesBeside(t, dir); after != before {
			t.Fatalf("the refused serve wrote:\n%s\nbefore:\n%s", after, before)
		}
	})

	t.Run("a second join on the same new file is refused and writes nothing", func(t *testing.T) {
		inv := filepath.Join(dir, "laptop.invite")
		mustArb(t, first, "station", "invite", "--role", "operator", "--name", "laptop", "-o", inv)
		laptop := filepath.Join(dir, "laptop.db")
		b := stationChild(t, laptop, "station", "join", inv)
		before := filesBeside(t, dir)
		errs := refusedChild(t, laptop, "station", "join", inv)
		if !strings.Contains(errs, "station already runs for "+laptop+" (process "+strconv.Itoa(b.Process.Pid)+")") {
			t.Fatalf("the refusal says %q", errs)
		}
		if errs := refusedChild(t, laptop, "station", "serve"); !strings.Contains(errs, "station already runs for "+laptop) {
			t.Fatalf("a serve beside the join: %q", errs)
		}
		if after := filesBeside(t, dir); after != before {
			t.Fatalf("the refused join wrote:\n%s\nbefore:\n%s", after, before)
		}
	})

	t.Run("a station killed with kill -9 leaves no lock behind", func(t *testing.T) {
		if err := a.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		a.Process.Wait()
		c := stationChild(t, first, "station", "serve", "--listen", listen)
		b, err := os.ReadFile(first + ".station.lock")
		if err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(c.Process.Pid) {
			t.Fatalf("the lock file says %q (%v), want the new station's process %d", b, err, c.Process.Pid)
		}
	})
}
