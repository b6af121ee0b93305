package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arbiter/internal/outside"
)

// Outside readers (docs/store.md, "One way in to the file"): the sqlite3
// shell and Python's sqlite3 (those installed) and another 'arbiter
// status' read the record between commands, as the appeals board, an
// operator or a script may at any moment. A reader that closes while the
// writer has lost its locks on the file deletes the write-ahead log under
// it; the kills then lose acknowledged events.

// readers are the outside readers of this run: those installed, and
// 'arbiter status'.
func readers() (names []string, read func(db string) error) {
	rs, missing := outside.Readers()
	for _, m := range missing {
		fmt.Printf("crashtest: %s\n", m)
	}
	for _, r := range rs {
		names = append(names, r.Name)
	}
	names = append(names, "'arbiter status'")
	return names, func(db string) error {
		for _, r := range rs {
			if _, err := r.Count(db); err != nil {
				return err
			}
		}
		out, err := exec.Command(*binFlag, "--db", db, "status").CombinedOutput()
		if err != nil && !strings.Contains(string(out), "no database") && !strings.Contains(string(out), "holds no event log") {
			return fmt.Errorf("arbiter status: %v: %s", err, lastLine(out))
		}
		return nil
	}
}

// readAlong runs the outside readers on db, one after another, from when
// ready is closed until stop is called; stop returns how many rounds they
// read and the first error. A file that play is creating is no record
// until its first line is committed: before, it holds no table (the
// sqlite3 shell: "no such table: events"), so the caller closes ready then
// (or at once for a record that exists).
func readAlong(db string, read func(string) error, ready <-chan struct{}) (stop func() (int, error)) {
	var wg sync.WaitGroup
	var done atomic.Bool
	var rounds int
	var first error
	quit := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-ready:
		case <-quit:
			return
		}
		for !done.Load() {
			if _, err := os.Stat(db); err != nil {
				time.Sleep(time.Millisecond) // the process ended before it created the file
				continue
			}
			if err := read(db); err != nil && first == nil {
				first = err
			}
			rounds++
		}
	}()
	return func() (int, error) {
		done.Store(true)
		close(quit)
		wg.Wait()
		return rounds, first
	}
}

// freePortPair is a port P on 127.0.0.1 with P and P+1 free (a station's
// route and client ports).
func freePortPair() (int, error) {
	for i := 0; i < 50; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		p := l.Addr().(*net.TCPAddr).Port
		l2, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p+1))
		l.Close()
		if err == nil {
			l2.Close()
			return p, nil
		}
	}
	return 0, fmt.Errorf("no two free ports side by side on 127.0.0.1")
}

// stationProc runs 'arbiter --db db ARGS' (a station) until killed, and
// waits until its status file is written.
func stationProc(db string, args ...string) (*exec.Cmd, error) {
	cmd := exec.Command(*binFlag, append([]string{"--db", db}, args...)...)
	cmd.Env = append(os.Environ(), "LANG=en_US.UTF-8")
	log, err := os.Create(db + ".log")
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	for deadline := began.Add(60 * time.Second); ; {
		var st struct {
			WrittenNS int64 `json:"written_ns"`
		}
		if b, err := os.ReadFile(db + ".station.status.json"); err == nil && json.Unmarshal(b, &st) == nil && st.WrittenNS > began.UnixNano() {
			return cmd, nil
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			b, _ := os.ReadFile(db + ".log")
			return nil, fmt.Errorf("the station on %s did not start: %s", db, lastLine(b))
		}
		time.Sleep(20 * time.Millisecond) // the other process writes its status file
	}
}

// stationSeq is the seq the running station on db reports applied.
func stationSeq(db string) (int, error) {
	out, err := exec.Command(*binFlag, "--db", db, "station", "status", "--json").Output()
	if err != nil {
		return 0, err
	}
	var st struct {
		Seq int `json:"seq"`
	}
	return st.Seq, json.Unmarshal(out, &st)
}

