//go:build !nostation && !windows

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/service"
)

// The stations of issue 24's failover, each a process of its own (this test
// binary as the program) on 127.0.0.1: the first station, an organiser and
// a display (record holders, their invitations all made before the first
// of them joined) and the operator's laptop.
type hall struct {
	t    *testing.T
	dir  string
	dbs  map[string]string // station name -> its record
	proc map[string]*exec.Cmd
	args map[string][]string // how to run it again after a kill
}

// newHall starts the four stations on a new unprotected match and waits
// until every holder serves and the stream has a replica on each.
func newHall(t *testing.T) *hall {
	t.Helper()
	dir := t.TempDir()
	h := &hall{t: t, dir: dir, dbs: map[string]string{}, proc: map[string]*exec.Cmd{}, args: map[string][]string{}}
	first := h.db("arbiter")
	mustLive(t, first, "match", "new", "--title", "Failover", "--player", "Garry Kasparov", "--player", "Deep Blue",
		"--computer", "Deep Blue", "--operator", "Feng-hsiung Hsu", "--white", "Deep Blue")
	h.start("arbiter", "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	inv := map[string]string{}
	for name, role := range map[string]string{"org": "organiser", "display": "display", "laptop": "operator"} {
		inv[name] = filepath.Join(dir, name+".invite")
		mustLive(t, first, "station", "invite", "--role", role, "--name", name, "-o", inv[name])
	}
	for _, name := range []string{"org", "display"} {
		h.join(name, "station", "join", inv[name], "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	}
	h.join("laptop", "station", "join", inv["laptop"])
	h.healthy(60 * time.Second)
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("ARBITER_STATION_LOGS") != "" {
			t.Logf("the stations' logs:\n%s", h.logs())
		}
	})
	return h
}

func (h *hall) db(name string) string {
	if h.dbs[name] == "" {
		h.dbs[name] = filepath.Join(h.dir, name+".db")
	}
	return h.dbs[name]
}

// start runs a station process and waits until it serves (its status
// file written after it started); it returns how long that took.
func (h *hall) start(name string, args ...string) time.Duration {
	h.t.Helper()
	db := h.db(name)
	h.args[name] = args
	logf, err := os.OpenFile(filepath.Join(h.dir, name+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		h.t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], append([]string{"--db", db}, args...)...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	cmd.Stderr = logf
	began := time.Now()
	if err := cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	logf.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	h.t.Cleanup(func() { cmd.Process.Signal(syscall.SIGCONT); cmd.Process.Kill(); <-exited })
	h.proc[name] = cmd
	for {
		if st, running, err := service.ReadStationStatus(db, time.Now()); err == nil && running && st.Station == name {
			if fi, err := os.Stat(db + ".station.status.json"); err == nil && fi.ModTime().After(began) {
				return time.Since(began)
			}
		}
		select {
		case <-exited:
			h.t.Fatalf("station %s ended: %s", name, h.log(name))
		default:
		}
		if time.Since(began) > 90*time.Second {
			h.t.Fatalf("station %s did not serve within 90 s: %s", name, h.log(name))
		}
		time.Sleep(20 * time.Millisecond) // polling another process's status file
	}
}

// join starts a station joining (or rejoining) and holds it to 60 s.
func (h *hall) join(name string, args ...string) time.Duration {
	h.t.Helper()
	took := h.start(name, args...)
	if took > 60*time.Second {
		h.t.Errorf("station %s joined in %v: more than 60 s", name, took.Round(time.Millisecond))
	}
	return took
}

// log is the tail of a station's log.
func (h *hall) log(name string) string {
	b, _ := os.ReadFile(filepath.Join(h.dir, name+".log"))
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

// holders are the record holders' names, sorted.
func (h *hall) holders() []string { return []string{"arbiter", "display", "org"} }

// authority is the station every running holder names as the authority.
func (h *hall) authority() string {
	st, _, err := service.ReadStationStatus(h.db("org"), time.Now())
	if err != nil {
		h.t.Fatal(err)
	}
	return st.Authority
}

// healthy waits until every station runs, knows the authority (the same
// one), every holder can append, and every record has the same head.
func (h *hall) healthy(within time.Duration) {
	h.t.Helper()
	deadline := time.Now().Add(within)
	for {
		why := ""
		heads, auths := map[string]bool{}, map[string]bool{}
		for name, db := range h.dbs {
			st, running, err := service.ReadStationStatus(db, time.Now())
			switch {
			case err != nil || !running:
				why = name + " is not running"
			case st.Alarm != "":
				h.t.Fatalf("%s: ALARM %s", name, st.Alarm)
			case name != "laptop" && !st.CanAppend:
				why = name + " cannot append"
			}
			heads[fmt.Sprintf("%d %s", st.Seq, st.Head)] = true
			auths[st.Authority] = true
		}
		if why == "" && len(heads) != 1 {
			why = fmt.Sprintf("the records differ: %v", heads)
		}
		if why == "" && (len(auths) != 1 || auths[""]) {
			why = fmt.Sprintf("the stations name authorities %v", auths)
		}
		if why == "" {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the stations are not all up within %v: %s", within, why)
		}
		time.Sleep(50 * time.Millisecond) // polling the stations' status files
	}
}

// timed runs 'arbiter --db (name's record) ARGS' and returns how long it
// took to exit 0 (failing the test on any other end, or after limit).
func (h *hall) timed(name string, limit time.Duration, args ...string) time.Duration {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"--db", h.db(name)}, args...)...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	began := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(began)
	if ctx.Err() != nil {
		h.t.Fatalf("arbiter %s at %s still waited after %v: %s\nlogs:\n%s", strings.Join(args, " "), name, limit, out, h.logs())
	}
	if err != nil {
		h.t.Fatalf("arbiter %s at %s: %v: %s", strings.Join(args, " "), name, err, out)
	}
	return took
}

func (h *hall) logs() string {
	var b strings.Builder
	for name := range h.dbs {
		fmt.Fprintf(&b, "--- %s\n%s\n", name, h.log(name))
	}
	return b.String()
}

// failovers is how many times the failover test kills the authority:
// ARBITER_STATION_FAILOVERS (make station-test: 20), else 2.
func failovers(t *testing.T) int {
	if s := os.Getenv("ARBITER_STATION_FAILOVERS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("ARBITER_STATION_FAILOVERS=%q is not a number of failovers", s)
		}
		return n
	}
	return 2
}

