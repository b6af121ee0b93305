// Command crashtest proves that Arbiter loses nothing it acknowledged. It is
// run by "make crash-test" (scripts/crash-test.sh) from the repository root:
//
//	go run ./internal/crashtest [-bin bin/arbiter] [-kills 50] [-seed 1] [-work build/crash]
//
// # What it checks
//
// A long scripted match (the 1996 Kasparov–Deep Blue match written by
// internal/demo from the games built into the program, or from the PGN file
// -pgn names) is played with "arbiter play -v", which prints
// "ok N" after script line N is committed. Every command line of the script
// happens at its own instant, so the events a line wrote are exactly the
// events carrying that instant. A reference run plays the whole script once.
//
//   - SIGKILL at random instants (-kills of them): the process is killed
//     while it plays; then "arbiter verify" must pass, the log must be a
//     prefix of the reference log (the same events but for the match id and
//     the instants of receipt each record draws and reads: same.go), it
//     must hold every line reported "ok", and at most one more line,
//     whole. The match then continues from where the log ends (the lines
//     already in the log are commented out, so line numbers stay), until
//     the next kill.
//   - Injected faults inside a commit (ARBITER_FAULT=POINT:N, the store's
//     test-only hook): before-begin, after-insert and before-commit must
//     leave the interrupted line out entirely; after-commit must leave it in.
//   - Live backups: "arbiter backup" run while the match is being played
//     gives copies that verify and are prefixes of the reference log.
//   - A full file system (a small tmpfs when root may mount one, else
//     "ulimit -f", which gives EFBIG): play stops with a clear error, nothing
//     acknowledged is lost, "arbiter backup" and service.CopyMatch copy the
//     match to another disk, and the rest of the match plays there to the
//     reference head.
//   - Outside readers (the sqlite3 shell, Python's sqlite3, another
//     'arbiter status') read the record all along while it is played and
//     killed; and a first station and an operator's laptop take commands
//     with the readers reading both records between them, then both are
//     killed with kill -9: every acknowledged event is in both files.
//   - A read-only database (a 0444 file in a 0555 folder, used by an
//     unprivileged user through setpriv, since root writes anyway): a move is
//     refused with a clear error and the file stays byte-identical.
//
// It prints one line per check and ends with "N passed, N failed"; the exit
// status is 1 if any check failed.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"arbiter/internal/demo"
	"arbiter/service"
	"arbiter/store"
)

var (
	binFlag   = flag.String("bin", "bin/arbiter", "the arbiter binary to test")
	killsFlag = flag.Int("kills", 50, "how many SIGKILLs at random instants")
	seedFlag  = flag.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the random kill instants")
	workFlag  = flag.String("work", "build/crash", "folder for the test databases (emptied first)")
	pgnFlag   = flag.String("pgn", "", "a PGN of the 1996 games for the script (default: the games built in)")
)

// start is the instant the script's offsets count from.
var start = time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)

var passed, failed int

// closed is a channel closed from the start.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func check(name string, err error) bool {
	if err != nil {
		failed++
		fmt.Printf("FAIL %s: %v\n", name, err)
		return false
	}
	passed++
	fmt.Printf("PASS %s\n", name)
	return true
}

