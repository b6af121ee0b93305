package engine

import (
	"sort"
	"strings"
	"testing"
	"time"

	"arbiter/match"
)

// fen38 and fen58 are middlegames with White (the computer) to move at
// moves 38 and 58.
const (
	fen38 = "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 38"
	fen58 = "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 58"
)

// humanMove is a legal move for the human in the game's position: the
// first in UCI order that neither mates nor stalemates (the test's choice).
func humanMove(g *match.Game) string {
	pos := g.Sheet.Position()
	var ms []string
	for _, m := range pos.ValidMoves() {
		if len(pos.Update(m).ValidMoves()) > 0 {
			ms = append(ms, m.String())
		}
	}
	sort.Strings(ms)
	return ms[0]
}

// playHuman plays the human's side until the computer has made moves
// moves (each time the engine's move is in, the human answers).
func (r *rig) playHuman(moves int) {
	r.t.Helper()
	start := r.state().CurrentGame().Sheet.Ply()
	for i := 1; i <= moves; i++ {
		ply := start + 2*i - 1
		r.waitFor("the engine's move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() >= ply })
		if i < moves {
			r.do(r.human, match.Move{Input: humanMove(r.state().CurrentGame())})
		}
	}
}

func TestMovesToGoCountsTheComputersMovesToItsNextControl(t *testing.T) {
	for _, tc := range []struct {
		name string
		fen  string
		want map[int]int // the computer's move number → movestogo (0: none sent)
	}{
		{"from move 38 of 40/120:20/60:60, across the first control", fen38, map[int]int{38: 3, 39: 2, 40: 1, 41: 20}},
		{"from move 58, across the second control into the last period", fen58, map[int]int{58: 3, 59: 2, 60: 1, 61: 0, 62: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, tc.fen)
			r.run(Options{Cmd: fakeCmd(), Play: true, Restarts: DefaultRestarts})
			r.playHuman(len(tc.want))
			r.halt()
			got := r.checkGoLines(1, 0)
			t.Logf("movestogo by move: %v", got)
			for n, want := range tc.want {
				if got[n] != want {
					t.Errorf("move %d: movestogo %d, want %d (all: %v)", n, got[n], want, got)
				}
			}
			for _, l := range r.transcript(1) {
				if strings.HasPrefix(l.text, "position ") && !strings.HasPrefix(l.text, "position fen "+tc.fen) {
					t.Fatalf("%q: a game from a FEN is not sent as position fen", l.text)
				}
			}
		})
	}
}

func TestOverheadIsTakenOffTheComputersOwnTimeOnly(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", false, "")
	r.run(Options{Cmd: fakeCmd(), Play: true, Overhead: 1500 * time.Millisecond, Restarts: DefaultRestarts})
	r.do(r.human, match.Move{Input: "e4"})
	r.playHuman(2)
	r.halt()
	r.checkGoLines(1, 1500*time.Millisecond)
}

func TestAnIncrementOrDelayIsSentAsWincAndBinc(t *testing.T) {
	for _, tc := range []struct{ tc, want string }{
		{"5400+30", " winc 30000 binc 30000"},
		{"7200d5", " winc 5000 binc 5000"},
		{"40/120:20/60:60", ""},
	} {
		t.Run(tc.tc, func(t *testing.T) {
			r := newRig(t, tc.tc, true, "")
			r.run(Options{Cmd: fakeCmd(), Play: true, Restarts: DefaultRestarts})
			r.playHuman(1)
			r.halt()
			r.checkGoLines(1, 0)
			for _, l := range r.transcript(1) {
				if strings.HasPrefix(l.text, "go ") && !strings.HasSuffix(strings.Split(l.text, " movestogo")[0], tc.want) {
					t.Errorf("%q, want it to end with%q", l.text, tc.want)
				}
			}
		})
	}
}

func TestAMoveThatComesWhileTheClocksAreStoppedIsMadeWhenPlayResumes(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd("-delay", "300ms"), Play: true, Restarts: DefaultRestarts})
	r.waitStatus("thinking", 10*time.Second, func(s Status) bool { return s.State == StateThinking })
	r.do(match.RoleArbiter, match.Pause{Reason: "a spectator's telephone"})
	r.waitFor("the engine's move recorded", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Engine != nil })
	if g := r.state().CurrentGame(); g.Sheet.Ply() != 0 || g.EngineFor() == nil {
		t.Fatalf("the move was made while the clocks were stopped (ply %d)", g.Sheet.Ply())
	}
	r.do(match.RoleArbiter, match.Resume{})
	r.waitFor("the engine's move made", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 1 })
	if e := r.state().CurrentGame().Sheet.Entries()[0]; e.UCI != r.state().CurrentGame().Engine.UCI {
		t.Fatalf("made %s, the engine chose %s", e.UCI, r.state().CurrentGame().Engine.UCI)
	}
}

