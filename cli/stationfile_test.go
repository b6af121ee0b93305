//go:build !nostation

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/internal/outside"
	"arbiter/service"
	"arbiter/store"
)

// stationStatus is the running station's 'station status --json'.
type stationStatus struct {
	Seq   uint64 `json:"seq"`
	Head  string `json:"head"`
	Alarm string `json:"alarm"`
}

func readStationStatus(t *testing.T, db string) stationStatus {
	t.Helper()
	var st stationStatus
	out := mustArb(t, db, "station", "status", "--json")
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("station status --json on %s: %v: %s", db, err, out)
	}
	return st
}

// until polls cond (another process's files) until it holds or d passes.
func until(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(20 * time.Millisecond) // another process writes the file
	}
}

// eventsIn opens the record at path read-only and returns its number of
// events, checking that its chain is intact.
func eventsIn(t *testing.T, path string) int64 {
	t.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rep, err := db.Verify(context.Background(), "")
	if err != nil || !rep.OK {
		t.Fatalf("%s does not verify: %v %+v", path, err, rep)
	}
	return rep.Events
}

// threeStations runs the first station, an operator's laptop and a mirror
// as processes of their own (this test binary as the program), the game
// started and 1. e4 played.
func threeStations(t *testing.T) (dir, first, laptop, mirror string, procs map[string]*exec.Cmd) {
	t.Helper()
	dir = t.TempDir()
	first = filepath.Join(dir, "arbiter.db")
	mustArb(t, first, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch))
	procs = map[string]*exec.Cmd{}
	procs[first] = stationChild(t, first, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	mustArb(t, first, "game", "start")
	mustArb(t, first, "--as", "operator", "move", "e4")
	for _, s := range []struct{ name, role string }{{"laptop", "operator"}, {"mirror", "mirror"}} {
		inv := filepath.Join(dir, s.name+".invite")
		mustArb(t, first, "station", "invite", "--role", s.role, "--name", s.name, "-o", inv)
		db := filepath.Join(dir, s.name+".db")
		procs[db] = stationChild(t, db, "station", "join", inv)
	}
	laptop, mirror = filepath.Join(dir, "laptop.db"), filepath.Join(dir, "mirror.db")
	return
}

// On every station (the first, a laptop, a mirror) an outside reader —
// the sqlite3 shell, Python's sqlite3, another 'arbiter status' — reads
// the record between commands; then every station process is killed with
// kill -9: each file holds every event its station had acknowledged, and
// every command given at the laptop exits 0. On the code before, the
// station processes lost their locks on their records (a second plain
// open and close of the file); the first outside reader deleted the
// write-ahead logs under them, the laptop's commands exited 1 after 30 s
// and the kill lost the events.
func TestAnOutsideReaderNeverCostsAnAcknowledgedEventAtAStation(t *testing.T) {
	readers := outside.ForTest(t)
	_, first, laptop, mirror, procs := threeStations(t)
	files := []string{first, laptop, mirror}
	read := func() {
		for _, f := range files {
			for _, r := range readers {
				if _, err := r.Count(f); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(os.Args[0], "--db", f, "status")
			cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("arbiter status on %s: %v: %s", f, err, out)
			}
		}
	}
	moves := []struct{ db, as, san string }{
		{first, "black", "c5"}, {laptop, "operator", "Nf3"}, {first, "black", "d6"}, {laptop, "operator", "d4"},
		{first, "black", "cxd4"}, {laptop, "operator", "Nxd4"},
	}
	for _, m := range moves {
		read()
		t0 := time.Now()
		if _, errs, code := arb(t, m.db, "--as", m.as, "move", m.san); code != 0 {
			t.Fatalf("move %s at %s: exit %d after %v: %s", m.san, filepath.Base(m.db), code, time.Since(t0), errs)
		}
	}
	read()
	acked := eventsIn(t, first) // what the authority acknowledged
	for _, f := range files {
		until(t, 10*time.Second, filepath.Base(f)+" did not apply every acknowledged event", func() bool { return readStationStatus(t, f).Seq == uint64(acked) })
	}
	read()
	for _, f := range files {
		killStation(procs[f]) // SIGKILL
	}
	for _, f := range files {
		if n := eventsIn(t, f); n != acked {
			t.Errorf("after kill -9 %s holds %d events; its station had applied %d", filepath.Base(f), n, acked)
		}
	}
}