func main() {
	flag.Parse()
	rng := rand.New(rand.NewPCG(*seedFlag, 7))
	fmt.Printf("crashtest: binary %s, seed %d, %d kills\n", *binFlag, *seedFlag, *killsFlag)
	bin, err := filepath.Abs(*binFlag)
	if err != nil {
		fatal(err)
	}
	*binFlag = bin
	if err := os.RemoveAll(*workFlag); err != nil {
		fatal(err)
	}
	if err := os.MkdirAll(*workFlag, 0o755); err != nil {
		fatal(err)
	}
	work, _ := filepath.Abs(*workFlag)

	sc, err := newScript()
	if err != nil {
		fatal(err)
	}
	scriptPath := filepath.Join(work, "match.txt")
	if err := os.WriteFile(scriptPath, []byte(strings.Join(sc.lines, "\n")+"\n"), 0o644); err != nil {
		fatal(err)
	}
	fmt.Printf("crashtest: script %s: %s, %d command lines\n", scriptPath, sc.source, len(sc.at))

	// The reference run.
	ref := filepath.Join(work, "reference.arbiter")
	t0 := time.Now()
	out, err := exec.Command(bin, "--db", ref, "--at", start.Format(time.RFC3339), "play", scriptPath).CombinedOutput()
	refTime := time.Since(t0)
	if !check("reference run plays the whole script", errWith(err, out)) {
		summary()
	}
	refEvents, err := readEvents(ref)
	if err != nil {
		fatal(err)
	}
	sc.index(refEvents)
	fmt.Printf("crashtest: reference: %d events in %v\n", len(refEvents), refTime.Round(time.Millisecond))

	names, read := readers()
	fmt.Printf("crashtest: outside readers between commands: %s\n", strings.Join(names, ", "))
	killTest(sc, refEvents, refTime, work, rng, read)
	stationReaderTest(work, read)
	faultTest(sc, refEvents, work, rng)
	diskFullTest(sc, refEvents, work)
	readOnlyTest(sc, work)
	summary()
}

func summary() {
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
	os.Exit(0)
}

func fatal(err error) {
	fmt.Printf("FAIL crashtest could not run: %v\n", err)
	failed++
	summary()
}

func errWith(err error, out []byte) error {
	if err != nil {
		return fmt.Errorf("%v: %s", err, lastLine(out))
	}
	return nil
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// script is the match script with the instant of every command line.
type script struct {
	source string
	lines  []string
	at     map[int]time.Time // line number (1-based) -> instant, command lines only
	order  []int             // command line numbers in order
	// through[i] is the number of reference events written by the command
	// lines order[0..i].
	through []int
}

func newScript() (*script, error) {
	text, err := demo.Script1996(demo.Options{Seed: 1996})
	source := "the 1996 match"
	if *pgnFlag != "" {
		text, err = demo.Script1996From(*pgnFlag, demo.Options{Seed: 1996})
		source = "the 1996 match from " + *pgnFlag
	}
	if err != nil {
		return nil, err
	}
	sc := &script{source: source, at: map[int]time.Time{}}
	var last time.Time
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		n := i + 1
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			sc.lines = append(sc.lines, line)
			continue
		}
		off, rest, _ := strings.Cut(t, " ")
		at, err := parseOffset(off)
		if err != nil {
			return nil, fmt.Errorf("script line %d: %w", n, err)
		}
		// Every command line gets its own instant, so its events can be told apart.
		if !at.After(last) {
			at = last.Add(time.Millisecond)
		}
		last = at
		sc.at[n] = at
		sc.order = append(sc.order, n)
		sc.lines = append(sc.lines, at.Format(time.RFC3339Nano)+" "+rest)
	}
	return sc, nil
}