func TestAChangeOfPositionStopsTheSearchAndDiscardsItsMove(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd("-delay", "200ms"), Play: true, Restarts: DefaultRestarts})
	r.playHuman(1)
	r.do(r.human, match.Move{Input: "e5"})
	r.waitStatus("thinking on ply 3", 10*time.Second, func(s Status) bool { return s.State == StateThinking && s.Ply == 3 })
	// the arbiter finds that Black's move was relayed wrongly (rule 10):
	// ply 2 is struck out, the clocks are left stopped
	r.do(match.RoleArbiter, match.Correct{Ply: 2, Method: match.MethodKeep, NoBonus: true, Reason: "e5 was relayed, the board has e6"})
	seq := r.state().Seq
	r.waitStatus("the correction read, the search stopped", 10*time.Second, func(s Status) bool { return s.Seq >= seq && s.State == StateIdle })
	r.do(match.RoleArbiter, match.Resume{})
	r.do(r.human, match.Move{Input: "e6"})
	r.waitFor("the engine's move in the corrected position", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 3 })
	r.halt()
	g := r.state().CurrentGame()
	if g.Engine.FEN != g.Sheet.Entries()[1].FENAfter {
		t.Fatalf("the engine's move is for %s, the corrected position is %s", g.Engine.FEN, g.Sheet.Entries()[1].FENAfter)
	}
	if r.linesOf("stop") != 1 {
		t.Fatalf("%d stop lines, want 1", r.linesOf("stop"))
	}
	var evs int
	for _, e := range mustEvents(t, r) {
		if e.Kind == match.KindEngineMove {
			evs++
		}
	}
	if evs != 2 {
		t.Fatalf("%d engine.move events, want 2 (the stopped search's move is discarded)", evs)
	}
	r.checkGoLines(1, 0)
}

func TestPonderingThinksOnTheHumansTimeAndHitsOrStops(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd("-delay", "100ms"), Play: true, Ponder: true, Restarts: DefaultRestarts})
	r.waitFor("the engine's first move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 1 })
	r.waitStatus("pondering", 10*time.Second, func(s Status) bool { return s.State == StatePondering })
	// the fake expects the first reply in UCI order: a7a5
	r.do(r.human, match.Move{Input: "a7a5"})
	r.waitFor("the engine's move after the expected reply", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 3 })
	if g := r.state().CurrentGame(); !g.Engine.Pondered {
		t.Fatal("the engine.move after a ponderhit does not say the computer thought on the human's time")
	}
	r.waitStatus("pondering again", 10*time.Second, func(s Status) bool { return s.State == StatePondering })
	r.do(r.human, match.Move{Input: "e7e5"}) // not the expected reply
	r.waitFor("the engine's move after another reply", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 5 })
	r.halt()
	if g := r.state().CurrentGame(); g.Engine.Pondered {
		t.Fatal("a search started after the human's unexpected move is marked pondered")
	}
	if r.linesOf("ponderhit") != 1 || r.linesOf("stop") != 1 {
		t.Fatalf("ponderhit %d, stop %d; want one each", r.linesOf("ponderhit"), r.linesOf("stop"))
	}
	var ponders int
	for _, l := range r.transcript(1) {
		if strings.HasPrefix(l.text, "go ponder ") {
			ponders++
		}
	}
	if ponders < 2 {
		t.Fatalf("%d go ponder lines, want at least 2", ponders)
	}
	r.checkGoLines(1, 0)
}

func TestWithoutPlayTheOperatorMakesTheEnginesMove(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd(), Restarts: DefaultRestarts})
	r.waitFor("the engine's move recorded", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.EngineFor() != nil })
	e := r.state().CurrentGame().EngineFor()
	if e.UCI != "a2a3" || e.Label() != "1.a3" {
		t.Fatalf("engine move %+v", e)
	}
	if _, err := r.try(match.RoleOperator, match.Move{Input: "e4"}); match.ErrorCode(err) != match.CodeNotTheEnginesMove {
		t.Fatalf("another move: %v, want a refusal naming both", err)
	}
	r.do(match.RoleOperator, match.Move{Input: "e4", NotEngine: true, Reason: "the operator took the book move"})
	r.do(r.human, match.Move{Input: "e5"})
	r.waitFor("the engine's next move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.EngineFor() != nil })
	r.do(match.RoleOperator, match.Move{Input: r.state().CurrentGame().EngineFor().UCI})
	r.halt()
	// the bridge's log (engine run's standard error) says the move as the
	// operator makes it, not in UCI alone
	r.logMu.Lock()
	log := strings.Join(r.log, "\n")
	r.logMu.Unlock()
	if !strings.Contains(log, "the engine plays 1.a3 (a2a3) on ply 1 of game 1 (cp 17, depth 3): make it on the board, then press") {
		t.Errorf("the bridge's log does not say the engine's move as the scoresheet writes it:\n%s", log)
	}
	if incs := incidents(r.state().CurrentGame(), match.IncidentNotEngine); len(incs) != 1 {
		t.Fatalf("not-engine incidents %+v", incs)
	}
	r.checkGoLines(1, 0)
}

