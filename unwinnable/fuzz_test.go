package unwinnable

import (
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// legalUCI lists the legal moves of fen with the generator, sorted.
func legalUCI(t *testing.T, fen string) []string {
	t.Helper()
	b, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	var l MoveList
	b.Legal(&l)
	out := make([]string, 0, l.N)
	for _, m := range l.Slice() {
		out = append(out, m.UCI())
	}
	sort.Strings(out)
	return out
}

func notnilUCI(pos *chess.Position) []string {
	var out []string
	for _, m := range pos.ValidMoves() {
		out = append(out, chess.UCINotation{}.Encode(pos, m))
	}
	sort.Strings(out)
	return out
}

// playoutAgrees plays a random game from start with notnil/chess and checks at
// every ply that the generator lists exactly notnil's legal moves.
func playoutAgrees(t *testing.T, start string, seed int64, plies int) {
	t.Helper()
	fen, err := chess.FEN(start)
	if err != nil {
		t.Fatal(err)
	}
	pos := chess.NewGame(fen).Position()
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < plies; i++ {
		want := notnilUCI(pos)
		got := legalUCI(t, pos.String())
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%s (seed %d, ply %d):\n generator %v\n notnil    %v", pos.String(), seed, i, got, want)
		}
		moves := pos.ValidMoves()
		if len(moves) == 0 {
			return
		}
		pos = pos.Update(moves[r.Intn(len(moves))])
	}
}

func TestLegalMovesAgreeWithNotnilOnRandomGames(t *testing.T) {
	for i, p := range perftPositions {
		for seed := int64(0); seed < 8; seed++ {
			playoutAgrees(t, p.fen, seed*7+int64(i), 120)
		}
	}
}

// FuzzLegalMovesAgreeWithNotnil compares legal-move lists with notnil/chess
// v1.10.0 on positions reached by random playouts.
func FuzzLegalMovesAgreeWithNotnil(f *testing.F) {
	for i := range perftPositions {
		f.Add(uint8(i), int64(i), uint8(80))
	}
	f.Fuzz(func(t *testing.T, start uint8, seed int64, plies uint8) {
		p := perftPositions[int(start)%len(perftPositions)]
		playoutAgrees(t, p.fen, seed, int(plies))
	})
}