// parseOffset reads H:MM:SS[.fff] after start (the script format).
func parseOffset(s string) (time.Time, error) {
	if strings.Contains(s, "T") {
		return time.Parse(time.RFC3339Nano, s)
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return time.Time{}, fmt.Errorf("%q is not an offset", s)
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	sec, err3 := strconv.ParseFloat(parts[2], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return time.Time{}, fmt.Errorf("%q is not an offset", s)
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec*1e9).Round(time.Millisecond)
	return start.Add(d), nil
}

// index counts the reference events per command line.
func (sc *script) index(ref []store.Event) {
	per := map[time.Time]int{}
	for _, e := range ref {
		per[e.At.UTC()]++
	}
	total := 0
	for _, n := range sc.order {
		total += per[sc.at[n]]
		sc.through = append(sc.through, total)
	}
}

// eventsThrough is how many reference events lines up to and including
// line n (0: none) wrote.
func (sc *script) eventsThrough(n int) int {
	count := 0
	for i, ln := range sc.order {
		if ln > n {
			break
		}
		count = sc.through[i]
	}
	return count
}

// nextLine is the first command line after n (0 if none).
func (sc *script) nextLine(n int) int {
	for _, ln := range sc.order {
		if ln > n {
			return ln
		}
	}
	return 0
}

// lineOfEvents is the last command line whose events are all among the
// first k reference events.
func (sc *script) lineOfEvents(k int) int {
	line := 0
	for i, ln := range sc.order {
		if sc.through[i] <= k {
			line = ln
		}
	}
	return line
}

// remainder is the script with the lines whose events are already in the
// log commented out, so that "ok N" still names line N of the full script.
func (sc *script) remainder(doneLine int) string {
	var b strings.Builder
	for i, l := range sc.lines {
		if _, isCmd := sc.at[i+1]; isCmd && i+1 <= doneLine {
			b.WriteString("# done\n")
			continue
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

func readEvents(path string) ([]store.Event, error) {
	db, err := store.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.EventsAfter(context.Background(), 0)
}

// run is one "arbiter play -v" process.
type run struct {
	cmd    *exec.Cmd
	lastOK int
	oks    chan int
	first  chan struct{} // closed at the first "ok" line: the process is playing
	done   chan error
	stderr bytes.Buffer
}

func startPlay(db, scriptPath string, env ...string) (*run, error) {
	r := &run{oks: make(chan int, 4096), first: make(chan struct{}), done: make(chan error, 1)}
	r.cmd = exec.Command(*binFlag, "--db", db, "--at", start.Format(time.RFC3339), "play", "-v", scriptPath)
	r.cmd.Env = append(append(os.Environ(), "LANG=en_US.UTF-8"), env...)
	r.cmd.Stderr = &r.stderr
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := r.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		s := bufio.NewScanner(stdout)
		seen := false
		for s.Scan() {
			var n int
			if _, err := fmt.Sscanf(s.Text(), "ok %d", &n); err == nil {
				r.oks <- n
				if !seen {
					seen = true
					close(r.first)
				}
			}
		}
		if !seen {
			close(r.first)
		}
		close(r.oks)
		r.done <- r.cmd.Wait()
	}()
	return r, nil
}

// wait collects the "ok" lines until the process has ended.
func (r *run) wait() error {
	for n := range r.oks {
		r.lastOK = n
	}
	return <-r.done
}

func killedBySignal(err error) bool {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok {
			return ws.Signaled() && ws.Signal() == syscall.SIGKILL
		}
	}
	return false
}

// checkLog is the invariant after a kill: verify passes, the log is a prefix
// of the reference, holds every line reported ok, and at most the next line.
// exact, when >= 0, is the number of events the log must hold. It returns the
// last script line whose events the log holds.
func checkLog(sc *script, ref []store.Event, db string, lastOK int, exact int) (int, error) {
	out, err := exec.Command(*binFlag, "--db", db, "verify").CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("arbiter verify failed after the kill: %v: %s", err, lastLine(out))
	}
	evs, err := readEvents(db)
	if err != nil {
		return 0, err
	}
	if len(evs) > len(ref) {
		return 0, fmt.Errorf("the log holds %d events, the whole match only %d", len(evs), len(ref))
	}
	if err := sameEvents(evs, ref[:len(evs)]); err != nil {
		return 0, err
	}
	min := sc.eventsThrough(lastOK)
	next := sc.nextLine(lastOK)
	max := sc.eventsThrough(next)
	if next == 0 {
		max = min
	}
	switch {
	case len(evs) < min:
		return 0, fmt.Errorf("lost acknowledged work: line %d was reported ok (%d events) but the log holds %d", lastOK, min, len(evs))
	case len(evs) != min && len(evs) != max:
		return 0, fmt.Errorf("the log holds %d events: not the %d through line %d nor the %d through line %d (a torn command)", len(evs), min, lastOK, max, next)
	case exact >= 0 && len(evs) != exact:
		return 0, fmt.Errorf("the log holds %d events, want exactly %d", len(evs), exact)
	}
	return sc.lineOfEvents(len(evs)), nil
}

func killTest(sc *script, ref []store.Event, refTime time.Duration, work string, rng *rand.Rand, read func(string) error) {
	mean := refTime / time.Duration(*killsFlag+10)
	if mean < time.Millisecond {
		mean = time.Millisecond
	}
	round, done, more, backups, reads := 1, 0, 0, 0, 0
	db := filepath.Join(work, "kill-1.arbiter")
	doneLine := 0
	for kill := 1; kill <= *killsFlag; {
		sp := filepath.Join(work, fmt.Sprintf("kill-%02d.txt", kill))
		if err := os.WriteFile(sp, []byte(sc.remainder(doneLine)), 0o644); err != nil {
			fatal(err)
		}
		_, statErr := os.Stat(db)
		r, err := startPlay(db, sp)
		if err != nil {
			fatal(err)
		}
		// The readers read a record that exists from the start; one that
		// play creates from its first committed line (readAlong).
		ready := r.first
		if statErr == nil {
			ready = closed
		}
		delay := time.Duration(2 * rng.Float64() * float64(mean))
		// Now and then a live backup while the match is being played.
		backupErr := make(chan error, 1)
		if kill%10 == 5 {
			go func(k int) {
				time.Sleep(delay / 2)
				backupErr <- liveBackup(sc, ref, db, filepath.Join(work, fmt.Sprintf("backup-%02d.arbiter", k)))
			}(kill)
		} else {
			backupErr <- nil
		}
		// The instant counts from the first committed line, so that process
		// start-up (which writes nothing) does not swallow the kills.
		stop := make(chan struct{})
		go func() {
			<-r.first
			select {
			case <-time.After(delay):
				r.cmd.Process.Signal(syscall.SIGKILL)
			case <-stop:
			}
		}()
		// The outside readers read the record all along, between commands.
		stopReaders := readAlong(db, read, ready)
		err = r.wait()
		close(stop)
		rounds, rerr := stopReaders()
		reads += rounds
		if rerr != nil {
			check(fmt.Sprintf("kill %d: the outside readers read the record", kill), rerr)
		}
		if kill%10 == 5 {
			backups++
			check(fmt.Sprintf("live backup %d during play copies a consistent, verifiable prefix", backups), <-backupErr)
		}
		if err == nil {
			// The script ran to its end before the kill: start a new match.
			if _, err := checkLog(sc, ref, db, r.lastOK, len(ref)); err != nil {
				check(fmt.Sprintf("round %d plays to the end", round), err)
			}
			round++
			db = filepath.Join(work, fmt.Sprintf("kill-%d.arbiter", round))
			doneLine = 0
			continue
		}
		if !killedBySignal(err) {
			check(fmt.Sprintf("kill %d", kill), fmt.Errorf("play failed on its own: %v: %s", err, lastLine(r.stderr.Bytes())))
			summary()
		}
		line, err := checkLog(sc, ref, db, max(r.lastOK, doneLine), -1)
		if err == nil && line > max(r.lastOK, doneLine) {
			more++
		}
		check(fmt.Sprintf("SIGKILL %d after %v (last ok line %d): verify passes, nothing acknowledged lost, at most one more", kill, delay.Round(time.Millisecond), r.lastOK), err)
		doneLine = line
		if err != nil {
			// Where this record stands is not known: the next kills play
			// a new match, where they replayed the script from line 1 onto
			// this one and failed on their own ("time in the record never
			// runs back").
			round++
			db = filepath.Join(work, fmt.Sprintf("kill-%d.arbiter", round))
			doneLine = 0
		}
		done++
		kill++
	}
	fmt.Printf("crashtest: %d kills in %d match run(s); %d times the log held the one command not yet reported ok; the outside readers read the record %d times meanwhile\n", done, round, more, reads)
}

// liveBackup runs "arbiter backup" while another process plays.
func liveBackup(sc *script, ref []store.Event, db, dest string) error {
	out, err := exec.Command(*binFlag, "--db", db, "backup", dest).CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "no database") {
			return nil // the kill came before the file existed
		}
		return fmt.Errorf("arbiter backup: %v: %s", err, lastLine(out))
	}
	evs, err := readEvents(dest)
	if err != nil {
		return err
	}
	if len(evs) > len(ref) {
		return fmt.Errorf("the copy holds %d events, the whole match only %d", len(evs), len(ref))
	}
	if err := sameEvents(evs, ref[:len(evs)]); err != nil {
		return fmt.Errorf("the copy: %w", err)
	}
	if sc.eventsThrough(sc.lineOfEvents(len(evs))) != len(evs) {
		return fmt.Errorf("the copy holds %d events: a torn command", len(evs))
	}
	return nil
}

