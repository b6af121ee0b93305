package cli

import (
	"arbiter/engine/fake"
	"arbiter/internal/kdf"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"arbiter/store"
)

// start is the instant every test's record begins at.
var start = time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)

// arb runs one command line against db and returns stdout, stderr and the
// exit status.
func arb(t *testing.T, db string, args ...string) (string, string, int) {
	t.Helper()
	return arbAt(machineClock(args), db, args...)
}

// arbAt runs the command line against db on a machine whose clock is now.
func arbAt(now func() time.Time, db string, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Now: now}
	code := Run(context.Background(), append([]string{"--db", db}, args...), env)
	return out.String(), errb.String(), code
}

func mustArb(t *testing.T, db string, args ...string) string {
	t.Helper()
	out, errs, code := arb(t, db, args...)
	if code != 0 {
		t.Fatalf("arbiter %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

func at(d time.Duration) string { return start.Add(d).Format(time.RFC3339Nano) }

// machineClock is the clock of the machine a test's command is given at:
// the instant --at gives (the command is given as it happens), else start;
// a script (play) is played once all its lines have happened, a month on.
// Nobody records an instant later than the machine's clock.
func machineClock(args []string) func() time.Time {
	now := start
	for i, a := range args {
		switch {
		case a == "--at" && i+1 < len(args):
			if t, err := time.Parse(time.RFC3339Nano, args[i+1]); err == nil && t.After(now) {
				now = t
			}
		case strings.HasPrefix(a, "--at="):
			if t, err := time.Parse(time.RFC3339Nano, strings.TrimPrefix(a, "--at=")); err == nil && t.After(now) {
				now = t
			}
		}
	}
	for _, a := range args {
		if a == "play" {
			now = now.Add(30 * 24 * time.Hour)
			break
		}
	}
	return func() time.Time { return now }
}

const newMatch = `match new --title "ACM Chess Challenge" --player "Garry Kasparov" --player "Deep Blue" --computer "Deep Blue" --operator "Feng-hsiung Hsu" --arbiter "Mike Valvo" --white "Deep Blue"`

func writeScript(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.txt")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func status(t *testing.T, db string, when time.Duration) map[string]any {
	t.Helper()
	out := mustArb(t, db, "--at", at(when), "status", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("status --json is not JSON: %v\n%s", err, out)
	}
	return m
}

func path(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

func fileHash(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestPlayRunsAScriptLikeSingleCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	script := writeScript(t,
		"# the first moves of 1996 game 1",
		"0:00:00 "+newMatch,
		"0:00:01 game start",
		"0:00:31 --as operator move e4",
		"0:01:31 --as black move c5",
		"",
		"0:02:00 move c3",
	)
	out := mustArb(t, db, "--at", at(0), "play", "-v", script)
	for _, want := range []string{"ok 2", "ok 3", "ok 4", "ok 5", "ok 7"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("play -v output lacks %q:\n%s", want, out)
		}
	}
	st := status(t, db, 3*time.Minute)
	if got := path(st, "game", "ply"); got != 3.0 {
		t.Errorf("ply = %v, want 3", got)
	}
	// Black used 60 s for c5 and runs again since 0:02:00: at 0:03:00 it has used 2:00.
	if got := path(st, "game", "clock", "black", "remaining_ms"); got != float64(7200000-120000) {
		t.Errorf("black remaining_ms = %v, want %d", got, 7200000-120000)
	}
	if got := path(st, "game", "clock", "running"); got != "black" {
		t.Errorf("running = %v, want black", got)
	}
}

func TestPlayStopsAtTheFirstFailingLineAndWritesNothingOfIt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	script := writeScript(t,
		"0:00:00 "+newMatch,
		"0:00:01 game start",
		"0:00:10 move e5",
		"0:00:20 move e4",
	)
	_, errs, code := arb(t, db, "--at", at(0), "play", script)
	if code == 0 {
		t.Fatal("a script with an illegal move succeeded")
	}
	if !strings.Contains(errs, "line 3") {
		t.Errorf("error does not name line 3: %s", errs)
	}
	st := status(t, db, time.Minute)
	if got := path(st, "game", "ply"); got != 0.0 {
		t.Errorf("ply = %v after the failing script, want 0", got)
	}
}

func TestStatusJSONHasTheContractFields(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	st := func() map[string]any {
		mustArb(t, db, append([]string{"--at", at(0)}, strings.Fields("match new --title T --player A --player B --white A")...)...)
		return status(t, db, time.Second)
	}()
	if st["game"] != nil {
		t.Errorf("game before game 1 = %v, want null", st["game"])
	}
	mustArb(t, db, "--at", at(time.Second), "game", "start")
	st = status(t, db, 2*time.Second)
	for _, keys := range [][]string{
		{"match", "title"}, {"match", "games_planned"}, {"match", "score"},
		{"game", "number"}, {"game", "white"}, {"game", "black"}, {"game", "state"}, {"game", "result"},
		{"game", "termination"}, {"game", "fen"}, {"game", "ply"}, {"game", "to_move"},
		{"game", "clock", "white", "remaining_ms"}, {"game", "clock", "white", "period"},
		{"game", "clock", "white", "flag"}, {"game", "clock", "black", "remaining_ms"}, {"game", "clock", "running"},
	} {
		if path(st, keys...) == nil {
			t.Errorf("status --json lacks %s", strings.Join(keys, "."))
		}
	}
	if path(st, "game", "result") != "*" || path(st, "game", "state") != "running" {
		t.Errorf("a running game shows result %v state %v", path(st, "game", "result"), path(st, "game", "state"))
	}
	if v := path(st, "game", "clock", "white", "moves_to_control"); v != 40.0 {
		t.Errorf("moves_to_control = %v, want 40", v)
	}
	if _, ok := st["games"].([]any); !ok {
		t.Errorf("games is not a list: %v", st["games"])
	}
}

func TestStatusAtAnEarlierInstantShowsTheMatchAsItStood(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	script := writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start", "0:00:31 move e4", "0:01:31 move c5")
	mustArb(t, db, "--at", at(0), "play", script)
	st := status(t, db, time.Minute)
	if got := path(st, "game", "ply"); got != 1.0 {
		t.Errorf("ply at 0:01:00 = %v, want 1", got)
	}
}

func TestFlagIsTrueExactlyWhenTheTimeReachesZero(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, append([]string{"--at", at(0)}, strings.Fields("match new --title T --player A --player B --white A --tc 60")...)...)
	mustArb(t, db, "--at", at(0), "game", "start")
	before := status(t, db, 60*time.Second-time.Nanosecond)
	if f := path(before, "game", "clock", "white", "flag"); f != false {
		t.Errorf("flag 1ns before zero = %v, want false", f)
	}
	if ms := path(before, "game", "clock", "white", "remaining_ms"); ms != 0.0 {
		t.Errorf("remaining_ms 1ns before zero = %v, want 0 (rounded down)", ms)
	}
	after := status(t, db, 60*time.Second)
	if f := path(after, "game", "clock", "white", "flag"); f == false || f == nil {
		t.Errorf("flag at zero = %v, want fallen", f)
	}
}

func TestCommandsThatOnlyReadLeaveTheFileUnchanged(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	script := writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start", "0:00:31 move e4")
	mustArb(t, db, "--at", at(0), "play", script)
	before := fileHash(t, db)
	for _, args := range [][]string{{"status"}, {"status", "--json"}, {"verify"}, {"where"}} {
		mustArb(t, db, args...)
	}
	if fileHash(t, db) != before {
		t.Error("a read-only command changed the database file")
	}
}

func TestBadInputGivesAClearErrorAndChangesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	script := writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start", "0:00:31 move e4")
	mustArb(t, db, "--at", at(0), "play", script)
	later := at(time.Minute)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"illegal move", []string{"--at", later, "move", "Qh4"}, "not legal"},
		{"move for the wrong side by a player", []string{"--at", later, "--as", "white", "move", "e5"}, "white"},
		{"operator moving for the human", []string{"--at", later, "--as", "operator", "move", "e5"}, "operator"},
		{"unknown side", []string{"--at", later, "adjust", "green", "+5m", "--reason", "x"}, "side"},
		{"absurd duration", []string{"--at", later, "adjust", "white", "+9999h", "--reason", "x"}, "24 hours"},
		{"negative set", []string{"--at", later, "adjust", "white", "=-1:00:00", "--reason", "x"}, "clock reading"},
		{"malformed time", []string{"--at", "yesterday", "status"}, "RFC 3339"},
		{"time running back", []string{"--at", at(time.Second), "move", "e5"}, "earlier"},
		{"empty reason", []string{"--at", later, "adjust", "white", "+5m", "--reason", ""}, "reason"},
		{"operator adjusting", []string{"--at", later, "--as", "operator", "adjust", "white", "+5m", "--reason", "x"}, "arbiter"},
		{"second match", []string{"--at", later, "match", "new", "--title", "X", "--player", "A", "--player", "B"}, "already"},
		{"unknown command", []string{"--at", later, "castle"}, "not a command"},
		{"invalid UTF-8", []string{"--at", later, "incident", "note", "--text", "bad \xff text"}, "UTF-8"},
		{"huge text", []string{"--at", later, "incident", "note", "--text", strings.Repeat("x", 100000)}, "keep it under"},
		{"result without reason", []string{"--at", later, "result", "1-0"}, "reason"},
		{"bad result", []string{"--at", later, "result", "2-0", "--reason", "x"}, "not a result"},
		{"unknown role", []string{"--as", "spectator", "--at", later, "pause"}, "not a role"},
		{"draw accept without offer", []string{"--at", later, "draw", "accept"}, "no draw offer"},
		{"flag not fallen", []string{"--at", later, "flag", "black"}, "has not fallen"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := fileHash(t, db)
			_, errs, code := arb(t, db, c.args...)
			if code == 0 {
				t.Fatalf("accepted: %v", c.args)
			}
			if !strings.Contains(strings.ToLower(errs), strings.ToLower(c.want)) {
				t.Errorf("error %q does not mention %q", errs, c.want)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") > 0 {
				t.Errorf("error is more than one line: %q", errs)
			}
			if fileHash(t, db) != before {
				t.Error("the database file changed")
			}
		})
	}
}

func TestArbiterPINIsRequiredForArbiterCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--pin", "arbiter passphrase")
	if _, errs, code := arb(t, db, "--at", at(time.Second), "game", "start"); code == 0 || !strings.Contains(errs, "PIN") {
		t.Errorf("game start without the PIN: exit %d, %q", code, errs)
	}
	if _, errs, code := arb(t, db, "--at", at(time.Second), "--pin", "wrong passphrase", "game", "start"); code == 0 || !strings.Contains(strings.ToLower(errs), "wrong") {
		t.Errorf("game start with a wrong PIN: exit %d, %q", code, errs)
	}
	// one wrong try costs a second's wait (the back-off), then the right passphrase works
	mustArb(t, db, "--at", at(2*time.Second), "--pin", "arbiter passphrase", "game", "start")
}

func TestVerifyNamesTheEventAnIntruderEdited(t *testing.T) {
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 shell not installed")
	}
	db := filepath.Join(t.TempDir(), "m.db")
	script := writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start", "0:00:31 move e4", "0:01:00 move c5", "0:01:30 move Nf3")
	mustArb(t, db, "--at", at(0), "play", script)
	head := strings.TrimSpace(mustArb(t, db, "verify"))
	if len(head) != 64 {
		t.Fatalf("verify printed %q, want 64 hex digits", head)
	}
	// the head as the console shows it, in blocks of eight, checks too
	var blocks []string
	for i := 0; i < 64; i += 8 {
		blocks = append(blocks, head[i:i+8])
	}
	mustArb(t, db, "verify", "--head", strings.Join(blocks, " "))
	triggers, err := exec.Command(sqlite3, db, "SELECT name FROM sqlite_master WHERE type='trigger'").Output()
	if err != nil {
		t.Fatal(err)
	}
	sql := ""
	for _, tr := range strings.Fields(string(triggers)) {
		sql += "DROP TRIGGER " + tr + ";"
	}
	sql += `UPDATE events SET payload = replace(payload, '"c5"', '"c6"') WHERE seq = 4;`
	if out, err := exec.Command(sqlite3, db, sql).CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v: %s", err, out)
	}
	_, errs, code := arb(t, db, "verify")
	if code == 0 {
		t.Fatal("verify passed an edited record")
	}
	if !strings.Contains(errs, "4") {
		t.Errorf("verify does not name event 4: %s", errs)
	}
}

