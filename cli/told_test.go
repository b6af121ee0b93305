package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// errorLines are the lines of stderr that read as a refusal: "arbiter: "
// marks a refusal ("arbiter: Sentence.") and a warning ("arbiter: warning:
// …"); what a command tells besides its output carries no prefix.
func errorLines(stderr string) []string {
	var bad []string
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if strings.HasPrefix(l, "arbiter: ") && !strings.HasPrefix(l, "arbiter: warning: ") {
			bad = append(bad, l)
		}
	}
	return bad
}

// What a command that succeeded tells on standard error (verify's counts,
// the head an export signed or did not sign, where a report or a copy was
// written) never reads as an error: it does not carry the "arbiter: "
// prefix of a refusal.
func TestWhatACommandTellsNeverReadsAsAnError(t *testing.T) {
	db := protectedMatch(t)
	dir := t.TempDir()
	unprotected := filepath.Join(t.TempDir(), "u.db")
	newMatchAt(t, unprotected)
	for _, c := range []struct {
		rule string
		db   string
		args []string
		tell string // a line stderr holds
	}{
		{"export pgn without --pin tells the last head signed as information", db, []string{"export", "pgn"}, "nothing signed (no --pin given): the last head the arbiter signed is event "},
		{"export pgn -o without --pin tells the last head signed as information", db, []string{"export", "pgn", "-o", filepath.Join(dir, "m.pgn")}, "the last head the arbiter signed is event "},
		{"export pgn -o tells the file written as information", db, []string{"export", "pgn", "-o", filepath.Join(dir, "m2.pgn")}, "PGN written to " + filepath.Join(dir, "m2.pgn") + "\n"},
		{"export pdf without --pin tells the last head and the report written as information", db, []string{"export", "pdf", "-o", filepath.Join(dir, "m.pdf")}, "report written to "},
		{"export pgn with --pin tells the head it signed as information", db, []string{"--pin", arbPass, "export", "pgn"}, "the arbiter signed the head at event "},
		{"verify tells what it checked as information", db, []string{"verify"}, "events verified; the chain is intact"},
		{"verify of an unprotected match tells it as information", unprotected, []string{"verify"}, "unprotected match: the events are unsigned"},
		{"backup tells the copy as information", db, []string{"backup", filepath.Join(dir, "copy.db")}, "events copied to "},
		{"demo tells the script written as information", db, []string{"demo", "1996", "--games", "1", "-o", filepath.Join(dir, "demo.txt")}, "the match script is written to "},
	} {
		t.Run(c.rule, func(t *testing.T) {
			_, errs, code := arb(t, c.db, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(errs, c.tell) {
				t.Errorf("stderr does not tell %q:\n%s", c.tell, errs)
			}
			if bad := errorLines(errs); len(bad) > 0 {
				t.Errorf("information that reads as an error (the prefix of a refusal): %q", bad)
			}
		})
	}
}

// A writing command that succeeded says, in one line on standard output
// read from its own events, what was recorded and as which event, then the
// clocks as 'status' shows them at its instant, or the game's end: before,
// move, press, pause, resume, adjust, draw, resign, result, incident,
// forfeit, amend, game schedule and game postpone printed nothing.
func TestAWritingCommandSaysWhatItRecorded(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	words, err := splitLine(newMatch + " --tz America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	mustArb(t, db, append([]string{"--at", at(0)}, words...)...)
	day := 24 * time.Hour
	for _, c := range []struct {
		rule string
		at   time.Duration
		args []string
		want string
	}{
		{"a schedule says the start in the match's zone and its event", time.Second, []string{"game", "schedule", "2", "--start", "1996-02-11T20:00:00Z"},
			"start of game 2 at 1996-02-11 15:00:00 EST recorded as event 2"},
		{"game start says its event, the colours and the clocks", 2 * time.Second, []string{"game", "start"},
			"game 1 started as event 3: Deep Blue (White) vs Garry Kasparov (Black); White's clock runs (White 2:00:00, Black 2:00:00)"},
		{"a move says its number, its event and ply, and the clocks", 62 * time.Second, []string{"--as", "operator", "move", "e4"},
			"1.e4 recorded as event 4 (game 1, ply 1); Black's clock runs (White 1:59:00, Black 2:00:00)"},
		{"Black's move is numbered as a scoresheet numbers it", 92 * time.Second, []string{"--as", "black", "move", "e5"},
			"1…e5 recorded as event 5 (game 1, ply 2); White's clock runs (White 1:59:00, Black 1:59:30)"},
		{"a press says whose it was and how its move is entered", 100 * time.Second, []string{"press"},
			"clock press by White (Deep Blue) recorded as event 6 (game 1); Black's clock runs (White 1:58:52, Black 1:59:30); enter the move with 'move MOVE --pressed'"},
		{"a move for a press says the move", 101 * time.Second, []string{"move", "Nf3", "--pressed"},
			"2.Nf3 recorded as event 7 (game 1, ply 3); Black's clock runs (White 1:58:52, Black 1:59:29)"},
		{"a draw offer says by whom", 110 * time.Second, []string{"draw", "offer"},
			"draw offer by White (Deep Blue) recorded as event 8 (game 1); Black's clock runs (White 1:58:52, Black 1:59:20)"},
		{"a declined draw says so", 120 * time.Second, []string{"draw", "decline"},
			"decline of the draw offer recorded as event 9 (game 1); Black's clock runs (White 1:58:52, Black 1:59:10)"},
		{"a pause says the clocks stopped", 130 * time.Second, []string{"pause", "--reason", "noise in the hall"},
			"pause recorded as event 10 (game 1); the clocks are stopped (White 1:58:52, Black 1:59:00)"},
		{"a resume says whose clock runs", 190 * time.Second, []string{"resume"},
			"resume recorded as event 11 (game 1); Black's clock runs (White 1:58:52, Black 1:59:00)"},
		{"an adjustment says the correction and the clocks after it", 200 * time.Second, []string{"adjust", "white", "+5m", "--reason", "the clock was set wrong"},
			"correction of White's clock (+0:05:00) recorded as event 12 (game 1); Black's clock runs (White 2:03:52, Black 1:58:50)"},
		{"a clock set says the reading", 201 * time.Second, []string{"adjust", "black", "=1:58:00", "--reason", "the clock was set wrong"},
			"correction of Black's clock (set to 1:58:00) recorded as event 13 (game 1); Black's clock runs (White 2:03:52, Black 1:58:00)"},
		{"an incident says its kind", 210 * time.Second, []string{"incident", "note", "--text", "the hall is quiet"},
			"incident note recorded as event 14 (game 1); Black's clock runs (White 2:03:52, Black 1:57:51)"},
		{"an amendment says the ply, from what to what", 230 * time.Second, []string{"amend", "--ply", "3", "Nc3", "--reason", "the board had Nc3"},
			"amendment of ply 3 from 2.Nf3 to 2.Nc3 recorded as event 15 (game 1); Black's clock runs (White 2:03:52, Black 1:57:31)"},
		{"a resignation says who resigned and the result", 240 * time.Second, []string{"resign", "black"},
			"resignation of Black (Garry Kasparov) recorded as event 16 (game 1): game over, 1-0 (resignation)"},
		{"a postponement says the game", 250 * time.Second, []string{"game", "postpone", "3", "--reason", "the hall is needed"},
			"postponement of game 3 recorded as event 17"},
		{"a forfeit says who was defaulted and the result", day + time.Hour + time.Second, []string{"forfeit", "white", "--reason", "did not come"},
			"forfeit of White (Garry Kasparov) recorded as event 18 (game 2): game over, 0-1 (forfeit)"},
		{"a move that ends the game says the result", day + 2*time.Hour + 4*time.Second, nil,
			"2…Qh4# recorded as event 23 (game 4, ply 4): game over, 0-1 (checkmate)"},
		{"an accepted draw says the result", day + 3*time.Hour + 2*time.Second, nil,
			"acceptance of the draw offer recorded as event 27 (game 5): game over, 1/2-1/2 (agreement)"},
		{"the arbiter's decision says the result", day + 4*time.Hour + time.Second, nil,
			"the arbiter's decision recorded as event 30 (game 6): game over, 1-0 (arbiter decision)"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			args := c.args
			switch {
			case strings.Contains(c.rule, "ends the game"):
				mustArb(t, db, "--at", at(day+2*time.Hour), "game", "start", "4")
				for i, mv := range []string{"f3", "e5", "g4"} {
					mustArb(t, db, "--at", at(day+2*time.Hour+time.Duration(i+1)*time.Second), "move", mv)
				}
				args = []string{"move", "Qh4"}
			case strings.Contains(c.rule, "accepted draw"):
				mustArb(t, db, "--at", at(day+3*time.Hour), "game", "start", "5")
				mustArb(t, db, "--at", at(day+3*time.Hour+time.Second), "draw", "offer", "white")
				args = []string{"draw", "accept"}
			case strings.Contains(c.rule, "decision"):
				mustArb(t, db, "--at", at(day+4*time.Hour), "game", "start", "6")
				args = []string{"result", "1-0", "--reason", "the arbiter decides"}
			}
			out, errs, code := arb(t, db, append([]string{"--at", at(c.at)}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if out != c.want+"\n" {
				t.Errorf("stdout %q\nwant   %q", out, c.want+"\n")
			}
		})
	}
}

// 'arbiter help' lists every command with its summary in one column: a
// usage too long for its column stands on a line of its own, its summary
// on the next (before, such a summary followed the usage after one space,
// mid-line).
func TestHelpListsEverySummaryInOneColumn(t *testing.T) {
	out, errs, code := run0(t, nil, "--db", filepath.Join(t.TempDir(), "m.db"), "help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const column = 2 + 60 + 1
	for _, c := range Commands() {
		t.Run(c.name, func(t *testing.T) {
			i := strings.Index(out, c.summary)
			if i < 0 {
				t.Fatalf("help does not list %q", c.summary)
			}
			if col := i - (strings.LastIndex(out[:i], "\n") + 1); col != column {
				t.Errorf("the summary starts in column %d, want %d", col, column)
			}
		})
	}
}

// The text of 'status' ends no line in a space: a game in progress has no
// termination, and its result line ended "result * " before.
func TestStatusEndsNoLineInASpace(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	newMatchAt(t, db)
	mustArb(t, db, "--at", at(time.Second), "game", "start")
	mustArb(t, db, "--at", at(time.Minute), "--as", "operator", "move", "e4")
	for _, c := range []struct {
		rule string
		at   time.Duration
	}{
		{"a game in progress before its first move", 2 * time.Second},
		{"a game in progress after its first move", time.Minute},
	} {
		t.Run(c.rule, func(t *testing.T) {
			out := mustArb(t, db, "--at", at(c.at), "status")
			for _, l := range strings.Split(out, "\n") {
				if strings.HasSuffix(l, " ") {
					t.Errorf("the line %q ends in a space", l)
				}
			}
		})
	}
}

// 'engine move' says the engine's move it recorded (with --play the move
// played too, as 'move' says it), and 'credential check' whose credential
// it found right, recording nothing: both printed nothing before.
func TestEngineMoveAndCredentialCheckSayWhatTheyDid(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch+" --pin \""+arbPass+"\""))
	mustArb(t, db, "--at", at(time.Second), "--pin", arbPass, "game", "start")
	mustArb(t, db, "--at", at(2*time.Second), "--pin", arbPass, "credential", "add", "--role", "operator", "--secret", "the operator's passphrase")
	engineMove := func(at string) []string {
		return []string{"--at", at, "--as", "operator", "--secret", "the operator's passphrase", "engine", "move", "--game", "1", "--ply", "1",
			"--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "--uci", "e2e4", "--received", at,
			"--transcript", "game-1.log", "--lines", "20", "--bytes", "900", "--sha256", strings.Repeat("ab", 32), "--play"}
	}
	for _, c := range []struct {
		rule   string
		before [][]string // commands given first
		args   []string
		want   string
	}{
		{"an engine move played says the engine's move and the move", nil, engineMove(at(time.Minute)),
			"the engine's move 1.e4 for ply 1 recorded as event 4 (game 1)\n1.e4 recorded as event 5 (game 1, ply 1); Black's clock runs (White 1:59:01, Black 2:00:00)\n"},
		{"a move of the computer that is not its engine's says the incident too", [][]string{
			{"--at", at(2 * time.Minute), "--pin", arbPass, "move", "e5"},
			{"--at", at(150 * time.Second), "--as", "operator", "--secret", "the operator's passphrase", "engine", "move", "--game", "1", "--ply", "3",
				"--fen", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", "--uci", "g1f3", "--received", at(150 * time.Second),
				"--transcript", "game-1.log", "--lines", "40", "--bytes", "1800", "--sha256", strings.Repeat("cd", 32)},
		}, []string{"--at", at(3 * time.Minute), "--as", "operator", "--secret", "the operator's passphrase",
			"move", "Nc3", "--not-engine", "--reason", "the operator misread the screen"},
			"2.Nc3 recorded as event 8 (game 1, ply 3); Black's clock runs (White 1:58:01, Black 1:59:00); not the engine's move: incident not-engine recorded as event 9\n"},
		{"the arbiter's credential checked says so", nil, []string{"--at", at(4 * time.Minute), "--pin", arbPass, "credential", "check"},
			"the arbiter's credential is right; nothing recorded\n"},
		{"the operator's credential checked says so", nil, []string{"--at", at(4 * time.Minute), "--as", "operator", "--secret", "the operator's passphrase", "credential", "check"},
			"the operator's credential is right; nothing recorded\n"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			for _, args := range c.before {
				mustArb(t, db, args...)
			}
			out, errs, code := arb(t, db, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if out != c.want {
				t.Errorf("stdout %q\nwant   %q", out, c.want)
			}
		})
	}
	t.Run("an unprotected match's credential check says none is needed", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "u.db")
		newMatchAt(t, db)
		if out := mustArb(t, db, "credential", "check"); out != "unprotected match: no credential is needed, so none was checked; nothing recorded\n" {
			t.Errorf("stdout %q", out)
		}
	})
}

