package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// runRefused runs a bridge on the rig's record that must be refused before
// its engine starts: it returns Run's error (a bridge that starts instead
// is stopped at once and reported).
func (r *rig) runRefused(opts Options) error {
	r.t.Helper()
	rec, err := Open(r.ctx, r.path, match.Actor{Role: match.RoleOperator}, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	defer rec.Close()
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Run(ctx, rec, opts) }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		cancel()
		<-done
		r.t.Fatal("the bridge started")
		return nil
	}
}

// events are the record's events of kind.
func (r *rig) events(kind string) []store.Event {
	r.t.Helper()
	evs, err := r.app.DB().EventsAfter(r.ctx, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []store.Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func TestOneBridgePerMatchIsKnownToTheRecord(t *testing.T) {
	const laptop = "0a0a0a0a0a0a"
	for _, tc := range []struct {
		name string
		// elsewhere is where the bridge the record names already runs
		// (its engine.start, as the replica of another station holds it;
		// "-" none), humanToMove whether Kasparov is to move then
		elsewhere   string
		humanToMove bool
		takeOver    string
		code        match.Code // Run's refusal; "" it plays
		args        []string
		replaces    string // what this bridge's engine.start replaces
		reason      string
	}{
		{name: "a bridge where none plays starts and records its start and its stop", elsewhere: "-"},
		{name: "a second bridge where the laptop's plays is refused naming the laptop",
			elsewhere: "laptop", code: match.CodeEngineBridgeRuns, args: []string{"laptop", "4170", "Deep Blue"}},
		{name: "taking over from the laptop's bridge is refused on the human's turn",
			elsewhere: "laptop", humanToMove: true, takeOver: "the laptop died", code: match.CodeHumansTurn, args: []string{"rule 13"}},
		{name: "taking over from the laptop's bridge on the computer's turn is recorded with its reason",
			elsewhere: "laptop", takeOver: "the laptop died", replaces: laptop, reason: "the laptop died"},
		{name: "a bridge gone at this very station is taken over without asking: its lock was free",
			elsewhere: "", humanToMove: true, replaces: laptop, reason: "ended without stopping: its lock was free"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, "")
			if tc.humanToMove {
				r.do(match.RoleOperator, match.Move{Input: "e4"}) // by hand: no bridge yet
			}
			if tc.elsewhere != "-" {
				r.do(match.RoleOperator, match.EngineStart{Bridge: laptop, Station: tc.elsewhere, PID: 4170, Cmd: "stockfish"})
			}
			opts := Options{Cmd: fakeCmd(), Play: true, TakeOver: tc.takeOver}
			if tc.code != "" {
				err := r.runRefused(opts)
				var me *match.Error
				if match.ErrorCode(err) != tc.code || !asError(err, &me) {
					t.Fatalf("the bridge ended with %v, want the refusal %s", err, tc.code)
				}
				for _, a := range tc.args {
					if !strings.Contains(strings.Join(argStrings(me.Args()), " "), a) {
						t.Errorf("the refusal %v does not name %q", err, a)
					}
				}
				if n := len(r.events(match.KindEngineStart)); n != 1 {
					t.Errorf("%d engine.start events, want the laptop's alone", n)
				}
				if _, err := os.Stat(Dir(r.path)); err == nil {
					if m, _ := filepath.Glob(filepath.Join(Dir(r.path), "game-*.log")); len(m) > 0 {
						t.Errorf("the refused bridge wrote transcripts %v", m)
					}
				}
				return
			}
			r.run(opts)
			r.waitFor("the bridge's start", 10*time.Second, func(st *match.State, g *match.Game) bool {
				return st.Bridge != nil && st.Bridge.Bridge == r.id
			})
			if tc.humanToMove {
				r.do(r.human, match.Move{Input: "e5"})
			}
			r.waitFor("the computer's move", 10*time.Second, func(st *match.State, g *match.Game) bool {
				return g.Engine != nil && g.Sheet.Ply() == g.Engine.Ply
			})
			st := r.state()
			b := st.Bridge
			if b.Station != "" || b.PID != os.Getpid() || b.Replaces != tc.replaces || !strings.Contains(b.Reason, tc.reason) {
				t.Fatalf("the record knows the bridge %+v, want this process at the record's own machine replacing %q for %q", b, tc.replaces, tc.reason)
			}
			if want := TranscriptName(1, r.id); st.CurrentGame().Engine.File != want {
				t.Errorf("the engine's move attests %s, want the bridge's own transcript %s", st.CurrentGame().Engine.File, want)
			}
			r.halt()
			stops := r.events(match.KindEngineStop)
			if len(stops) != 1 || !strings.Contains(string(stops[0].Payload), r.id) || r.state().Bridge != nil {
				t.Fatalf("engine.stop events %v, the record knows %+v: want this bridge's stop", stops, r.state().Bridge)
			}
		})
	}
}

func asError(err error, me **match.Error) bool {
	e, ok := err.(*match.Error)
	if !ok {
		return false
	}
	*me = e
	return true
}

func argStrings(args []any) []string {
	var out []string
	for _, a := range args {
		b, _ := json.Marshal(a)
		out = append(out, string(b))
	}
	return out
}

