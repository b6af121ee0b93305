package gui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter/match"
)

// The appeals board matches an appeal with the decision it contests: the
// console's incident log, as the PDF and the PGN do, starts an appeal's text
// with the event it contests ("against #14") and a decision's with the
// appeal it closes ("on appeal #15"), in English and German.
func TestTheIncidentLogSaysWhatAnAppealContests(t *testing.T) {
	for _, tc := range []struct{ lang, against, on string }{
		{"en", "against #%d: the ruling cost me time", "on appeal #%d: the ruling stands"},
		{"de", "gegen #%d: the ruling cost me time", "zu Einspruch #%d: the ruling stands"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if tc.lang == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			at := h.ft.Now()
			do := func(s int, role match.Role, command match.Command) int64 {
				t.Helper()
				res, err := h.core.Do(h.ctx, match.Cmd{At: at.Add(time.Duration(s) * time.Second), Actor: match.Actor{Role: role}}, command)
				if err != nil {
					t.Fatal(err)
				}
				return res.Events[len(res.Events)-1].Seq
			}
			do(1, match.RoleArbiter, match.GameStart{Game: 1})
			do(10, match.RoleArbiter, match.Move{Input: "e4"})
			ruling := do(20, match.RoleArbiter, match.LogIncident{Incident: match.IncidentRuling, IncidentArgs: match.IncidentArgs{Text: "the clock stays as it is"}})
			appeal := do(30, match.RoleBlack, match.LogIncident{Incident: match.IncidentAppeal, IncidentArgs: match.IncidentArgs{Text: "the ruling cost me time", Refers: ruling}})
			do(40, match.RoleArbiter, match.LogIncident{Incident: match.IncidentAppealDecision, IncidentArgs: match.IncidentArgs{Text: "the ruling stands", Refers: appeal}})
			h.ft.set(at.Add(45 * time.Second))
			h.c.refresh()

			shown := strings.Join(logShown(h.c), "\n\n")
			for _, want := range []struct{ rule, words string }{
				{"an appeal names the decision it contests", fmt.Sprintf(tc.against, ruling)},
				{"a decision names the appeal it closes", fmt.Sprintf(tc.on, appeal)},
			} {
				t.Run(want.rule, func(t *testing.T) {
					if !strings.Contains(shown, want.words) {
						t.Errorf("the incident log does not say %q:\n%s", want.words, shown)
					}
				})
			}
		})
	}
}
