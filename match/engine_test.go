package match

import (
	"strings"
	"testing"
	"time"
)

// engineMove is the engine's move uci for the position game 1 stands in
// now, as the bridge records it.
func (r *rig) engineMove(uci string, play bool) EngineMove {
	g := r.game()
	return EngineMove{Game: g.Number, Ply: g.Sheet.Ply() + 1, FEN: g.Sheet.FEN(), UCI: uci, Received: r.now, Eval: "cp 20", Depth: 12,
		EngineTranscript: EngineTranscript{File: "game-1.log", Lines: 20, Bytes: 900, SHA256: strings.Repeat("0f", 32)}, Play: play}
}

func TestTheComputersMoveMustBeTheEnginesUnlessMarkedNotTheEngines(t *testing.T) {
	r := newRig(t)
	r.start()
	r.move(time.Minute, "e4") // Kasparov; Deep Blue (Black) is to move
	if _, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), r.engineMove("c7c5", false)); err != nil {
		t.Fatal(err)
	}
	if e := r.game().EngineFor(); e == nil || e.SAN != "c5" || e.Label() != "1…c5" {
		t.Fatalf("the engine's move for the position: %+v", e)
	}
	t.Run("another move of the computer is refused naming both moves", func(t *testing.T) {
		_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), Move{Input: "e5"})
		refused(t, err, CodeNotTheEnginesMove, "1…e5", deepBlue, "1…c5")
	})
	t.Run("the arbiter entering another move is refused as well", func(t *testing.T) {
		_, err := r.app.Do(r.ctx, r.as(RoleArbiter, time.Second), Move{Input: "e7e5"})
		refused(t, err, CodeNotTheEnginesMove, "1…e5")
	})
	t.Run("not the engine's move needs a reason, and a reason needs it", func(t *testing.T) {
		for _, m := range []Move{{Input: "e5", NotEngine: true}, {Input: "e5", Reason: "x"}} {
			_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), m)
			refused(t, err, CodeNotEngineNeedsReason)
		}
	})
	t.Run("the human's move cannot be marked not the engine's", func(t *testing.T) {
		r2 := newRig(t)
		r2.start()
		_, err := r2.app.Do(r2.ctx, r2.as(RoleArbiter, time.Second), Move{Input: "e4", NotEngine: true, Reason: "x"})
		refused(t, err, CodeNotEngineOnlyComputer, kasparov, deepBlue)
	})
	t.Run("marked not the engine's, with a reason, it is recorded with an incident naming both", func(t *testing.T) {
		res, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), Move{Input: "e5", NotEngine: true, Reason: "the operator misread the screen"})
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := res.Moved(); !ok || m.SAN != "e5" {
			t.Fatalf("moved %+v", m)
		}
		inc := r.lastIncident()
		if inc.Kind != IncidentNotEngine || inc.Text != "Deep Blue's move 1…e5 entered, not the engine's move 1…c5: the operator misread the screen" || inc.Said == nil {
			t.Fatalf("incident %+v", inc)
		}
	})
	t.Run("the engine's move itself passes", func(t *testing.T) {
		r.move(time.Minute, "Nf3")
		if _, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), r.engineMove("b8c6", false)); err != nil {
			t.Fatal(err)
		}
		if _, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), Move{Input: "Nc6"}); err != nil {
			t.Fatal(err)
		}
		if r.game().EngineFor() != nil {
			t.Fatal("the engine's move still stands for the next position")
		}
	})
}

