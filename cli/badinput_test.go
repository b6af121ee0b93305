package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"arbiter/internal/outside"
	"arbiter/store"
)

// The bad-input contract (docs/cli.md, docs/reliability.md): every command,
// fed input it cannot use, exits 1 with ONE line on standard error that says
// what was wrong, and leaves the database file byte-identical.

// fixture is a database in a known state, built once per test and copied for
// every case so that no case can see another's leftovers.
type fixture struct {
	name  string
	lines []string      // script lines played at start+from
	from  time.Duration // when the script starts, after start
	beat  time.Duration // when not 0: the console's last heartbeat (a killed console), after start
}

var (
	// live: game 1 running, 1.e4 played at 0:00:31, Black to move.
	fixLive = fixture{"live", []string{"0:00:00 " + newMatch, "0:00:01 game start", "0:00:31 --as operator move e4"}, 0, 0}
	// ended: game 1 over (Deep Blue resigned), game 2 not started.
	fixEnded = fixture{"ended", []string{"0:00:00 " + newMatch, "0:00:01 game start", "0:00:31 --as operator move e4",
		"0:00:40 --as operator resign white"}, 0, 0}
	// empty: a migrated database with no match yet.
	fixEmpty = fixture{"empty", nil, 0, 0}
	// away: game 1 started ten minutes before now (start), Deep Blue (the
	// computer, White) to move, and the console that ran it was killed a
	// minute before now: a command finds a recovery to note (issue 13: a
	// refused command must not leave it in the record).
	fixAway = fixture{"away", []string{"0:00:00 " + newMatch, "0:00:01 game start"}, -10 * time.Minute, -time.Minute}
)

