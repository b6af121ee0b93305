package report_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/report"
)

// startPositionScript: game 1 starts from an endgame position with Black to
// move at move 60 and three plies are played; game 2 from a position where
// no move is made before the flag falls.
const startPositionScript = `0:00:00 match new --title "T" --player "Anna Schmidt" --player "Deep Blue" --computer "Deep Blue" --operator "Op" --arbiter "Carl Meyer" --white "Anna Schmidt" --tz America/New_York --games 2 --tc 40/7200
0:00:01 game start --fen "8/8/4k3/8/8/4K3/4P3/8 b - - 0 60"
0:00:10 --as operator move Kd5
0:00:20 move Kd3
0:00:30 --as operator move Ke5
`

// A game started from a position shows in the PDF its initial diagram, its
// FEN, the side to move and the move number, and its moves numbered from it.
func TestThePDFShowsAGameFromAPosition(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(sp, []byte(startPositionScript), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "p.db")
	runCLI(t, "--db", db, "--at", "2024-05-01T13:00:00Z", "play", sp)
	st, head := loadState(t, db)
	for _, tc := range []struct{ lang, rule, want string }{
		{"en", "the heading names the starting position", "Starting position"},
		{"en", "the FEN is printed", "8/8/4k3/8/8/4K3/4P3/8 b - - 0 60"},
		{"en", "the side to move and the move number are said", "Black to move, move 60"},
		{"de", "the German page says them in German", "Schwarz am Zug, Zug 60"},
		{"en", "the first move is numbered from the position, Black's after an ellipsis", "60 …"},
		{"en", "White's next move is numbered 61", "61 ♔d3"},
		{"en", "the diagram holds the pieces (Black's king solid, White's outlined)", "♚"},
		{"en", "the diagram names the files", "a b c d e f g h"},
	} {
		t.Run(tc.lang+": "+tc.rule, func(t *testing.T) {
			pages := pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: tc.lang}))
			flat := strings.Join(strings.Fields(pages[1]), " ")
			if !strings.Contains(flat, tc.want) {
				t.Errorf("page 2 lacks %q:\n%s", tc.want, pages[1])
			}
			if strings.Contains(flat, "No moves were recorded") {
				t.Errorf("page 2 says no moves were recorded:\n%s", pages[1])
			}
		})
	}
	t.Run("the diagram is drawn (the page renders)", func(t *testing.T) {
		bin, err := exec.LookPath("pdftoppm")
		if err != nil {
			if os.Getenv("ARBITER_REQUIRE_VALIDATORS") == "1" {
				t.Fatal("pdftoppm is not installed (ARBITER_REQUIRE_VALIDATORS=1): install poppler-utils")
			}
			t.Skip("pdftoppm is not installed")
		}
		p := filepath.Join(t.TempDir(), "r.pdf")
		if err := os.WriteFile(p, writePDF(t, st, head, report.PDFOptions{}), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "-f", "2", "-l", "2", "-r", "40", "-png", p, filepath.Join(filepath.Dir(p), "page")).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v: %s", err, out)
		}
	})
}
