package scoresheet

import (
	"math/rand"
	"regexp"
	"testing"

	"github.com/notnil/chess"
)

// sanRe is the regular expression ParseMove read a SAN with before
// sanFields (docs/performance.md, "Move and commit, thirteenth pass").
var sanRe = regexp.MustCompile(`^([KQRBNDTLSkqrn]?)([a-h]?)([1-8]?)([a-h][1-8])=?([QRBNDTLSqrbn]?)$`)

// TestSANFieldsAreTheRegularExpressions: sanFields finds in every string
// what sanRe finds, the same submatches, and refuses every string sanRe
// refuses: every string of up to five characters over the characters that
// matter (piece letters of both languages and cases, files, ranks, "=",
// and others), and random longer ones; and a SAN move is parsed with at
// most 2 allocations (4 with the regular expression).
func TestSANFieldsAreTheRegularExpressions(t *testing.T) {
	alphabet := []string{"K", "Q", "N", "B", "b", "n", "k", "D", "S", "a", "h", "c", "1", "8", "9", "=", "x", "ü", " "}
	same := func(t *testing.T, s string) {
		want := sanRe.FindStringSubmatch(s)
		got, ok := sanFields(s)
		if ok != (want != nil) {
			t.Fatalf("sanFields(%q) matched %v; the regular expression %v", s, ok, want != nil)
		}
		if ok && [6]string(want) != got {
			t.Fatalf("sanFields(%q) = %q; the regular expression %q", s, got, want)
		}
	}
	t.Run("every string of up to five characters is read as the regular expression reads it", func(t *testing.T) {
		var walk func(prefix string, left int)
		walk = func(prefix string, left int) {
			same(t, prefix)
			if left == 0 {
				return
			}
			for _, c := range alphabet {
				walk(prefix+c, left-1)
			}
		}
		walk("", 5)
	})
	t.Run("random strings of up to nine characters are read as the regular expression reads them", func(t *testing.T) {
		rng := rand.New(rand.NewSource(29))
		for i := 0; i < 200000; i++ {
			s := ""
			for n := rng.Intn(10); n > 0; n-- {
				s += alphabet[rng.Intn(len(alphabet))]
			}
			same(t, s)
		}
	})
	t.Run("a SAN move is parsed with at most 2 allocations", func(t *testing.T) {
		pos := chess.StartingPosition()
		pos.ValidMoves()
		got := testing.AllocsPerRun(100, func() {
			if _, err := ParseMove(pos, "Nf3"); err != nil {
				t.Fatal(err)
			}
		})
		if got > 2 {
			t.Errorf("%v allocations; want at most 2", got)
		}
	})
}
