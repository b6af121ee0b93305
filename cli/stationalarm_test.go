//go:build !nostation && !windows

package cli

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"arbiter/internal/outside"
	"arbiter/service"
)

// eventRows counts the rows of a record's events table, as an outside
// reader does (a record that no longer verifies included).
func eventRows(t *testing.T, path string) int64 {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// An authority whose record file is edited behind it (principle 1) stops
// being the authority, each station a process of its own: its watch raises
// the file alarm, its beats say so, and another record holder claims; the
// next move given at another record holder, and one at the laptop, commit
// within the failover bound, the alarmed record takes neither, its alarm
// stays raised, 'station claim' given at it is refused, and every
// station's status names the new authority. On the code before, the
// alarmed authority beat on, nobody claimed, and the move given at another
// station was never answered.
func TestAnAuthorityWhoseFileWasEditedIsReplacedAndACommandElsewhereIsCommitted(t *testing.T) {
	h := newHall(t)
	mustLive(t, h.db("org"), "game", "start")
	mustLive(t, h.db("laptop"), "move", "e4")
	h.healthy(30 * time.Second)
	auth := h.authority()
	held := eventRows(t, h.db(auth))
	outside.SQL(t, h.db(auth), "DROP TRIGGER events_no_update",
		`UPDATE events SET payload = replace(payload, '"san":"e4"', '"san":"e3"') WHERE kind = 'move'`)
	edited := time.Now()
	status := func(name string) alarmStatus {
		st, running, err := service.ReadStationStatus(h.db(name), time.Now())
		if err != nil || !running {
			t.Fatalf("%s: running %v, %v", name, running, err)
		}
		return alarmStatus{st.Authority, st.Alarm}
	}
	until(t, 10*time.Second, auth+" raised no alarm", func() bool { return status(auth).alarm != "" })
	at := "org"
	if auth == "org" {
		at = "display"
	}
	took := h.timed(at, 90*time.Second, "--as", "black", "move", "e5")
	t.Logf("%s's file edited; its alarm raised; the move at %s committed %v after the edit (%v for the command)",
		auth, at, time.Since(edited).Round(time.Millisecond), took.Round(time.Millisecond))
	if d := time.Since(edited); d > 20*time.Second {
		t.Errorf("the move at %s committed %v after the authority's file was edited: more than 20 s", at, d.Round(time.Millisecond))
	}
	if took := h.timed("laptop", 90*time.Second, "move", "Nf3"); took > 20*time.Second {
		t.Errorf("the move at the laptop committed after %v: more than 20 s", took.Round(time.Millisecond))
	}
	// the station rewrites its status file every 250 ms: the claim that
	// committed the moves may not be in it yet
	var now string
	until(t, 5*time.Second, "after the alarm "+at+"'s status names no new authority", func() bool {
		now = status(at).authority
		return now != "" && now != auth
	})
	until(t, 5*time.Second, "a station's status does not name the new authority", func() bool {
		for _, name := range h.holders() {
			if status(name).authority != now {
				return false
			}
		}
		return status("laptop").authority == now
	})
	if st := status(auth); !strings.Contains(st.alarm, "changed behind it") {
		t.Errorf("%s's alarm after the failover: %q", auth, st.alarm)
	}
	if n := eventRows(t, h.db(auth)); n != held {
		t.Errorf("the alarmed record went from %d to %d events", held, n)
	}
	if _, errs, code := arb(t, h.db(auth), "station", "claim"); code == 0 || errs == "" {
		t.Errorf("'station claim' at the alarmed station: exit %d, %q; want it refused", code, errs)
	}
	if a := status(at).authority; a != now {
		t.Errorf("the authority went from %s to %s", now, a)
	}
}

type alarmStatus struct{ authority, alarm string }