func faultTest(sc *script, ref []store.Event, work string, rng *rand.Rand) {
	for _, point := range store.FaultPoints {
		for _, n := range []int{1 + rng.IntN(3), 20 + rng.IntN(200)} {
			db := filepath.Join(work, fmt.Sprintf("fault-%s-%d.arbiter", point, n))
			sp := filepath.Join(work, "fault.txt")
			os.WriteFile(sp, []byte(sc.remainder(0)), 0o644)
			r, err := startPlay(db, sp, store.FaultEnv+fmt.Sprintf("=%s:%d", point, n))
			if err != nil {
				fatal(err)
			}
			err = r.wait()
			name := fmt.Sprintf("fault %s:%d (last ok line %d)", point, n, r.lastOK)
			if !killedBySignal(err) {
				check(name, fmt.Errorf("the process was not killed by the fault hook: %v: %s", err, lastLine(r.stderr.Bytes())))
				continue
			}
			if _, statErr := os.Stat(db); statErr != nil {
				check(name+": killed before the file existed", nil)
				continue
			}
			want := sc.eventsThrough(r.lastOK)
			what := "leaves the interrupted command out"
			if point == "after-commit" {
				want = sc.eventsThrough(sc.nextLine(r.lastOK))
				what = "keeps the command committed just before the kill"
			}
			_, err = checkLog(sc, ref, db, r.lastOK, want)
			check(name+": "+what, err)
		}
	}
}