// TestMain lets the test binary act as the arbiter command for the kill test,
// and as the engine tests' fake engine.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == fake.Arg {
		os.Exit(fake.Main(os.Args[2:], os.Stdin, os.Stdout))
	}
	kdf.Current = kdf.Fast // credentials cheap to check; production cost: internal/kdf
	if os.Getenv("ARBITER_TEST_MAIN") == "1" {
		os.Exit(Run(context.Background(), os.Args[1:], OSEnv()))
	}
	if db := os.Getenv(consoleChildEnv); db != "" {
		os.Exit(writeLikeAConsole(db))
	}
	os.Exit(m.Run())
}

func TestKilledPlayKeepsEveryLineReportedOK(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	lines := []string{"0:00:00 " + newMatch, "0:00:01 game start"}
	// Knights shuffle back and forth: a long legal game.
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	for i := 0; i < 400; i++ {
		lines = append(lines, fmt.Sprintf("0:%02d:%02d move %s", (2+i)/60%60, (2+i)%60, shuffle[i%4]))
	}
	script := writeScript(t, lines...)
	cmd := exec.Command(os.Args[0], "--db", db, "--at", at(0), "play", "-v", script)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	lastOK := 0
	killed := false
	// Kill the script once line 60 is reported, then read on to the end of the
	// pipe: the script may have reported further lines between the report we
	// read and the signal, and every line it reported counts.
	for sc.Scan() {
		var n int
		if _, err := fmt.Sscanf(sc.Text(), "ok %d", &n); err == nil {
			lastOK = n
		}
		if lastOK >= 60 && !killed {
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
		}
	}
	cmd.Wait()
	if !killed {
		t.Fatalf("the script stopped early: last ok %d", lastOK)
	}
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := s.Verify(context.Background(), "")
	if err != nil || !rep.OK {
		t.Fatalf("after the kill the record does not verify: %v %+v", err, rep)
	}
	// Line N of the script appends exactly one event (line 1 the match, line 2 the start, then one move each).
	if rep.Events < int64(lastOK) || rep.Events > int64(lastOK)+1 {
		t.Errorf("the record holds %d events; lines reported ok: %d (want that many, or one more)", rep.Events, lastOK)
	}
}

