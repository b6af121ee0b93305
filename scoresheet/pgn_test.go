package scoresheet

import (
	"bytes"
	"flag"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/notnil/chess"

	gamescores "arbiter/internal/games"
	"arbiter/internal/refdata"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file missing (run go test -update): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test -update to accept):\n%s", path, got)
	}
}

// readPGNFile reads every game of the PGN file at path.
func readPGNFile(t *testing.T, path string) []ReadGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := ReadPGN(f)
	if err != nil {
		t.Fatalf("ReadPGN(%s): %v", path, err)
	}
	return games
}

// deepBlue1996 reads the project's own scores of the 1996 games.
func deepBlue1996(t *testing.T) []ReadGame {
	t.Helper()
	games, err := ReadPGN(strings.NewReader(gamescores.DeepBlue1996()))
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// edge is the folder of the project's PGN fixtures that break naive readers
// (testdata/pgn-edge/README.md says what each holds).
var edge = filepath.Join("testdata", "pgn-edge")

// deepBlueGame1 is 1996 game 1 with invented clock times (30 s a move) and a
// draw offer with Black's 10th move, as the match layer would record it.
func deepBlueGame1(t *testing.T) (PGNGame, string) {
	g := deepBlue1996(t)[0]
	s := newSheet(t, "")
	start := time.Date(1996, 2, 10, 15, 0, 0, 0, time.UTC)
	for i, m := range g.Moves {
		e, err := s.Play(m)
		if err != nil {
			t.Fatalf("Play(%q): %v", m, err)
		}
		e.At = start.Add(time.Duration(i+1) * 30 * time.Second)
		e.Elapsed = 30 * time.Second
		own := 2*time.Hour - time.Duration(i/2+1)*30*time.Second
		other := 2*time.Hour - time.Duration((i+1)/2)*30*time.Second
		if e.Color == chess.White {
			e.ClockWhite, e.ClockBlack = own, other
		} else {
			e.ClockWhite, e.ClockBlack = other, own
		}
		if e.Ply == 20 {
			e.DrawOffer = true
		}
		if e.Ply == 1 {
			e.Notes = []string{"Game started 15:00 local time."}
		}
	}
	return s.PGN(g.Tags, g.Result), s.FEN()
}

func TestWritePGNGolden(t *testing.T) {
	t.Run("Deep Blue 1996 game 1 with clock comments", func(t *testing.T) {
		g, _ := deepBlueGame1(t)
		var b bytes.Buffer
		if err := WritePGN(&b, []PGNGame{g}); err != nil {
			t.Fatal(err)
		}
		golden(t, "deepblue1996-1.pgn", b.Bytes())
	})
	t.Run("a black-to-move start is numbered from the FEN", func(t *testing.T) {
		s := newSheet(t, "r1bqk1nr/pppp1ppp/2n5/4p3/1bB1P3/2P2N2/P2P1PPP/RNBQK2R b KQkq - 0 12")
		play(t, s, "Ba5", "O-O", "d6", "d4")
		s.Entries()[1].Notes = []string{"a note with } brace\nand a newline"}
		g := s.PGN([]Tag{{"White", `Smith, "Joe"`}, {"Black", `back\slash`}, {"Annotator", "Arbiter"}, {"Event", "Test"}}, "*")
		var b bytes.Buffer
		if err := WritePGN(&b, []PGNGame{g}); err != nil {
			t.Fatal(err)
		}
		golden(t, "black-to-move.pgn", b.Bytes())
	})
}

func TestWritePGNFormat(t *testing.T) {
	g, _ := deepBlueGame1(t)
	var b bytes.Buffer
	if err := WritePGN(&b, []PGNGame{g, g}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	t.Run("no line is longer than 80 columns", func(t *testing.T) {
		for i, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("line %d has %d columns: %s", i+1, n, l)
			}
		}
	})
	t.Run("the seven tag roster comes first", func(t *testing.T) {
		var names []string
		for _, l := range strings.Split(out, "\n")[:7] {
			names = append(names, strings.Fields(strings.TrimPrefix(l, "["))[0])
		}
		if got := strings.Join(names, " "); got != "Event Site Date Round White Black Result" {
			t.Errorf("first tags = %s", got)
		}
	})
	t.Run("a black move after a comment gets its number", func(t *testing.T) {
		if !strings.Contains(out, "1... c5") {
			t.Errorf("no '1...' after the first comment:\n%s", out[:400])
		}
	})
	t.Run("games are separated by one blank line", func(t *testing.T) {
		if strings.Count(out, "\n\n[Event") != 1 {
			t.Error("want exactly one blank line before the second game")
		}
	})
}