// A flag says its verdict (Article 6.9), then, as every writing command, the
// flag recorded, its event and the game's end: before, the verdict alone,
// which did not say the result.
func TestAFlagSaysItsVerdictThenWhatWasRecorded(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	newMatchAt(t, db)
	mustArb(t, db, "--at", at(time.Second), "game", "start")
	mustArb(t, db, "--at", at(time.Minute), "--as", "operator", "move", "e4")
	out := mustArb(t, db, "--at", at(3*time.Hour), "flag", "black")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "Black's flag fell at 22:01:00.000") {
		t.Fatalf("stdout %q: want the verdict, then the flag recorded", out)
	}
	if want := "flag of Black (Garry Kasparov) recorded as event 4 (game 1): game over, 1-0 (time forfeit)"; lines[1] != want {
		t.Errorf("the second line %q\nwant            %q", lines[1], want)
	}
}

// A claim of a draw says its ruling, then the claim recorded, its event and
// the clocks (an invalid claim: the game goes on) or the game's end.
func TestAClaimSaysItsRulingThenWhatWasRecorded(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	newMatchAt(t, db)
	mustArb(t, db, "--at", at(time.Second), "game", "start")
	mustArb(t, db, "--at", at(time.Minute), "--as", "operator", "move", "e4")
	out := mustArb(t, db, "--at", at(2*time.Minute), "--as", "black", "claim", "repetition")
	want := "The claim is not valid: the current position has occurred only once. The game continues.\n" +
		"claim of repetition by Black (Garry Kasparov) recorded as event 4 (game 1); Black's clock runs (White 1:59:01, Black 1:59:00)\n"
	if out != want {
		t.Errorf("stdout %q\nwant   %q", out, want)
	}
}