// buildFixtures writes each fixture once into dir and returns their paths.
func buildFixtures(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for _, f := range []fixture{fixLive, fixEnded, fixEmpty, fixAway} {
		p := filepath.Join(dir, f.name+".arbiter")
		if f.lines == nil {
			db, err := store.Open(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
		} else {
			mustArb(t, p, "--at", at(f.from), "play", writeScript(t, f.lines...))
		}
		if f.beat != 0 {
			db, err := store.Open(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.WriteHeartbeat(context.Background(), store.Heartbeat{Wall: start.Add(f.beat), PID: 12345}); err != nil {
				t.Fatal(err)
			}
			db.Close()
		}
		paths[f.name] = p
	}
	return paths
}

// copyFixture copies a fixture database into a fresh directory.
func copyFixture(t *testing.T, src string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "m.arbiter")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkRefusal runs args against db and checks the bad-input contract.
func checkRefusal(t *testing.T, db string, args []string, want string) {
	t.Helper()
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := arb(t, db, args...)
	if code == 0 {
		t.Fatalf("accepted: arbiter %s\nstdout: %s", strings.Join(clip(args), " "), out)
	}
	msg := strings.TrimSpace(errs)
	switch {
	case msg == "":
		t.Error("no error message on standard error")
	case strings.Contains(msg, "\n"):
		t.Errorf("the error is more than one line:\n%s", msg)
	case !strings.HasPrefix(msg, "arbiter: "):
		t.Errorf("the error does not start with \"arbiter: \": %q", msg)
	case len(msg) > 600:
		t.Errorf("the error is %d bytes long (it should be one readable sentence): %.200q…", len(msg), msg)
	case strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine"):
		t.Errorf("the error looks like a crash: %q", msg)
	}
	if !strings.Contains(strings.ToLower(msg), strings.ToLower(want)) {
		t.Errorf("the error %q does not mention %q", msg, want)
	}
	after, err := os.ReadFile(db)
	if err != nil {
		t.Fatalf("the database file is gone: %v", err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the database file changed")
	}
}

// clip shortens huge arguments for messages.
func clip(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if len(a) > 40 {
			a = fmt.Sprintf("%.20s…(%d bytes)", a, len(a))
		}
		out[i] = a
	}
	return out
}

// badScript writes a script file with the given content into a temp dir.
func badScript(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEveryCommandRefusesBadInputClearlyAndChangesNothing(t *testing.T) {
	fixtures := buildFixtures(t)
	later := at(time.Minute)
	huge := strings.Repeat("x", 100000)
	const badUTF8 = "bad \xff\xfe text"
	type badCase struct {
		name    string
		fixture string
		args    func(t *testing.T) []string
		want    string // a word the error must contain (case-insensitive)
	}
	static := func(args ...string) func(*testing.T) []string {
		return func(*testing.T) []string { return args }
	}
	// cases lists the bad inputs per command name (as cli.Commands() names them).
	cases := map[string][]badCase{
		"where": {
			{"a surplus argument", "live", static("where", "now"), "unexpected argument"},
		},
		"help": {
			{"an unknown role before it", "live", static("--as", "spectator", "help"), "not a role"},
			{"a malformed --at before it", "live", static("--at", "tomorrow", "help"), "RFC 3339"},
			{"a mistyped command names the nearest one", "live", static("--at", later, "moev", "e4"), "\"moev\" is not a command: did you mean 'move'?"},
			{"a command with a letter left out names the nearest one", "live", static("staus"), "did you mean 'status'?"},
			{"a word near no command names none", "live", static("castle", "long"), "\"castle\" is not a command: see 'arbiter help'"},
		},
		"match new": {
			{"a second match in one file", "live", static("--at", later, "match", "new", "--title", "X", "--player", "A", "--player", "B"), "already"},
			{"no title", "empty", static("--at", later, "match", "new", "--player", "A", "--player", "B"), "title"},
			{"one player", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A"), "two --player"},
			{"the same name twice", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "A"), "different names"},
			{"a negative number of games", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--games", "-1"), "between 1 and 100"},
			{"an absurd number of games", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--games", "100000"), "between 1 and 100"},
			{"games not a number", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--games", "six"), "whole number"},
			{"a malformed time control", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tc", "40/banana"), "time control"},
			{"a control for someone who is not a player", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tc", "Nobody=300"), "Nobody is not a player of this match"},
			{"a control for an empty name", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tc", "=300"), "player's name"},
			{"an unknown preset", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tc", "blitzz"), "not a preset"},
			{"an unknown preset for a player", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tc", "A=classical"), "not a preset"},
			{"a bad spec for a player", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tc", "B=40/banana"), "time control"},
			{"an empty spec for a player", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tc", "B="), "empty"},
			{"two controls for one player", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--tc", "B=300", "--tc", "B=600"), "twice"},
			{"an unknown White", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--white", "C"), "neither player"},
			{"a computer that is not a player", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--computer", "HAL"), "not one of the players"},
			{"a PIN too short", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--pin", "123456789"), "too short"},
			{"a negative forfeit time", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B", "--forfeit-after", "-5m"), ""},
			{"an invalid UTF-8 title", "empty", static("--at", later, "match", "new", "--title", badUTF8, "--player", "A", "--player", "B"), "UTF-8"},
			{"a huge title", "empty", static("--at", later, "match", "new", "--title", huge, "--player", "A", "--player", "B"), "keep it under"},
			{"an empty player name", "empty", static("--at", later, "match", "new", "--title", "T", "--player", "", "--player", "B"), "two players"},
			{"not the arbiter", "empty", static("--at", later, "--as", "white", "match", "new", "--title", "T", "--player", "A", "--player", "B"), "arbiter"},
		},
		"credential add": {
			{"no role", "live", static("--at", later, "credential", "add", "--secret", "a long passphrase"), "--role"},
			{"an unknown role", "live", static("--at", later, "credential", "add", "--role", "spectator", "--secret", "a long passphrase"), "not a role"},
			{"no secret and no key file", "live", static("--at", later, "credential", "add", "--role", "arbiter"), "--secret"},
			{"a passphrase too short", "live", static("--at", later, "credential", "add", "--role", "arbiter", "--secret", "1234"), "too short"},
			{"an operator's on an unprotected match", "live", static("--at", later, "credential", "add", "--role", "operator", "--secret", "a long passphrase"), "unprotected"},
			{"a player who is not in the match", "live", static("--at", later, "credential", "add", "--role", "arbiter", "--secret", "a long passphrase", "--player", "HAL"), "--player"},
			{"a key file that is missing", "live", static("--at", later, "credential", "add", "--role", "arbiter", "--key-file", "/nonexistent/k"), "key file"},
			{"not the arbiter", "live", static("--at", later, "--as", "operator", "credential", "add", "--role", "arbiter", "--secret", "a long passphrase"), "arbiter"},
		},
		"credential check": {
			{"a surplus argument", "live", static("--at", later, "credential", "check", "now"), "unexpected argument"},
			{"an unknown role", "live", static("--at", later, "--as", "spectator", "credential", "check"), "not a role"},
		},
		"credential keygen": {
			{"no file", "live", static("credential", "keygen"), "file"},
			{"an existing file", "live", func(t *testing.T) []string {
				p := filepath.Join(t.TempDir(), "k")
				os.WriteFile(p, []byte("x"), 0o600)
				return []string{"credential", "keygen", p}
			}, "never overwritten"},
		},
		"credential list": {
			{"a surplus argument", "live", static("credential", "list", "now"), "unexpected argument"},
		},
		"game schedule": {
			{"no start time", "ended", static("--at", later, "game", "schedule", "2"), "--start"},
			{"a malformed start", "ended", static("--at", later, "game", "schedule", "2", "--start", "monday"), "RFC 3339"},
			{"game zero", "ended", static("--at", later, "game", "schedule", "0", "--start", at(time.Hour)), "not a game number"},
			{"a game beyond the match", "ended", static("--at", later, "game", "schedule", "99", "--start", at(time.Hour)), "no game 99"},
			{"not the arbiter", "ended", static("--at", later, "--as", "black", "game", "schedule", "2", "--start", at(time.Hour)), "arbiter"},
		},
		"game start": {
			{"a game already running", "live", static("--at", later, "game", "start"), ""},
			{"a game number that is a word", "ended", static("--at", later, "game", "start", "two"), "not a game number"},
			{"a negative game number", "ended", static("--at", later, "game", "start", "-1"), "not a game number"},
			{"a game beyond the match", "ended", static("--at", later, "game", "start", "7"), "no game 7"},
			{"no match yet", "empty", static("--at", later, "game", "start"), ""},
			{"a malformed FEN", "ended", static("--at", later, "game", "start", "--fen", "8/8/8 w - - 0 1"), "FEN"},
			{"a FEN with no kings", "ended", static("--at", later, "game", "start", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"), "kings"},
			{"a finished position", "ended", static("--at", later, "game", "start", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), "already over"},
			{"a move number no game reaches", "ended", static("--at", later, "game", "start", "--fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 99999"), "move number"},
			{"move number zero", "ended", static("--at", later, "game", "start", "--fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 0"), "move number \"0\" is not valid"},
			{"a board of seven ranks says so", "ended", static("--at", later, "game", "start", "--fen", "8/8/8/4k3/8/8/3QK3 w - - 0 1"), "board \"8/8/8/4k3/8/8/3QK3\" has 7 ranks: it needs 8"},
			{"clocks without a FEN", "ended", static("--at", later, "game", "start", "--white", "0:10:00"), "--fen"},
			{"a malformed clock", "ended", static("--at", later, "game", "start", "--fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40", "--white", "ten minutes"), "clock reading"},
		},
		"game postpone": {
			{"a running game", "live", static("--at", later, "game", "postpone", "1", "--reason", "rain"), ""},
			{"no reason", "ended", static("--at", later, "game", "postpone", "2"), "reason"},
			{"a finished game", "ended", static("--at", later, "game", "postpone", "1", "--reason", "rain"), ""},
		},
		"move": {
			{"an illegal move", "live", static("--at", later, "move", "Qh4"), "not legal"},
			{"a move for the wrong side by a player", "live", static("--at", later, "--as", "white", "move", "e5"), "white"},
			{"the operator moving for the human", "live", static("--at", later, "--as", "operator", "move", "e5"), "operator"},
			{"a move after the game ended", "ended", static("--at", later, "move", "e5"), ""},
			{"a move before any match", "empty", static("--at", later, "move", "e4"), ""},
			{"an empty move", "live", static("--at", later, "move", ""), "empty"},
			{"a huge move", "live", static("--at", later, "move", huge), ""},
			{"a move in invalid UTF-8", "live", static("--at", later, "move", "e\xff5"), "UTF-8"},
			{"no move", "live", static("--at", later, "move"), "needs the move"},
			{"two moves, with the command's usage", "live", static("--at", later, "move", "e5", "Nf3"), "unexpected argument \"Nf3\": usage: arbiter move MOVE [--pressed]"},
			{"--pressed without a press", "live", static("--at", later, "move", "e5", "--pressed"), "no clock press"},
			{"time running back", "live", static("--at", at(time.Second), "move", "e5"), "earlier"},
			{"an illegal move while a recovery is to be noted", "away", static("--at", later, "move", "Qh4"), "not legal"},
			{"an exact instant before the last event while a recovery is to be noted", "away", static("--at", at(-11*time.Minute), "move", "e4"), "earlier"},
			{"nonsense", "live", static("--at", later, "move", "zz99"), ""},
		},
		"press": {
			{"after the game ended", "ended", static("--at", later, "press"), ""},
			{"by the side not running", "live", static("--at", later, "--as", "white", "press"), ""},
			{"a surplus argument", "live", static("--at", later, "press", "now"), "unexpected argument"},
		},
		"pause": {
			{"the operator without --call", "live", static("--at", later, "--as", "operator", "pause"), ""},
			{"a huge reason", "live", static("--at", later, "pause", "--reason", huge), "keep it under"},
			{"a reason in invalid UTF-8", "live", static("--at", later, "pause", "--reason", badUTF8), "UTF-8"},
			{"no game running", "ended", static("--at", later, "pause"), ""},
			{"an unknown cause", "live", static("--at", later, "pause", "--cause", "boredom"), "not a cause"},
			{"a fault on the computer's turn", "away", static("--at", at(-time.Minute), "pause", "--cause", "fault"), "rule 7"},
			{"a refused pause while a recovery is to be noted", "away", static("--at", later, "pause", "--cause", "fault"), "rule 7"},
		},
		"resume": {
			{"clocks already running", "live", static("--at", later, "resume"), ""},
			{"not the arbiter", "live", static("--at", later, "--as", "black", "resume"), "arbiter"},
		},
		"adjust": {
			{"an unknown side", "live", static("--at", later, "adjust", "green", "+5m", "--reason", "x"), "side"},
			{"an absurd duration", "live", static("--at", later, "adjust", "white", "+9999h", "--reason", "x"), "24 hours"},
			{"a negative clock reading", "live", static("--at", later, "adjust", "white", "=-1:00:00", "--reason", "x"), "clock reading"},
			{"a malformed duration", "live", static("--at", later, "adjust", "white", "+5 minutes", "--reason", "x"), ""},
			{"a correction without a sign", "live", static("--at", later, "adjust", "white", "5m", "--reason", "x"), "not a correction"},
			{"an empty reason", "live", static("--at", later, "adjust", "white", "+5m", "--reason", ""), "reason"},
			{"a move counter that is a word", "live", static("--at", later, "adjust", "white", "+5m", "--moves", "ten", "--reason", "x"), "whole number"},
			{"a negative move counter", "live", static("--at", later, "adjust", "white", "+5m", "--moves", "-3", "--reason", "x"), ""},
			{"no correction", "live", static("--at", later, "adjust", "white", "--reason", "x"), "correction"},
			{"the operator adjusting", "live", static("--at", later, "--as", "operator", "adjust", "white", "+5m", "--reason", "x"), "arbiter"},
		},
		"draw offer": {
			{"an unknown side", "live", static("--at", later, "draw", "offer", "green"), "side"},
			{"after the game ended", "ended", static("--at", later, "draw", "offer"), ""},
		},
		"draw accept": {
			{"no offer pending", "live", static("--at", later, "draw", "accept"), "no draw offer"},
			{"a surplus argument, with the command's usage", "live", static("--at", later, "draw", "accept", "please"), "draw accept: unexpected argument \"please\": usage: arbiter draw accept"},
		},
		"draw decline": {
			{"no offer pending", "live", static("--at", later, "draw", "decline"), "no draw offer"},
		},
		"resign": {
			{"no side", "live", static("--at", later, "resign"), "needs a side"},
			{"an unknown side", "live", static("--at", later, "resign", "green"), "side"},
			{"a player resigning for the opponent", "live", static("--at", later, "--as", "black", "resign", "white"), ""},
			{"after the game ended", "ended", static("--at", later, "resign", "black"), ""},
		},
		"result": {
			{"no reason", "live", static("--at", later, "result", "1-0"), "reason"},
			{"not a result", "live", static("--at", later, "result", "2-0", "--reason", "x"), "not a result"},
			{"no result", "live", static("--at", later, "result", "--reason", "x"), "needs 1-0"},
			{"after the game ended", "ended", static("--at", later, "result", "1-0", "--reason", "x"), ""},
		},
		"incident": {
			{"an unknown kind, naming the kinds as a list", "live", static("--at", later, "incident", "earthquake", "--text", "x"), "use one of appeal, appeal-decision, arbiter-replaced,"},
			{"no kind", "live", static("--at", later, "incident", "--text", "x"), "needs a kind"},
			{"no text", "live", static("--at", later, "incident", "note"), ""},
			{"text in invalid UTF-8", "live", static("--at", later, "incident", "note", "--text", badUTF8), "UTF-8"},
			{"a huge text", "live", static("--at", later, "incident", "note", "--text", huge), "keep it under"},
			{"a reference to event zero", "live", static("--at", later, "incident", "note", "--text", "x", "--refers", "0"), "not an event number"},
			{"a reference that is a word", "live", static("--at", later, "incident", "note", "--text", "x", "--refers", "last"), "not an event number"},
		},
		"flag": {
			{"a flag not fallen", "live", static("--at", later, "flag", "black"), "has not fallen"},
			{"an unknown side", "live", static("--at", later, "flag", "green"), ""},
			{"both without --order-unknown", "live", static("--at", later, "flag", "both"), ""},
			{"no side", "live", static("--at", later, "flag"), "needs white"},
		},
		"status": {
			{"a malformed time", "live", static("--at", "yesterday", "status"), "RFC 3339"},
			{"a time with a bad zone", "live", static("--at", "1996-02-10T20:00:00+25:00", "status"), "RFC 3339"},
			{"an unknown flag", "live", static("status", "--xml"), "--xml"},
			{"no database", "live", func(t *testing.T) []string {
				return []string{"--db", filepath.Join(t.TempDir(), "missing.arbiter"), "status"}
			}, "no database"},
		},
		"verify": {
			{"a head too short", "live", static("verify", "--head", "abc"), "64 hexadecimal"},
			{"a head that is not hex", "live", static("verify", "--head", strings.Repeat("z", 64)), "64 hexadecimal"},
			{"a head not in the chain", "live", static("verify", "--head", strings.Repeat("ab", 32)), ""},
			{"a match id too short", "live", static("verify", "--match", "abc"), "32 hexadecimal"},
			{"another match's id", "live", static("verify", "--match", strings.Repeat("ab", 16)), "another match"},
		},
		"play": {
			{"no script", "live", static("--at", later, "play"), "needs a script"},
			{"a missing script", "live", static("--at", later, "play", "/nonexistent/script.txt"), "cannot read"},
			{"a malformed offset", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "1:2 move e5\n")}
			}, "not an offset"},
			{"an unterminated quote", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "0:00:01 incident note --text \"unclosed\n")}
			}, "unterminated"},
			{"a script that plays a script", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "0:00:01 play other.txt\n")}
			}, "cannot play another script"},
			{"--db inside a line", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "0:00:01 --db x.arbiter status\n")}
			}, "inside a script line"},
			{"an illegal move on line 2 after a comment", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "# comment\n0:00:01 move Qh4\n")}
			}, "line 2"},
			{"invalid UTF-8 in a line", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "0:00:01 incident note --text \"\xff\"\n")}
			}, "UTF-8"},
			{"an unknown command in a line", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "0:00:01 castle long\n")}
			}, "not a command"},
			{"a backslash at the end of a line", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "0:00:01 move e5 \\")}
			}, "backslash"},
			{"an offset with a bad fraction", "live", func(t *testing.T) []string {
				return []string{"--at", later, "play", badScript(t, "0:00:01.x move e5\n")}
			}, "not an offset"},
		},
		"unwinnable": {
			{"a limit that is a word", "live", static("unwinnable", "--limit", "many"), "whole number"},
			{"a limit of zero", "live", static("unwinnable", "--limit", "0"), "too small"},
			{"a surplus argument", "live", static("unwinnable", "now"), "unexpected argument"},
		},
		"backup": {
			{"no file", "live", static("backup"), "needs the file"},
			{"an existing file", "live", func(t *testing.T) []string {
				p := filepath.Join(t.TempDir(), "taken")
				os.WriteFile(p, []byte("keep"), 0o644)
				return []string{"backup", p}
			}, "already exists"},
			{"a missing folder", "live", static("backup", "/nonexistent/dir/copy.arbiter"), "does not exist"},
			{"two files", "live", static("backup", "a.arbiter", "b.arbiter"), "unexpected argument"},
			{"no database", "live", func(t *testing.T) []string {
				d := t.TempDir()
				return []string{"--db", filepath.Join(d, "missing.arbiter"), "backup", filepath.Join(d, "copy.arbiter")}
			}, "no database"},
		},
		"correct": {
			{"no ply", "live", static("--at", later, "correct", "--method", "record", "--reason", "x"), ""},
			{"a ply beyond the game names its last ply", "live", static("--at", later, "correct", "--ply", "99", "--method", "record", "--reason", "x"), "there is no ply 99 to take back: the last recorded ply of game 1 is ply 1; give --ply from 1 to 1"},
			{"a ply of a game with no move yet says there is none", "away", static("--at", later, "correct", "--ply", "1", "--method", "record", "--reason", "x"), "game 1 has no move recorded yet: there is nothing to take back or amend"},
			{"a preview of a game with no move yet says there is none", "away", static("--at", later, "correct", "--ply", "1", "--preview"), "game 1 has no move recorded yet"},
			{"a ply that is a word", "live", static("--at", later, "correct", "--ply", "one", "--method", "record", "--reason", "x"), "whole number"},
			{"an unknown method", "live", static("--at", later, "correct", "--ply", "1", "--method", "guess", "--reason", "x"), ""},
			{"no reason", "live", static("--at", later, "correct", "--ply", "1", "--method", "record"), "reason"},
			{"set without the times", "live", static("--at", later, "correct", "--ply", "1", "--method", "set", "--reason", "x"), ""},
			{"a malformed time", "live", static("--at", later, "correct", "--ply", "1", "--method", "set", "--white", "1:xx:00", "--black", "2:00:00", "--reason", "x"), ""},
			{"not the arbiter", "live", static("--at", later, "--as", "white", "correct", "--ply", "1", "--method", "record", "--reason", "x"), "arbiter"},
		},
		"amend": {
			{"no ply", "live", static("--at", later, "amend", "d4", "--reason", "x"), ""},
			{"an illegal replacement", "live", static("--at", later, "amend", "--ply", "1", "Qh5", "--reason", "x"), ""},
			{"a ply beyond the game names its last ply", "live", static("--at", later, "amend", "--ply", "9", "d4", "--reason", "x"), "there is no ply 9 to amend: the last recorded ply of game 1 is ply 1; give --ply from 1 to 1"},
			{"a ply of a game with no move yet says there is none", "away", static("--at", later, "amend", "--ply", "1", "e4", "--reason", "x"), "game 1 has no move recorded yet: there is nothing to take back or amend"},
			{"no reason", "live", static("--at", later, "amend", "--ply", "1", "d4"), "reason"},
			{"a huge move", "live", static("--at", later, "amend", "--ply", "1", huge, "--reason", "x"), ""},
		},
		"claim repetition": {
			{"an intended move in invalid UTF-8", "live", static("--at", later, "claim", "repetition", "--move", "Q\xffh4"), "UTF-8"},
			{"a huge intended move", "live", static("--at", later, "claim", "repetition", "--move", huge), ""},
			{"after the game ended", "ended", static("--at", later, "claim", "repetition"), ""},
			{"a surplus argument", "live", static("--at", later, "claim", "repetition", "now"), "unexpected argument"},
		},
		"claim fifty-moves": {
			{"after the game ended", "ended", static("--at", later, "claim", "fifty-moves"), ""},
			{"an intended move in invalid UTF-8", "live", static("--at", later, "claim", "fifty-moves", "--move", "K\xffe7"), "UTF-8"},
		},
		"arrive": {
			{"no player", "live", static("--at", later, "arrive"), "--player"},
			{"someone who is not a player", "live", static("--at", later, "arrive", "--player", "Bobby Fischer"), "not a player of game 1"},
			{"an arrival instant that is no time", "live", static("--at", later, "arrive", "--player", "Deep Blue", "--at", "soon"), "not a time"},
			{"an arrival after the command's instant", "live", static("--at", later, "arrive", "--player", "Deep Blue", "--at", "2099-01-01T00:00:00Z"), "has not yet come"},
			{"by the operator", "live", static("--at", later, "--as", "operator", "arrive", "--player", "Deep Blue"), "not by"},
		},
		"forfeit": {
			{"an unknown side", "ended", static("--at", later, "forfeit", "green", "--reason", "x"), "side"},
			{"no reason", "ended", static("--at", later, "forfeit", "black"), "reason"},
			{"a game already running", "live", static("--at", later, "forfeit", "black", "--reason", "x"), ""},
			{"before the forfeit time", "ended", static("--at", later, "forfeit", "black", "--reason", "absent"), ""},
		},
		"engine run": {
			{"no engine's command", "live", static("engine", "run"), "give --cmd"},
			{"an engine that is not there", "live", static("engine", "run", "--cmd", "/nonexistent/engine"), "is not there"},
			{"an option without a value", "live", static("engine", "run", "--cmd", "/nonexistent/engine", "--option", "Hash"), "NAME=VALUE"},
			{"a hang that is no duration", "live", static("engine", "run", "--cmd", "/nonexistent/engine", "--hang", "soon"), "is not a duration"},
			{"restarts that are a word", "live", static("engine", "run", "--cmd", "/nonexistent/engine", "--restarts", "many"), "whole number"},
			{"a role other than the operator", "live", static("--as", "white", "engine", "run", "--cmd", "/nonexistent/engine"), "acts as the operator"},
			{"a surplus argument", "live", static("engine", "run", "--cmd", "/nonexistent/engine", "now"), "unexpected argument"},
			{"a record with no match", "empty", static("engine", "run", "--cmd", "/nonexistent/engine"), "holds no match yet"},
		},
		"engine status": {
			{"a surplus argument", "live", static("engine", "status", "now"), "unexpected argument"},
			{"a flag it does not take", "live", static("engine", "status", "--game", "1"), "does not take --game"},
		},
		"engine move": {
			{"no transcript mark", "live", static("--at", later, "--as", "operator", "engine", "move", "--game", "1", "--ply", "2", "--fen", fenAfterE4, "--uci", "e7e5", "--received", later), "incomplete"},
			{"lines that are a word", "live", static("--at", later, "--as", "operator", "engine", "move", "--lines", "many"), "whole number"},
			{"a received instant that is no time", "live", static("--at", later, "--as", "operator", "engine", "move", "--received", "soon"), "is not a time"},
			{"another ply than the record's", "live", engineMoveArgs(later, "5", "e7e5"), "ply 5"},
			{"the human's turn", "live", engineMoveArgs(later, "2", "e7e5"), "not Deep Blue's turn"},
			{"by a player", "live", engineMoveArgs(later, "2", "e7e5", "--as", "black"), "operator"},
			{"a game that is over", "ended", engineMoveArgs(later, "2", "e7e5"), "over"},
		},
		"broadcast": {
			{"no address", "live", static("broadcast"), "--listen HOST:PORT"},
			{"an address without a host", "live", static("broadcast", "--listen", ":8080"), "names no host"},
			{"an address without a port", "live", static("broadcast", "--listen", "127.0.0.1"), "HOST:PORT"},
			{"a port beyond 65535", "live", static("broadcast", "--listen", "127.0.0.1:99999"), "valid port"},
			{"a surplus argument", "live", static("broadcast", "--listen", "127.0.0.1:8080", "now"), "unexpected argument"},
			{"a delay that is no duration", "live", static("broadcast", "--listen", "127.0.0.1:0", "--delay", "soon"), "is not a delay"},
			{"a negative delay", "live", static("broadcast", "--listen", "127.0.0.1:0", "--delay", "-5m"), "out of range"},
			{"a delay over a day", "live", static("broadcast", "--listen", "127.0.0.1:0", "--delay", "25h"), "out of range"},
			{"no database: one sentence, as every reading command says it", "live", func(t *testing.T) []string {
				return []string{"--db", filepath.Join(t.TempDir(), "missing.arbiter"), "broadcast", "--listen", "127.0.0.1:0"}
			}, "there is no database at"},
		},
		"station serve": {
			{"no address", "live", static("station", "serve"), "--listen"},
			{"a port that is not a number", "live", static("station", "serve", "--listen", "127.0.0.1:x"), "port"},
		},
		"station invite": {
			{"an unknown role", "live", static("station", "invite", "--role", "king", "--name", "x", "-o", "i.json"), "not a station role"},
			{"a record that is no station's", "live", static("station", "invite", "--role", "operator", "--name", "x", "-o", "i.json"), "not a running record holder"},
		},
		"station join": {
			{"no invitation", "live", static("station", "join"), "invitation"},
			{"a missing invitation", "live", static("station", "join", "/nonexistent/i.json"), "cannot read"},
		},
		"station claim": {
			{"a record that is no station's", "live", static("station", "claim"), "not a record holder"},
			{"an argument", "live", static("station", "claim", "now"), "unexpected argument"},
		},
		"station status": {
			{"a record that is no station's", "live", static("station", "status"), "not a station"},
		},
		// The export commands are added by package report's engineer; their
		// cases apply once they are registered.
		"export pgn": {
			{"a game beyond the match", "live", static("export", "pgn", "--game", "99"), ""},
			{"a game that is a word", "live", static("export", "pgn", "--game", "one"), ""},
			{"a missing folder for the output", "live", static("export", "pgn", "-o", "/nonexistent/dir/m.pgn"), ""},
			// the flag as typed: it said "--o needs a value"
			{"-o without a file names -o as typed", "live", static("export", "pgn", "-o"), "Export pgn: -o needs a value"},
			// it wrote the whole match, where -1 was refused as "give 1 or more"
			{"game 0", "live", static("export", "pgn", "--game", "0"), "--game 0 is not a game number"},
		},
		"export pdf": {
			{"no output file", "live", static("export", "pdf"), ""},
			{"game 0", "live", func(t *testing.T) []string {
				return []string{"export", "pdf", "-o", filepath.Join(t.TempDir(), "r.pdf"), "--game", "0"}
			}, "--game 0 is not a game number"},
			{"an unknown paper", "live", func(t *testing.T) []string {
				return []string{"export", "pdf", "-o", filepath.Join(t.TempDir(), "r.pdf"), "--paper", "papyrus"}
			}, ""},
			{"an unknown language", "live", func(t *testing.T) []string {
				return []string{"export", "pdf", "-o", filepath.Join(t.TempDir(), "r.pdf"), "--lang", "tlh"}
			}, ""},
		},
		"demo 1996": {
			{"a script in a folder that does not exist", "live", static("demo", "1996", "-o", "/nonexistent/s.txt"), "/nonexistent/s.txt"},
			{"a PGN that does not exist", "live", static("demo", "1996", "--pgn", "/nonexistent/g.pgn", "-o", "/nonexistent/s.txt"), "pgn"},
			{"a number of games that is a word", "live", static("demo", "1996", "--pgn", "x.pgn", "--games", "six", "-o", "s.txt"), "games"},
		},
	}
	for _, c := range Commands() {
		if len(cases[c.name]) == 0 {
			t.Errorf("command %q has no bad-input case: add some to this table", c.name)
		}
	}
	for _, c := range Commands() {
		for _, bc := range cases[c.name] {
			t.Run(c.name+"/"+bc.name, func(t *testing.T) {
				db := copyFixture(t, fixtures[bc.fixture])
				checkRefusal(t, db, bc.args(t), bc.want)
			})
		}
	}
}