func TestPGNRoundTrip(t *testing.T) {
	g, fen := deepBlueGame1(t)
	var b bytes.Buffer
	if err := WritePGN(&b, []PGNGame{g}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPGN(&b)
	if err != nil {
		t.Fatalf("ReadPGN of our own output: %v", err)
	}
	if len(back) != 1 {
		t.Fatalf("read %d games, want 1", len(back))
	}
	r := back[0]
	if r.FinalFEN != fen {
		t.Errorf("final FEN %s, want %s", r.FinalFEN, fen)
	}
	for i, m := range g.Moves {
		if r.Moves[i] != m.SAN || r.Comments[i] != m.Comment {
			t.Errorf("move %d: read %q {%s}, wrote %q {%s}", i+1, r.Moves[i], r.Comments[i], m.SAN, m.Comment)
		}
	}
	if r.Result != g.Result {
		t.Errorf("result %q, want %q", r.Result, g.Result)
	}
}

// The project's own PGN files with the features that break naive readers
// (line breaks of a web page, a black-to-move start, score variants, a game
// of thousands of moves, comments across CRLF lines, mail headers between
// games, results standing alone, an illegal last move): each parses or is
// refused with the game and line named.
func TestReadPGNDataFiles(t *testing.T) {
	tests := []pgnFile{
		{"../internal/games/deepblue1996.pgn", 6, ""},
		{"../internal/games/deepblue1997.pgn", 6, ""},
		{"broadcast-clk.pgn", 4, ""},
		{"fen-black-to-move.pgn", 1, ""},
		{"deepblue-score-variants.pgn", 5, ""},
		{"long-game.pgn", 1, ""},
		{"comments-across-lines.pgn", 1, ""},
		{"html-line-breaks.pgn", 0, `game 1 (line 1): move 1. "<br" is not a move`},
		{"html-page.pgn", 0, `game 1 (line 1): move 1. "<p>" is not a move`},
		{"mail-between-games.pgn", 0, `game 2 (line 12): move 1. "from" is not a move`},
		{"results-alone.pgn", 0, "game 2 (line 9): the result * stands alone"},
		{"illegal-final-move.pgn", 0, "game 1 (line 16): move 14. Qxa6 is not legal for White"},
	}
	for _, tt := range tests {
		path := tt.file
		if filepath.Dir(path) == "." {
			path = filepath.Join(edge, path)
		}
		readsOrRefuses(t, path, tt)
	}
	t.Run("black-to-move FEN start replays to the right position", func(t *testing.T) {
		g := readPGNFile(t, filepath.Join(edge, "fen-black-to-move.pgn"))[0]
		want := "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2BPP3/2P2N2/PP3PPP/RNBQK2R b KQkq d3 0 5"
		if g.FinalFEN != want {
			t.Errorf("final FEN %s, want %s", g.FinalFEN, want)
		}
	})
	t.Run("a game of 4,775 plies is read whole", func(t *testing.T) {
		if g := readPGNFile(t, filepath.Join(edge, "long-game.pgn"))[0]; len(g.Moves) != 4775 {
			t.Errorf("%d plies, want 4775", len(g.Moves))
		}
	})
	t.Run("clock comments are kept per move", func(t *testing.T) {
		for _, g := range readPGNFile(t, filepath.Join(edge, "broadcast-clk.pgn")) {
			for i, c := range g.Comments {
				if !strings.Contains(c, "[%clk ") || !strings.Contains(c, "[%emt ") {
					t.Fatalf("game %s, ply %d: comment %q, want a [%%clk] and an [%%emt] command", g.Tags[3].Value, i+1, c)
				}
			}
		}
	})
	t.Run("a line starting with % inside a comment is comment text", func(t *testing.T) {
		g := readPGNFile(t, filepath.Join(edge, "comments-across-lines.pgn"))[0]
		if c := g.Comments[20]; !strings.Contains(c, "%02 [ Also possible was 11.d3") {
			t.Errorf("the comment after 11. d4 is %q", c)
		}
	})
}

// The same for the files of others (REFERENCE_DATA): the organisers'
// broadcast PGN and the files of chess.js, pgn-read and public broadcasts
// the fixtures above were written after.
func TestReadPGNReferenceFiles(t *testing.T) {
	tests := []pgnFile{
		{"deepblue1996.pgn", 6, ""},
		{"deepblue1997.pgn", 6, ""},
		{"clk-samples.pgn", 14, ""},
		{"pgn-edge/chessjs-3-fen-black-to-move.pgn", 1, ""},
		{"pgn-edge/deepblue-score-variants.pgn", 5, ""},
		{"pgn-edge/pgnread-FIDE_longest_possible_game.pgn", 1, ""},
		{"pgn-edge/pgnread-break_pgn_0_8_1_c.pgn", 1, ""},
		{"pgn-edge/chessjs-0-br-linebreaks.pgn", 0, `game 1 (line 1): move 1. "<br" is not a move`},
		{"pgn-edge/pgnread-Little_01.pgn", 0, "game 1 (line 1)"},
		{"pgn-edge/pgnread-crafty06_01.pgn", 0, `game 2 (line 29): move 1. "for" is not a move`},
		{"pgn-edge/pgnread-twic9nn_error.pgn", 0, "game 2 (line 14): the result * stands alone"},
		{"pgn-edge/wc2025-r21.30-illegal-final-move.pgn", 0, "game 1 (line 78): move 60. Ke4+ is not legal for White"},
		{"pgn-edge/wc2025-r21.8-illegal-final-move.pgn", 0, "game 1 (line 70): move 52... Kc7 is not legal for Black"},
	}
	dir := filepath.Dir(refdata.Need(t, "clk-samples.pgn"))
	for _, tt := range tests {
		readsOrRefuses(t, filepath.Join(dir, filepath.FromSlash(tt.file)), tt)
	}
	t.Run("black-to-move FEN start replays to the right position", func(t *testing.T) {
		g := readPGNFile(t, filepath.Join(dir, "pgn-edge", "chessjs-3-fen-black-to-move.pgn"))[0]
		want := "r1bqk1nr/ppp2ppp/2np4/b3p3/2BPP3/2P2N2/P4PPP/RNBQ1RK1 b kq d3 0 3"
		if g.FinalFEN != want {
			t.Errorf("final FEN %s, want %s", g.FinalFEN, want)
		}
	})
	t.Run("clock comments are kept per move", func(t *testing.T) {
		g := readPGNFile(t, filepath.Join(dir, "clk-samples.pgn"))[0]
		if !strings.Contains(g.Comments[0], "[%clk") {
			t.Errorf("first comment = %q, want a [%%clk] command", g.Comments[0])
		}
	})
}

// pgnFile is a PGN file and what reading it must give.
type pgnFile struct {
	file    string
	games   int    // when it parses
	errPart string // when it must fail
}

// readsOrRefuses runs the subtest that reads path (want.file's): it must
// give want.games games, or, with want.errPart, be refused with an error
// containing it.
func readsOrRefuses(t *testing.T, path string, want pgnFile) {
	games, errPart := want.games, want.errPart
	name := filepath.Base(path) + " parses"
	if errPart != "" {
		name = filepath.Base(path) + " is refused with the game and line named"
	}
	t.Run(name, func(t *testing.T) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got, err := ReadPGN(f)
		if errPart != "" {
			if err == nil || !strings.Contains(err.Error(), errPart) {
				t.Errorf("error = %v, want one containing %q", err, errPart)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != games {
			t.Errorf("read %d games, want %d", len(got), games)
		}
	})
}

func TestReadPGNSyntax(t *testing.T) {
	tests := []struct {
		name, pgn string
		moves     int
		intro     string
		errPart   string
	}{
		{"CRLF line ends", "[Event \"x\"]\r\n\r\n1. e4 e5\r\n2. Nf3 *\r\n", 3, "", ""},
		{"a comment before the first move", "{intro} 1. e4 *", 1, "intro", ""},
		{"a comment spanning lines with a blank line", "1. e4 {a\n\nb} e5 *", 2, "", ""},
		{"semicolon comments, NAGs and variations", "1. e4 $1 ; rest of line\n e5 (1... c5 {x)} 2. Nf3) 2. Nf3 *", 3, "", ""},
		{"escape lines", "% escaped\n1. e4 *", 1, "", ""},
		{"a game without moves is a game", "[Event \"a\"]\n\n*\n\n[Event \"b\"]\n\n1. e4 *", 0, "", ""},
		{"move numbers glued to moves", "1.e4 e5 2.Nf3 *", 3, "", ""},
		{"an unclosed comment", "1. e4 {oops", 0, "", "never closed"},
		{"an unclosed variation", "1. e4 (1. d4", 0, "", "never closed"},
		{"an illegal move names the move", "1. e4 e5 2. Ke3 *", 0, "", "game 1 (line 1): move 2. Ke3 is not legal for White"},
		{"a bad tag", "[Event x]\n1. e4 *", 0, "", "malformed tag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ReadPGN(strings.NewReader(tt.pgn))
			if tt.errPart != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errPart) {
					t.Errorf("error = %v, want one containing %q", err, tt.errPart)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(games) == 0 || len(games[0].Moves) != tt.moves || games[0].Intro != tt.intro {
				t.Errorf("games = %+v", games)
			}
		})
	}
}

// randomGame walks ValidMoves with a seeded generator.
func randomGame(seed int64, plies int, comment func(*rand.Rand) string) (PGNGame, string) {
	rng := rand.New(rand.NewSource(seed))
	pos := chess.StartingPosition()
	var g PGNGame
	for i := 0; i < plies; i++ {
		moves := pos.ValidMoves()
		if len(moves) == 0 {
			break
		}
		m := moves[rng.Intn(len(moves))]
		g.Moves = append(g.Moves, PGNMove{SAN: chess.AlgebraicNotation{}.Encode(pos, m), Comment: comment(rng)})
		pos = pos.Update(m)
	}
	g.Result = "*"
	switch pos.Status() {
	case chess.Checkmate:
		g.Result = "1-0"
		if pos.Turn() == chess.White {
			g.Result = "0-1"
		}
	case chess.Stalemate:
		g.Result = "1/2-1/2"
	}
	return g, pos.String()
}

func FuzzReadPGN(f *testing.F) {
	for _, s := range []string{
		"[Event \"x\"]\n\n1. e4 e5 *",
		"{c} 1. e4 {a}{b} (1. d4) $2 1-0",
		"[FEN \"8/8/8/4k3/8/8/8/4K3 b - - 0 1\"]\n1... Kd5 *",
		"1. e4 {unclosed",
		"% x\n; y\n1.e4 e5 2.Nf3 1/2-1/2\n\n",
		"* *",
	} {
		f.Add([]byte(s))
	}
	for _, name := range []string{"fen-black-to-move.pgn", "broadcast-clk.pgn", "comments-across-lines.pgn", "html-line-breaks.pgn", "results-alone.pgn"} {
		b, err := os.ReadFile(filepath.Join(edge, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := ReadPGN(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "pgn: ") {
				t.Errorf("error without the pgn prefix: %v", err)
			}
			return
		}
		for _, g := range games {
			if len(g.Moves) != len(g.Comments) {
				t.Errorf("%d moves but %d comments", len(g.Moves), len(g.Comments))
			}
		}
	})
}

func FuzzWritePGN(f *testing.F) {
	f.Add(int64(1), uint8(40), "[%clk 1:59:30] }{ \n%x \xff\xfe")
	f.Add(int64(7), uint8(200), "")
	f.Add(int64(3), uint8(12), strings.Repeat("long", 40))
	f.Add(int64(4), uint8(30), "struck out: operator error, rule 10: %x)(")
	f.Fuzz(func(t *testing.T, seed int64, plies uint8, text string) {
		g, fen := randomGame(seed, int(plies), func(r *rand.Rand) string {
			if r.Intn(3) == 0 {
				return text
			}
			return ""
		})
		g.Tags = []Tag{{"Event", text}, {"Annotator", text}}
		if len(g.Moves) > 2 && seed%2 == 0 {
			// A variation (as struck-out moves are written): the reader
			// skips it, the main line must come back unchanged.
			k := int(plies) % (len(g.Moves) - 1)
			v := append([]PGNMove(nil), g.Moves[k:k+2]...)
			v[1].Comment = text
			g.Moves[k].Variations = [][]PGNMove{v}
			g.Final = text
		}
		var b bytes.Buffer
		if err := WritePGN(&b, []PGNGame{g}); err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(b.Bytes()) {
			t.Fatal("WritePGN wrote invalid UTF-8")
		}
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "%") {
				t.Fatalf("a line starts with %%: %q", l)
			}
		}
		back, err := ReadPGN(&b)
		if err != nil {
			t.Fatalf("ReadPGN of WritePGN output: %v\n%s", err, b.String())
		}
		if len(back) != 1 || back[0].FinalFEN != fen || len(back[0].Moves) != len(g.Moves) {
			t.Fatalf("round trip lost the game: %+v", back)
		}
		for i, m := range g.Moves {
			if back[0].Moves[i] != m.SAN {
				t.Fatalf("move %d: %q became %q", i+1, m.SAN, back[0].Moves[i])
			}
			want := sanitizeComment(m.Comment)
			if i == len(g.Moves)-1 && g.Final != "" {
				want = sanitizeComment(m.Comment + " " + g.Final)
			}
			if strings.ReplaceAll(back[0].Comments[i], " ", "") != strings.ReplaceAll(want, " ", "") {
				t.Fatalf("comment %d: %q became %q", i+1, want, back[0].Comments[i])
			}
		}
	})
}

