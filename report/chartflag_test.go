package report_test

import (
	"testing"
	"time"

	"arbiter/report"
)

// The time chart of a game lost on time plots the flag's fall: the flagged
// side's line ends at zero at the move it was to make, the instant being
// the clock's (derived from its value, never sampled); a game that ended
// otherwise ends no line at zero. Before, a one-minute game's chart ended
// at the flagged side's last reading.
func TestTheTimeChartPlotsTheFlagsFall(t *testing.T) {
	for _, tc := range []struct {
		name     string
		script   string
		flagged  int // 0 White, 1 Black, -1 none
		wantMove float64
	}{
		{"a one-minute game White loses on time ends White's line at zero at move 2", `0:00:00 match new --title "T" --player "Anna" --player "Bert" --white "Anna" --tz UTC --tc 60
0:00:01 game start
0:00:05 move e4
0:00:09 move e5
0:01:30 flag white
`, 0, 2},
		{"Black's flag on his first move ends Black's line at zero at move 1", blackFlagsScript, 1, 1},
		{"a game resigned ends no line at zero", `0:00:00 match new --title "T" --player "Anna" --player "Bert" --white "Anna" --tz UTC --tc 60
0:00:01 game start
0:00:05 move e4
0:00:09 move e5
0:00:20 resign white
`, -1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := loadState(t, playScript(t, tc.script))
			g := st.Game(1)
			series, flags := report.ChartData(g)
			for s := 0; s < 2; s++ {
				pts := series[s]
				if len(pts) == 0 {
					t.Fatalf("side %d has no points", s)
				}
				end := pts[len(pts)-1]
				if s != tc.flagged {
					if flags[s] || end.Remaining == 0 {
						t.Errorf("side %d's line ends at %v (flag %v), no flag of its fell", s, end, flags[s])
					}
					continue
				}
				if !flags[s] || end.Remaining != 0 || end.Move != tc.wantMove {
					t.Errorf("side %d's line ends at %+v (flag %v), want at zero at move %v", s, end, flags[s], tc.wantMove)
				}
				if len(pts) < 2 || pts[len(pts)-2].Remaining <= 0 || pts[len(pts)-2].Remaining > time.Minute*10 {
					t.Errorf("side %d's reading before the flag is %v", s, pts)
				}
			}
		})
	}
}