// stationReaderTest: a first station and an operator's laptop (each a
// process that holds its record and reads it again through other handles)
// take 24 commands, with the outside readers reading both records between
// commands; then both are killed with kill -9, and each file must hold
// every event its station had applied.
func stationReaderTest(work string, read func(string) error) {
	dir := filepath.Join(work, "stations")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fatal(err)
	}
	first, laptop := filepath.Join(dir, "first.arbiter"), filepath.Join(dir, "laptop.arbiter")
	name := "stations: outside readers between commands at the first station and the operator's laptop, then kill -9: every acknowledged event is in both files"
	arb := func(db string, args ...string) error {
		out, err := exec.Command(*binFlag, append([]string{"--db", db}, args...)...).CombinedOutput()
		return errWith(err, out)
	}
	port, err := freePortPair()
	if err == nil {
		err = arb(first, "match", "new", "--title", "Crash test", "--player", "Garry Kasparov", "--player", "Deep Blue",
			"--computer", "Deep Blue", "--operator", "Feng-hsiung Hsu", "--white", "Deep Blue", "--games", "1")
	}
	var procs []*exec.Cmd
	defer func() {
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}()
	start := func(db string, args ...string) {
		if err == nil {
			var p *exec.Cmd
			if p, err = stationProc(db, args...); err == nil {
				procs = append(procs, p)
			}
		}
	}
	start(first, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	if err == nil {
		err = arb(first, "station", "invite", "--role", "operator", "--name", "laptop", "-o", filepath.Join(dir, "laptop.invite"))
	}
	start(laptop, "station", "join", filepath.Join(dir, "laptop.invite"))
	if err == nil {
		err = arb(first, "game", "start")
	}
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	for i := 0; i < 24 && err == nil; i++ {
		for _, db := range []string{first, laptop} {
			if err == nil {
				err = read(db)
			}
		}
		if err != nil {
			break
		}
		if i%2 == 0 {
			err = arb(laptop, "move", moves[i%4]) // the laptop speaks for the operator
		} else {
			err = arb(first, "--as", "black", "move", moves[i%4])
		}
	}
	var acked int
	if err == nil {
		evs, rerr := readEvents(first)
		acked, err = len(evs), rerr
	}
	if err == nil {
		err = waitApplied(laptop, acked)
	}
	for _, db := range []string{first, laptop} {
		if err == nil {
			err = read(db)
		}
	}
	if err != nil {
		check(name, err)
		return
	}
	for _, p := range procs {
		p.Process.Kill() // SIGKILL
		p.Wait()
	}
	procs = nil
	if err := holdAcknowledged([]string{first, laptop}, acked); err != nil {
		check(name, err)
		return
	}
	check(fmt.Sprintf("%s (%d events)", name, acked), nil)
}

// waitApplied waits until the station of the record db has applied event
// acked (its status says so), for up to 30 s.
func waitApplied(db string, acked int) error {
	for deadline := time.Now().Add(30 * time.Second); ; {
		n, err := stationSeq(db)
		if err == nil && n == acked {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the laptop did not apply event %d (status: %d, %v)", acked, n, err)
		}
		time.Sleep(20 * time.Millisecond) // the laptop's station applies the stream
	}
}

// holdAcknowledged checks that each record verifies and holds exactly the
// acked events after its station was killed.
func holdAcknowledged(dbs []string, acked int) error {
	for _, db := range dbs {
		out, err := exec.Command(*binFlag, "--db", db, "verify").CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s does not verify after the kill: %s", filepath.Base(db), lastLine(out))
		}
		evs, err := readEvents(db)
		if err != nil {
			return err
		}
		if len(evs) != acked {
			return fmt.Errorf("after kill -9 %s holds %d events; %d were acknowledged and applied", filepath.Base(db), len(evs), acked)
		}
	}
	return nil
}