// TestEachBridgesTranscriptIsItsOwnAndVerifiesAgainstItsMoves: two bridges
// of a match, one after the other, write their own transcripts
// (game-N.BRIDGE.log), and the record's engine moves attest each its own
// bridge's: both verify; where one of them is not (it ran at another
// station) it is missing, never "cut short" (before, each was game-N.log,
// and the arbiter's station's own file was checked against the laptop's
// moves: exit 1).
func TestEachBridgesTranscriptIsItsOwnAndVerifiesAgainstItsMoves(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd(), Play: true})
	first := r.id
	r.waitFor("the first bridge's move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 1 })
	r.halt()
	r.do(r.human, match.Move{Input: "e5"})
	r.run(Options{Cmd: fakeCmd(), Play: true})
	second := r.id
	r.waitFor("the second bridge's move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 3 })
	r.halt()
	if first == second {
		t.Fatal("two bridges had one id")
	}
	evs, err := r.app.DB().EventsAfter(r.ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := Attestations(evs)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, m := range moves {
		files[m.File] = true
	}
	if len(moves) != 2 || !files[TranscriptName(1, first)] || !files[TranscriptName(1, second)] {
		t.Fatalf("the engine moves attest %v, want one of each bridge's transcript", files)
	}
	t.Run("each transcript verifies against its own bridge's moves", func(t *testing.T) {
		rep, err := CheckTranscripts(r.path, moves)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Problem != "" || len(rep.Checked) != 2 || len(rep.Missing) != 0 {
			t.Fatalf("report %+v", rep)
		}
	})
	t.Run("a bridge's transcript that is not here is missing, not cut short", func(t *testing.T) {
		if err := os.Rename(filepath.Join(Dir(r.path), TranscriptName(1, first)), filepath.Join(t.TempDir(), "elsewhere.log")); err != nil {
			t.Fatal(err)
		}
		rep, err := CheckTranscripts(r.path, moves)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Problem != "" || len(rep.Checked) != 1 || len(rep.Missing) != 1 || !strings.Contains(rep.Missing[0], first) {
			t.Fatalf("report %+v", rep)
		}
		if at := rep.Elsewhere[rep.Missing[0]]; at != "the record's own machine" {
			t.Fatalf("the missing transcript's bridge ran at %q, want where its engine.start says", at)
		}
	})
}

// TestABridgeTakenOverStops: once the record names another bridge (a
// take-over: its station's lock was free, or --take-over elsewhere), the
// bridge taken over records nothing more and stops, saying by whom.
func TestABridgeTakenOverStops(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", false, "") // Kasparov to move: the bridge waits
	r.run(Options{Cmd: fakeCmd(), Play: true})
	r.waitFor("the bridge's start", 10*time.Second, func(st *match.State, _ *match.Game) bool {
		return st.Bridge != nil && st.Bridge.Bridge == r.id
	})
	r.do(match.RoleOperator, match.EngineStart{Bridge: "0c0c0c0c0c0c", PID: 4242, Cmd: "stockfish", Replaces: r.id, Reason: "its lock was free"})
	var err error
	select {
	case err = <-r.done:
		r.stop = nil
	case <-time.After(10 * time.Second):
		t.Fatal("the bridge taken over still runs")
	}
	var p *phrase.Error
	if !errors.As(err, &p) || p.Code != string(CodeTakenOver) || !strings.Contains(err.Error(), "taken over by the bridge 0c0c0c0c0c0c at the record's own machine") {
		t.Fatalf("the bridge ended with %v, want %s", err, CodeTakenOver)
	}
	r.do(r.human, match.Move{Input: "e4"})
	if n := len(r.events(match.KindEngineStop)); n != 0 {
		t.Fatalf("the bridge taken over recorded %d stops", n)
	}
	if g := r.state().CurrentGame(); g.Engine != nil {
		t.Fatalf("the bridge taken over recorded the engine's move %+v", g.Engine)
	}
}

// TestABridgeThatTakesOverRecordsItsSetupOnTheComputersTurnAtAnyMove (rule
// 12): a bridge that takes over from one gone (a technical fault in the
// record) on the computer's turn records the position and the clocks it
// set up in its engine, at the computer's first move as at any other.
// Before, the operator's pass killed the bridge while Stockfish thought
// about Deep Blue's first move: the take-over's technical fault was
// recorded, its setup not (it was at move 10).
func TestABridgeThatTakesOverRecordsItsSetupOnTheComputersTurnAtAnyMove(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves []string
		ply   int
	}{
		{"at the computer's first move", nil, 1},
		{"at its second move", []string{"e4", "e5"}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, "")
			for i, mv := range tc.moves {
				r.do([]match.Role{match.RoleOperator, r.human}[i%2], match.Move{Input: mv, NotEngine: i%2 == 0, Reason: map[bool]string{true: "by hand"}[i%2 == 0]})
			}
			// the bridge gone: it ran here, and its lock is free
			r.do(match.RoleOperator, match.EngineStart{Bridge: "0a0a0a0a0a0a", PID: 4170, Cmd: "stockfish"})
			r.run(Options{Cmd: fakeCmd(), Play: true, Restarts: DefaultRestarts})
			r.waitFor("the engine's move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == tc.ply })
			r.halt()
			g := r.state().CurrentGame()
			faults, setups := incidents(g, match.IncidentTechnicalFault), incidents(g, match.IncidentSetup)
			if len(faults) != 1 || !strings.Contains(faults[0].Text, "is taken over by the bridge") {
				t.Fatalf("technical faults %+v, want the take-over's", faults)
			}
			want := fmt.Sprintf("the position of ply %d", tc.ply)
			if len(setups) != 1 || !strings.Contains(setups[0].Text, want) || setups[0].Seq < faults[0].Seq {
				t.Fatalf("setups %+v, want one after the take-over saying %q", setups, want)
			}
			noPause(t, g)
			r.checkGoLines(1, 0)
		})
	}
}