// A failover always finishes (issue 24: four stations on 127.0.0.1, the
// authority SIGKILLed mid-game, the arbiter's next move at the organiser's
// record still waited after 60 s — the third holder, invited before the
// second joined, had left the stream with two replicas, and a stream of
// two takes no writes once either dies). Again and again: the authority
// is SIGKILLed, the next move given at a surviving record holder commits
// within 20 s, and the killed station, run again, rejoins within 60 s.
func TestAFailoverAlwaysFinishes(t *testing.T) {
	h := newHall(t)
	mustLive(t, h.db("org"), "game", "start")
	moves := []struct{ as, move string }{{"operator", "Nf3"}, {"black", "Nf6"}, {"operator", "Ng1"}, {"black", "Ng8"}}
	n := failovers(t)
	var stalls, joins []time.Duration
	for i := 0; i < n; i++ {
		auth := h.authority()
		h.proc[auth].Process.Signal(syscall.SIGKILL)
		h.proc[auth].Process.Wait()
		at := "org"
		if auth == "org" {
			at = "display"
		}
		m := moves[i%len(moves)]
		took := h.timed(at, 90*time.Second, "--as", m.as, "move", m.move)
		stalls = append(stalls, took)
		if took > 20*time.Second {
			t.Errorf("failover %d: the move at %s after the authority (%s) died committed after %v: more than 20 s", i+1, at, auth, took.Round(time.Millisecond))
		}
		// The killed station runs again: it rejoins once it serves and its
		// record has caught up with the others'.
		began := time.Now()
		h.start(auth, h.args[auth]...)
		h.healthy(90 * time.Second)
		joins = append(joins, time.Since(began))
		if joins[len(joins)-1] > 60*time.Second {
			t.Errorf("failover %d: %s rejoined after %v: more than 60 s", i+1, auth, joins[len(joins)-1].Round(time.Millisecond))
		}
		t.Logf("failover %d of %d: %s killed, the move at %s committed after %v, %s rejoined in %v", i+1, n, auth, at,
			took.Round(time.Millisecond), auth, joins[len(joins)-1].Round(time.Millisecond))
	}
	sort.Slice(stalls, func(i, j int) bool { return stalls[i] < stalls[j] })
	sort.Slice(joins, func(i, j int) bool { return joins[i] < joins[j] })
	t.Logf("%d failovers: the next move committed after %v (median), %v (longest); rejoins %v (median), %v (longest)",
		n, stalls[len(stalls)/2].Round(time.Millisecond), stalls[len(stalls)-1].Round(time.Millisecond),
		joins[len(joins)/2].Round(time.Millisecond), joins[len(joins)-1].Round(time.Millisecond))
}

