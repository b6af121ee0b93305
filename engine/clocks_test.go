package engine

import (
	"strings"
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/match"
)

// TestTheEngineIsToldTheClocksAgainWhenTheyChangeWhileItThinks (rule 11):
// UCI tells an engine the clocks only in its go line, and it counts its own
// time from there. When the record's clocks stop running as that line said
// while the engine thinks — a pause and a resume, an adjustment of either
// clock, a move counter set again — the search is stopped (its bestmove
// discarded) and a new go line gives the clocks as they then stand, checked
// against the record at its instant like every go line. Before, the engine
// searched on believing the pause spent from its own time, and an
// adjustment never reached it.
func TestTheEngineIsToldTheClocksAgainWhenTheyChangeWhileItThinks(t *testing.T) {
	forty := 5
	for _, tc := range []struct {
		name   string
		change func(r *rig)
	}{
		{"a pause and a resume", func(r *rig) {
			r.do(match.RoleArbiter, match.Pause{Reason: "a spectator's telephone"})
			r.do(match.RoleArbiter, match.Resume{})
		}},
		{"five minutes added to the computer's clock", func(r *rig) {
			r.do(match.RoleArbiter, match.Adjust{Side: clock.White, Adjustment: match.Adjustment{D: 5 * time.Minute}, Reason: "the physical clock"})
		}},
		{"the human's clock set", func(r *rig) {
			r.do(match.RoleArbiter, match.Adjust{Side: clock.Black, Adjustment: match.Adjustment{Set: true, D: 90 * time.Second}, Reason: "the physical clock"})
		}},
		{"the computer's move counter set", func(r *rig) {
			r.do(match.RoleArbiter, match.Adjust{Side: clock.White, Adjustment: match.Adjustment{Moves: &forty}, Reason: "the moves were miscounted"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, "")
			r.run(Options{Cmd: fakeCmd("-delay", "1h"), Play: true, Restarts: DefaultRestarts})
			first := r.waitStatus("thinking", 10*time.Second, func(s Status) bool { return s.State == StateThinking && s.Sent != nil })
			tc.change(r)
			changed := r.state().LastAt.UTC().Format(InstantLayout)
			r.waitStatus("a go line after the change", 10*time.Second, func(s Status) bool {
				return s.State == StateThinking && s.Sent != nil && s.Sent.At != first.Sent.At && s.Sent.At >= changed
			})
			r.halt()
			if n := r.linesOf("stop"); n != 1 {
				t.Errorf("%d stop lines, want 1", n)
			}
			if n := r.linesOf("go"); n != 2 {
				t.Errorf("%d go lines, want 2", n)
			}
			r.checkGoLines(1, 0)
			for _, e := range mustEvents(t, r) {
				if e.Kind == match.KindEngineMove {
					t.Errorf("the stopped search's move was recorded")
				}
			}
			if g := r.state().CurrentGame(); g.Sheet.Ply() != 0 || len(incidents(g, match.IncidentTechnicalFault)) != 0 {
				t.Errorf("ply %d, faults %+v", g.Sheet.Ply(), incidents(g, match.IncidentTechnicalFault))
			}
		})
	}
}

// TestWhileTheClocksRunAsToldTheSearchGoesOn: time passing alone, and
// events that change no clock (an incident, a draw offer), leave the
// engine's search as it runs.
func TestWhileTheClocksRunAsToldTheSearchGoesOn(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd("-delay", "1500ms"), Play: true, Restarts: DefaultRestarts})
	r.waitStatus("thinking", 10*time.Second, func(s Status) bool { return s.State == StateThinking })
	r.do(match.RoleArbiter, match.LogIncident{Incident: "note", IncidentArgs: match.IncidentArgs{Text: "a spectator coughed"}})
	r.do(r.human, match.DrawOffer{})
	r.waitFor("the engine's first move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 1 })
	r.halt()
	if n, m := r.linesOf("stop"), r.linesOf("go"); n != 0 || m != 1 {
		t.Fatalf("%d stop and %d go lines, want none and one: %v", n, m, strings.Join(goLines(r), " | "))
	}
}

func goLines(r *rig) []string {
	var out []string
	for _, l := range r.transcript(1) {
		if l.dir == ">" {
			out = append(out, l.text)
		}
	}
	return out
}