func mustEvents(t *testing.T, r *rig) []struct {
	Kind string
} {
	t.Helper()
	evs, err := r.app.DB().EventsAfter(r.ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []struct{ Kind string }
	for _, e := range evs {
		out = append(out, struct{ Kind string }{e.Kind})
	}
	return out
}

func TestTheBridgeSuggestsResigningOnlyWhenTheEvaluationStaysBelowTheOperatorsThresholdAndNeverResigns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    Options
		suggest map[int]bool // after the computer's n-th move: resigning suggested
	}{
		// the engine's evaluations: -7.00, -1.00 (the run starts again), -7.00, -7.00, -7.00
		{"off by default", Options{}, map[int]bool{1: false, 3: false, 5: false}},
		{"after three moves in a row at or below -5", Options{ResignBelow: -5, ResignMoves: 3}, map[int]bool{1: false, 2: false, 4: false, 5: true}},
		{"after one move at or below -5", Options{ResignBelow: -5, ResignMoves: 1}, map[int]bool{1: true, 2: false, 3: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, "")
			cue := r.cue("go 2 score cp -100", "go 3 score cp -700")
			opts := tc.opts
			opts.Cmd, opts.Play, opts.Restarts = fakeCmd("-cue", cue, "-score", quote("cp -700")), true, DefaultRestarts
			r.run(opts)
			for n := 1; n <= 5; n++ {
				ply := 2*n - 1
				r.waitFor("the engine's move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() >= ply })
				seq := r.state().Seq
				s := r.waitStatus("the engine's move read", 10*time.Second, func(s Status) bool { return s.Seq >= seq })
				if want, ok := tc.suggest[n]; ok && s.SuggestResign != want {
					t.Fatalf("after the computer's move %d (evaluation %s) suggest_resign is %v, want %v", n, s.Eval, s.SuggestResign, want)
				}
				if (s.ResignBelow != nil) != (opts.ResignMoves > 0) || s.ResignMoves != opts.ResignMoves {
					t.Fatalf("the status gives the threshold %v and %d moves, the bridge runs with %v and %d", s.ResignBelow, s.ResignMoves, opts.ResignBelow, opts.ResignMoves)
				}
				if n < 5 {
					r.do(r.human, match.Move{Input: humanMove(r.state().CurrentGame())})
				}
			}
			r.halt()
			if g := r.state().CurrentGame(); !g.Live() {
				t.Fatalf("the game ended (%s): the bridge never resigns", g.Result)
			}
		})
	}
}

func TestBelowReadsTheEvaluationFromTheEnginesSide(t *testing.T) {
	for _, tc := range []struct {
		eval  string
		pawns float64
		want  bool
	}{
		{"cp -500", -5, true},
		{"cp -499", -5, false},
		{"cp -612", -5, true},
		{"mate -3", -5, true},
		{"mate 3", -5, false},
		{"", -5, false},
		{"cp x", -5, false},
	} {
		if got := Below(tc.eval, tc.pawns); got != tc.want {
			t.Errorf("Below(%q, %v) = %v, want %v", tc.eval, tc.pawns, got, tc.want)
		}
	}
}

// With --play, a rule 10 correction of the engine's own move restores the
// position the engine answered: its move stands and is made again once the
// computer's clock runs (docs/engine.md). Before, the bridge kept that move
// as tried and made it never again: the computer's clock ran on while
// engine status said "make it on the board, then press".
func TestAfterACorrectionOfTheEnginesOwnMoveItIsMadeAgainWhenPlayResumes(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd("-delay", "50ms"), Play: true, Restarts: DefaultRestarts})
	r.waitFor("the engine's first move made", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 1 })
	made := r.state().CurrentGame().Sheet.Entries()[0].UCI
	r.do(match.RoleArbiter, match.Correct{Ply: 1, Method: match.MethodKeep, NoBonus: true, Reason: "the operator made another move on the board"})
	seq := r.state().Seq
	r.waitStatus("the correction read", 10*time.Second, func(s Status) bool { return s.Seq >= seq })
	r.do(match.RoleArbiter, match.Resume{})
	r.waitFor("the engine's move made again", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 1 })
	r.halt()
	if got := r.state().CurrentGame().Sheet.Entries()[0].UCI; got != made {
		t.Fatalf("made %s after the correction, the engine chose %s", got, made)
	}
}
