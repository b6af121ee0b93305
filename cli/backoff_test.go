package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTheBackOffOfAWrongCredentialIsSaidAsAClockShowsIt: a wrong
// credential's refusal, and a try during its back-off, say when the next
// try is possible as the time of day in the match's zone to the second,
// rounded up (a try at that second is not refused as too soon); before,
// they said it in RFC 3339 to the nanosecond ("2026-12-05T17:30:26.906809622Z").
func TestTheBackOffOfAWrongCredentialIsSaidAsAClockShowsIt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tz", "America/New_York", "--pin", arbPass)
	mustArb(t, db, "--at", at(time.Second), "--pin", arbPass, "game", "start")
	machine := regexp.MustCompile(`\d{4}-\d\d-\d\dT|\.\d{3,}`)
	for _, step := range []struct {
		rule string
		at   time.Duration
		pin  string
		code int
		says string
	}{
		{"a wrong credential says the next try's instant rounded up to the second, in the match's zone", 2250 * time.Millisecond, "not the passphrase", 1, "the next one is possible at 15:00:04 EST"},
		{"a try during the back-off says its end the same way", 3 * time.Second, arbPass, 1, "try again at 15:00:04 EST"},
		{"a try at the second said is not refused as too soon", 4 * time.Second, arbPass, 0, ""},
	} {
		t.Run(step.rule, func(t *testing.T) {
			_, errs, code := arb(t, db, "--at", at(step.at), "--pin", step.pin, "pause", "--reason", "noise")
			if code != step.code || !strings.Contains(errs, step.says) {
				t.Errorf("exit %d, %q; want exit %d saying %q", code, errs, step.code, step.says)
			}
			if m := machine.FindString(errs); m != "" {
				t.Errorf("the refusal says an instant as a machine does (%q): %q", m, errs)
			}
		})
	}
}
