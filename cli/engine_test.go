package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arbiter/engine"
	"arbiter/engine/fake"
	"arbiter/match"
	"arbiter/scoresheet"
	"arbiter/service"
	"arbiter/store"
)

// The computer's equipment at the command line (docs/engine.md): 'engine
// run' as a child process (this test binary as arbiter), the engine a real
// process too — Debian's stockfish, or the fake engine (this test binary
// again) where a fault must come on cue.

// stockfish is Debian's engine; make test installs it (scripts/deps.sh --test).
const stockfish = "/usr/games/stockfish"

func needStockfish(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(stockfish); err != nil {
		t.Fatalf("%s is not installed: run scripts/deps.sh --test (Debian's stockfish package)", stockfish)
	}
}

// fakeEngine is the --cmd of the fake engine with args.
func fakeEngine(args ...string) string {
	return strings.Join(append([]string{"'" + os.Args[0] + "'", fake.Arg}, args...), " ")
}

// arbNow is arb on this machine's clock (the bridge records at now).
func arbNow(t *testing.T, db string, args ...string) (string, string, int) {
	t.Helper()
	return arbAt(time.Now, db, args...)
}

func mustNow(t *testing.T, db string, args ...string) string {
	t.Helper()
	out, errs, code := arbNow(t, db, args...)
	if code != 0 {
		t.Fatalf("arbiter %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

// transcriptPath is game's transcript beside the record db, as the last
// bridge that wrote one named it (game-N.BRIDGE.log, the bridge's id in
// its engine.start); "" none.
func transcriptPath(db string, game int) string {
	paths, _ := filepath.Glob(filepath.Join(engine.Dir(db), fmt.Sprintf("game-%d.*.log", game)))
	latest, at := "", time.Time{}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && !fi.ModTime().Before(at) {
			latest, at = p, fi.ModTime()
		}
	}
	return latest
}

// bridgeProc is 'arbiter engine run' running as a child process.
type bridgeProc struct {
	cmd    *exec.Cmd
	stderr syncBuffer
	done   chan error
}

// startBridge runs 'arbiter --db db engine run ARGS' and waits until its
// status file says it runs.
func startBridge(t *testing.T, db string, args ...string) *bridgeProc {
	t.Helper()
	b := &bridgeProc{done: make(chan error, 1)}
	b.cmd = exec.Command(os.Args[0], append([]string{"--db", db, "engine", "run"}, args...)...)
	b.cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	b.cmd.Stderr = &b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { b.done <- b.cmd.Wait() }()
	t.Cleanup(func() {
		b.cmd.Process.Kill()
		<-b.done
		if t.Failed() {
			t.Logf("engine run's standard error:\n%s", b.stderr.String())
			tr, _ := os.ReadFile(transcriptPath(db, 1))
			t.Logf("game 1's transcript:\n%s", tr)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		if s, ok, _ := engine.ReadStatus(db, time.Now()); ok && s.BridgePID == b.cmd.Process.Pid && s.State != engine.StateStopped {
			return b
		}
		select {
		case err := <-b.done:
			t.Fatalf("engine run ended at once (%v): %s", err, b.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("engine run did not start: %s", b.stderr.String())
		}
		time.Sleep(10 * time.Millisecond) // the child process writes its status
	}
}

// stop ends the bridge with SIGTERM, as a shell's kill does, and checks
// that it stopped cleanly (exit 0, its status stopped, the engine quit).
func (b *bridgeProc) stop(t *testing.T, db string) {
	t.Helper()
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-b.done:
		b.done <- err
		if err != nil {
			t.Fatalf("engine run ended with %v after SIGTERM: %s", err, b.stderr.String())
		}
	case <-time.After(15 * time.Second):
		b.cmd.Process.Signal(syscall.SIGQUIT) // its goroutines, on its standard error
		<-b.done
		t.Fatalf("engine run did not stop within 15 s of SIGTERM: %s", b.stderr.String())
	}
	if s, _, _ := engine.ReadStatus(db, time.Now()); s.State != engine.StateStopped || s.PID != 0 {
		t.Fatalf("after SIGTERM the status says %s, engine process %d", s.State, s.PID)
	}
	// it says so as its last line (before, it ended without a word)
	if errs := strings.TrimRight(b.stderr.String(), "\n"); !strings.HasSuffix(errs, "arbiter: engine: stopped; the bridge's stop is recorded (engine.stop)") {
		t.Fatalf("engine run's last line after SIGTERM is not that it stopped: %s", errs)
	}
}

// statusNow is status --json read from db at instant at (or now).
type statusJSON struct {
	Game *struct {
		Number int    `json:"number"`
		White  string `json:"white"`
		State  string `json:"state"`
		Ply    int    `json:"ply"`
		FEN    string `json:"fen"`
		ToMove string `json:"to_move"`
		Clock  struct {
			White, Black struct {
				RemainingMS    int64 `json:"remaining_ms"`
				Moves          int   `json:"moves"`
				MovesToControl *int  `json:"moves_to_control"`
			}
		} `json:"clock"`
	} `json:"game"`
	Seq int64 `json:"seq"`
}

func readStatus(t *testing.T, db string, args ...string) statusJSON {
	t.Helper()
	var st statusJSON
	if err := json.Unmarshal([]byte(mustNow(t, db, append(args, "status", "--json")...)), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// waitPly waits until db's game stands at ply at least ply.
func waitPly(t *testing.T, db string, ply int, within time.Duration) statusJSON {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		st := readStatus(t, db)
		if st.Game != nil && (st.Game.Ply >= ply || st.Game.State == "finished") {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for ply %d; the game is at %+v", within, ply, st.Game)
		}
		time.Sleep(10 * time.Millisecond) // the bridge (another process) commits
	}
}

// humanReply is the test's move for the human: the first legal move in UCI
// order that does not end the game, or "" when the game is over.
func humanReply(fen string) string {
	pos, err := scoresheet.ParseFEN(fen)
	if err != nil {
		return ""
	}
	var ms []string
	for _, m := range pos.ValidMoves() {
		if len(pos.Update(m).ValidMoves()) > 0 {
			ms = append(ms, m.String())
		}
	}
	if len(ms) == 0 {
		return ""
	}
	sort.Strings(ms)
	return ms[0]
}

// goLine is a go line of a transcript: its line number, instant and values.
type goLineOf struct {
	n      int
	at     string
	text   string
	values map[string]int64
}

func goLines(t *testing.T, db string, game int) []goLineOf {
	t.Helper()
	f, err := os.Open(transcriptPath(db, game))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goLineOf
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		p := strings.SplitN(sc.Text(), "\t", 3)
		if len(p) != 3 {
			t.Fatalf("transcript line %d is not INSTANT<TAB>DIR<TAB>LINE: %q", n, sc.Text())
		}
		if p[1] != ">" || !strings.HasPrefix(p[2], "go ") {
			continue
		}
		g := goLineOf{n: n, at: p[0], text: p[2], values: map[string]int64{}}
		fs := strings.Fields(p[2])
		for i := 1; i+1 < len(fs); i++ {
			if v, err := strconv.ParseInt(fs[i+1], 10, 64); err == nil {
				g.values[fs[i]] = v
			}
		}
		out = append(out, g)
	}
	return out
}

// checkGoAgainstStatus checks every go line of game's transcript against
// 'status --at INSTANT --json' run on db: both times to the millisecond and
// movestogo (the computer White); it returns movestogo by the computer's
// move number (0: none sent).
func checkGoAgainstStatus(t *testing.T, db string, game int) map[int]int {
	t.Helper()
	got := map[int]int{}
	for _, g := range goLines(t, db, game) {
		st := readStatus(t, db, "--at", g.at)
		c := st.Game.Clock
		if g.values["wtime"] != c.White.RemainingMS || g.values["btime"] != c.Black.RemainingMS {
			t.Errorf("transcript line %d %q at %s: status --at reads wtime %d btime %d", g.n, g.text, g.at, c.White.RemainingMS, c.Black.RemainingMS)
		}
		want := int64(0)
		if c.White.MovesToControl != nil {
			want = int64(*c.White.MovesToControl)
		}
		if g.values["movestogo"] != want {
			t.Errorf("transcript line %d %q: movestogo %d, status --at says %d moves to the control", g.n, g.text, g.values["movestogo"], want)
		}
		if !strings.HasPrefix(g.text, "go ponder") {
			got[c.White.Moves+1] = int(g.values["movestogo"])
		}
	}
	return got
}

// fen38 is a middlegame with White (the computer) to move at move 38.
const fen38 = "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 38"

// engineMatch makes a match on one machine with the computer White and
// starts game 1 from fen with both clocks as given.
func engineMatch(t *testing.T, fen, clocks string) string {
	t.Helper()
	return engineMatchWith(t, []string{"--tc", "40/120:20/60:60"}, fen, clocks)
}

// engineMatchWith is engineMatch with the time control of tc (match new's
// --tc flags).
func engineMatchWith(t *testing.T, tc []string, fen, clocks string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "m.db")
	mustNow(t, db, append(strings.Fields("match new --title ACM --player Kasparov --player DeepBlue --computer DeepBlue --operator Hsu --white DeepBlue"), tc...)...)
	args := []string{"game", "start"}
	if fen != "" {
		args = append(args, "--fen", fen)
	}
	if clocks != "" {
		args = append(args, "--white", clocks, "--black", clocks)
	}
	mustNow(t, db, args...)
	return db
}

// playAgainst answers the bridge's moves with the human's (the test's
// choice) until the computer has made moves moves from ply from.
func playAgainst(t *testing.T, db string, moves, from int, within time.Duration) statusJSON {
	t.Helper()
	var st statusJSON
	for i := 1; i <= moves; i++ {
		st = waitPly(t, db, from+2*i-1, within)
		if st.Game.State == "finished" || i == moves {
			break
		}
		mv := humanReply(st.Game.FEN)
		if mv == "" {
			break
		}
		mustNow(t, db, "--as", "black", "move", mv)
	}
	return st
}

func TestEngineRunPlaysStockfishFromMove38WithTheClocksOfTheRecord(t *testing.T) {
	needStockfish(t)
	db := engineMatch(t, fen38, "0:00:04")
	b := startBridge(t, db, "--cmd", stockfish, "--option", "Threads=1", "--option", "Hash=16", "--play")
	playAgainst(t, db, 4, 0, 60*time.Second)
	b.stop(t, db)
	mtg := checkGoAgainstStatus(t, db, 1)
	for n, want := range map[int]int{38: 3, 39: 2, 40: 1, 41: 20} {
		if mtg[n] != want {
			t.Errorf("move %d: movestogo %d, want %d (all: %v)", n, mtg[n], want, mtg)
		}
	}
	out, errs, code := arbNow(t, db, "verify")
	if code != 0 || !strings.Contains(errs, transcriptPath(db, 1)+" holds what its engine.move events attest") {
		t.Fatalf("verify: exit %d: %s%s", code, out, errs)
	}
	if s := mustNow(t, db, "engine", "status", "--json"); !strings.Contains(s, `"engine": "Stockfish 15.1"`) || !strings.Contains(s, `"state": "stopped"`) {
		t.Fatalf("engine status after the bridge stopped: %s", s)
	}
}

// TestEngineFullGameAgainstStockfish plays a whole game from move 38 to its
// end, with pondering: in make test with Deep Blue on 20 s + 1 s a move
// (Kasparov on 15 minutes, so that his moves, each a process of the
// command line, never flag under load), seconds; in make engine-test
// (ARBITER_ENGINE_FULL=1) with the match's 40/120:20/60:60 and the clocks
// of a fresh game, minutes.
func TestEngineFullGameAgainstStockfish(t *testing.T) {
	needStockfish(t)
	db := engineMatchWith(t, []string{"--tc", "20+1", "--tc", "Kasparov=900"}, fen38, "")
	within := 60 * time.Second
	if os.Getenv("ARBITER_ENGINE_FULL") != "" {
		db, within = engineMatch(t, fen38, ""), 10*time.Minute
	}
	b := startBridge(t, db, "--cmd", stockfish, "--option", "Threads=1", "--option", "Hash=16", "--play", "--ponder")
	st := playAgainst(t, db, 200, 0, within)
	b.stop(t, db)
	if st.Game.State != "finished" {
		t.Fatalf("the game did not end: %+v", st.Game)
	}
	mtg := checkGoAgainstStatus(t, db, 1)
	t.Logf("%d computer moves, the game %s after ply %d; movestogo %v", len(mtg), st.Game.State, st.Game.Ply, mtg)
	if _, errs, code := arbNow(t, db, "verify"); code != 0 {
		t.Fatalf("verify: exit %d: %s", code, errs)
	}
}

func TestVerifyNamesTheFirstLineOfATranscriptThatDiffers(t *testing.T) {
	db := engineMatch(t, "", "")
	b := startBridge(t, db, "--cmd", fakeEngine(), "--play")
	playAgainst(t, db, 3, 0, 30*time.Second)
	b.stop(t, db)
	path := transcriptPath(db, 1)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(orig), "\n")
	// the second go line's times, changed by one millisecond
	second := 0
	for i, l := range lines {
		if strings.Contains(l, "\t>\tgo ") {
			if second++; second == 2 {
				lines[i] = strings.Replace(l, "wtime 1", "wtime 2", 1)
				second = i + 1
				break
			}
		}
	}
	for _, tc := range []struct {
		name    string
		content string
		want    string
	}{
		{"a line changed", strings.Join(lines, ""), fmt.Sprintf("line %d of the transcript %s differs from what engine.move event", second, path)},
		{"a file cut short", strings.Join(lines[:10], ""), "has 10 lines, but engine.move event"},
	} {
		t.Run(tc.name+" is named", func(t *testing.T) {
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errs, code := arbNow(t, db, "verify")
			if code != 1 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "The record verifies (its head is") {
				t.Fatalf("verify: exit %d: %s; want it to say %q", code, errs, tc.want)
			}
		})
	}
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	mustNow(t, db, "verify")
}

func TestEngineRunRefusesWhatItCannotRun(t *testing.T) {
	db := engineMatch(t, "", "")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "needs the engine's program: give --cmd"},
		{"a program that is not there", []string{"--cmd", "/nonexistent/engine"}, "The engine /nonexistent/engine is not there"},
		{"an option without a value", []string{"--cmd", fakeEngine(), "--option", "Hash"}, `--option "Hash" is not NAME=VALUE`},
		{"a role other than the operator", []string{"--as", "white", "--cmd", fakeEngine()}, "Engine run acts as the operator"},
		{"a hang of nothing", []string{"--cmd", fakeEngine(), "--hang", "0s"}, "--hang must be more than 0"},
		{"negative restarts", []string{"--cmd", fakeEngine(), "--restarts", "-1"}, "--restarts must be 0 or more"},
		{"a resign threshold that is no number", []string{"--cmd", fakeEngine(), "--resign-below", "lost"}, `--resign-below "lost" is not an evaluation in pawns`},
		{"a count of moves for resigning without the threshold", []string{"--cmd", fakeEngine(), "--resign-moves", "3"}, "--resign-moves goes with --resign-below"},
		{"no moves for resigning", []string{"--cmd", fakeEngine(), "--resign-below", "-5", "--resign-moves", "0"}, "--resign-moves must be 1 or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := arbNow(t, db, append([]string{"engine", "run"}, tc.args...)...)
			if code != 1 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d: %s; want %q", code, errs, tc.want)
			}
		})
	}
	t.Run("a second bridge for the record", func(t *testing.T) {
		b := startBridge(t, db, "--cmd", fakeEngine())
		_, errs, code := arbNow(t, db, "engine", "run", "--cmd", fakeEngine())
		if code != 1 || !strings.Contains(errs, fmt.Sprintf("An engine bridge already runs for %s (process %d)", db, b.cmd.Process.Pid)) {
			t.Fatalf("exit %d: %s", code, errs)
		}
		b.stop(t, db)
	})
}

