package match

import (
	"testing"
	"time"
)

// Article 6.12a with rule 7: the record's English of an arbiter's stop says
// its cause as the console says it ("cause: technical fault."), so the PGN
// and the English PDF an appeals board reads say what the English console
// and the German report said. They said the payload's code ("cause: fault.",
// "cause: unplayable.") where the console said "technical fault" and the
// German report "technische Störung".
func TestTheRecordSaysAPausesCauseAsTheConsoleDoes(t *testing.T) {
	for _, tc := range []struct {
		rule, cause, reason, want string
	}{
		{"6.12a a technical fault on the human's turn is said as a technical fault", CauseFault, "the clock's display went blank",
			"cause: technical fault. the clock's display went blank"},
		{"rule 7 a power failure is said with its rule", CausePowerFailure, "",
			"cause: power failure (rule 7)."},
		{"rule 7 a game that cannot be played is said so", CauseUnplayable, "the hall is evacuated",
			"cause: the game cannot be played. the hall is evacuated"},
		{"rule 10 the clocks stopped to correct the position are said to be stopped for a correction", CauseCorrection, "",
			"cause: position correction (rule 10 / 6.13)."},
		{"rule 10 an older record's correction pause (unplayable, its reason naming the correction) is read as written", CauseUnplayable, "position correction (rule 10 / 6.13)",
			"cause: the game cannot be played. position correction (rule 10 / 6.13)"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := newRig(t)
			r.start() // Garry Kasparov (White, the human) to move
			r.ok(r.app.PauseFor(r.ctx, r.as(RoleArbiter, 30*time.Second), Pause{Cause: tc.cause, Reason: tc.reason}))
			for _, st := range []*State{r.app.State(), r.replayed()} {
				incs := st.CurrentGame().Incidents
				inc := incs[len(incs)-1]
				if inc.Text != tc.want {
					t.Errorf("the record says %q, want %q", inc.Text, tc.want)
				}
				if inc.Said == nil || inc.Said.Error() != inc.Text {
					t.Errorf("the console's phrase %v does not say the record's English %q", inc.Said, inc.Text)
				}
			}
		})
	}
}