// diskFullTest plays the match on a file system that fills up.
func diskFullTest(sc *script, ref []store.Event, work string) {
	dir := filepath.Join(work, "full")
	os.MkdirAll(dir, 0o755)
	how := ""
	var env []string
	wrap := func(args ...string) *exec.Cmd { return exec.Command(*binFlag, args...) }
	if os.Geteuid() == 0 && exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir).Run() == nil {
		defer exec.Command("umount", "-l", dir).Run()
		// Leave 2 MiB free: the write-ahead log fills it partway through the match.
		if err := os.WriteFile(filepath.Join(dir, "filler"), make([]byte, 6<<20), 0o644); err != nil && !isNoSpace(err) {
			fatal(err)
		}
		how = "an 8 MiB tmpfs with 2 MiB free"
	} else {
		how = "ulimit -f 2048 (EFBIG)"
		wrap = func(args ...string) *exec.Cmd {
			return exec.Command("bash", append([]string{"-c", `ulimit -f 2048; exec "$0" "$@"`, *binFlag}, args...)...)
		}
	}
	db := filepath.Join(dir, "match.arbiter")
	sp := filepath.Join(work, "full.txt")
	os.WriteFile(sp, []byte(sc.remainder(0)), 0o644)
	cmd := wrap("--db", db, "--at", start.Format(time.RFC3339), "play", "-v", sp)
	cmd.Env = append(append(os.Environ(), "LANG=en_US.UTF-8"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	lastOK := 0
	for _, l := range strings.Split(stdout.String(), "\n") {
		fmt.Sscanf(l, "ok %d", &lastOK)
	}
	msg := withoutWarnings(stderr.String())
	name := "full disk (" + how + ")"
	if err == nil {
		check(name, fmt.Errorf("the whole match fitted; the disk never filled"))
		return
	}
	var cerr error
	if !strings.Contains(msg, "disk is full") || strings.Count(msg, "\n") > 0 {
		cerr = fmt.Errorf("the error is not one clear sentence about the full disk: %q", msg)
	}
	check(fmt.Sprintf("%s: play stops at line %d with a clear error", name, sc.nextLine(lastOK)), cerr)
	fmt.Printf("crashtest:   the error: %s\n", msg)
	line, err := checkLog(sc, ref, db, lastOK, -1)
	check(name+": verify passes and nothing acknowledged is lost", err)
	if err != nil {
		return
	}
	// Move the match off the full disk: the CLI backup and the console's ContinueIn.
	bak := filepath.Join(work, "full-backup.arbiter")
	out, err := exec.Command(*binFlag, "--db", db, "backup", bak).CombinedOutput()
	check(name+": arbiter backup copies the match off the full disk", errWith(err, out))
	moved := filepath.Join(work, "continued.arbiter")
	err = service.CopyMatch(context.Background(), db, moved)
	check(name+": service.CopyMatch moves the match to another disk", err)
	if err != nil {
		return
	}
	os.WriteFile(sp, []byte(sc.remainder(line)), 0o644)
	out, err = exec.Command(*binFlag, "--db", moved, "--at", start.Format(time.RFC3339), "play", sp).CombinedOutput()
	if err == nil {
		evs, rerr := readEvents(moved)
		switch {
		case rerr != nil:
			err = rerr
		case len(evs) != len(ref):
			err = fmt.Errorf("the continued match ends with %d events, not at the reference's %d", len(evs), len(ref))
		default:
			err = sameEvents(evs, ref)
		}
	} else {
		err = errWith(err, out)
	}
	check(name+": the rest of the match plays in the new file to the reference head", err)
}

func isNoSpace(err error) bool { return errors.Is(err, syscall.ENOSPC) }

// readOnlyTest refuses a move on a database the user may not write.
func readOnlyTest(sc *script, work string) {
	setpriv, err := exec.LookPath("setpriv")
	if os.Geteuid() != 0 || err != nil {
		check("read-only database: skipped (needs root and setpriv to act as an unprivileged user)", nil)
		return
	}
	dir := filepath.Join(work, "ro")
	os.MkdirAll(dir, 0o755)
	db := filepath.Join(dir, "match.arbiter")
	lines := strings.Join(sc.lines[:min(len(sc.lines), 40)], "\n") + "\n"
	sp := filepath.Join(work, "ro.txt")
	os.WriteFile(sp, []byte(lines), 0o644)
	if out, err := exec.Command(*binFlag, "--db", db, "--at", start.Format(time.RFC3339), "play", sp).CombinedOutput(); err != nil {
		check("read-only database: set up", errWith(err, out))
		return
	}
	os.Chmod(db, 0o444)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	before, _ := os.ReadFile(db)
	at := sc.at[sc.order[len(sc.order)-1]].Add(24 * time.Hour).Format(time.RFC3339)
	for _, args := range [][]string{
		{"--at", at, "incident", "note", "--text", "a note on a read-only file"},
		{"--at", at, "pause"},
	} {
		cmd := exec.Command(setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", *binFlag, "--db", db}, args...)...)
		cmd.Env = append(os.Environ(), "LANG=en_US.UTF-8", "HOME=/nonexistent")
		out, err := cmd.CombinedOutput()
		msg := withoutWarnings(string(out))
		name := fmt.Sprintf("read-only database: %q is refused clearly and the file is unchanged", strings.Join(args[2:], " "))
		after, _ := os.ReadFile(db)
		switch {
		case err == nil:
			check(name, fmt.Errorf("the command succeeded on a read-only file"))
		case !strings.Contains(msg, "read-only") || strings.Count(msg, "\n") > 0:
			check(name, fmt.Errorf("not one clear sentence about a read-only file: %q", msg))
		case !bytes.Equal(before, after):
			check(name, fmt.Errorf("the file changed"))
		default:
			check(name, nil)
			fmt.Printf("crashtest:   the error: %s\n", msg)
		}
	}
	out, err := exec.Command(*binFlag, "--db", db, "verify").CombinedOutput()
	check("read-only database: the record still verifies", errWith(err, out))
}

// withoutWarnings drops the "arbiter: warning: ..." lines (an unprotected
// match warns at arbiter actions) from a command's error output.
func withoutWarnings(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "arbiter: warning: ") {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}
