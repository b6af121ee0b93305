package match

import (
	"strings"
	"testing"
	"time"

	"arbiter/store"
)

const (
	laptopBridge  = "0a0a0a0a0a0a"
	arbiterBridge = "0b0b0b0b0b0b"
)

// bridgeAt is the start of the bridge id at station ("" the record's own
// machine), taking over from replaces when given.
func bridgeAt(id, station string, pid int, replaces, reason string) EngineStart {
	return EngineStart{Bridge: id, Station: station, Host: "host-" + station, PID: pid, Cmd: "/usr/games/stockfish", Replaces: replaces, Reason: reason}
}

func TestOneEngineBridgePerMatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		// before is given first (each must pass); the game is started
		// and Kasparov has played e4 (Deep Blue's turn) when humanMoved,
		// else the game is started only when started
		before     []Command
		started    bool
		humanMoved bool
		cmd        Command
		code       Code // "" accepted
		args       []string
		bridge     string // the bridge the record knows after, "" none
		incident   string // the last incident's text holds this ("" none checked)
		from       string // the station the command's signed request comes from ("" given here)
	}{
		{name: "a bridge started from a station says that station",
			cmd: bridgeAt(laptopBridge, "laptop", 4170, "", ""), from: "laptop", bridge: laptopBridge},
		{name: "a bridge that says another station than its request's is refused",
			cmd: bridgeAt(laptopBridge, "laptop", 4170, "", ""), from: "arbiter",
			code: CodeEngineStationNotSender, args: []string{"laptop", "arbiter"}},
		{name: "a second bridge at another station is refused naming the station and process of the first",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")},
			cmd:    bridgeAt(arbiterBridge, "arbiter", 5120, "", ""),
			code:   CodeEngineBridgeRuns, args: []string{"laptop", "4170", deepBlue}, bridge: laptopBridge},
		{name: "a second bridge at the record's own machine is refused naming it",
			before: []Command{bridgeAt(laptopBridge, "", 4170, "", "")},
			cmd:    bridgeAt(arbiterBridge, "", 5120, "", ""),
			code:   CodeEngineBridgeRuns, args: []string{"the record's own machine", "4170"}, bridge: laptopBridge},
		{name: "a take-over naming another bridge than the one that plays is refused as a second bridge",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")},
			cmd:    bridgeAt(arbiterBridge, "arbiter", 5120, "0c0c0c0c0c0c", "the laptop died"),
			code:   CodeEngineBridgeRuns, args: []string{"laptop"}, bridge: laptopBridge},
		{name: "a take-over needs a reason",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")},
			cmd:    bridgeAt(arbiterBridge, "arbiter", 5120, laptopBridge, " "),
			code:   CodeTextEmpty, bridge: laptopBridge},
		{name: "a reason without a take-over is refused",
			cmd:  bridgeAt(arbiterBridge, "arbiter", 5120, "", "just because"),
			code: CodeEngineReasonWithoutTakeOver},
		{name: "taking over when no bridge plays is refused",
			cmd:  bridgeAt(arbiterBridge, "arbiter", 5120, laptopBridge, "the laptop died"),
			code: CodeEngineNoneToTakeOver, args: []string{laptopBridge}},
		{name: "a bridge's id is 12 hex digits",
			cmd:  bridgeAt("laptop", "laptop", 4170, "", ""),
			code: CodeEngineBridgeIDMalformed},
		{name: "the same bridge is not started twice",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")},
			cmd:    bridgeAt(laptopBridge, "laptop", 4170, "", ""),
			code:   CodeEngineBridgeStarted, bridge: laptopBridge},
		{name: "taking over at another station is refused on the human's turn (rules 12, 13)",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")}, started: true,
			cmd:  bridgeAt(arbiterBridge, "arbiter", 5120, laptopBridge, "the laptop died"),
			code: CodeHumansTurn, args: []string{"rule 13", kasparov}, bridge: laptopBridge},
		{name: "taking over at another station on the computer's turn is recorded with a technical fault",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")}, started: true, humanMoved: true,
			cmd:    bridgeAt(arbiterBridge, "arbiter", 5120, laptopBridge, "the laptop died"),
			bridge: arbiterBridge,
			incident: "The engine bridge 0a0a0a0a0a0a at laptop (process 4170, started 1996-02-10T14:01:00Z) is taken over by " +
				"the bridge 0b0b0b0b0b0b at arbiter (process 5120): the laptop died"},
		{name: "taking over before the game is recorded without an incident",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")},
			cmd:    bridgeAt(arbiterBridge, "arbiter", 5120, laptopBridge, "the laptop died"),
			bridge: arbiterBridge},
		{name: "the bridge at the same station takes over from its gone predecessor on the human's turn too",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")}, started: true,
			cmd:    bridgeAt(arbiterBridge, "laptop", 4188, laptopBridge, "its lock was free"),
			bridge: arbiterBridge, incident: "at laptop (process 4188): its lock was free"},
		{name: "a stopped bridge leaves the match free for the next anywhere",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", ""), EngineStop{Bridge: laptopBridge}},
			cmd:    bridgeAt(arbiterBridge, "arbiter", 5120, "", ""),
			bridge: arbiterBridge},
		{name: "only the bridge that plays may record its stop",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", "")},
			cmd:    EngineStop{Bridge: arbiterBridge},
			code:   CodeEngineBridgeNotPlaying, args: []string{arbiterBridge}, bridge: laptopBridge},
		{name: "a bridge taken over cannot record its stop",
			before: []Command{bridgeAt(laptopBridge, "laptop", 4170, "", ""), bridgeAt(arbiterBridge, "arbiter", 5120, laptopBridge, "the laptop died")},
			cmd:    EngineStop{Bridge: laptopBridge},
			code:   CodeEngineBridgeNotPlaying, bridge: arbiterBridge},
		{name: "a human player cannot start a bridge",
			cmd:  bridgeAt(laptopBridge, "laptop", 4170, "", ""),
			code: CodeWrongRole},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			for _, c := range tc.before {
				if _, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Minute), c); err != nil {
					t.Fatalf("%s: %v", c.Kind(), err)
				}
			}
			if tc.started || tc.humanMoved {
				r.start()
			}
			if tc.humanMoved {
				r.move(time.Minute, "e4")
			}
			role := RoleOperator
			if tc.code == CodeWrongRole {
				role = RoleWhite
			}
			incidents := 0
			if g := r.game(); g != nil {
				incidents = len(g.Incidents)
			}
			by := r.as(role, time.Second)
			if tc.from != "" {
				// unprotected: the request's signature is not checked, its station is
				by.Signed = &SignedRequest{ID: "c1", From: tc.from, Role: string(role), Signer: "operator"}
			}
			_, err := r.app.Do(r.ctx, by, tc.cmd)
			if tc.code != "" {
				refused(t, err, tc.code, tc.args...)
			} else if err != nil {
				t.Fatal(err)
			}
			for _, st := range []*State{r.app.State(), r.stateFromFile()} {
				got := ""
				if st.Bridge != nil {
					got = st.Bridge.Bridge
				}
				if got != tc.bridge {
					t.Fatalf("the record knows the bridge %q to play, want %q", got, tc.bridge)
				}
			}
			if g := r.game(); g != nil {
				switch {
				case tc.incident == "" && len(g.Incidents) != incidents:
					t.Fatalf("an incident was logged: %+v", g.Incidents[len(g.Incidents)-1])
				case tc.incident != "":
					if inc := r.lastIncident(); inc.Kind != IncidentTechnicalFault || !strings.Contains(inc.Text, tc.incident) {
						t.Fatalf("the last incident is %s %q, want a technical fault saying %q", inc.Kind, inc.Text, tc.incident)
					}
				}
			}
		})
	}
}