func TestTheEnginesMoveIsRecordedOnlyForThePositionItWasGiven(t *testing.T) {
	r := newRig(t)
	r.start()
	r.move(time.Minute, "e4")
	stale := r.engineMove("c7c5", false)
	t.Run("on the human's turn it is refused", func(t *testing.T) {
		r2 := newRig(t)
		r2.start()
		m := r2.engineMove("e2e4", false)
		_, err := r2.app.Do(r2.ctx, r2.as(RoleOperator, time.Second), m)
		refused(t, err, CodeEngineMoveNotComputers, deepBlue, "1")
	})
	t.Run("an illegal move is refused", func(t *testing.T) {
		_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), r.engineMove("c7c4", false))
		refused(t, err, CodeMoveNotLegal)
	})
	t.Run("a transcript mark without its hash is refused", func(t *testing.T) {
		m := r.engineMove("c7c5", false)
		m.SHA256 = "abc"
		_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), m)
		refused(t, err, CodeEngineMoveIncomplete)
	})
	t.Run("a transcript named with a folder is refused", func(t *testing.T) {
		m := r.engineMove("c7c5", false)
		m.File = "../m.db"
		_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), m)
		refused(t, err, CodeEngineMoveIncomplete)
	})
	t.Run("a player cannot record it", func(t *testing.T) {
		_, err := r.app.Do(r.ctx, r.as(RoleBlack, time.Second), r.engineMove("c7c5", false))
		refused(t, err, CodeWrongRole)
	})
	r.ok(func() error {
		_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), Move{Input: "c5"})
		return err
	}())
	t.Run("once the position moved on it is refused", func(t *testing.T) {
		_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), stale)
		refused(t, err, CodeEngineMoveStale, "1", "2", "1", "3")
	})
	t.Run("with play the move and the press follow in one command", func(t *testing.T) {
		r.move(time.Minute, "Nf3")
		res, err := r.app.Do(r.ctx, r.as(RoleOperator, 3*time.Second), r.engineMove("d7d6", true))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Events) != 2 || res.Events[0].Kind != KindEngineMove || res.Events[1].Kind != KindMove {
			t.Fatalf("events %v", res.Events)
		}
		if !res.Events[0].At.Equal(res.Events[1].At) {
			t.Fatal("the engine's move and the operator's are not one command")
		}
		if g := r.game(); g.ToMove() != 0 || g.Sheet.Entries()[3].SAN != "d6" {
			t.Fatalf("the move was not made: %s", g.Sheet.FEN())
		}
	})
	t.Run("replayed, the record holds the engine's latest move", func(t *testing.T) {
		g := r.replayed().CurrentGame()
		if g.Engine == nil || g.Engine.UCI != "d7d6" || g.Engine.Ply != 4 || g.EngineFor() != nil {
			t.Fatalf("replayed engine move %+v", g.Engine)
		}
	})
}

// The instant the bridge read the engine's move (engine.move's received,
// `engine move --received`) enters the record as any command's instant does
// (docs/store.md, "The instant an event claims"): it may not be later than
// the command's receipt by more than the receiving clock's uncertainty
// (none on one machine, the round trip at a station), nor lie before the
// game began. Before, `--received 2099-01-01T00:00:00Z` and
// `--received 1900-01-01T00:00:00Z` were both recorded as the instant the
// computer answered.
func TestTheInstantTheEnginesMoveWasReadIsBoundedAsACommandsInstant(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func(started, at time.Time) time.Time
		want Code
	}{
		{"read 1.5 s after the command was received is in the future", func(_, at time.Time) time.Time { return at.Add(1500 * time.Millisecond) }, CodeEngineReadFuture},
		{"read in 2099 is in the future", func(_, _ time.Time) time.Time { return time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC) }, CodeEngineReadFuture},
		{"read in 1900 is before the game began", func(_, _ time.Time) time.Time { return time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC) }, CodeEngineReadBeforeGame},
		{"read 1 ms before the game began is refused", func(started, _ time.Time) time.Time { return started.Add(-time.Millisecond) }, CodeEngineReadBeforeGame},
		{"read at the instant the game began is taken", func(started, _ time.Time) time.Time { return started }, ""},
		{"read at the command's instant is taken", func(_, at time.Time) time.Time { return at }, ""},
		{"read 1 ms after the command was received on this machine is in the future: its clock is the receipt's", func(_, at time.Time) time.Time { return at.Add(time.Millisecond) }, CodeEngineReadFuture},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.start()
			started := r.game().Started
			r.move(time.Minute, "e4")
			m := r.engineMove("c7c5", false)
			c := r.as(RoleOperator, 10*time.Second)
			m.Received = tc.read(started, c.At)
			before := r.seq()
			_, err := r.app.Do(r.ctx, c, m)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			refused(t, err, tc.want)
			if r.seq() != before {
				t.Fatalf("the record went from %d to %d events", before, r.seq())
			}
		})
	}
}
