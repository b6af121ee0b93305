package scoresheet

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// The FEN the sheet writes after a move is notnil's, letter for letter, in
// every position random games reach (and its repetition key is the FEN's
// first four fields, the en-passant square only when a capture there is
// legal): castling rights lost, en-passant
// squares, promotions, the half-move clock and the move number from starts
// with either side to move.
func TestTheFENWrittenAfterAMoveIsNotnilsFEN(t *testing.T) {
	starts := []string{
		StandardFEN,
		"r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 17",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 2",
	}
	rng := rand.New(rand.NewSource(1996))
	plies, epSet, epDropped := 0, 0, 0
	for _, start := range starts {
		for game := 0; game < 40; game++ {
			pos, err := ParseFEN(start)
			if err != nil {
				t.Fatal(err)
			}
			fen := pos.String()
			for ply := 0; ply < 200; ply++ {
				moves := pos.ValidMoves()
				if len(moves) == 0 {
					break
				}
				m := moves[rng.Intn(len(moves))]
				next := pos.Update(m)
				want := next.String()
				if got := fenAfter(next, fen); got != want {
					t.Fatalf("after %s in %s: wrote %q, notnil writes %q", m, fen, got, want)
				}
				if got, want := repetitionKeyFEN(next, want), repetitionKeyFields(next, want); got != want {
					t.Fatalf("after %s in %s: repetition key %q, field by field %q", m, fen, got, want)
				}
				if head, _, ok := fenHead(want); !ok || head != strings.Join(strings.Fields(want)[:4], " ") {
					t.Fatalf("after %s in %s: the first four fields of %q read as %q (%v)", m, fen, want, head, ok)
				}
				if f := strings.Fields(want); f[3] != "-" {
					epSet++
					if strings.HasSuffix(repetitionKeyFEN(next, want), " -") {
						epDropped++
					}
				}
				pos, fen = next, want
				plies++
			}
		}
	}
	if plies < 10000 {
		t.Fatalf("only %d plies played; the test needs long random games", plies)
	}
	if epSet == 0 || epDropped == 0 || epDropped == epSet {
		t.Fatalf("the random games set an en-passant square %d times, %d of them with no capture: the repetition key was not checked both ways", epSet, epDropped)
	}
}

func BenchmarkFENAfter(b *testing.B) {
	pos := chess.StartingPosition()
	next := pos.Update(pos.ValidMoves()[0])
	fen := pos.String()
	b.Run("fenAfter", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			fenAfter(next, fen)
		}
	})
	b.Run("notnil", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = next.String()
		}
	})
}