// stateFromFile is the state rebuilt from the record's file.
func (r *rig) stateFromFile() *State {
	r.t.Helper()
	db, err := store.Open(r.ctx, r.path)
	if err != nil {
		r.t.Fatal(err)
	}
	defer db.Close()
	app, err := New(r.ctx, db)
	if err != nil {
		r.t.Fatal(err)
	}
	return app.State()
}

func TestWhileABridgePlaysTheComputersMoveByHandWaitsForItsAnswer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		bridge bool // a bridge plays
		answer string
		stop   bool // the bridge stopped before the move
		move   Move
		code   Code
		args   []string
		notEng string // the not-engine incident's text
	}{
		{name: "a move of the computer before the bridge answered is refused naming where it runs",
			bridge: true, move: Move{Input: "e5"},
			code: CodeEngineNotAnswered, args: []string{"1…e5", deepBlue, "laptop"}},
		{name: "marked not the engine's, with a reason, it is recorded with an incident",
			bridge: true, move: Move{Input: "e5", NotEngine: true, Reason: "the laptop froze"},
			notEng: "Deep Blue's move 1…e5 entered as not the engine's (the engine gave no move for it): the laptop froze"},
		{name: "the engine's move once answered passes",
			bridge: true, answer: "e7e5", move: Move{Input: "e5"}},
		{name: "another than the engine's answer is refused as ever",
			bridge: true, answer: "c7c5", move: Move{Input: "e5"}, code: CodeNotTheEnginesMove},
		{name: "after the bridge stopped a move by hand passes as before",
			bridge: true, stop: true, move: Move{Input: "e5"}},
		{name: "without a bridge recorded (an older record) a move by hand passes as before",
			move: Move{Input: "e5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			if tc.bridge {
				r.ok(doErr(r.app.Do(r.ctx, r.as(RoleOperator, time.Minute), bridgeAt(laptopBridge, "laptop", 4170, "", ""))))
			}
			r.start()
			r.move(time.Minute, "e4") // Kasparov's move is never held for the bridge
			if tc.answer != "" {
				m := r.engineMove(tc.answer, false)
				m.Bridge = laptopBridge // the answer of the bridge that plays
				r.ok(doErr(r.app.Do(r.ctx, r.as(RoleOperator, time.Second), m)))
			}
			if tc.stop {
				r.ok(doErr(r.app.Do(r.ctx, r.as(RoleOperator, time.Second), EngineStop{Bridge: laptopBridge})))
			}
			_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), tc.move)
			if tc.code != "" {
				refused(t, err, tc.code, tc.args...)
				if r.game().Sheet.Ply() != 1 {
					t.Fatal("the refused move was recorded")
				}
				return
			}
			r.ok(err)
			if r.game().Sheet.Ply() != 2 {
				t.Fatal("the move was not recorded")
			}
			if tc.notEng != "" {
				if inc := r.lastIncident(); inc.Kind != IncidentNotEngine || inc.Text != tc.notEng {
					t.Fatalf("incident %s %q, want %q", inc.Kind, inc.Text, tc.notEng)
				}
			}
		})
	}
}

