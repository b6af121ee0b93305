package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestArriveRecordsAnArrivalAndAPlayerWhoArrivedInTimeIsNotDefaulted:
// 'arrive --player NAME [--at INSTANT]' (the arbiter's; Article 6.6) records
// that a player arrived at the board, --at after the command being the
// arrival's instant (earlier than the record's last event, in a script
// too); forfeit then refuses to default him, and says so in one sentence.
func TestArriveRecordsAnArrivalAndAPlayerWhoArrivedInTimeIsNotDefaulted(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	script := writeScript(t,
		"0:00:00 "+newMatch,
		"0:00:01 game schedule --start "+at(time.Minute),
		"0:01:00 game start",
		"0:40:00 adjust white +1m --reason 'in step with the clock on the table'",
		"0:45:00 arrive --player 'Deep Blue' --at "+at(30*time.Minute),
	)
	mustArb(t, db, "--at", at(0), "play", script)
	out := mustArb(t, db, "--at", at(50*time.Minute), "arrive", "--player", "Garry Kasparov", "--at", at(46*time.Minute))
	if want := "arrival of Black (Garry Kasparov) at the board at "; !strings.HasPrefix(out, want) || !strings.Contains(out, "(6.6) recorded as event ") {
		t.Errorf("arrive printed %q, want %q…", out, want)
	}
	for _, side := range []string{"white", "black"} {
		_, errs, code := arb(t, db, "--at", at(2*time.Hour), "forfeit", side, "--reason", "absent")
		if code != 1 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "arrived at the board at") || !strings.Contains(errs, "is not defaulted (6.6)") {
			t.Errorf("forfeit %s after the arrival: exit %d, %q", side, code, errs)
		}
	}
	_, errs, _ := arb(t, db, "--at", at(2*time.Hour), "arrive", "--player", "Garry Kasparov")
	if !strings.Contains(errs, "The arrival of Garry Kasparov (Black) at the board in game 1 is recorded already") {
		t.Errorf("a second arrival: %q", errs)
	}
}