// TestEngineRunStopsOnAnOptionStockfishDoesNotTake: Debian's Stockfish
// answers "No such option: Thread" and plays on its defaults, ignores
// "Hash=99999999" without a word, and ends at each start on "Threads=abc"
// (a technical fault up to the last restart): the bridge reads the options
// Stockfish declares after uci and stops before sending any, in one
// sentence saying what Stockfish takes; its start and stop are recorded,
// no technical fault.
func TestEngineRunStopsOnAnOptionStockfishDoesNotTake(t *testing.T) {
	needStockfish(t)
	db := engineMatch(t, "", "")
	for _, tc := range []struct {
		name, option, want string
	}{
		{"an option it does not have", "Thread=1", `The engine Stockfish 15.1 has no option "Thread" (its options: `},
		{"a number out of its bounds", "Hash=99999999", `The engine Stockfish 15.1 takes the option Hash as a whole number from 1 to 33554432, not "99999999"`},
		{"a number that is none", "Threads=abc", `The engine Stockfish 15.1 takes the option Threads as a whole number from 1 to 1024, not "abc"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := arbNow(t, db, "engine", "run", "--cmd", stockfish, "--option", tc.option, "--play")
			if code != 1 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d: %s; want %q", code, errs, tc.want)
			}
		})
	}
	if out := mustNow(t, db, "status", "--json"); !strings.Contains(out, `"ply": 0`) {
		t.Fatalf("the computer's move was made: %s", out)
	}
	if f := incidentTexts(t, db, match.IncidentTechnicalFault); len(f) > 0 {
		t.Fatalf("an operator's option recorded as a technical fault: %q", f)
	}
	if starts, stops := len(eventsOf(t, db, match.KindEngineStart)), len(eventsOf(t, db, match.KindEngineStop)); starts != 3 || stops != 3 {
		t.Fatalf("%d engine.start and %d engine.stop events, want each bridge's start and stop (3)", starts, stops)
	}
}

func TestTheOperatorsOtherMoveIsRefusedNamingBothAtTheCommandLine(t *testing.T) {
	db := engineMatch(t, "", "")
	if out := mustNow(t, db, "engine", "status"); !strings.HasPrefix(out, "No engine bridge has run for "+db) {
		t.Fatalf("engine status before any bridge: %q", out)
	}
	b := startBridge(t, db, "--cmd", fakeEngine())
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(mustNow(t, db, "engine", "status", "--json"), `"bestmove": "a2a3"`) {
		if time.Now().After(deadline) {
			t.Fatal("the engine's move did not come")
		}
		time.Sleep(10 * time.Millisecond) // the bridge's process records it
	}
	if out := mustNow(t, db, "engine", "status"); !strings.Contains(out, "\n  DeepBlue plays 1.a3 — make it on the board, then press\n") {
		t.Fatalf("engine status does not say the engine's move as the record holds it:\n%s", out)
	}
	_, errs, code := arbNow(t, db, "--as", "operator", "move", "e4")
	want := "1.e4 is not the engine's move: DeepBlue plays 1.a3 (an operator's error, rule 10): enter that move, or give --not-engine --reason TEXT to record this one"
	if code != 1 || !strings.Contains(errs, want) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustNow(t, db, "--as", "operator", "move", "e4", "--not-engine", "--reason", "the operator played the book move")
	b.stop(t, db)
	if out := mustNow(t, db, "engine", "status"); !strings.HasPrefix(out, "Engine Fake Engine: stopped, game 1, ply 1\n  last move a2a3, evaluation cp 17, depth 3\n") {
		t.Fatalf("engine status after the bridge stopped:\n%s", out)
	}
	app, err := service.OpenReadOnly(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer app.DB().Close()
	g := app.State().CurrentGame()
	last := g.Incidents[len(g.Incidents)-1]
	if last.Kind != match.IncidentNotEngine || !strings.Contains(last.Text, "DeepBlue's move 1.e4 entered, not the engine's move 1.a3: the operator played the book move") {
		t.Fatalf("incident %+v", last)
	}
}

func TestEngineRunAtTheOperatorsLaptopGivesItsCommandsThroughTheStation(t *testing.T) {
	// a protected match: the arbiter's station, and the operator's laptop
	// with the operator's credential its invitation brought
	first, laptop := protectedStationAndLaptop(t)
	// the engine answers its third go with an illegal move; its restart
	// stops answering at its second (a hang, found by the ping within 5 s
	// and --hang). --hang also bounds each restart's answer to uci, the
	// start of a process of this test binary: at 500 ms three starts in a
	// row at load 18 took longer, and the restarts ran out (5)
	cue := filepath.Join(t.TempDir(), "cue")
	if err := os.WriteFile(cue, []byte("go 3 illegal\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := startBridge(t, laptop, "--cmd", fakeEngine("-cue", cue), "--play", "--hang", "3s", "--restarts", "5")
	human := func(ply int) {
		st := waitPly(t, laptop, ply, 30*time.Second)
		mustArb(t, first, "--pin", signPIN, "--as", "black", "move", humanReply(st.Game.FEN))
	}
	human(1)
	human(3)
	waitIncident(t, laptop, match.IncidentSetup, 30*time.Second) // after the illegal move
	if err := os.WriteFile(cue, []byte("go 2 hang\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	human(5)
	waitIncidents(t, laptop, match.IncidentSetup, 2, 30*time.Second) // after the hang
	// a fault on the human's turn: the engine is killed while he thinks;
	// the fault is recorded through the station at once, the restart
	// waits for his move, then the setup is recorded too
	seq := waitPly(t, laptop, 7, 30*time.Second).Seq
	s := waitEngineStatus(t, laptop, func(s engine.Status) bool { return s.Seq >= seq && s.State == engine.StateIdle && s.PID > 0 })
	if p, err := os.FindProcess(s.PID); err != nil || p.Kill() != nil {
		t.Fatalf("kill the engine %d: %v", s.PID, err)
	}
	waitIncidents(t, laptop, match.IncidentTechnicalFault, 3, 30*time.Second)
	if n := countIncidents(t, laptop, match.IncidentSetup); n != 2 {
		t.Fatalf("%d setups before the human moved, want 2 (the restart waits for his move)", n)
	}
	human(7)
	waitIncidents(t, laptop, match.IncidentSetup, 3, 30*time.Second)
	waitPly(t, laptop, 9, 30*time.Second)
	b.stop(t, laptop)
	faults := strings.Join(incidentTexts(t, laptop, match.IncidentTechnicalFault), "\n")
	for _, want := range []string{"which is not a legal move on ply 5", "did not answer isready within 3s", "was killed"} {
		if !strings.Contains(faults, want) {
			t.Errorf("no technical fault says %q:\n%s", want, faults)
		}
	}

	// the operator at the laptop enters another move than the engine's:
	// refused naming both, then recorded as not the engine's
	b = startBridge(t, laptop, "--cmd", fakeEngine())

	// one engine per match: a bridge at the arbiter's station, whose
	// replica holds the laptop's bridge's start, is refused naming the
	// laptop (before, it started: two engines, and verify there called
	// the laptop's transcript cut short)
	if errs, code := refusedBridge(t, first, "--pin", signPIN, "engine", "run", "--cmd", fakeEngine()); code != 1 ||
		!strings.Contains(errs, "An engine bridge already plays for the computer in this match, at laptop (process ") ||
		!strings.Contains(errs, "--take-over REASON") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("a second bridge at the arbiter's station: exit %d, %q", code, errs)
	}
	if m, _ := filepath.Glob(filepath.Join(engine.Dir(first), "game-*.log")); len(m) != 0 {
		t.Fatalf("the refused bridge wrote transcripts %v", m)
	}
	if out := mustArb(t, first, "engine", "status"); !strings.Contains(out, "the record knows the bridge ") || !strings.Contains(out, " at laptop (process ") {
		t.Fatalf("engine status at the arbiter's station: %s", out)
	}
	human(9)
	deadline := time.Now().Add(30 * time.Second)
	for countEvents(t, laptop, match.KindEngineMove) < 6 {
		if time.Now().After(deadline) {
			t.Fatal("the engine's move for ply 11 did not come")
		}
		time.Sleep(20 * time.Millisecond) // the bridge and the stations are other goroutines and processes
	}
	other := anotherMove(t, readStatus(t, laptop).Game.FEN, engineChoice(t, laptop))
	if _, errs, code := arbNow(t, laptop, "move", other); code != 1 || !strings.Contains(errs, "is not the engine's move: Deep Blue plays 6.") {
		t.Fatalf("another move at the laptop: exit %d, %s", code, errs)
	}
	mustNow(t, laptop, "move", other, "--not-engine", "--reason", "the operator misread the laptop's screen")
	b.stop(t, laptop)
	if n := countIncidents(t, laptop, match.IncidentNotEngine); n != 1 {
		t.Fatalf("%d not-engine incidents, want 1", n)
	}

	// the records agree, every event of the bridge is the operator's,
	// signed by the operator's credential, and the transcript verifies
	if a, b := strings.TrimSpace(mustArb(t, first, "verify")), strings.TrimSpace(mustNow(t, laptop, "verify")); a != b {
		t.Fatalf("heads differ: %s %s", a, b)
	}
	// at the arbiter's station the laptop's transcripts are not here, and
	// said to be the laptop's
	if _, errs, code := arbNow(t, first, "verify"); code != 0 || !strings.Contains(errs, "is not here: the bridge at laptop wrote it") {
		t.Fatalf("verify at the arbiter's station: exit %d, %s", code, errs)
	}
	if n, m := countEvents(t, laptop, match.KindEngineStart), countEvents(t, laptop, match.KindEngineStop); n != 2 || m != 2 {
		t.Fatalf("%d engine.start and %d engine.stop events, want each bridge's start and stop", n, m)
	}
	checkGoAgainstStatus(t, laptop, 1)
	engineMoves := eventsOf(t, laptop, match.KindEngineMove)
	for _, e := range engineMoves {
		if e.Role != "operator" {
			t.Errorf("event %d (engine.move) was given by the %s", e.Seq, e.Role)
		}
	}
	if len(engineMoves) != 6 {
		t.Errorf("%d engine.move events, want 6", len(engineMoves))
	}
	app, err := service.OpenReadOnly(context.Background(), laptop)
	if err != nil {
		t.Fatal(err)
	}
	defer app.DB().Close()
	sigs, err := app.DB().Signatures(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	signers := map[string]int{}
	kinds := map[string]int{} // the operator's requests by their command's kind
	for _, sg := range sigs {
		if sg.Kind != "request" {
			continue
		}
		signers[sg.Signer]++
		var req match.SignedRequest
		if err := json.Unmarshal([]byte(sg.Request), &req); err != nil {
			t.Fatalf("request of event %d: %v", sg.Seq, err)
		}
		if sg.Signer != "operator" {
			continue
		}
		// the bridge's commands travel as their values, never as words
		cmd, err := match.DecodeCanonical(req.Command)
		if req.Version() != match.RequestVersion || req.Words != nil || err != nil {
			t.Fatalf("the operator's request of event %d is not a command's value (version %d, words %q): %v", sg.Seq, req.Version(), req.Words, err)
		}
		kinds[cmd.Kind()]++
	}
	if signers["operator"] < len(engineMoves) {
		t.Errorf("requests signed by %v: the bridge's commands are not all signed by the operator's credential", signers)
	}
	for _, k := range []string{"engine.move", "incident", "move", "engine.start", "engine.stop"} {
		if kinds[k] == 0 {
			t.Errorf("no %s among the operator's requests (%v): the bridge's and the operator's commands travel as values", k, kinds)
		}
	}
}

// refusedBridge runs 'arbiter --db db ARGS' (an engine run that must be
// refused) as a child process: its standard error and exit status; one
// that still runs after 30 s is killed and fails the test.
func refusedBridge(t *testing.T, db string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"--db", db}, args...)...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("engine run was not refused within 30 s: %s", stderr.String())
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	}
	return stderr.String(), code
}

// waitEngineStatus waits until the bridge's status of db satisfies cond.
func waitEngineStatus(t *testing.T, db string, cond func(engine.Status) bool) engine.Status {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if s, _, err := engine.ReadStatus(db, time.Now()); err == nil && cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			s, _, _ := engine.ReadStatus(db, time.Now())
			t.Fatalf("the bridge's status stays %+v", s)
		}
		time.Sleep(20 * time.Millisecond) // the bridge rewrites it in its own process
	}
}

// waitIncident waits until db's game has an incident of kind and returns
// the status then.
func waitIncident(t *testing.T, db, kind string, within time.Duration) statusJSON {
	t.Helper()
	return waitIncidents(t, db, kind, 1, within)
}

// waitIncidents waits until db's game has n incidents of kind.
func waitIncidents(t *testing.T, db, kind string, n int, within time.Duration) statusJSON {
	t.Helper()
	deadline := time.Now().Add(within)
	for countIncidents(t, db, kind) < n {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %d incidents %s", within, n, kind)
		}
		time.Sleep(20 * time.Millisecond) // the bridge and the station are other processes
	}
	return readStatus(t, db)
}

// incidentTexts are the texts of db's current game's incidents of kind.
func incidentTexts(t *testing.T, db, kind string) []string {
	t.Helper()
	app, err := service.OpenReadOnly(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer app.DB().Close()
	var out []string
	if g := app.State().CurrentGame(); g != nil {
		for _, inc := range g.Incidents {
			if inc.Kind == kind {
				out = append(out, inc.Text)
			}
		}
	}
	return out
}

func countIncidents(t *testing.T, db, kind string) int { return len(incidentTexts(t, db, kind)) }

// eventsOf are db's events of kind.
func eventsOf(t *testing.T, db, kind string) []store.Event {
	t.Helper()
	app, err := service.OpenReadOnly(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer app.DB().Close()
	evs, err := app.DB().EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func countEvents(t *testing.T, db, kind string) int { return len(eventsOf(t, db, kind)) }

// engineChoice is the engine's move (UCI) for the position db's game stands in.
func engineChoice(t *testing.T, db string) string {
	t.Helper()
	app, err := service.OpenReadOnly(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer app.DB().Close()
	e := app.State().CurrentGame().EngineFor()
	if e == nil {
		t.Fatal("the record holds no engine's move for the position")
	}
	return e.UCI
}

// anotherMove is a legal move in fen other than not.
func anotherMove(t *testing.T, fen, not string) string {
	t.Helper()
	pos, err := scoresheet.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range pos.ValidMoves() {
		if m.String() != not {
			return m.String()
		}
	}
	t.Fatalf("no move but %s in %s", not, fen)
	return ""
}

// The operator at the command line reads 'engine status' for what to do:
// after a rule 10 correction the engine searches again on a ply it
// answered before, and its last bestmove (for the struck position) must not
// be said while it searches: "last move f8c5" beside "ply 8" reads as the
// answer to the move just relayed, which no engine.move would catch.
func TestEngineStatusSaysTheEnginesMoveFromTheRecordAndNeverAStaleOneWhileItSearches(t *testing.T) {
	rec := EngineRecord{Computer: "Deep Blue", Human: "Garry Kasparov"}
	tests := []struct {
		name      string
		s         engine.Status
		rec       EngineRecord
		want, not []string
	}{
		{"while the engine searches, its last bestmove (another position's) is not said, only the search's evaluation",
			engine.Status{State: engine.StateThinking, Engine: "Stockfish 15.1", BestMove: "f8c5", Eval: "cp -33", Depth: 29, Game: 1, Ply: 8}, rec,
			[]string{"Engine Stockfish 15.1: thinking, game 1, ply 8\n", "  searching: evaluation cp -33, depth 29 so far\n"}, []string{"f8c5"}},
		{"while it ponders, the same",
			engine.Status{State: engine.StatePondering, Engine: "Stockfish 15.1", BestMove: "f8c5", Eval: "cp -30", Depth: 12, Game: 1, Ply: 9}, rec,
			[]string{"  searching: evaluation cp -30, depth 12 so far\n"}, []string{"f8c5"}},
		{"the engine's move the record holds for the position is said as the console says it",
			engine.Status{State: engine.StateIdle, Engine: "Stockfish 15.1", BestMove: "f6e4", Eval: "cp -26", Depth: 33, Game: 1, Ply: 8},
			EngineRecord{Computer: "Deep Blue", Human: "Garry Kasparov", Plays: "4…Nxe4"},
			[]string{"  Deep Blue plays 4…Nxe4 — make it on the board, then press\n", "  last move f6e4, evaluation cp -26, depth 33\n"}, nil},
		{"the human's draw offer is said with the engine's evaluation and how to answer it",
			engine.Status{State: engine.StateThinking, Engine: "Stockfish 15.1", Eval: "cp -18", Depth: 21, Game: 1, Ply: 6},
			EngineRecord{Computer: "Deep Blue", Human: "Garry Kasparov", Offer: true},
			[]string{"  Garry Kasparov offers a draw (the engine's evaluation: cp -18 from Deep Blue's side, depth 21): answer for Deep Blue with 'draw accept' or 'draw decline' (rules 8, 14)\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EngineStatusText(tt.s, tt.rec)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("%q said in:\n%s", n, got)
				}
			}
		})
	}
}

// At the control room's mirror no bridge runs (the mirror gives no
// commands: 'engine run' there is refused), yet 'engine status' told the
// control room to start one there; it says where the equipment runs and
// what the record holds of it: the last engine move, one not yet made, the
// last technical fault.
func TestEngineStatusAtTheMirrorSaysWhereTheEquipmentRunsAndWhatTheRecordHoldsOfIt(t *testing.T) {
	rec := EngineRecord{Computer: "Deep Blue", Human: "Garry Kasparov", Last: "5.exf6", LastEval: "cp 589", LastDepth: 24,
		LastAt: "2026-12-05T14:37:22.247Z", LastGame: 2}
	pending := rec
	pending.Plays = "5.exf6"
	faulted := rec
	faulted.Fault, faulted.FaultAt = "The engine Stockfish 15.1 (process 16225) was killed (signal: killed)", "2026-12-05T14:30:31Z"
	tests := []struct {
		name      string
		mirror    bool
		rec       EngineRecord
		want, not []string
	}{
		{"the mirror is not told to start a bridge it cannot run, and is told the record's last engine move", true, rec,
			[]string{"No engine bridge runs beside m.db, the control room's mirror: the computer's equipment runs at the operator's station; what it recorded reaches this record.\n",
				"  the record's last engine move: game 2, 5.exf6, evaluation cp 589, depth 24, received at 2026-12-05T14:37:22.247Z\n"},
			[]string{"engine run"}},
		{"the mirror is told a move not yet made, not told to make it", true, pending,
			[]string{"  not yet made on the board: Deep Blue plays 5.exf6\n"}, []string{"make it on the board, then press"}},
		{"the record's last technical fault is said", true, faulted,
			[]string{"  the record's last technical fault (2026-12-05T14:30:31Z): The engine Stockfish 15.1 (process 16225) was killed (signal: killed)\n"}, nil},
		{"a station whose record holds engine moves from a bridge elsewhere is not told to start a second", false, rec,
			[]string{"No engine bridge has run for m.db, but the record holds the engine's moves of game 2: a bridge runs at another station (the operator's); run one bridge per match.\n",
				"  the record's last engine move: game 2, 5.exf6"},
			[]string{"engine run"}},
		{"a station whose record knows the bridge at another station names it and the take-over, and starts none", false,
			EngineRecord{Computer: "Deep Blue", Bridge: "0a0a0a0a0a0a", BridgeAt: "laptop", BridgePID: 4170, BridgeSince: "2026-12-05T14:02:11Z"},
			[]string{"No engine bridge runs beside m.db, but the record knows the bridge 0a0a0a0a0a0a at laptop (process 4170, since 2026-12-05T14:02:11Z) plays Deep Blue: one engine per match, so start none here; if it is gone (its station died), take over from it with 'arbiter --db m.db engine run --cmd PROGRAM --take-over REASON' on Deep Blue's turn.\n"},
			[]string{"start one with"}},
		{"the mirror whose record knows the bridge names where it runs", true,
			EngineRecord{Computer: "Deep Blue", Bridge: "0a0a0a0a0a0a", BridgeAt: "laptop", BridgePID: 4170, BridgeSince: "2026-12-05T14:02:11Z"},
			[]string{"No engine bridge runs beside m.db, the control room's mirror: the record knows the bridge 0a0a0a0a0a0a at laptop (process 4170, since 2026-12-05T14:02:11Z) plays Deep Blue; what it records reaches this record.\n"},
			[]string{"engine run"}},
		{"a record whose bridge here ended without stopping is told a new one takes over from it", false,
			EngineRecord{Computer: "Deep Blue", Bridge: "0a0a0a0a0a0a", BridgeAt: "the record's own machine", BridgePID: 4170, BridgeSince: "2026-12-05T14:02:11Z", BridgeHere: true},
			[]string{"No engine bridge runs beside m.db, but the record knows the bridge 0a0a0a0a0a0a here (process 4170, since 2026-12-05T14:02:11Z) plays Deep Blue: it ended without stopping (killed, or its machine went down); 'arbiter --db m.db engine run --cmd PROGRAM' here takes over from it, recorded.\n"},
			[]string{"--take-over"}},
		{"another record is told how to start a bridge, as before", false, EngineRecord{},
			[]string{"No engine bridge has run for m.db: start one with 'arbiter --db m.db engine run --cmd PROGRAM'.\n"}, []string{"the record's"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EngineAbsentText("m.db", tt.mirror, tt.rec)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("%q said in:\n%s", n, got)
				}
			}
		})
	}
}