// match new says the time control the match got, each player's when they
// differ: a match made without --tc gets the 1996 match's (acm1996, two
// hours for 40 moves), which a new arbiter had no way to see.
func TestMatchNewSaysTheTimeControl(t *testing.T) {
	for _, c := range []struct {
		rule string
		tc   []string
		want string
	}{
		{"without --tc the 1996 match's control is said", nil, `match "T" created: A vs B, 6 games, time control 40/2h, 20/1h, 30m; game 1: A has White (lots drawn at the board)`},
		{"a preset is said as it counts", []string{"--tc", "rapid"}, `match "T" created: A vs B, 6 games, time control 15m, +10s per move from move 1; game 1: A has White`},
		{"a control per player is said per player", []string{"--tc", "A=5400+30", "--tc", "B=3600+30"},
			`6 games, time controls A 90m, +30s per move from move 1 / B 1h, +30s per move from move 1; game 1`},
	} {
		t.Run(c.rule, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			out := mustArb(t, db, append([]string{"--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--white", "A"}, c.tc...)...)
			if first, _, _ := strings.Cut(out, "\n"); !strings.Contains(first, c.want) {
				t.Errorf("the first line %q does not say %q", first, c.want)
			}
		})
	}
}

// match new on a protected match says once what to write down and why: the
// id and the key, which 'verify --key KEY --match ID' checks. Before, two
// lines overlapped ("(write it down: …)", then "(write both down: …)").
// Since branch hanchor it says where to keep them (on paper, away from the
// computer that holds the record) and why.
func TestMatchNewSaysOnceWhatToWriteDown(t *testing.T) {
	for _, c := range []struct {
		rule  string
		args  []string
		lines []string // the lines after the first, in order
	}{
		{"a protected match: the id, the key and one line on writing both down", []string{"--pin", "correct horse battery"}, []string{
			"the match id: ",
			"the arbiter's key: ",
			"(write both down on paper, away from this computer: 'arbiter verify --key KEY --match ID' checks the record against them and tells this match from any other, also one made with the same key file; a record re-made from its start under another key verifies without them)",
		}},
		{"an unprotected match: the id alone", nil, []string{"the match id: "}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			out := mustArb(t, db, append([]string{"--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--white", "A"}, c.args...)...)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != 1+len(c.lines) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), 1+len(c.lines), out)
			}
			for i, want := range c.lines {
				if !strings.HasPrefix(lines[i+1], want) {
					t.Errorf("line %d is %q, want it to begin %q", i+2, lines[i+1], want)
				}
			}
			if n := strings.Count(out, "write"); n > 1 {
				t.Errorf("%q is said %d times:\n%s", "write", n, out)
			}
		})
	}
}

