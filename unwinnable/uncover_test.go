package unwinnable

import (
	"math/rand"
	"testing"
)

// uncoverSeeds: Black to mate, the white king shuffling between h3 and h4.
// The black king takes g2 only with the white king on h4, and takes h5
// only with it on h3, each time leaving White stalemated: a dark bishop
// could attack h4, but the king's move from f1, g1, h1, h2 or f2 opens no
// line to h4 along which Black has a piece that moves. And the black king
// steps onto h2 (next to h3) only with the white king on h4, which then has
// no move. Undetermined at the default limit before (the first, a row of
// unwinnable.tsv).
var uncoverSeeds = []string{
	"8/8/7p/5p1P/5p1K/4bPp1/5bPb/4bkb1 b - - 0 1",
	"8/8/7p/5p1P/5p1K/4bPp1/5bPb/4bk2 b - - 0 1",
	"8/8/7p/5p1P/5p1K/5Pp1/4kbPb/4b3 w - - 0 1",
}

// uncoverBreakers: the same with a rook of Black's, which may give the
// discovered check: Black mates.
var uncoverBreakers = []struct{ name, fen string }{
	{"a rook on g1 checks along the h-file when the bishop leaves h2", "8/8/7p/5p1P/5p1K/4bPp1/5bPb/4bkr1 b - - 0 1"},
	{"a rook on e1", "8/8/7p/5p1P/5p1K/4bPp1/5bPb/4rkb1 b - - 0 1"},
}

// The winner's king takes a man of the loser into a stalemate, not a mate,
// where its move opens no line to the loser's king along which the winner
// has a piece that moves.
func TestALosersManIsHeldWhereTheKingsCaptureOpensNoLine(t *testing.T) {
	type tc struct {
		name, fen string
		want      Verdict
	}
	tests := []tc{
		{"Kxg2 and Kxh5 stalemate White, Kh2 as well", uncoverSeeds[0], Unwinnable},
		{"without the bishop on g1", uncoverSeeds[1], Unwinnable},
		{"the black king on e2, White to move", uncoverSeeds[2], Unwinnable},
	}
	for _, br := range uncoverBreakers {
		tests = append(tests, tc{br.name, br.fen, Winnable})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			provenByStage(t, tc.fen, Black, 200_000, tc.want, "stalemate-men", "")
		})
	}
}

func TestAKingsCaptureUncoversOnlyAlongALineOfTheWinnersPieces(t *testing.T) {
	tests := []struct {
		name, fen string
		want      bool
	}{
		{"dark bishops only: no line from f1, g1, h1, h2 or f2 to h4 that they move along", uncoverSeeds[0], false},
		{"a rook anywhere: h1 and h4 on the h-file, h2 and h3 no men of the set", "r7/8/7p/5p1P/5p1K/4bPp1/5bPb/4bkb1 b - - 0 1", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			// The set and reaches of the row without the rook (with it
			// the rook can attack the men, and there is no set).
			seed, _ := ParseFEN(uncoverSeeds[0])
			men, r := seed.fixedMenHeld(Black)
			if men == 0 {
				t.Fatal("no set")
			}
			g2, _ := parseSquare("g2")
			h4, _ := parseSquare("h4")
			if got := b.kingCaptureMayUncover(Black, 1<<h4, g2, men, r); got != tc.want {
				t.Fatalf("got %v, want %v (set %v)", got, tc.want, squareList(men))
			}
		})
	}
}

// From positions up to 20 random moves after the seeds and the breakers:
// wherever the held men prove a position unwinnable for Black, a
// best-first search of 20,000 positions finds no helpmate for Black.
func TestTheUncoverTestNeverDeniesAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(53))
	fens := append([]string(nil), uncoverSeeds...)
	for _, br := range uncoverBreakers {
		fens = append(fens, br.fen)
	}
	fens = append(fens, "8/8/7p/5p1P/5p1K/4bPp1/5bPb/4bkbq b - - 0 1", "8/8/7p/5p1P/5pnK/4bPp1/5bPb/4bkb1 b - - 0 1")
	proofs := 0
	for _, fen := range fens {
		root, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for try := 0; try < 16; try++ {
			b := *root
			b = randomPlies(rng, b, rng.Intn(20))
			if b.status() != playing {
				continue
			}
			still := b.immobilePieces(Black)
			men, r := b.fixedMenWith(Black, still, 0)
			if men == 0 {
				continue
			}
			if ok, _ := menUnwinnable(&b, Black, men, still, r); !ok {
				continue
			}
			proofs++
			if line, ok := greedyMate(&b, Black); ok {
				t.Errorf("%s (after random moves from %s) is proven unwinnable by the held men, but mates: %v", b.FEN(), fen, line)
			}
		}
	}
	t.Logf("%d proofs checked", proofs)
	if proofs < 20 {
		t.Fatalf("only %d proofs: the test checks too little", proofs)
	}
}