func TestEveryCommandIsDocumentedInDocsCLI(t *testing.T) {
	doc, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Commands() {
		if !strings.Contains(string(doc), "`"+c.name) {
			t.Errorf("docs/cli.md does not document %q", c.name)
		}
	}
}

func TestReopeningAfterTheConsoleVanishedLogsARecovery(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start", "0:00:31 move e4"))
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	// The console's last heartbeat, then it was killed: its -wal stays
	// beside the file (a console that quits deletes it; the handle is
	// closed at the test's end)
	if err := s.WriteHeartbeat(context.Background(), store.Heartbeat{Wall: start.Add(40 * time.Second), PID: 12345}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	later := start.Add(40*time.Second + 3*time.Minute + 12*time.Second)
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Now: func() time.Time { return later }}
	// status, which only reads, says it as a warning (for the arbiter to act
	// on, not a refusal) and logs nothing
	if code := Run(context.Background(), []string{"--db", db, "status"}, env); code != 0 || !strings.HasPrefix(errb.String(), "arbiter: warning: The console was gone (crashed or killed) for 3m12s") {
		t.Errorf("status: exit %d, stderr %q; want the recovery as a warning", code, errb.String())
	}
	errb.Reset()
	if code := Run(context.Background(), []string{"--db", db, "incident", "note", "--text", "console restarted"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "arbiter: warning: The console was gone (crashed or killed) for 3m12s while Black's clock was running") {
		t.Errorf("stderr does not warn how long and whose clock: %q", errb.String())
	}
	st := status(t, db, 5*time.Minute)
	if path(st, "game", "clock", "running") != "black" {
		t.Error("the recovery stopped the clock; rule 7 says it keeps running")
	}
	// Logged once only.
	errb.Reset()
	Run(context.Background(), []string{"--db", db, "incident", "note", "--text", "again"}, env)
	if strings.Contains(errb.String(), "while") {
		t.Errorf("the recovery was reported twice: %q", errb.String())
	}
}

// Issue 13, "Why" 4: with the console's last heartbeat 60 s old, a move
// entered with --at 20 s ago (the exact press) is judged at that instant;
// the recovery note goes into the same transaction, stamped at the move's
// --at, before the move.
func TestRecoveryNeverBlocksAnExactInstant(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start", "0:00:31 move e4"))
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.WriteHeartbeat(context.Background(), store.Heartbeat{Wall: start.Add(40 * time.Second), PID: 12345}); err != nil {
		t.Fatal(err)
	}
	defer s.Close() // held: its -wal stays beside the file, as a crashed console leaves it
	now := start.Add(100 * time.Second)
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}
	if code := Run(context.Background(), []string{"--db", db, "--at", at(80 * time.Second), "--as", "black", "move", "e5"}, env); code != 0 {
		t.Fatalf("the exact instant was blocked: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "1m0s while Black's clock was running") {
		t.Errorf("stderr %q does not tell the recovery", errb.String())
	}
	evs, err := s.EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	n := len(evs)
	if n < 2 || evs[n-2].Kind != "recovery" || evs[n-1].Kind != "move" {
		t.Fatalf("the last events are not a recovery and the move: %v", evs[max(0, n-3):])
	}
	for _, e := range evs[n-2:] {
		if !e.At.Equal(start.Add(80 * time.Second)) {
			t.Errorf("%s stamped at %s, want the move's --at %s", e.Kind, e.At.Format(time.RFC3339Nano), at(80*time.Second))
		}
	}
	st := status(t, db, 81*time.Second)
	if path(st, "game", "ply") != float64(2) || path(st, "game", "clock", "black", "remaining_ms") != float64(7200000-49000) {
		t.Errorf("after the move: ply %v, Black %v ms; want 2 and 7151000", path(st, "game", "ply"), path(st, "game", "clock", "black", "remaining_ms"))
	}
}

// Issue 13: a game starts from a position; the PGN carries SetUp and FEN and
// the move numbers of the position; the clocks are as given.
func TestGameStartFromAPosition(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	const fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch,
		`0:00:01 game start --fen "`+fen+`" --white 0:05:00 --black 0:07:30.5`, "0:00:11 move Kd7"))
	st := status(t, db, 11*time.Second)
	for _, c := range []struct {
		side       string
		ms, moves  float64
		toControl  float64
		wantPeriod float64
	}{{"white", 300000, 30, 10, 1}, {"black", 450500 - 10000, 30, 10, 1}} {
		if got := path(st, "game", "clock", c.side, "remaining_ms"); got != c.ms {
			t.Errorf("%s remaining_ms %v, want %v", c.side, got, c.ms)
		}
		if got := path(st, "game", "clock", c.side, "moves"); got != c.moves {
			t.Errorf("%s moves %v, want %v", c.side, got, c.moves)
		}
		if got := path(st, "game", "clock", c.side, "moves_to_control"); got != c.toControl {
			t.Errorf("%s moves_to_control %v, want %v", c.side, got, c.toControl)
		}
	}
	out := mustArb(t, db, "export", "pgn")
	for _, want := range []string{`[SetUp "1"]`, `[FEN "` + fen + `"]`, "30... Kd7 {[%clk 0:07:20] [%emt 0:00:10]}"} {
		if !strings.Contains(out, want) {
			t.Errorf("the PGN lacks %s:\n%s", want, out)
		}
	}
}