// A running station checks its own file: before it applies the next event
// the record must still end with the event it wrote, its hash recomputed
// from what the file now holds. An outside writer edits the laptop's last
// event and deletes the mirror's; at the next command both raise the alarm
// within 2 s and apply nothing more. The laptop's next command is refused
// at once, saying the alarm and what to do, and nothing is committed; with
// the laptop's station stopped, a command given there, committed at the
// authority but never applied there, exits 3 naming its event.
func TestARunningStationWhoseFileWasEditedRaisesTheAlarmAndStopsApplying(t *testing.T) {
	_, first, laptop, mirror, procs := threeStations(t)
	until(t, 10*time.Second, "the laptop and the mirror did not apply 1. e4", func() bool {
		seq := uint64(eventsIn(t, first))
		return readStationStatus(t, laptop).Seq == seq && readStationStatus(t, mirror).Seq == seq
	})
	held := eventsIn(t, first)
	outside.SQL(t, laptop, "DROP TRIGGER events_no_update", `UPDATE events SET payload = '{"san":"e3"}' WHERE seq = (SELECT max(seq) FROM events)`)
	outside.SQL(t, mirror, "DROP TRIGGER events_no_delete", "DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)")
	mustArb(t, first, "--as", "black", "move", "c5")
	t0 := time.Now()
	for _, tc := range []struct {
		db  string
		why []string // any of them
	}{
		// the edit is told by the apply's check of the file's last event
		// ("its event N (move) was edited") or, when the station's watch
		// reads the file first (a loaded machine: its look every second
		// comes before the next command's apply), by the watch's check
		// ("event N (move) was edited (hash mismatch)"): either names it.
		// The deletion likewise: the apply's "it no longer holds event N",
		// or the watch's words for a record with fewer events than it
		// checked before (seen once in 30 runs at load 16)
		{laptop, []string{fmt.Sprintf("event %d (move) was edited", held)}},
		{mirror, []string{fmt.Sprintf("it no longer holds event %d", held), "the record is shorter than the events it was checked with"}},
	} {
		t.Run(fmt.Sprintf("%s raises the alarm within 2 s of the next event and applies nothing", filepath.Base(tc.db)), func(t *testing.T) {
			var st stationStatus
			until(t, 10*time.Second, filepath.Base(tc.db)+" raised no alarm", func() bool { st = readStationStatus(t, tc.db); return st.Alarm != "" })
			// the status file is rewritten every 250 ms
			if d := time.Since(t0); d > 2*time.Second+250*time.Millisecond {
				t.Errorf("the alarm was seen %v after the next event", d)
			}
			said := false
			for _, w := range tc.why {
				said = said || strings.Contains(st.Alarm, w)
			}
			if !strings.Contains(st.Alarm, "changed behind it") || !said {
				t.Errorf("the alarm says %q, want it to say that %s", st.Alarm, strings.Join(tc.why, ", or that "))
			}
			db, err := store.OpenReadOnly(context.Background(), tc.db)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if n, _, _ := db.Head(context.Background()); n > held {
				t.Errorf("%s applied event %d after its file was changed", filepath.Base(tc.db), n)
			}
		})
	}
	t.Run("a command given at the laptop, whose alarm is raised, is refused at once saying the alarm and what to do, and nothing is committed", func(t *testing.T) {
		defer func(d time.Duration) { service.AppliedWithin = d }(service.AppliedWithin)
		service.AppliedWithin = time.Second // sent anyway, it would exit 3 within it
		before := eventsIn(t, first)
		_, errs, code := arb(t, laptop, "move", "Nf3")
		if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "tation laptop takes no command") ||
			!strings.Contains(errs, fmt.Sprintf("event %d (move) was edited", held)) || !strings.Contains(errs, "keep the file for the appeals board") {
			t.Fatalf("exit %d, %q; want exit 1 and one sentence saying the laptop's alarm and what to do", code, errs)
		}
		if n := eventsIn(t, first); n != before {
			t.Errorf("the authority's record went from %d to %d events", before, n)
		}
	})
	t.Run("with the laptop's station stopped, a command given there committed at the authority but not applied there exits 3 naming its event", func(t *testing.T) {
		defer func(d time.Duration) { service.AppliedWithin = d }(service.AppliedWithin)
		service.AppliedWithin = time.Second
		killStation(procs[laptop])
		until(t, 10*time.Second, "the laptop's station still runs", func() bool { return !service.Running(laptop, time.Now()) })
		_, errs, code := arb(t, laptop, "move", "Nf3")
		want := eventsIn(t, first)
		if code != ExitNotApplied || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "committed as event "+strconv.FormatInt(want, 10)) ||
			!strings.Contains(errs, "not refused") {
			t.Fatalf("exit %d, %q; want exit %d and one sentence naming event %d", code, errs, ExitNotApplied, want)
		}
	})
}
