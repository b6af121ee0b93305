package engine

import (
	"arbiter/clock"
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/engine/fake"
	"arbiter/internal/kdf"
	"arbiter/match"
	"arbiter/service"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == fake.Arg {
		os.Exit(fake.Main(os.Args[2:], os.Stdin, os.Stdout))
	}
	kdf.Current = kdf.Fast
	os.Exit(m.Run())
}

// fakeCmd is the --cmd of the fake engine (this test binary) with args.
func fakeCmd(args ...string) string {
	return strings.Join(append([]string{quote(os.Args[0]), fake.Arg}, args...), " ")
}

func quote(s string) string { return "'" + s + "'" }

// rig is a match on one machine: the record, a second handle on it for the
// human's and the arbiter's commands (as another process gives them), and
// the bridge running on it.
type rig struct {
	t      testing.TB
	ctx    context.Context
	path   string
	app    *match.App // the arbiter's and the human's
	stop   context.CancelFunc
	done   chan error
	logMu  sync.Mutex
	log    []string
	human  match.Role
	engine match.Role
	id     string // the last bridge's id: its transcripts' names
	// changed is signalled by the bridge's Changed after each command it
	// gave and each status write (at least once a second while it runs):
	// waitFor and waitStatus look again then, not at a poll's tick.
	changed chan struct{}
}

// newRig makes a match "Kasparov" against the computer "Deep Blue" with
// control tc, the computer White when computerWhite, and starts game 1
// (from fen when given).
func newRig(t testing.TB, tc string, computerWhite bool, fen string) *rig {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	app, err := service.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.DB().Close() })
	white := "Garry Kasparov"
	r := &rig{t: t, ctx: ctx, path: path, app: app, human: match.RoleWhite, engine: match.RoleBlack, changed: make(chan struct{}, 1)}
	if computerWhite {
		white, r.human, r.engine = "Deep Blue", match.RoleBlack, match.RoleWhite
	}
	r.do(match.RoleArbiter, match.MatchNew{Title: "ACM Chess Challenge", Players: [2]string{"Garry Kasparov", "Deep Blue"},
		Computer: "Deep Blue", Operators: []string{"Feng-hsiung Hsu"}, Control: tc, White: white})
	r.do(match.RoleArbiter, match.GameStart{StartPosition: match.StartPosition{FEN: fen}})
	return r
}

func (r *rig) do(role match.Role, cmd match.Command) match.Result {
	r.t.Helper()
	res, err := r.try(role, cmd)
	if err != nil {
		r.t.Fatalf("%s %s: %v", role, cmd.Kind(), err)
	}
	return res
}

func (r *rig) try(role match.Role, cmd match.Command) (match.Result, error) {
	return r.app.Do(r.ctx, match.Cmd{Now: func() time.Time { return time.Now().UTC() }, Actor: match.Actor{Role: role}}, cmd)
}

// run starts the bridge with opts (Cmd set by the test).
func (r *rig) run(opts Options) {
	r.t.Helper()
	rec, err := Open(r.ctx, r.path, match.Actor{Role: match.RoleOperator}, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(r.ctx)
	r.stop, r.done = cancel, make(chan error, 1)
	if opts.ID == "" {
		opts.ID = NewBridgeID()
	}
	r.id = opts.ID
	opts = r.told(opts)
	opts.Logf = func(f string, a ...any) {
		r.logMu.Lock()
		r.log = append(r.log, time.Now().Format("15:04:05.000 ")+sprintf(f, a...))
		r.logMu.Unlock()
	}
	go func() {
		err := Run(ctx, rec, opts)
		rec.Close()
		r.done <- err
	}()
	r.t.Cleanup(func() {
		r.halt()
		if r.t.Failed() {
			r.logMu.Lock()
			r.t.Logf("bridge log:\n%s", strings.Join(r.log, "\n"))
			r.logMu.Unlock()
		}
	})
}

// told is opts whose Changed (the test's own, if any, first) also signals
// the rig's waits that the bridge gave a command or wrote its status.
func (r *rig) told(opts Options) Options {
	also := opts.Changed
	opts.Changed = func(recorded bool) {
		if also != nil {
			also(recorded)
		}
		select {
		case r.changed <- struct{}{}:
		default: // a signal is pending: the waiter looks again anyway
		}
	}
	return opts
}

// halt stops the bridge and waits until it has.
func (r *rig) halt() {
	if r.stop == nil {
		return
	}
	r.stop()
	r.stop = nil
	if err := <-r.done; err != nil {
		r.t.Errorf("the bridge ended with %v", err)
	}
}

// state is the record as the arbiter's handle reads it now.
func (r *rig) state() *match.State {
	r.t.Helper()
	if err := r.app.Refresh(r.ctx); err != nil {
		r.t.Fatal(err)
	}
	return r.app.State()
}

// waitFor waits until cond holds of the record, at most within: it looks
// again each time the bridge tells of a change (Options.Changed).
func (r *rig) waitFor(what string, within time.Duration, cond func(st *match.State, g *match.Game) bool) {
	r.t.Helper()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		st := r.state()
		if cond(st, st.CurrentGame()) {
			return
		}
		if !r.waitChange(deadline) {
			r.t.Fatalf("waited %s for %s", within, what)
		}
	}
}