// fenAfterE4 is the live fixture's position (Deep Blue, White, played e4).
const fenAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"

// engineMoveArgs is a whole 'engine move' of uci for ply in the live
// fixture's position, given at the instant at (by the operator, or as
// the global options before it say).
func engineMoveArgs(at, ply, uci string, before ...string) func(*testing.T) []string {
	return func(*testing.T) []string {
		args := append([]string{"--at", at, "--as", "operator"}, before...)
		return append(args, "engine", "move", "--game", "1", "--ply", ply, "--fen", fenAfterE4, "--uci", uci, "--received", at,
			"--transcript", "game-1.log", "--lines", "20", "--bytes", "900", "--sha256", strings.Repeat("ab", 32))
	}
}

// harmless gives, per command, an invocation that would succeed on a good
// database; the damaged-file test runs each against every kind of bad file.
// nil: the command does not open the database.
func harmless(t *testing.T, name string) []string {
	later := at(time.Minute)
	switch name {
	case "where", "help", "unwinnable", "demo 1996": // open no database
		return nil
	case "broadcast":
		// It serves until interrupted on a good file; its own read-only
		// handle refuses a missing file (see the bad-input cases).
		return nil
	case "match new":
		return []string{"--at", later, "match", "new", "--title", "T", "--player", "A", "--player", "B"}
	case "game schedule":
		return []string{"--at", later, "game", "schedule", "2", "--start", at(time.Hour)}
	case "game start":
		return []string{"--at", later, "game", "start"}
	case "game postpone":
		return []string{"--at", later, "game", "postpone", "2", "--reason", "x"}
	case "move":
		return []string{"--at", later, "move", "e5"}
	case "press":
		return []string{"--at", later, "press"}
	case "pause":
		return []string{"--at", later, "pause"}
	case "resume":
		return []string{"--at", later, "resume"}
	case "adjust":
		return []string{"--at", later, "adjust", "white", "+1m", "--reason", "x"}
	case "draw offer":
		return []string{"--at", later, "draw", "offer"}
	case "draw accept":
		return []string{"--at", later, "draw", "accept"}
	case "draw decline":
		return []string{"--at", later, "draw", "decline"}
	case "resign":
		return []string{"--at", later, "resign", "black"}
	case "result":
		return []string{"--at", later, "result", "1-0", "--reason", "x"}
	case "incident":
		return []string{"--at", later, "incident", "note", "--text", "x"}
	case "flag":
		return []string{"--at", later, "flag", "black"}
	case "credential add":
		return []string{"--at", later, "credential", "add", "--role", "arbiter", "--secret", "a long passphrase"}
	case "credential check":
		return []string{"--at", later, "credential", "check"}
	case "credential keygen":
		return nil
	case "credential list":
		return []string{"credential", "list"}
	case "status":
		return []string{"status"}
	case "verify":
		return []string{"verify"}
	case "play":
		return []string{"--at", later, "play", writeScript(t, "0:00:01 move e5")}
	case "backup":
		return []string{"backup", filepath.Join(t.TempDir(), "copy.arbiter")}
	case "correct":
		return []string{"--at", later, "correct", "--ply", "1", "--method", "record", "--reason", "x"}
	case "amend":
		return []string{"--at", later, "amend", "--ply", "1", "d4", "--reason", "x"}
	case "claim repetition":
		return []string{"--at", later, "claim", "repetition"}
	case "claim fifty-moves":
		return []string{"--at", later, "claim", "fifty-moves"}
	case "forfeit":
		return []string{"--at", later, "forfeit", "black", "--reason", "x"}
	case "engine run":
		return []string{"engine", "run", "--cmd", "/nonexistent/engine"}
	case "engine status":
		return nil // it reads the bridge's status file, never the record
	case "engine move":
		return []string{"--at", later, "--as", "operator", "engine", "move", "--game", "1"}
	case "arrive":
		return []string{"--at", later, "arrive", "--player", "Deep Blue"}
	case "station serve":
		return []string{"station", "serve", "--listen", "127.0.0.1:1"}
	case "station invite":
		return []string{"station", "invite", "--role", "operator", "--name", "laptop", "-o", filepath.Join(t.TempDir(), "i.json")}
	case "station join":
		inv := filepath.Join(t.TempDir(), "i.json")
		if err := os.WriteFile(inv, []byte(`{"match":"T","name":"laptop","role":"operator","contacts":["nats://127.0.0.1:1"]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		return []string{"station", "join", inv}
	case "station status":
		return []string{"station", "status"}
	case "station claim":
		return []string{"station", "claim"}
	case "export pgn":
		return []string{"export", "pgn", "-o", filepath.Join(t.TempDir(), "m.pgn")}
	case "export pdf":
		return []string{"export", "pdf", "-o", filepath.Join(t.TempDir(), "m.pdf")}
	}
	t.Errorf("command %q has no harmless invocation for the damaged-file test: add one", name)
	return nil
}

func TestEveryCommandRefusesADamagedOrForeignFileAndChangesNothing(t *testing.T) {
	fixtures := buildFixtures(t)
	files := []struct {
		name string
		make func(t *testing.T) string
		want string
	}{
		{"a file that is not SQLite", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "notes.arbiter")
			os.WriteFile(p, bytes.Repeat([]byte("Kasparov vs Deep Blue, Philadelphia 1996.\n"), 200), 0o644)
			return p
		}, "not an Arbiter database"},
		{"a SQLite file with a garbled header", func(t *testing.T) string {
			p := copyFixture(t, fixtures["live"])
			b, _ := os.ReadFile(p)
			copy(b[16:24], []byte{0xff, 0xff, 9, 9, 0, 0, 0, 0})
			os.WriteFile(p, b, 0o644)
			return p
		}, "not an Arbiter database"},
		{"a SQLite file with garbage in its pages", func(t *testing.T) string {
			p := copyFixture(t, fixtures["live"])
			b, _ := os.ReadFile(p)
			pageSize := int(binary.BigEndian.Uint16(b[16:18]))
			for i := pageSize; i < len(b); i++ {
				b[i] = byte(i*7 + 13)
			}
			os.WriteFile(p, b, 0o644)
			return p
		}, ""},
		{"another application's SQLite file", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "photos.db")
			outside.SQL(t, p, "PRAGMA application_id = 1196312910", "CREATE TABLE photos (name TEXT)", "INSERT INTO photos VALUES ('kasparov.jpg')")
			return p
		}, "not an Arbiter database"},
		{"a file from a newer Arbiter", func(t *testing.T) string {
			p := copyFixture(t, fixtures["live"])
			outside.SQL(t, p, fmt.Sprintf("PRAGMA user_version = %d", store.SchemaVersion()+1))
			return p
		}, "newer version of Arbiter"},
		{"a file truncated mid-page", func(t *testing.T) string {
			p := copyFixture(t, fixtures["live"])
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-len(b)/3], 0o644)
			return p
		}, ""},
	}
	for _, f := range files {
		for _, c := range Commands() {
			args := harmless(t, c.name)
			if args == nil {
				continue
			}
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				db := f.make(t)
				checkRefusal(t, db, append([]string{"--db", db}, args...), f.want)
				for _, side := range []string{"-wal", "-shm", ".bak-v2", ".bak-v1"} {
					if _, err := os.Stat(db + side); err == nil {
						t.Errorf("%s was created next to the refused file", filepath.Base(db+side))
					}
				}
			})
		}
	}
}

func TestAnOlderSchemaIsBackedUpThenMigratedForward(t *testing.T) {
	fixtures := buildFixtures(t)
	db := copyFixture(t, fixtures["live"])
	// Schema version 1 had no heartbeat or meta table, and its events no
	// receipts (so they are hashed as arbiter-event-v1).
	outside.SQL(t, db, "DROP TABLE heartbeat", "DROP TABLE meta", "DROP TABLE signatures", "ALTER TABLE events DROP COLUMN received_ns", "PRAGMA user_version = 1")
	raw := rawOpen(t, db)
	rehashAll(t, raw)
	var head string
	if err := raw.QueryRow("SELECT hash FROM events ORDER BY seq DESC LIMIT 1").Scan(&head); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if _, errs, code := arb(t, db, "status"); code != 0 {
		t.Fatalf("status on a version 1 file: exit %d: %s", code, errs)
	}
	t.Run("the old file is kept as .bak-v1", func(t *testing.T) {
		b, err := os.ReadFile(db + ".bak-v1")
		if err != nil {
			t.Fatalf("no backup copy: %v", err)
		}
		if v := binary.BigEndian.Uint32(b[60:64]); v != 1 {
			t.Errorf("the backup has user_version %d, want 1", v)
		}
		if got := strings.TrimSpace(mustArb(t, db+".bak-v1", "--as", "white", "where")); got != db+".bak-v1" {
			t.Errorf("where = %q", got)
		}
	})
	t.Run("the file is at the current schema and its chain is unchanged", func(t *testing.T) {
		b, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.BigEndian.Uint32(b[60:64]); int(v) != store.SchemaVersion() {
			t.Errorf("user_version %d after migration, want %d", v, store.SchemaVersion())
		}
		if got := strings.TrimSpace(mustArb(t, db, "verify")); got != head {
			t.Errorf("head %s after migration, want %s", got, head)
		}
	})
	t.Run("the match goes on", func(t *testing.T) {
		mustArb(t, db, "--at", at(time.Minute), "move", "c5")
	})
}

func TestBackupCopiesTheDatabaseAndVerifiesTheCopy(t *testing.T) {
	fixtures := buildFixtures(t)
	db := copyFixture(t, fixtures["live"])
	before, _ := os.ReadFile(db)
	dest := filepath.Join(t.TempDir(), "copy.arbiter")
	out, errs, code := arb(t, db, "backup", dest)
	if code != 0 {
		t.Fatalf("backup: exit %d: %s", code, errs)
	}
	head := strings.TrimSpace(mustArb(t, db, "verify"))
	if strings.TrimSpace(out) != head {
		t.Errorf("backup printed %q, want the head %q", out, head)
	}
	if got := strings.TrimSpace(mustArb(t, dest, "verify")); got != head {
		t.Errorf("the copy's head is %s, want %s", got, head)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("backup changed the original")
	}
	mustArb(t, dest, "--at", at(time.Minute), "move", "c5")
}