// A press is stamped when it is given, from the station's own estimate of
// the match timeline, never after waiting for an authority that may be
// gone, and a system event recorded meanwhile does not refuse it (issue
// 24: with the authority frozen, a press from the laptop 2.5 s into the
// freeze was refused because the new authority had appended
// station.refused events stamped later). The authority is frozen
// (SIGSTOP) for 10 s; 2 s into the freeze the operator's move is given at
// the laptop: it commits, and the computer is charged to the instant the
// laptop stamped — the move's press stamp (pressed_ns) — or, where the
// authority raised it to the first receipt minus the round trip the
// receiving holder measured (raised: a sender cannot backdate), to that
// bound exactly; the laptop stamped while the command ran (between the
// test's instants before and after it, within the uncertainty it stated),
// and both instants lie before the thaw: charged to the instant the
// authority thawed, the press fails. The charge is checked against the
// laptop's own stamp, not against the test's instant before the command:
// a command of the command line is stamped once it is ready (its process
// started, the link up, the offset known, docs/stations.md), and under
// load that start alone took 226 and 365 ms (the test failed against its
// 200 ms). That the laptop did not wait for an authority before stamping
// is bounded apart from it: within 2 s of the command's start (asking the
// frozen authority for the time cost 4 s before, docs/stations.md).
func TestAPressGivenWhileTheAuthorityIsFrozenIsChargedToTheInstantItWasGiven(t *testing.T) {
	h := newHall(t)
	mustLive(t, h.db("org"), "game", "start")
	mustLive(t, h.db("laptop"), "move", "e4")
	mustLive(t, h.db("org"), "--as", "black", "move", "e5") // Deep Blue's clock runs
	h.healthy(30 * time.Second)
	auth := h.authority()
	frozen := time.Now()
	h.proc[auth].Process.Signal(syscall.SIGSTOP)
	thawed := make(chan time.Time, 1)
	go func() {
		time.Sleep(time.Until(frozen.Add(10 * time.Second))) // the freeze lasts 10 s
		at := time.Now()
		h.proc[auth].Process.Signal(syscall.SIGCONT)
		thawed <- at
	}()
	time.Sleep(time.Until(frozen.Add(2 * time.Second))) // the press is given 2 s into the freeze
	given := time.Now()
	took := h.timed("laptop", 90*time.Second, "move", "Nf3")
	after := time.Now()
	thaw := <-thawed
	h.healthy(60 * time.Second)
	var mv *service_event
	var ps match.MovePayload
	for _, e := range recordEvents(t, h.db("laptop")) {
		if e.Kind == match.KindMove && strings.Contains(string(e.Payload), `"san":"Nf3"`) {
			mv = &service_event{at: e.At, payload: string(e.Payload)}
			if err := json.Unmarshal(e.Payload, &ps); err != nil {
				t.Fatal(err)
			}
		}
	}
	if mv == nil {
		t.Fatal("the laptop's record holds no move Nf3")
	}
	if ps.PressedNS == 0 || ps.ReceivedNS == 0 {
		t.Fatalf("the move given at the laptop carries no press stamp: %s", mv.payload)
	}
	pressed, received, rtt := time.Unix(0, ps.PressedNS), time.Unix(0, ps.ReceivedNS), time.Duration(ps.RTTNS)
	// The laptop's stamp is on its estimate of the match timeline, as
	// uncertain as it stated (and two processes' clocks on one machine
	// differ by microseconds: match.StampTolerance).
	tol := max(time.Duration(ps.UncertaintyNS), time.Millisecond)
	want := pressed // the instant the laptop stamped
	switch {
	case ps.Raised:
		want = received.Add(-rtt) // the earliest the first receipt allows
	case ps.Lowered:
		want = received // a stamp after its receipt, within its uncertainty: lowered to it
	}
	t.Logf("the authority (%s) frozen; the move given 2 s into the freeze committed after %v; the laptop stamped it %v after the test gave it, the first receipt (%s) was %v after the stamp, recorded %v after the stamp: %s",
		auth, took.Round(time.Millisecond), pressed.Sub(given), ps.ReceivedBy, received.Sub(pressed), mv.at.Sub(pressed), mv.payload)
	switch {
	case pressed.Before(given.Add(-tol)) || pressed.After(after.Add(tol)):
		t.Errorf("the laptop stamped the move at %s, not while the command ran (%s to %s, within %v)", rfc(pressed), rfc(given), rfc(after), tol)
	case pressed.Sub(given) > 2*time.Second:
		t.Errorf("the laptop stamped the move %v after the command was started: it waited before stamping", pressed.Sub(given))
	case !pressed.Before(thaw):
		t.Fatalf("the laptop stamped the move at %s, after the authority thawed at %s: the press was not given while it was frozen", rfc(pressed), rfc(thaw))
	}
	switch {
	case ps.Raised && !want.After(pressed):
		t.Errorf("the press stamp says raised, but its bound %s (receipt %s minus round trip %v) is not after the stamp %s", rfc(want), rfc(received), rtt, rfc(pressed))
	case want.Sub(pressed) > time.Second:
		// raised by the request's trip from the laptop to the first
		// holder (milliseconds); more is a receipt noted late
		t.Errorf("the press stamped at %s is raised to %s by its receipt at %s (%s): %v later", rfc(pressed), rfc(want), rfc(received), ps.ReceivedBy, want.Sub(pressed))
	}
	if !mv.at.Equal(want) {
		t.Errorf("the move stamped at %s (raised %v, bound %s) is recorded at %s: %v off; Deep Blue must be charged to the instant it was given",
			rfc(pressed), ps.Raised, rfc(want), rfc(mv.at), mv.at.Sub(pressed))
	}
	if !mv.at.Before(thaw) {
		t.Errorf("the move given during the freeze is recorded at %s, after the authority thawed at %s", rfc(mv.at), rfc(thaw))
	}
}