// waitChange waits until the bridge tells of a change (true) or the
// deadline passes (false).
func (r *rig) waitChange(deadline *time.Timer) bool {
	select {
	case <-r.changed:
		return true
	case <-deadline.C:
		return false
	}
}

// transcriptLines are game n's transcript's lines.
type tline struct {
	at   time.Time
	dir  string
	text string
}

func (r *rig) transcript(n int) []tline {
	r.t.Helper()
	f, err := os.Open(filepath.Join(Dir(r.path), TranscriptName(n, r.id)))
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	var out []tline
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 3)
		if len(parts) != 3 || (parts[1] != ">" && parts[1] != "<") {
			r.t.Fatalf("transcript line %d is not INSTANT<TAB>DIR<TAB>LINE: %q", len(out)+1, sc.Text())
		}
		at, err := time.Parse(InstantLayout, parts[0])
		if err != nil {
			r.t.Fatalf("transcript line %d: %v", len(out)+1, err)
		}
		out = append(out, tline{at: at, dir: parts[1], text: parts[2]})
	}
	return out
}

// checkGoLines checks every go line of game n's transcript against the
// record read at its instant, as 'status --at' reads it: both times to the
// millisecond (the computer's less overhead) and movestogo; it returns the
// go lines' movestogo by the computer's move number (0: none sent).
func (r *rig) checkGoLines(n int, overhead time.Duration) map[int]int {
	r.t.Helper()
	got := map[int]int{}
	for i, l := range r.transcript(n) {
		if l.dir != ">" || !strings.HasPrefix(l.text, "go ") {
			continue
		}
		st, err := match.StateAt(r.ctx, r.app.DB(), l.at)
		if err != nil {
			r.t.Fatal(err)
		}
		s := st.StatusAt(l.at)
		f := strings.Fields(l.text)
		val := map[string]int64{}
		for k := 1; k+1 < len(f); k++ {
			if v, err := strconv.ParseInt(f[k+1], 10, 64); err == nil {
				val[f[k]] = v
			}
		}
		computerWhite := s.Game.White == "Deep Blue"
		want := map[string]int64{"wtime": s.Game.Clock.White.RemainingMS, "btime": s.Game.Clock.Black.RemainingMS}
		own, mtc, moves := "btime", s.Game.Clock.Black.MovesToControl, s.Game.Clock.Black.Moves
		if computerWhite {
			own, mtc, moves = "wtime", s.Game.Clock.White.MovesToControl, s.Game.Clock.White.Moves
		}
		want[own] = max(0, want[own]-overhead.Milliseconds())
		for _, k := range []string{"wtime", "btime"} {
			if val[k] != want[k] {
				r.t.Errorf("transcript line %d %q at %s: %s %d, but status --at reads %d", i+1, l.text, l.at.Format(InstantLayout), k, val[k], want[k])
			}
		}
		wantMTG := int64(0)
		if mtc != nil {
			wantMTG = int64(*mtc)
		}
		if val["movestogo"] != wantMTG {
			r.t.Errorf("transcript line %d %q: movestogo %d, but the computer has %d moves to the control", i+1, l.text, val["movestogo"], wantMTG)
		}
		if f[1] != "ponder" {
			got[moves+1] = int(val["movestogo"])
		}
	}
	return got
}

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

func TestTheComputersMovesAreRelayedRecordedAndPlayed(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd(), Play: true, Restarts: DefaultRestarts})
	humanMoves := []string{"e5", "Nc6", "Nf6"}
	for i, mv := range humanMoves {
		ply := 2*i + 1
		r.waitFor("the engine's move on ply "+strconv.Itoa(ply), 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() >= ply })
		if _, err := r.try(r.human, match.Move{Input: mv}); err != nil {
			t.Fatalf("the human's %s: %v", mv, err)
		}
	}
	r.waitFor("the engine's fourth move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() >= 7 })
	r.halt()
	mtg := r.checkGoLines(1, 0)
	if len(mtg) < 4 {
		t.Errorf("go lines for %d moves, want 4", len(mtg))
	}
	for n := 1; n <= 4; n++ {
		if mtg[n] != 41-n {
			t.Errorf("move %d: movestogo %d, want %d", n, mtg[n], 41-n)
		}
	}
}

