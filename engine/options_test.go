package engine

import (
	"errors"
	"strings"
	"testing"
	"time"

	"arbiter/internal/phrase"
	"arbiter/match"
)

// TestAnOptionTheEngineDoesNotTakeStopsTheBridgeBeforeAnyIsSent: the
// operator's --option is checked against the options the engine declares
// after uci (the fake declares Hash and Threads as spins 1–1024 and 1–8,
// Ponder as a check, UCI_Opponent as a string): a name it does not declare,
// a spin's value that is no whole number or out of its bounds, a check's
// that is neither true nor false stop the bridge with the code of what is
// wrong before any setoption is sent, and no technical fault is recorded
// (the operator's error, not the engine's); the record holds the bridge's
// start and its stop. Names are matched without regard to case, as UCI
// says. Before, they were sent as given: Stockfish answered "No such
// option" (read by nobody), ignored a value out of bounds without a word,
// and ended at each start on Threads=abc, a technical fault at each
// restart.
func TestAnOptionTheEngineDoesNotTakeStopsTheBridgeBeforeAnyIsSent(t *testing.T) {
	for _, tc := range []struct {
		name    string
		options []string
		want    match.Code // "": the bridge runs and plays
		says    string
	}{
		{"an option the engine does not declare is refused naming those it does", []string{"Hash=16", "Thread=1"}, CodeOptionUnknown, `has no option "Thread" (its options: Hash, Ponder, Threads, UCI_Opponent)`},
		{"a spin above its bounds is refused naming them", []string{"Hash=99999999"}, CodeOptionOutOfBounds, "takes the option Hash as a whole number from 1 to 1024, not \"99999999\""},
		{"a spin that is no number is refused", []string{"Threads=abc"}, CodeOptionOutOfBounds, "takes the option Threads as a whole number from 1 to 8, not \"abc\""},
		{"a check that is neither true nor false is refused", []string{"Ponder=yes"}, CodeOptionNotCheck, "takes the option Ponder as true or false, not \"yes\""},
		{"options it declares, in any case, are sent", []string{"hash=16", "Threads=2", "Ponder=false", "UCI_Opponent=GM 2785 human Garry Kasparov"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, "")
			r.run(Options{Cmd: fakeCmd(), Options: tc.options, Play: true, Restarts: DefaultRestarts})
			if tc.want == "" {
				r.waitFor("the engine's first move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() == 1 })
				r.halt()
				n := 0
				for _, l := range r.transcript(1) {
					if l.dir == ">" && strings.HasPrefix(l.text, "setoption ") {
						n++
					}
				}
				if n != len(tc.options) {
					t.Fatalf("%d setoption lines sent, want %d", n, len(tc.options))
				}
				return
			}
			var err error
			select {
			case err = <-r.done:
				r.stop = nil
			case <-time.After(10 * time.Second):
				t.Fatal("the bridge still runs 10 s after the engine's uciok")
			}
			var p *phrase.Error
			if !errors.As(err, &p) || match.Code(p.Code) != tc.want || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("the bridge ended with %v, want the code %s saying %q", err, tc.want, tc.says)
			}
			for _, l := range r.transcript(1) {
				if l.dir == ">" && strings.HasPrefix(l.text, "setoption ") {
					t.Errorf("sent %q before the bridge stopped", l.text)
				}
			}
			g := r.state().CurrentGame()
			if f := incidents(g, match.IncidentTechnicalFault); len(f) > 0 {
				t.Errorf("the operator's option recorded as a technical fault: %+v", f)
			}
			if st := r.state(); st.Bridge != nil {
				t.Errorf("the record still names the bridge %s as playing: its stop is not recorded", st.Bridge.Bridge)
			}
			if s := r.status(); s.State != StateStopped || !strings.Contains(s.Note, tc.says) {
				t.Errorf("status %q, note %q: want stopped, saying why", s.State, s.Note)
			}
		})
	}
}

func TestReadOptionReadsNamesAndValuesWithSpaces(t *testing.T) {
	for _, tc := range []struct {
		line string
		want uciOption
	}{
		{"option name Skill Level type spin default 20 min 0 max 20", uciOption{name: "Skill Level", typ: "spin", min: 0, max: 20}},
		{"option name Debug Log File type string default", uciOption{name: "Debug Log File", typ: "string"}},
		{"option name Ponder type check default false", uciOption{name: "Ponder", typ: "check"}},
		{"option name Style type combo default Normal var Solid var Normal var Risky Play", uciOption{name: "Style", typ: "combo", vars: []string{"Solid", "Normal", "Risky Play"}}},
	} {
		t.Run(tc.line, func(t *testing.T) {
			got, ok := readOption(strings.Fields(tc.line))
			if !ok || got.name != tc.want.name || got.typ != tc.want.typ || got.min != tc.want.min || got.max != tc.want.max || strings.Join(got.vars, "|") != strings.Join(tc.want.vars, "|") {
				t.Fatalf("readOption = %+v, %v; want %+v", got, ok, tc.want)
			}
		})
	}
}

func TestCheckOptionSaysWhatTheEngineTakes(t *testing.T) {
	declared := map[string]uciOption{
		"threads": {name: "Threads", typ: "spin", min: 1, max: 8},
		"style":   {name: "Style", typ: "combo", vars: []string{"Solid", "Risky Play"}},
	}
	for _, tc := range []struct {
		name        string
		declared    map[string]uciOption
		opt, value  string
		wantNothing bool
		says        string
	}{
		{"a combo's value among its values, in any case, is taken", declared, "style", "risky play", true, ""},
		{"a combo's value none of its values is refused naming them", declared, "Style", "Wild", false, `takes the option Style as one of Solid, Risky Play, not "Wild"`},
		{"an engine that declares no option says so", map[string]uciOption{}, "Hash", "16", false, `has no option "Hash" (its options: none)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkOption("E", tc.declared, tc.opt, tc.value)
			if tc.wantNothing != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.says)) {
				t.Fatalf("checkOption = %v, want %q", err, tc.says)
			}
		})
	}
}
