package match

import (
	"strings"
	"testing"
	"time"

	"arbiter/internal/phrase"
)

// Rule 10 (and 6.13): the correction's entry in the record names the
// mistaken move as the console's confirmation and the command line do
// ("position before 13. Ne4 (ply 25) restored"), with the piece letters of
// the language it is said in; it named only the ply ("position before ply
// 25 restored"), which the appeals board had to count out on the
// scoresheet.
func TestTheCorrectionInTheRecordNamesTheMistakenMove(t *testing.T) {
	german := func(s string) string {
		if s == "NBRQK" {
			return "SLTDK"
		}
		return s
	}
	for _, tc := range []struct {
		rule        string
		ply         int
		english, de string
	}{
		{"rule 10 an operator's error on Black's move names it with its ply", 4,
			"position before 2... Nc6 (ply 4) restored, 1 ply struck out (keep): the operator relayed Nc6",
			"position before 2... Sc6 (ply 4) restored"},
		{"rule 10 an error found a move later names the first move struck", 3,
			"position before 2. Nf3 (ply 3) restored, 2 plies struck out (keep): the operator relayed Nf3",
			"position before 2. Sf3 (ply 3) restored"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := newRig(t)
			r.start()
			for _, m := range []string{"e4", "e5", "Nf3", "Nc6"} {
				r.move(10*time.Second, m)
			}
			reason := "the operator relayed " + map[int]string{3: "Nf3", 4: "Nc6"}[tc.ply]
			_, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 10*time.Second), Correct{Ply: tc.ply, Method: MethodKeep, Reason: reason})
			r.ok(err)
			for _, st := range []*State{r.app.State(), r.replayed()} {
				var inc *Incident
				for i := range st.CurrentGame().Incidents {
					if in := st.CurrentGame().Incidents[i]; in.Kind == IncidentCorrect {
						inc = &in
					}
				}
				if inc == nil {
					t.Fatal("no correction in the incident log")
				}
				if inc.Text != tc.english {
					t.Errorf("the record says %q, want %q", inc.Text, tc.english)
				}
				if inc.Said == nil || !strings.HasPrefix(phrase.Translate(inc.Said, german), tc.de) {
					t.Errorf("said with German letters it is %v, want it to begin %q", inc.Said, tc.de)
				}
			}
		})
	}
}