func TestWhenAGameEndsTheStatusTellsOfTheNextGameAloneAndItsEngineWaitsReady(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	r.run(Options{Cmd: fakeCmd(), Play: true, Restarts: DefaultRestarts})
	r.waitFor("the engine's first move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() >= 1 })
	r.waitStatus("the clocks it sent for game 1", 10*time.Second, func(s Status) bool { return s.Game == 1 && s.Sent != nil })
	r.do(match.RoleArbiter, match.Resign{Side: clock.Black}) // Kasparov resigns
	s := r.waitStatus("game 2's engine ready", 10*time.Second, func(s Status) bool { return s.Game == 2 && s.State == StateIdle })
	if s.Sent != nil || s.Ply != 0 || s.BestMove != "" || s.Eval != "" || s.Depth != 0 {
		t.Fatalf("the status of game 2 still tells of game 1: %+v", s)
	}
	r.halt()
}

// TestTheBridgeTellsItsCommandsApartFromItsStatusWrites: Options.Changed
// says recorded after each command the bridge gave, and only then, so that
// a follower (the console) reads the record after a command and not after
// each of the status writes (up to five a second).
func TestTheBridgeTellsItsCommandsApartFromItsStatusWrites(t *testing.T) {
	r := newRig(t, "40/120:20/60:60", true, "")
	watch, err := service.OpenReadOnly(r.ctx, r.path)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.DB().Close()
	type notice struct {
		recorded bool
		bridge   int // the bridge's (the operator's) events in the record then
	}
	var mu sync.Mutex
	var notices []notice
	changed := func(recorded bool) {
		evs, err := watch.DB().EventsAfter(r.ctx, 0)
		if err != nil {
			t.Error(err)
			return
		}
		n := 0
		for _, e := range evs {
			if e.Role == string(match.RoleOperator) {
				n++
			}
		}
		mu.Lock()
		notices = append(notices, notice{recorded, n})
		mu.Unlock()
	}
	r.run(Options{Cmd: fakeCmd(), Play: true, Restarts: DefaultRestarts, Changed: changed})
	r.waitFor("the engine's first move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() >= 1 })
	r.do(r.human, match.Move{Input: "e5"})
	r.waitFor("the engine's second move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() >= 3 })
	r.halt()
	mu.Lock()
	defer mu.Unlock()
	seen, commands, writes := 0, 0, 0
	for i, n := range notices {
		switch {
		case n.recorded && n.bridge <= seen:
			t.Errorf("notice %d says the bridge gave a command, but the record holds no new event of its (%d before, %d now)", i+1, seen, n.bridge)
		case !n.recorded && n.bridge != seen:
			t.Errorf("notice %d is a status write, but the record holds %d new events of the bridge's that no notice told of", i+1, n.bridge-seen)
		}
		if n.recorded {
			commands++
		} else {
			writes++
		}
		seen = n.bridge
	}
	if commands < 2 || writes == 0 {
		t.Fatalf("%d notices of commands (want the two engine moves played at least), %d of status writes", commands, writes)
	}
}

// UCI_Opponent (the UCI protocol: "[GM|IM|FM|WGM|WIM|none] [<elo>|none]
// [computer|human] <name>") is set naming the human only when the engine
// declares the option, as cutechess and lichess-bot do (Debian's Stockfish
// 15.1 does not declare it, and an undeclared option is an error to some
// engines); an operator's own --option UCI_Opponent=… (with the title and
// rating the bridge does not know) is sent as given and not overridden.
func TestUCIOpponentNamesTheHumanOnlyWhenTheEngineDeclaresItAndTheOperatorGaveNone(t *testing.T) {
	const ours = "setoption name UCI_Opponent value none none human Garry Kasparov"
	const his = "setoption name UCI_Opponent value GM 2785 human Garry Kasparov"
	tests := []struct {
		name      string
		cmd       string
		options   []string
		want, not []string
	}{
		{"an engine that declares it is told the human's name", fakeCmd(), nil, []string{ours}, []string{his}},
		{"an engine that does not declare it is not told", fakeCmd("-no-opponent"), nil, nil, []string{"UCI_Opponent"}},
		{"the operator's own value is sent and not overridden", fakeCmd(), []string{"UCI_Opponent=GM 2785 human Garry Kasparov"}, []string{his}, []string{ours}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, "40/120:20/60:60", true, "")
			r.run(Options{Cmd: tt.cmd, Options: tt.options, Play: true, Restarts: DefaultRestarts})
			r.waitFor("the engine's first move", 10*time.Second, func(_ *match.State, g *match.Game) bool { return g.Sheet.Ply() >= 1 })
			r.halt()
			var sent []string
			ready := -1
			for _, l := range r.transcript(1) {
				if l.dir == ">" {
					sent = append(sent, l.text)
					if l.text == "isready" && ready < 0 {
						ready = len(sent) - 1
					}
				}
			}
			for _, w := range tt.want {
				if i := slices.Index(sent, w); i < 0 || i > ready {
					t.Errorf("%q not sent before the first isready (at %d, isready at %d): %q", w, i, ready, sent)
				}
			}
			for _, n := range tt.not {
				for _, l := range sent {
					if strings.Contains(l, n) {
						t.Errorf("sent %q", l)
					}
				}
			}
		})
	}
}
