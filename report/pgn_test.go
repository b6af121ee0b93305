package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/internal/demo"
	"arbiter/match"
	"arbiter/report"
	"arbiter/scoresheet"
)

func TestMoveComment(t *testing.T) {
	tests := []struct {
		name  string
		entry scoresheet.Entry
		notes []string
		want  string
	}{
		{"White's comment holds White's clock and the time used",
			scoresheet.Entry{Color: chess.White, ClockWhite: time.Hour + 59*time.Minute, ClockBlack: time.Hour, Elapsed: 61 * time.Second},
			nil, "[%clk 1:59:00] [%emt 0:01:01]"},
		{"clock readings are rounded down to whole seconds",
			scoresheet.Entry{ClockWhite: 2*time.Hour - time.Millisecond, Elapsed: 999 * time.Millisecond},
			nil, "[%clk 1:59:59] [%emt 0:00:00]"},
		{"a draw offer made with the move comes first as (=)",
			scoresheet.Entry{DrawOffer: true, ClockWhite: 5 * time.Minute, Elapsed: time.Second},
			nil, "(=) [%clk 0:05:00] [%emt 0:00:01]"},
		{"notes follow the clock commands, separated by semicolons",
			scoresheet.Entry{ClockWhite: time.Minute, Elapsed: time.Second},
			[]string{"Arbiter: pause (6.12a) noise; W 0:01:00 B 0:02:00", "Operator: note x"},
			"[%clk 0:01:00] [%emt 0:00:01] Arbiter: pause (6.12a) noise; W 0:01:00 B 0:02:00; Operator: note x"},
		{"braces and clock commands in free text cannot break the comment",
			scoresheet.Entry{ClockWhite: time.Minute},
			[]string{"a {b} [%clk 9:99:99]\nline"},
			"[%clk 0:01:00] [%emt 0:00:00] a (b) [ %clk 9:99:99] line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.entry
			if got := report.MoveComment(&e, tc.notes); got != tc.want {
				t.Errorf("MoveComment = %q\nwant          %q", got, tc.want)
			}
		})
	}
	t.Run("Black's comment holds Black's clock", func(t *testing.T) {
		s, _ := scoresheet.NewSheet("")
		s.Play("e4")
		e, _ := s.Play("e5")
		e.ClockWhite, e.ClockBlack = time.Hour, 90*time.Minute
		if got, want := report.MoveComment(e, nil), "[%clk 1:30:00] [%emt 0:00:00]"; got != want {
			t.Errorf("MoveComment = %q, want %q", got, want)
		}
	})
}

// handGame is a two-move game with incidents before, between and after the
// moves and one move struck out by a correction.
func handGame(t *testing.T) *match.State {
	t.Helper()
	ctl, err := clock.ParseSpec("acm1996")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scoresheet.NewSheet("")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"e4", "e5", "Nf3"} {
		if _, err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.TakeBack(3); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2024, 5, 1, 13, 0, 0, 0, time.UTC)
	g := &match.Game{Number: 1, White: "Ann", Black: "Bob", State: match.Running, Result: "*", Started: t0, Sheet: s,
		Clock: clock.New(ctl, ctl)}
	inc := func(ply int, role match.Role, kind, text, rule string) match.Incident {
		return match.Incident{Ply: ply, At: t0.Add(time.Duration(ply) * time.Minute), Role: role, Kind: kind, Text: text, Rule: rule, WhiteClock: 2 * time.Hour, BlackClock: 2 * time.Hour}
	}
	g.Incidents = []match.Incident{
		inc(0, match.RoleArbiter, "note", "board turned round", ""),
		inc(1, match.RoleArbiter, "pause", "noise", "6.12a"),
		inc(2, match.RoleArbiter, "correct", "3. Nf3 was not played", "rule 10"),
	}
	return &match.State{Match: &match.Match{Title: "Test match", Arbiter: "Carl", Players: [2]string{"Ann", "Bob"},
		Controls: map[string]clock.Control{"Ann": ctl, "Bob": ctl}, GamesPlanned: 2}, Games: []*match.Game{g}}
}