// The status text says a draw offer stands, as --json does (draw_offer):
// an appeals board reading the match as it stood with --at sees the offer
// the opponent had not yet answered, and no offer once it was declined.
func TestStatusSaysADrawOfferThatStands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch, "0:00:00 game start",
		"0:00:10 move e4", "0:00:20 move c5", "0:00:30 draw offer white", "0:01:00 draw decline"))
	for _, tc := range []struct {
		name string
		when time.Duration
		want bool
	}{
		{"an offer not yet answered is said with its offerer", 45 * time.Second, true},
		{"a declined offer is not said", 90 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := mustArb(t, db, "--at", at(tc.when), "status")
			if got := strings.Contains(out, "draw offer by white (Deep Blue): not yet answered"); got != tc.want {
				t.Errorf("status says the offer: %v, want %v:\n%s", got, tc.want, out)
			}
			if got := path(status(t, db, tc.when), "game", "draw_offer") != nil; got != tc.want {
				t.Errorf("status --json has draw_offer: %v, want %v", got, tc.want)
			}
		})
	}
}

// Issue 13: the status text shows the instant a flag fell, not when it was read.
func TestStatusShowsTheFlagInstant(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch+" --tc 60", "0:00:00 game start"))
	out := mustArb(t, db, "--at", at(5*time.Minute), "status")
	if !strings.Contains(out, "FLAG FALLEN at 20:01:00.000 UTC") {
		t.Errorf("status does not show when White's flag fell:\n%s", out)
	}
	st := status(t, db, 5*time.Minute)
	if got := path(st, "game", "clock", "white", "remaining_ms"); got != float64(0) {
		t.Errorf("remaining_ms %v after the flag, want 0", got)
	}
	if got := path(st, "game", "clock", "white", "display"); got != "0:00:00.0" {
		t.Errorf("display %v after the flag, want zero, never a negative time", got)
	}
}