// arrive, correct and credential add say what they recorded in the form
// of every other writing command: what, as which event and in which game,
// then the clocks at the command's instant (credential add: the new key's
// fingerprint after it). Before, arrive said the arrival without its event
// or the clocks, correct began "position before … restored" and credential
// add printed a fingerprint alone.
func TestArriveCorrectAndCredentialAddSayWhatTheyRecorded(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	words, err := splitLine(newMatch + " --tz America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	mustArb(t, db, append([]string{"--at", at(0)}, append(words, "--pin", arbPass)...)...)
	fingerprint := regexp.MustCompile(`; its key: [0-9a-f]{8}( [0-9a-f]{8}){7}$`)
	for _, c := range []struct {
		rule  string
		at    time.Duration
		args  []string
		first string // the first line of stdout, the recorded line
		also  []string
	}{
		{"game start", time.Second, []string{"game", "start"}, "game 1 started as event 2: Deep Blue (White) vs Garry Kasparov (Black); White's clock runs (White 2:00:00, Black 2:00:00)", nil},
		{"credential add says whose credential, its event and its key", 2 * time.Second, []string{"credential", "add", "--role", "operator", "--secret", "Hsu's passphrase"},
			"credential of the operator (passphrase) recorded as event 3", nil},
		{"a player's credential names the player", 3 * time.Second, []string{"credential", "add", "--role", "player", "--player", "Garry Kasparov", "--secret", "Garry's passphrase"},
			"credential of player Garry Kasparov (passphrase) recorded as event 4", nil},
		{"move", 62 * time.Second, []string{"move", "e4"}, "1.e4 recorded as event 5 (game 1, ply 1); Black's clock runs (White 1:58:59, Black 2:00:00)", nil},
		{"move", 92 * time.Second, []string{"move", "e5"}, "1…e5 recorded as event 6 (game 1, ply 2); White's clock runs (White 1:58:59, Black 1:59:30)", nil},
		{"arrive says whose arrival at which instant in the match's zone, its event and the clocks at the command's instant", 100 * time.Second, []string{"arrive", "--player", "Garry Kasparov", "--at", at(30 * time.Second)},
			"arrival of Black (Garry Kasparov) at the board at 15:00:30.000 EST (6.6) recorded as event 7 (game 1); White's clock runs (White 1:58:51, Black 1:59:30)", nil},
		{"move", 110 * time.Second, []string{"move", "Nf3"}, "2.Nf3 recorded as event 8 (game 1, ply 3); Black's clock runs (White 1:58:41, Black 1:59:30)", nil},
		{"correct says the ply, the position restored, its event and the clocks, then the readings and the bonus's event", 120 * time.Second,
			[]string{"correct", "--ply", "3", "--method", "keep", "--reason", "the board had Nc3"},
			"correction of ply 3 (position before 2. Nf3 restored, 1 ply struck out) recorded as event 9 (game 1); the clocks are stopped (White 1:58:41, Black 2:04:20)",
			[]string{"White: 1:58:41, period 1, 1 move (", "Garry Kasparov receives the recovery bonus of 0:05:00 (rule 10), recorded as event 10\n"}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			out, errs, code := arb(t, db, append([]string{"--at", at(c.at), "--pin", arbPass}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			first, _, _ := strings.Cut(out, "\n")
			if c.args[0] == "credential" {
				if !fingerprint.MatchString(first) {
					t.Errorf("the line %q does not end with the key's fingerprint", first)
				}
				first = fingerprint.ReplaceAllString(first, "")
			}
			if first != c.first {
				t.Errorf("the first line %q\nwant           %q", first, c.first)
			}
			for _, w := range c.also {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestDrawOfferHelpSaysTheDefaultSideTheCommandTakes: 'arbiter help draw
// offer' says the default side as the command takes it, the giver's own
// with --as; it said "the side that made the last move", and Black's offer
// given with --as black right after White's move is Black's.
func TestDrawOfferHelpSaysTheDefaultSideTheCommandTakes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	mustArb(t, db, "--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--white", "A")
	mustArb(t, db, "--at", at(time.Second), "game", "start")
	mustArb(t, db, "--at", at(2*time.Second), "--as", "white", "move", "e4")
	for _, tc := range []struct {
		name, role, says, offerer string
	}{
		{"a player's offer without a side is his own, not the last mover's", "black", "your own side with --as white|black", "Black"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			help, _, _ := arb(t, db, "help", "draw", "offer")
			if !strings.Contains(help, tc.says) {
				t.Errorf("help draw offer does not say %q: %s", tc.says, help)
			}
			out := mustArb(t, db, "--at", at(3*time.Second), "--as", tc.role, "draw", "offer")
			if !strings.HasPrefix(out, "draw offer by "+tc.offerer) {
				t.Errorf("--as %s draw offer after White's move: %q, want the offer by %s", tc.role, out, tc.offerer)
			}
		})
	}
}

// The help says the clock readings a command takes as it takes them,
// H:MM:SS[.fff], as docs/cli.md does: game start takes --white 0:45:00.250
// and keeps its milliseconds. Before, the help said H:MM:SS where
// docs/cli.md said H:MM:SS[.fff], and a user could not tell which was right.
func TestTheHelpSaysTheClockReadingsACommandTakes(t *testing.T) {
	doc, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := strings.ReplaceAll(string(doc), `\|`, "|")
	for _, c := range []struct{ command, usage string }{
		{"game start", "game start [N] [--fen FEN [--white H:MM:SS[.fff]] [--black H:MM:SS[.fff]]]"},
		{"correct", "[--white H:MM:SS[.fff] --black H:MM:SS[.fff]]"},
	} {
		t.Run(c.command+": the help and docs/cli.md say H:MM:SS[.fff]", func(t *testing.T) {
			help := mustArb(t, filepath.Join(t.TempDir(), "m.db"), append(strings.Fields(c.command), "--help")...)
			if !strings.Contains(help, c.usage) {
				t.Errorf("the help does not say %q:\n%s", c.usage, help)
			}
			if !strings.Contains(documented, c.usage) {
				t.Errorf("docs/cli.md does not say %q", c.usage)
			}
		})
	}
	t.Run("game start takes --white 0:45:00.250 and keeps its milliseconds", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "m.db")
		mustArb(t, db, "--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--white", "A")
		mustArb(t, db, "--at", at(time.Second), "game", "start", "--fen", "8/8/4k3/8/8/4K3/4P3/8 w - - 0 60", "--white", "0:45:00.250", "--black", "0:30:00.5")
		out := mustArb(t, db, "--at", at(time.Second), "status", "--json")
		for _, want := range []string{`"remaining_ms": 2700250`, `"remaining_ms": 1800500`} {
			if !strings.Contains(out, want) {
				t.Errorf("status lacks %s:\n%s", want, out)
			}
		}
	})
}