func TestMatchPGNComments(t *testing.T) {
	games := report.MatchPGN(handGame(t), 0)
	if len(games) != 1 || len(games[0].Moves) != 2 {
		t.Fatalf("MatchPGN = %d games; want one game of two moves", len(games))
	}
	mv := games[0].Moves
	tests := []struct {
		name    string
		comment string
		want    string
	}{
		{"an incident before the first move goes into the comment before it", games[0].Intro, "Arbiter: note board turned round; W 2:00:00 B 2:00:00"},
		{"an incident after a move goes into that move's comment", mv[0].Comment, "Arbiter: pause (6.12a) noise"},
		{"a struck-out move whose replacement is not played yet is named in the last comment", games[0].Final, "struck out: operator error, rule 10: 2. Nf3"},
		{"an incident carries a structured command with kind, rule, instant and role", mv[0].Comment, "[%evt pause 6.12a 2024-05-01T13:01:00.000Z arbiter]"},
		{"the correction is noted where it was logged", mv[1].Comment, "Arbiter: correct (rule 10) 3. Nf3 was not played"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(tc.comment, tc.want) {
				t.Errorf("comment %q lacks %q", tc.comment, tc.want)
			}
		})
	}
	t.Run("every comment starts with the clock commands", func(t *testing.T) {
		for i, m := range mv {
			if !strings.HasPrefix(m.Comment, "[%clk ") {
				t.Errorf("move %d comment %q", i+1, m.Comment)
			}
		}
	})
}