// Article 6.2 (a set number of moves in each period): 'status' says the move
// each side is on and the moves still due before the control, as the
// console's clock says them ("period 1 · move 2 · 1 to control"). It said
// "move N" for the moves made, one less than the console at the same
// instant: at the second period of the 1996 match "(period 2, move 40)"
// where the console said "move 41 · 20 to control".
func TestStatusSaysTheMoveEachSideIsOnAndTheMovesDueAsTheConsoleDoes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch+" --tc 2/600:1/300:60", "0:00:01 game start",
		"0:00:10 move e4", "0:00:20 move e5", "0:00:30 move Nf3", "0:00:40 move Nc6", "0:00:50 move Bb5", "0:01:00 move a6"))
	for _, tc := range []struct {
		rule         string
		when         time.Duration
		white, black string
	}{
		{"before the first move both are on move 1 with the period's moves due", 2 * time.Second,
			"(period 1, move 1, 2 to control)", "(period 1, move 1, 2 to control)"},
		{"after White's first move White is on move 2 and Black still on move 1", 15 * time.Second,
			"(period 1, move 2, 1 to control)", "(period 1, move 1, 2 to control)"},
		{"the move that completes the control begins the next period at its next move", 45 * time.Second,
			"(period 2, move 3, 1 to control)", "(period 2, move 3, 1 to control)"},
		{"a period for the rest of the game has no moves due", 65 * time.Second,
			"(period 3, move 4)", "(period 3, move 4)"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			out := mustArb(t, db, "--at", at(tc.when), "status")
			for _, want := range []string{"White Deep Blue: ", "Black Garry Kasparov: "} {
				line := ""
				for _, l := range strings.Split(out, "\n") {
					if strings.Contains(l, want) {
						line = l
					}
				}
				w := tc.white
				if strings.HasPrefix(want, "Black") {
					w = tc.black
				}
				if !strings.HasSuffix(line, w) {
					t.Errorf("the clock's line is %q, want it to end %q:\n%s", line, w, out)
				}
			}
		})
	}
}

// Article 6.8 (a flag is fallen when the arbiter observes it): 'status' says
// the instant a flag fell in the match's zone, as the flag command's verdict
// and the console say it. It said UTC whatever the zone: in Philadelphia
// 'flag white' said "15:01:00.000 EST" and 'status' then "20:01:00.000 UTC".
func TestStatusSaysTheFlagInstantInTheMatchsZoneAsTheFlagCommandDoes(t *testing.T) {
	for _, tc := range []struct {
		rule, tz, want string
	}{
		{"a match in Philadelphia says the instant in Eastern time", "America/New_York", "15:01:00.000 EST"},
		{"a match without a zone says it in UTC", "", "20:01:00.000 UTC"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			nm := newMatch + " --tc 60"
			if tc.tz != "" {
				nm += " --tz " + tc.tz
			}
			mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+nm, "0:00:00 game start"))
			verdict := mustArb(t, db, "--at", at(2*time.Minute), "flag", "white")
			out := mustArb(t, db, "--at", at(3*time.Minute), "status")
			if !strings.Contains(verdict, tc.want) {
				t.Fatalf("the flag command does not say %q:\n%s", tc.want, verdict)
			}
			if !strings.Contains(out, "FLAG FALLEN at "+tc.want) {
				t.Errorf("status does not say the flag fell at %s, as the flag command did:\n%s", tc.want, out)
			}
		})
	}
}