// TestPGNPassesExternalValidators writes games with WritePGN and has
// pgn-extract and chess.js (tools/pgncheck) read them back.
func TestPGNPassesExternalValidators(t *testing.T) {
	require := os.Getenv("ARBITER_REQUIRE_VALIDATORS") == "1"
	missing := func(why string) {
		if require {
			t.Fatalf("external validator missing: %s (ARBITER_REQUIRE_VALIDATORS=1)", why)
		}
		t.Skipf("external validator missing: %s", why)
	}
	script, _ := filepath.Abs("../tools/pgncheck/pgncheck.sh")
	if _, err := os.Stat("/usr/games/pgn-extract"); err != nil {
		missing("pgn-extract (apt-get install -y pgn-extract)")
	}
	if _, err := os.Stat("../tools/pgncheck/node_modules/chess.js"); err != nil {
		missing("chess.js (npm install --prefix tools/pgncheck)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node")
	}
	var games []PGNGame
	for seed := int64(1); seed <= 4; seed++ {
		g, _ := randomGame(seed, 120, func(r *rand.Rand) string {
			if r.Intn(4) == 0 {
				return "(=) [%clk 1:59:30] [%emt 0:00:30] a note } with {brace"
			}
			return ""
		})
		g.Tags = []Tag{{"Event", "Validator check"}, {"Round", string(rune('0' + seed))}}
		games = append(games, g)
	}
	s := newSheet(t, "r1bqk1nr/pppp1ppp/2n5/4p3/1bB1P3/2P2N2/P2P1PPP/RNBQK2R b KQkq - 0 12")
	play(t, s, "Ba5", "O-O", "d6", "d4")
	s.Entries()[0].Notes = []string{"first"}
	games = append(games, s.PGN(nil, "*"))
	g, _ := deepBlueGame1(t)
	games = append(games, g)
	path := filepath.Join(t.TempDir(), "games.pgn")
	var b bytes.Buffer
	if err := WritePGN(&b, games); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(script, path).CombinedOutput()
	if err != nil {
		t.Fatalf("pgncheck.sh rejected our PGN: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

func BenchmarkReadPGN(b *testing.B) {
	data := []byte(gamescores.DeepBlue1996())
	for i := 0; i < b.N; i++ {
		if _, err := ReadPGN(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestWritePGNVariations(t *testing.T) {
	mv := func(san, c string, vars ...[]PGNMove) PGNMove { return PGNMove{SAN: san, Comment: c, Variations: vars} }
	tests := []struct {
		name string
		g    PGNGame
		want string
	}{
		{"a variation follows its move and the next black move is numbered",
			PGNGame{Moves: []PGNMove{mv("e4", ""), mv("e5", "", []PGNMove{mv("c5", "struck out")}), mv("Nf3", ""), mv("Nc6", "")}},
			"1. e4 e5 (1... c5 {struck out}) 2. Nf3 Nc6 *"},
		{"a variation after a white move restarts with that move's number",
			PGNGame{Moves: []PGNMove{mv("e4", "", []PGNMove{mv("d4", ""), mv("d5", "x")}), mv("e5", "")}},
			"1. e4 (1. d4 d5 {x}) 1... e5 *"},
		{"the final comment joins the last move's comment",
			PGNGame{Moves: []PGNMove{mv("e4", "a")}, Final: "Game over", Result: "1-0"},
			"1. e4 {a Game over} 1-0"},
		{"a game without moves has its final comment before the result",
			PGNGame{Final: "forfeit", Result: "1-0"},
			"{forfeit} 1-0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WritePGN(&b, []PGNGame{tc.g}); err != nil {
				t.Fatal(err)
			}
			_, body, _ := strings.Cut(b.String(), "\n\n")
			if got := strings.Join(strings.Fields(body), " "); got != tc.want {
				t.Errorf("movetext %q, want %q", got, tc.want)
			}
			if _, err := ReadPGN(&b); err != nil {
				t.Errorf("ReadPGN: %v", err)
			}
		})
	}
	t.Run("a variation move that is not SAN is refused", func(t *testing.T) {
		g := PGNGame{Moves: []PGNMove{mv("e4", "", []PGNMove{mv("<br", "")})}}
		if err := WritePGN(&bytes.Buffer{}, []PGNGame{g}); err == nil || !strings.Contains(err.Error(), "variation move 1") {
			t.Errorf("WritePGN = %v", err)
		}
	})
	t.Run("a line closing a long variation never starts with % or exceeds 80 columns", func(t *testing.T) {
		var moves []PGNMove
		for i := 0; i < 30; i++ {
			moves = append(moves, mv("Nf3", "%"+strings.Repeat("x", i)), mv("Nf6", ""), mv("Ng1", ""), mv("Ng8", ""))
		}
		g := PGNGame{Moves: []PGNMove{mv("e4", ""), mv("e5", "")}}
		g.Moves[0].Variations = [][]PGNMove{moves[:40]}
		g.Moves[0].Variations[0][0].SAN = "d4"
		var b bytes.Buffer
		if err := WritePGN(&b, []PGNGame{g}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "%") || utf8.RuneCountInString(l) > 80 {
				t.Errorf("line %q", l)
			}
		}
	})
}

func TestTagProblems(t *testing.T) {
	seven := []Tag{{"Event", "E"}, {"Site", "S"}, {"Date", "1996.02.10"}, {"Round", "1"}, {"White", "Kasparov, Garry"}, {"Black", "Deep Blue"}, {"Result", "1-0"}}
	with := func(extra ...Tag) []Tag { return append(append([]Tag(nil), seven...), extra...) }
	tests := []struct {
		name string
		tags []Tag
		bad  bool
	}{
		{"the Seven Tag Roster alone is right", seven, false},
		{"a missing roster tag is a problem", seven[1:], true},
		{"the standard's Termination values are right", with(Tag{"Termination", "time forfeit"}), false},
		{"resignation is not a Termination value (§9.8.1)", with(Tag{"Termination", "resignation"}), true},
		{"program and human are the player types", with(Tag{"WhiteType", "human"}, Tag{"BlackType", "program"}), false},
		{"computer is not a player type", with(Tag{"BlackType", "computer"}), true},
		{"a move-count control is a TimeControl", with(Tag{"TimeControl", "40/7200:20/3600:1800"}), false},
		{"sudden death with increment is a TimeControl", with(Tag{"TimeControl", "5400+30"}), false},
		{"a delay is not a TimeControl", with(Tag{"TimeControl", "7200d5"}), true},
		{"UTCDate and UTCTime have their formats", with(Tag{"UTCDate", "1996.02.10"}, Tag{"UTCTime", "20:00:00"}), false},
		{"a UTCTime without seconds is a problem", with(Tag{"UTCTime", "20:00"}), true},
		{"a Date with dashes is a problem", []Tag{{"Event", "E"}, {"Site", "S"}, {"Date", "1996-02-10"}, {"Round", "1"}, {"White", "W"}, {"Black", "B"}, {"Result", "*"}}, true},
		{"tags the standard does not define are allowed", with(Tag{"ArbiterTimeControl", "7200d5"}), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if p := TagProblems(tc.tags); (len(p) > 0) != tc.bad {
				t.Errorf("TagProblems = %v, want problems: %v", p, tc.bad)
			}
		})
	}
}