func TestMatchPGNTags(t *testing.T) {
	st := handGame(t)
	var b bytes.Buffer
	if err := report.WritePGN(&b, st, 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	want := `[Event "Test match"]
[Site "?"]
[Date "2024.05-01"]
[Round "1"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[Annotator "Carl"]
[UTCDate "2024.05.01"]
[UTCTime "13:00:00"]
[Mode "OTB"]
[TimeControl "40/7200:20/3600:1800"]
[ArbiterTimeControl "40/7200:20/3600:1800"]
[WhiteType "human"]
[BlackType "human"]
[Termination "unterminated"]
[PlyCount "2"]
[Arbiter "Carl"]
`
	want = strings.Replace(want, "2024.05-01", "2024.05.01", 1)
	t.Run("the Seven Tag Roster comes first, then Annotator, the UTC start, the controls, the player types, Termination, PlyCount and Arbiter", func(t *testing.T) {
		if !strings.HasPrefix(out, want) {
			t.Errorf("tags:\n%s\nwant:\n%s", out, want)
		}
	})
	t.Run("every tag the standard defines has a value from its lists", func(t *testing.T) {
		if p := scoresheet.TagProblems(report.MatchPGN(st, 1)[0].Tags); len(p) > 0 {
			t.Errorf("tag problems: %v", p)
		}
	})
	t.Run("the comment before the first move holds what happened before it and nothing after", func(t *testing.T) {
		_, movetext, _ := strings.Cut(out, "\n\n")
		intro, _, _ := strings.Cut(strings.Join(strings.Fields(movetext), " "), "}")
		if !strings.HasPrefix(intro, "{") || !strings.Contains(intro, "board turned round") || strings.Contains(intro, "pause") {
			t.Errorf("output:\n%s", out)
		}
	})
	t.Run("Date is the day in the match's time zone, UTCDate the day in UTC", func(t *testing.T) {
		st := handGame(t)
		st.Match.TimeZone = "America/New_York"
		st.Games[0].Started = time.Date(1996, 2, 15, 0, 43, 0, 0, time.UTC)
		tags := report.MatchPGN(st, 1)[0].Tags
		got := map[string]string{}
		for _, tg := range tags {
			got[tg.Name] = tg.Value
		}
		if got["Date"] != "1996.02.14" || got["UTCDate"] != "1996.02.15" || got["UTCTime"] != "00:43:00" || got["ArbiterTimeZone"] != "America/New_York" {
			t.Errorf("Date %q UTCDate %q UTCTime %q ArbiterTimeZone %q", got["Date"], got["UTCDate"], got["UTCTime"], got["ArbiterTimeZone"])
		}
	})
	t.Run("players with different controls get WhiteTimeControl and BlackTimeControl, exact in Arbiter tags", func(t *testing.T) {
		st := handGame(t)
		fast, _ := clock.ParseSpec("5400+30")
		g := st.Games[0]
		g.Clock = clock.New(g.Clock.Control(clock.White), fast)
		tags := report.MatchPGN(st, 1)[0].Tags
		var names []string
		for _, tg := range tags {
			names = append(names, tg.Name+"="+tg.Value)
		}
		got := strings.Join(names, " ")
		for _, w := range []string{"TimeControl=? ", "WhiteTimeControl=40/7200:20/3600:1800", "BlackTimeControl=5400+30",
			"ArbiterWhiteTimeControl=40/7200:20/3600:1800", "ArbiterBlackTimeControl=5400+30"} {
			if !strings.Contains(got, w) {
				t.Errorf("tags %s lack %s", got, w)
			}
		}
	})
	t.Run("a game not started is refused with a sentence", func(t *testing.T) {
		st := handGame(t)
		st.Games = append(st.Games, &match.Game{Number: 2, State: match.Scheduled})
		err := report.WritePGN(&bytes.Buffer{}, st, 2)
		if err == nil || !strings.Contains(err.Error(), "game 2 has not started") {
			t.Errorf("WritePGN(game 2) = %v", err)
		}
	})
}

// noEP drops the en-passant field of a FEN (tools write it differently).
func noEP(fen string) string {
	f := strings.Fields(fen)
	if len(f) == 6 {
		f = append(f[:3], f[4:]...)
	}
	return strings.Join(f, " ")
}

func TestExportedPGNPassesValidators(t *testing.T) {
	db := sixGames(t)
	st, _ := loadState(t, db)
	out := runCLI(t, "--db", db, "export", "pgn")
	p := filepath.Join(t.TempDir(), "match.pgn")
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("our reader finds the games' final positions", func(t *testing.T) {
		rgs, err := scoresheet.ReadPGN(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if len(rgs) != 6 {
			t.Fatalf("read %d games, want 6", len(rgs))
		}
		for i, rg := range rgs {
			if p := scoresheet.TagProblems(rg.Tags); len(p) > 0 {
				t.Errorf("game %d: tags the standard does not allow: %v", i+1, p)
			}
			if got, want := noEP(rg.FinalFEN), noEP(st.Games[i].Sheet.FEN()); got != want {
				t.Errorf("game %d: final FEN %s, want %s", i+1, got, want)
			}
		}
	})
	t.Run("pgn-extract and chess.js accept it and reach the games' positions", func(t *testing.T) {
		script := "../tools/pgncheck/pgncheck.sh"
		if _, err := os.Stat(script); err != nil {
			if os.Getenv("ARBITER_REQUIRE_VALIDATORS") == "1" {
				t.Fatalf("tools/pgncheck is missing: %v", err)
			}
			t.Skip("tools/pgncheck is missing")
		}
		res, err := exec.Command("sh", script, p).CombinedOutput()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 && os.Getenv("ARBITER_REQUIRE_VALIDATORS") != "1" {
				t.Skipf("validators not installed: %s", res)
			}
			t.Fatalf("pgncheck: %v\n%s", err, res)
		}
		fens, err := exec.Command("node", "../tools/pgncheck/check.mjs", p).Output()
		if err != nil {
			t.Fatalf("check.mjs: %v", err)
		}
		lines := strings.Split(strings.TrimSpace(string(fens)), "\n")
		for i, g := range st.Games {
			if i >= len(lines) || lines[i] != noEP(g.Sheet.FEN()) {
				t.Errorf("game %d: chess.js ends at %q, the record at %q", i+1, lines[i], noEP(g.Sheet.FEN()))
			}
		}
	})
}

var clkRE = regexp.MustCompile(`\[%clk\s+(\d+:\d\d:\d\d)\]`)

// TestClockCommentsAgreeWithStatus plays game 1 of the demo line by line and
// reads status --json after every move: the mover's remaining time, floored
// to seconds, is the %clk of that move in the exported PGN.
func TestClockCommentsAgreeWithStatus(t *testing.T) {
	script, err := demo.Script1996(demo.Options{Games: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "g1.db")
	line := filepath.Join(dir, "line.txt")
	start := demo.Start.Format(time.RFC3339)
	var want []string
	for _, l := range strings.Split(script, "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if err := os.WriteFile(line, []byte(l+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		runCLI(t, "--db", db, "--at", start, "play", line)
		if !strings.Contains(l, " move ") {
			continue
		}
		off, err := parseOffset(strings.Fields(l)[0])
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Game struct {
				ToMove string `json:"to_move"`
				Clock  struct {
					White struct {
						RemainingMS int64 `json:"remaining_ms"`
					} `json:"white"`
					Black struct {
						RemainingMS int64 `json:"remaining_ms"`
					} `json:"black"`
				} `json:"clock"`
			} `json:"game"`
		}
		out := runCLI(t, "--db", db, "--at", demo.Start.Add(off).Format(time.RFC3339Nano), "status", "--json")
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("status --json: %v\n%s", err, out)
		}
		ms := s.Game.Clock.White.RemainingMS
		if s.Game.ToMove == "white" {
			ms = s.Game.Clock.Black.RemainingMS
		}
		want = append(want, clock.FormatShown(time.Duration(ms)*time.Millisecond))
	}
	pgn := runCLI(t, "--db", db, "export", "pgn", "--game", "1")
	var got []string
	for _, m := range clkRE.FindAllStringSubmatch(pgn, -1) {
		got = append(got, m[1])
	}
	if len(got) != len(want) || len(want) < 70 {
		t.Fatalf("%d %%clk values for %d moves", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ply %d: %%clk %s, status says %s", i+1, got[i], want[i])
		}
	}
}

