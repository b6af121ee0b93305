package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestARefusalSaysTheInstantsItComparesToTheMillisecond: a refusal of an
// --at says the instant it is compared with (the match's start, the
// record's time, the receipt) in RFC 3339 to the millisecond, as --at is
// written, not to the nanosecond of the machine's clock; a bound is rounded
// up, so that an --at of the instant said is taken.
func TestARefusalSaysTheInstantsItComparesToTheMillisecond(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	ns := func(d time.Duration) string { return start.Add(d).Format(time.RFC3339Nano) }
	mustArb(t, db, "--at", ns(123456789), "match", "new", "--title", "T", "--player", "A", "--player", "B")
	mustArb(t, db, "--at", ns(2*time.Second+500), "game", "start")
	nanos := regexp.MustCompile(`\.\d{4,}`)
	for _, c := range []struct {
		rule     string
		now      time.Duration // the machine's clock
		at       string
		refusal  string // "" taken
		accepted string // an --at of the instant said, taken
	}{
		{"the match's start is said to the millisecond, rounded up", 10 * time.Second, ns(0),
			"earlier than the start of the match (1996-02-10T20:00:00.124Z)", ""},
		{"the record's time is said to the millisecond, rounded up", 10 * time.Second, ns(time.Second),
			"earlier than the last event in the record (1996-02-10T20:00:02.001Z)", "1996-02-10T20:00:02.001Z"},
		{"the receipt is said to the millisecond", 10*time.Second + 555555555, ns(time.Hour),
			"later than the moment the command was received (1996-02-10T20:00:10.555Z)", ""},
	} {
		t.Run(c.rule, func(t *testing.T) {
			now := func() time.Time { return start.Add(c.now) }
			_, errs, code := arbAt(now, db, "--at", c.at, "incident", "note", "--text", "x")
			if code != 1 || !strings.Contains(errs, c.refusal) {
				t.Errorf("exit %d, %q; want a refusal saying %q", code, errs, c.refusal)
			}
			if m := nanos.FindString(errs); m != "" {
				t.Errorf("the refusal says an instant beyond the millisecond (%q): %q", m, errs)
			}
			if c.accepted != "" {
				if _, errs, code := arbAt(now, db, "--at", c.accepted, "incident", "note", "--text", "x"); code != 0 {
					t.Errorf("an --at of the instant said is refused: %s", errs)
				}
			}
		})
	}
}

// TestStatusSaysTheInstantsOfAnEventRecordedLateToTheMillisecond: the text
// of status says the instant an event recorded late claims and the instant
// it was received to the millisecond, as --at is written; before, the
// receipt was said to the nanosecond of the machine's clock. status --json
// keeps the nanoseconds.
func TestStatusSaysTheInstantsOfAnEventRecordedLateToTheMillisecond(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	pin := "the arbiter's pin"
	mustArb(t, db, "--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--pin", pin)
	received := func() time.Time { return start.Add(time.Hour + 123456789) }
	if _, errs, code := arbAt(received, db, "--pin", pin, "--at", at(time.Second+987654321), "incident", "note", "--text", "late"); code != 0 {
		t.Fatalf("the arbiter's late note: exit %d: %s", code, errs)
	}
	out, errs, code := arbAt(received, db, "status")
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errs)
	}
	want := "claims 1996-02-10T20:00:01.987Z and was received 1996-02-10T21:00:00.123Z"
	if !strings.Contains(out, want) {
		t.Errorf("status says %q; want its recorded-late line to say %q", out, want)
	}
	js, _, _ := arbAt(received, db, "status", "--json")
	if !strings.Contains(js, `"received": "1996-02-10T21:00:00.123456789Z"`) {
		t.Errorf("status --json lost the nanoseconds of the receipt: %s", js)
	}
}
