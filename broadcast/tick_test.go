package broadcast_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

// TestThePageTicksTheRunningClockOnlyAsFarAsItsReading runs the page's
// ticking (web/tick.js) in Node.js: between two readings from the server
// the page shows the waiting clock as read, counts the running one down
// (after the rest of a simple delay, up when untimed), never below zero,
// and stops counting when it has heard nothing for the stale span, so it
// never shows time passing that no reading vouched for.
func TestThePageTicksTheRunningClockOnlyAsFarAsItsReading(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("ARBITER_REQUIRE_VALIDATORS") == "1" {
			t.Fatalf("node is not installed (ARBITER_REQUIRE_VALIDATORS=1): %v", err)
		}
		t.Skipf("node is not installed: %v", err)
	}
	type reading struct {
		WhiteMS int64  `json:"white_ms"`
		BlackMS int64  `json:"black_ms"`
		Running string `json:"running"`
		HoldMS  int64  `json:"hold_ms"`
		CountUp bool   `json:"count_up"`
	}
	const stale = 12000
	cases := []struct {
		Name string  `json:"name"`
		C    reading `json:"c"`
		Side string  `json:"side"`
		El   int64   `json:"el"`
		Want int64   `json:"want"`
	}{
		{"the waiting clock shows its reading", reading{60000, 50000, "white", 0, false}, "black", 5000, 50000},
		{"the running clock counts down by the time since the reading", reading{60000, 50000, "white", 0, false}, "white", 5000, 55000},
		{"a simple delay holds the clock for its rest", reading{60000, 50000, "white", 3000, false}, "white", 2000, 60000},
		{"after the delay the clock counts down", reading{60000, 50000, "white", 3000, false}, "white", 5000, 58000},
		{"an untimed game counts up", reading{1500, 0, "white", 0, true}, "white", 1000, 2500},
		{"the clock stops at zero", reading{3000, 50000, "white", 0, false}, "white", 5000, 0},
		{"with no word for the stale span the clock stops", reading{60000, 50000, "black", 0, false}, "black", 30000, 50000 - stale},
		{"stopped clocks never move", reading{60000, 50000, "", 0, false}, "white", 30000, 60000},
	}
	in, _ := json.Marshal(cases)
	script := `const fs = require("fs");
eval(fs.readFileSync("web/tick.js", "utf8") + "; globalThis.arbiterShown = arbiterShown;");
const cases = JSON.parse(process.argv[1]);
console.log(JSON.stringify(cases.map(c => arbiterShown(c.c, c.side, c.el, ` + "12000" + `))));`
	out, err := exec.Command("node", "-e", script, string(in)).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got []int64
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(cases) {
		t.Fatalf("node said %s (%v)", out, err)
	}
	for i, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			if got[i] != tc.Want {
				t.Errorf("%s's clock %d ms after the reading %+v: the page shows %d ms, want %d", tc.Side, tc.El, tc.C, got[i], tc.Want)
			}
		})
	}
}