func parseOffset(s string) (time.Duration, error) {
	var h, m, sec, ms int
	if _, err := fmt.Sscanf(s, "%d:%d:%d.%d", &h, &m, &sec, &ms); err != nil {
		return 0, fmt.Errorf("offset %q: %v", s, err)
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond, nil
}

func FuzzMoveComment(f *testing.F) {
	f.Add("noise", int64(7_199_999), true)
	f.Add("a {b} [%clk 1:00:00]\n%c", int64(0), false)
	f.Add("}}}{{{", int64(-5), false)
	f.Fuzz(func(t *testing.T, note string, ms int64, offer bool) {
		e := &scoresheet.Entry{ClockWhite: time.Duration(ms) * time.Millisecond, Elapsed: time.Duration(ms) * time.Millisecond, DrawOffer: offer}
		c := report.MoveComment(e, []string{note})
		if strings.ContainsAny(c, "{}\n\r") {
			t.Errorf("comment %q can break the PGN", c)
		}
		if n := strings.Count(c, "[%"); n != 2 {
			t.Errorf("comment %q has %d commands, want %%clk and %%emt only", c, n)
		}
	})
}

func benchmarkState(b *testing.B) (*match.State, string) {
	dir := b.TempDir()
	db := buildDemo(b, dir, 0)
	return loadState(b, db)
}

func BenchmarkExportPGN6Games(b *testing.B) {
	st, _ := benchmarkState(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := report.WritePGN(&bytes.Buffer{}, st, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExportPDF6Games(b *testing.B) {
	st, head := benchmarkState(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := report.WritePDF(&bytes.Buffer{}, st, head, report.PDFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// correctionScript plays a game in which the operator's slip 3... Nc6 is
// taken back (rule 10) and replaced by 3... Nf6, and a pause, then Black
// resigns.
const correctionScript = `0:00:00 match new --title "T" --player "Anna Schmidt" --player "Deep Blue" --computer "Deep Blue" --operator "Op" --arbiter "Carl Meyer" --white "Anna Schmidt" --tz Europe/Berlin --games 2
0:00:01 game start
0:00:10 move e4
0:00:20 --as operator move e5
0:00:30 move Nf3
0:00:40 --as operator move Nc6
0:00:50 move Bb5
0:01:00 correct --ply 4 --method record --reason "the operator entered the wrong knight move"
0:01:10 resume
0:01:20 --as operator move Nf6
0:01:30 pause --reason "noise in the hall"
0:01:40 resume
0:01:50 move Bc4
0:02:00 --as operator resign black
`

func TestStruckMovesAsVariation(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(sp, []byte(correctionScript), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "c.db")
	runCLI(t, "--db", db, "--at", "2024-05-01T13:00:00Z", "play", sp)
	out := runCLI(t, "--db", db, "export", "pgn")
	tests := []struct{ name, want string }{
		{"the struck moves stand as a variation right after the move that replaced them (and its comment)",
			"noise in the hall (clocks stopped); W 2:04:31 B 1:59:30; #13 Arbiter: resume (6.12c) White's clock runs again (clock started); W 2:04:31 B 1:59:30} (2... Nc6 {[%clk 1:59:40] [%emt 0:00:10]} 3. Bb5 {[%clk 1:59:31] [%emt 0:00:10]; struck out: operator error, rule 10: the operator entered the wrong knight move})"},
		{"the game continues after the variation with its move number", ") 3. Bc4"},
		{"a human's name is Last, First", `[White "Schmidt, Anna"]`},
		{"the computer's name stays as it is and it is a program", `[Black "Deep Blue"]`},
		{"BlackType says program", `[BlackType "program"]`},
		{"resignation is a normal termination", `[Termination "normal"]`},
		{"the detail of the termination is in the last comment", "Game over: resignation"},
		{"the pause is a structured command", "[%evt pause 6.12a 2024-05-01T13:01:30.000Z arbiter]"},
		{"the correction is a structured command", "[%evt correct r10 2024-05-01T13:01:00.000Z arbiter]"},
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(flat, tc.want) {
				t.Errorf("the PGN lacks %q:\n%s", tc.want, out)
			}
		})
	}
	t.Run("our reader, pgn-extract and chess.js accept it", func(t *testing.T) {
		rgs, err := scoresheet.ReadPGN(strings.NewReader(out))
		if err != nil || len(rgs) != 1 {
			t.Fatalf("ReadPGN: %d games, %v", len(rgs), err)
		}
		if p := scoresheet.TagProblems(rgs[0].Tags); len(p) > 0 {
			t.Errorf("tag problems: %v", p)
		}
		p := filepath.Join(dir, "c.pgn")
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		pgncheck(t, p)
	})
}

// pgncheck runs tools/pgncheck (pgn-extract and chess.js) on a file.
func pgncheck(t *testing.T, p string) {
	t.Helper()
	script := "../tools/pgncheck/pgncheck.sh"
	res, err := exec.Command("sh", script, p).CombinedOutput()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 && os.Getenv("ARBITER_REQUIRE_VALIDATORS") != "1" {
			t.Skipf("validators not installed: %s", res)
		}
		t.Fatalf("pgncheck: %v\n%s", err, res)
	}
}

// An incident logged after the game ended (an appeal against the result)
// comes after the end in the last comment, as it does in the record; one
// logged before the end stays before it.
func TestAnIncidentAfterTheEndFollowsItInTheLastComment(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		moves []string
	}{
		{"after the last move", []string{"e4", "e5"}},
		{"in a game without moves", nil},
	} {
		t.Run("an appeal logged after the end follows it "+tc.rule, func(t *testing.T) {
			st := handGame(t)
			g := st.Games[0]
			s, err := scoresheet.NewSheet("")
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tc.moves {
				if _, err := s.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			end := g.Started.Add(10 * time.Minute)
			g.Sheet, g.State, g.Result, g.Termination, g.Ended = s, match.Finished, "1-0", scoresheet.TermResignation, end
			g.Incidents = []match.Incident{
				{Seq: 20, At: end.Add(-time.Minute), Ply: len(tc.moves), Role: match.RoleArbiter, Kind: "note", Text: "black thinks"},
				{Seq: 21, At: end, Ply: len(tc.moves), Kind: match.IncidentResult, Text: "1-0 (resignation)"},
				{Seq: 22, At: end.Add(time.Minute), Ply: len(tc.moves), Role: match.RoleArbiter, Kind: match.IncidentAppeal, Text: "black says he did not resign", Refers: 21},
			}
			var b bytes.Buffer
			if err := report.WritePGN(&b, st, 0); err != nil {
				t.Fatal(err)
			}
			pgn := strings.Join(strings.Fields(b.String()), " ")
			note, over, appeal := strings.Index(pgn, "black thinks"), strings.Index(pgn, "Game over"), strings.Index(pgn, "[%evt appeal ")
			if note < 0 || over < 0 || appeal < 0 {
				t.Fatalf("the PGN lacks the note, the end or the appeal:\n%s", pgn)
			}
			if !(note < over && over < appeal) {
				t.Errorf("want the note, then the end, then the appeal:\n%s", pgn)
			}
		})
	}
	t.Run("the PGN with an appeal after the end passes the validators", func(t *testing.T) {
		st := handGame(t)
		g := st.Games[0]
		g.State, g.Result, g.Termination, g.Ended = match.Finished, "1-0", scoresheet.TermResignation, g.Started.Add(10*time.Minute)
		g.Incidents = append(g.Incidents,
			match.Incident{Seq: 21, At: g.Ended, Ply: 2, Kind: match.IncidentResult, Text: "1-0 (resignation)"},
			match.Incident{Seq: 22, At: g.Ended.Add(time.Minute), Ply: 2, Role: match.RoleArbiter, Kind: match.IncidentAppeal, Text: "{not} resigned [%x]", Refers: 21})
		p := filepath.Join(t.TempDir(), "g.pgn")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := report.WritePGN(f, st, 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		pgncheck(t, p)
	})
}