type service_event struct {
	at      time.Time
	payload string
}

// The survivor of two record holders goes on in a new epoch when the other
// dies (kill -9 of its process), whichever led the match's streams: on the
// code before, 12.8–13.2 s after the kill in both rows (3 runs, 6 rows of 6): even
// where the survivor led the stream, its consumers re-creating themselves
// asked for the cluster's meta leader, which two servers with one gone do
// not elect, and its Stop waited for them.
func TestStationSurvivorOfAKilledHolderGoesOnInANewEpoch(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster of two")
	}
	for _, row := range []struct {
		name   string
		leader string
	}{
		{"the survivor of two starts a new epoch within 5 s of the kill when the killed station led the stream", "arbiter"},
		{"the survivor of two starts a new epoch within 5 s of the kill when it led the stream itself", "appeals"},
	} {
		t.Run(row.name, func(t *testing.T) {
			survivorGoesOnInANewEpoch(t, row.leader, func(t *testing.T, dir, db string, args ...string) func() {
				h := &hall{t: t, dir: dir, dbs: map[string]string{"arbiter": db}, proc: map[string]*exec.Cmd{}, args: map[string][]string{}}
				h.start("arbiter", args...)
				return func() { h.proc["arbiter"].Process.Kill() }
			})
		})
	}
}