func doErr(_ Result, err error) error { return err }

func TestAnEngineMoveIsRecordedOnlyFromTheBridgeThatPlays(t *testing.T) {
	for _, tc := range []struct {
		name   string
		bridge string // the engine.move's bridge
		code   Code
	}{
		{"the engine's move from the bridge that plays is recorded", arbiterBridge, ""},
		{"the engine's move from a bridge taken over is refused: it records nothing more", laptopBridge, CodeEngineBridgeNotPlaying},
		{"the engine's move from a bridge the record never knew is refused", "0c0c0c0c0c0c", CodeEngineBridgeNotPlaying},
		{"the engine's move given by hand ('engine move', no bridge) while a bridge plays is refused naming that bridge", "", CodeEngineBridgeRuns},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.ok(doErr(r.app.Do(r.ctx, r.as(RoleOperator, time.Minute), bridgeAt(laptopBridge, "laptop", 4170, "", ""))))
			r.ok(doErr(r.app.Do(r.ctx, r.as(RoleOperator, time.Minute), bridgeAt(arbiterBridge, "arbiter", 5120, laptopBridge, "the laptop died"))))
			r.start()
			r.move(time.Minute, "e4")
			m := r.engineMove("c7c5", false)
			m.Bridge = tc.bridge
			_, err := r.app.Do(r.ctx, r.as(RoleOperator, time.Second), m)
			if tc.code != "" {
				want := tc.bridge
				if tc.code == CodeEngineBridgeRuns {
					want = "5120" // the process of the bridge that plays
				}
				refused(t, err, tc.code, want)
				if r.game().EngineFor() != nil {
					t.Fatal("the refused engine move was recorded")
				}
				return
			}
			r.ok(err)
			if e := r.game().EngineFor(); e == nil || e.Bridge != tc.bridge {
				t.Fatalf("the engine's move recorded: %+v", e)
			}
		})
	}
}