// A record copied with cp while the console wrote it, without its -wal,
// lacks the events still in that -wal: 'verify' and 'status' of the copy
// say so and how to copy a record in use ('arbiter backup'), where they
// said the console was gone (crashed or killed), which the arbiter would
// have taken for a reason to correct the clocks. The chain of what the copy
// holds still verifies; 'verify --head' of the original's head still
// catches the missing tail. A backup taken meanwhile is said to be no such
// copy.
func TestACopyTakenWithoutItsWALWhileTheConsoleRanIsSaidToBeOne(t *testing.T) {
	ctx := context.Background()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	for _, tc := range []struct {
		name string
		pid  int
		want string
	}{
		{"the console's process still runs here: the copy is said to be one", os.Getpid(),
			fmt.Sprintf("arbiter: warning: This file is a copy taken without its -wal while the console (process %d on this machine, still running) was writing it: the events still in that -wal are not in this copy", os.Getpid())},
		{"the console's process is gone: the copy is said to be one", dead.Process.Pid,
			fmt.Sprintf("arbiter: warning: This file is a copy taken without its -wal while the console (process %d on %s, not running here now) was writing it: the events still in that -wal are not in this copy", dead.Process.Pid, host)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.pid == os.Getpid() && runtime.GOOS == "windows" {
				t.Skip("whether a process runs is asked on Unix only (match.processAlive)")
			}
			dir := t.TempDir()
			db := filepath.Join(dir, "m.db")
			mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start", "0:00:31 move e4"))
			// the console's heartbeat reaches the file (a checkpoint)...
			s, err := store.Open(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.WriteHeartbeat(ctx, store.Heartbeat{Wall: start.Add(40 * time.Second), PID: tc.pid, Host: host}); err != nil {
				t.Fatal(err)
			}
			s.Close()
			// ...and, the file held open as by the running console, what is
			// written next stays in its -wal (a move)
			live, err := store.Open(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			defer live.Close()
			mustArb(t, db, "--at", at(50*time.Second), "move", "e5")
			if st, err := os.Stat(db + "-wal"); err != nil || st.Size() == 0 {
				t.Fatalf("the running console's record has no -wal: %v", err)
			}
			origHead := strings.SplitN(mustArb(t, db, "verify"), "\n", 2)[0]
			copyPath := filepath.Join(dir, "copy.db")
			raw, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(copyPath, raw, 0o644); err != nil { // cp m.db copy.db
				t.Fatal(err)
			}
			later := start.Add(40*time.Second + 3*time.Minute + 12*time.Second)
			env := func(errb *bytes.Buffer) Env {
				return Env{Stdout: io.Discard, Stderr: errb, Getenv: func(string) string { return "" }, Now: func() time.Time { return later }}
			}
			for _, cmd := range [][]string{{"verify"}, {"status"}} {
				var errb bytes.Buffer
				code := Run(ctx, append([]string{"--db", copyPath}, cmd...), env(&errb))
				if code != 0 || !strings.HasPrefix(errb.String(), tc.want) || strings.Contains(errb.String(), "The console was gone") {
					t.Errorf("%s of the copy: exit %d, stderr\n%s\nwant it to begin\n%s", cmd[0], code, errb.String(), tc.want)
				}
			}
			var errb bytes.Buffer
			if code := Run(ctx, []string{"--db", copyPath, "verify", "--head", origHead}, env(&errb)); code != 1 {
				t.Errorf("verify --head of the original's head on the copy exits %d, want 1: %s", code, errb.String())
			}
			bk := filepath.Join(dir, "backup.db")
			mustArb(t, db, "backup", bk)
			for range 2 { // the first open makes it a write-ahead-log file again
				errb.Reset()
				Run(ctx, []string{"--db", bk, "verify"}, env(&errb))
				if strings.Contains(errb.String(), "-wal") {
					t.Errorf("verify of a backup says it lacks a -wal: %s", errb.String())
				}
			}
		})
	}
}
