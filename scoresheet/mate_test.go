package scoresheet

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

const dataDir = "../../shared/data"

func mustPos(t testing.TB, fen string) *chess.Position {
	t.Helper()
	p := &chess.Position{}
	if err := p.UnmarshalText([]byte(fen)); err != nil {
		t.Fatalf("bad test FEN %q: %v", fen, err)
	}
	return p
}

func TestCanMate(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		side chess.Color
		want Verdict
	}{
		{"a bare king cannot mate", "8/8/8/4k3/8/8/8/4K2Q w - - 0 1", chess.Black, CannotMate},
		{"king and knight cannot mate a bare king", "8/8/8/4k3/8/8/8/4K1N1 w - - 0 1", chess.White, CannotMate},
		{"king and bishop cannot mate a bare king", "8/8/8/4k3/8/8/8/4KB2 w - - 0 1", chess.White, CannotMate},
		{"bishops on one colour on both sides cannot mate", "8/8/8/4k3/3b4/8/8/2B1K3 w - - 0 1", chess.White, CannotMate},
		{"many bishops on one colour cannot mate same-coloured bishops", "8/4b3/8/4k3/8/B7/3B4/2B1K3 w - - 0 1", chess.White, CannotMate},
		// The next three can mate; CanMate must not say otherwise, and
		// may leave them Undetermined (the helpmates are long).
		{"king and knight against a king with a pawn is not ruled out", "8/8/8/4k3/4p3/8/8/4K1N1 w - - 0 1", chess.White, Undetermined},
		{"king and bishop against a king with a knight is not ruled out", "8/8/8/4k3/4n3/8/8/4KB2 w - - 0 1", chess.White, Undetermined},
		{"king and bishop against a bishop of the other colour is not ruled out", "8/8/8/4k3/3b4/8/8/4KB2 w - - 0 1", chess.White, Undetermined},
		{"a short helpmate with king and bishop against a knight is found", "7k/5K1n/7B/8/8/8/8/8 w - - 0 1", chess.White, MatePossible},
		{"bishops on both colours against bishops can mate", "8/4b3/8/4k3/8/B7/8/3BK3 w - - 0 1", chess.White, MatePossible},
		{"king and rook can mate", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", chess.White, MatePossible},
		{"king and queen can mate", "8/8/8/4k3/8/8/8/3QK3 b - - 0 1", chess.White, MatePossible},
		{"the checkmated side cannot mate", "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", chess.Black, CannotMate},
		{"the mating side has mated", "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", chess.White, MatePossible},
		{"nobody can mate in stalemate", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", chess.White, CannotMate},
		{"a fully blocked pawn chain with kings only is dead", "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", chess.White, CannotMate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CanMate(mustPos(t, tt.fen), tt.side)
			if got.Verdict != tt.want && !(tt.want == Undetermined && got.Verdict == MatePossible) {
				t.Errorf("CanMate(%s, %s) = %v (%s), want %v", tt.fen, tt.side, got.Verdict, got.Reason, tt.want)
			}
			if got.Reason == "" {
				t.Error("verdict has no reason")
			}
		})
	}
}

func TestDeadPosition(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want bool
	}{
		{"king against king is dead", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true},
		{"king and bishop against king is dead", "8/8/8/4k3/8/8/8/4KB2 w - - 0 1", true},
		{"opposite-coloured bishops are not dead", "8/8/8/4k3/3b4/8/8/4KB2 w - - 0 1", false},
		{"the start position is not dead", StandardFEN, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DeadPosition(mustPos(t, tt.fen)); got != tt.want {
				t.Errorf("DeadPosition(%s) = %v, want %v", tt.fen, got, tt.want)
			}
		})
	}
}

// TestCanMateUnwinnableData checks CanMate against the Chess Unwinnability
// Analyzer's test vectors. Saying CannotMate where the file says winnable is
// a hard failure (unsound); everything else is counted. With
// ARBITER_FULL_MATE=1 the search runs with CanMate's own limit (searchLimit
// 2000: 0 unsound, 967 cannot-mate and 147 can-mate agreements, 0 can-mate
// verdicts on unwinnable positions, the rest undetermined).
func TestCanMateUnwinnableData(t *testing.T) {
	f, err := os.Open(filepath.Join(dataDir, "unwinnable.tsv"))
	if err != nil {
		t.Skipf("reference data absent: %v", err)
	}
	defer f.Close()
	// The full search limit takes minutes over 3,909 positions; soundness
	// does not depend on the limit, so the default run uses a small one.
	limit := 300
	if os.Getenv("ARBITER_FULL_MATE") == "1" {
		limit = searchLimit
	}
	agree := map[string]int{}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			continue
		}
		col := strings.Split(sc.Text(), "\t")
		if len(col) < 3 {
			t.Fatalf("unwinnable.tsv line %d: want 4 tab-separated columns", line)
		}
		p := &chess.Position{}
		if err := p.UnmarshalText([]byte(col[0])); err != nil {
			agree["skipped: FEN refused by notnil"]++
			continue
		}
		side := chess.White
		if col[1] == "black" {
			side = chess.Black
		}
		v := canMate(p, side, limit)
		switch {
		case v.Verdict == CannotMate && col[2] == "winnable":
			t.Errorf("line %d: CanMate says %s cannot mate (%s) but the reference says winnable: %s", line, col[1], v.Reason, col[0])
		case v.Verdict == MatePossible && col[2] == "unwinnable":
			t.Errorf("line %d: CanMate says %s can mate (%s) but the reference says unwinnable: %s", line, col[1], v.Reason, col[0])
		default:
			agree[v.Verdict.String()+" / reference "+col[2]]++
		}
	}
	for k, n := range agree {
		t.Logf("%5d  %s", n, k)
	}
}

func BenchmarkDeadPosition(b *testing.B) {
	pos := mustPos(b, "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
	for i := 0; i < b.N; i++ {
		DeadPosition(pos)
	}
}

func TestTheHelpmateIsWrittenInSANWithCheckAndMateSigns(t *testing.T) {
	got := CanMate(mustPos(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), chess.Black)
	if got.Verdict != MatePossible {
		t.Fatalf("from the initial position Black can mate; got %v (%s)", got.Verdict, got.Reason)
	}
	if want := "Black can still checkmate, e.g. 1.f3 e6 2.g4 Qh4#"; got.Reason != want {
		t.Errorf("reason = %q, want %q (the mating move ends in #)", got.Reason, want)
	}
}
