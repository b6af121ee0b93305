package engine

import (
	"testing"
	"time"

	"arbiter/match"
)

// TestTheStatusNeverShowsAStruckAnswerAsTheEnginesMove: after a rule 10
// correction the status's bestmove (engine status --json, and the line
// "last move …") is the engine's last move only while the record still
// holds it — made at its ply, or not yet made in the position restored —
// and empty once the correction struck the position it answered. Before,
// the struck answer stayed the status's bestmove until the engine
// answered again.
func TestTheStatusNeverShowsAStruckAnswerAsTheEnginesMove(t *testing.T) {
	for _, tc := range []struct {
		rule        string
		humanPly4   bool // Kasparov's second move is made before the correction
		correct     int  // the ply the correction strikes from
		keepsAnswer bool
	}{
		{"a correction of the human's move before the engine's answer strikes the answer: no bestmove", false, 2, false},
		{"a correction of the engine's move itself restores the position it answered: its move stays the bestmove", false, 3, true},
		{"a search stopped by a correction: its discarded answer is never the bestmove, the engine's move made before it stays", true, 4, true},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, "")
			// the third search (ply 5) is still running when the correction comes
			r.run(Options{Cmd: fakeCmd("-cue", r.cue("go 3 slow 2s"), "-delay", "20ms"), Play: true, Restarts: DefaultRestarts})
			r.playHuman(2) // 1.(engine) 1…(human) 2.(engine)
			answer := r.state().CurrentGame().Sheet.Entries()[2].UCI
			if tc.humanPly4 {
				r.do(r.human, match.Move{Input: humanMove(r.state().CurrentGame())})
			}
			r.waitStatus("the engine's answer, then its next search if any", 10*time.Second, func(s Status) bool {
				return s.BestMove == answer && s.Seq >= r.state().Seq && (s.State == StateThinking) == tc.humanPly4
			})
			r.do(match.RoleArbiter, match.Correct{Ply: tc.correct, Method: match.MethodKeep, NoBonus: true, Reason: "relayed wrongly"})
			seq := r.state().Seq
			s := r.waitStatus("the correction read, no search running", 10*time.Second, func(s Status) bool { return s.Seq >= seq && s.State == StateIdle })
			want := ""
			if tc.keepsAnswer {
				want = answer
			}
			if s.BestMove != want {
				t.Errorf("after the correction of ply %d the status's bestmove is %q, want %q (%+v)", tc.correct, s.BestMove, want, s)
			}
			if want == "" && (s.Eval != "" || s.Depth != 0) {
				t.Errorf("the struck answer's evaluation stays: %q, depth %d", s.Eval, s.Depth)
			}
		})
	}
}
