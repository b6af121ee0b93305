package unwinnable

import (
	"math/rand"
	"testing"
)

// cageSeeds are rows of the reference files (labelled unwinnable for both
// colours) where seven light bishops move round the eight light squares
// behind the pawns a6, c6, e6, g6: one square is always free, and every
// placement guards the four pawns. Before, the first was undetermined at
// the default limit.
var cageSeeds = []string{
	"B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - - 0 1",
	"B1B1B1B1/pBpBpBp1/P1P1P1P1/8/8/8/3k4/6K1 w - - 0 1",
}

// cageBreakers are the same with one man more or less that opens the
// cage: White mates in each.
var cageBreakers = []struct{ name, fen string }{
	{"a black knight reaches h7, g6xh7 opens the cage", "B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K3n1 w - - 0 1"},
	{"a white knight is a man of another type that can enter the cage", "B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K2N2 w - - 0 1"},
	{"a dark white bishop on b8 takes on c7", "1BB1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - - 0 1"},
}

// Pieces that move round a cage guard what they attack in every placement:
// the enemy king never takes a pawn so guarded, and the pawns stay fixed.
func TestACageOfPiecesGuardsWhatEveryPlacementAttacks(t *testing.T) {
	type tc struct {
		name, fen string
		winner    int
		want      Verdict
	}
	tests := []tc{
		{"seven bishops on eight squares guard a6 to g6 (White)", cageSeeds[0], White, Unwinnable},
		{"the same, Black to mate", cageSeeds[0], Black, Unwinnable},
		{"without the black bishops, the kings elsewhere (White)", cageSeeds[1], White, Unwinnable},
		{"without the black bishops, the kings elsewhere (Black)", cageSeeds[1], Black, Unwinnable},
	}
	for _, br := range cageBreakers {
		tests = append(tests, tc{br.name, br.fen, White, Winnable})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			r := AnalyseWith(b, tc.winner, Options{Limit: 200_000})
			if r.Verdict != tc.want {
				t.Fatalf("verdict %v (%s), want %v", r.Verdict, r.Proof(), tc.want)
			}
			men, re := b.fixedMen()
			ok := false
			if men != 0 {
				ok, _ = menUnwinnable(b, tc.winner, men, stillMen{}, re)
			}
			switch r.Verdict {
			case Winnable:
				if why := replayMates(tc.fen, tc.winner, r.Line); why != "" {
					t.Fatalf("the line %v: %s", r.Line, why)
				}
				if ok {
					t.Fatalf("the fixed men %s prove a winnable position", squareList(men))
				}
			case Unwinnable:
				if !ok {
					t.Fatalf("the fixed men %s prove nothing", squareList(men))
				}
			}
		})
	}
}

// cageAttacks takes every placement of the pieces on the cage's squares,
// and what each placement attacks with the squares outside as blockers.
func TestTheCageGuardsWhatEveryPlacementAttacks(t *testing.T) {
	sq := func(names ...string) uint64 {
		var x uint64
		for _, s := range names {
			q, _ := parseSquare(s)
			x |= 1 << q
		}
		return x
	}
	cage := sq("a8", "b7", "c8", "d7", "e8", "f7", "g8", "h7")
	pawns := sq("a6", "c6", "e6", "g6")
	tests := []struct {
		name   string
		region uint64
		n      int
		want   uint64 // must be guarded
		not    uint64 // must not be
	}{
		{"seven bishops on eight squares guard all four pawns", cage, 7, pawns, 0},
		{"six leave a6 when b7 and c8 are free", cage, 6, sq("c6", "e6", "g6"), sq("a6")},
		{"one bishop guards nothing outside for sure", cage, 1, 0, pawns},
		{"a full cage guards what its men attack", sq("b7"), 1, sq("a6", "c6", "a8", "c8"), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := cageAttacks(Bishop, tc.region, tc.n)
			if got&tc.want != tc.want || got&tc.not != 0 {
				t.Fatalf("guards %s, want %s and not %s", squareList(got), squareList(tc.want), squareList(tc.not))
			}
		})
	}
}

// The induction behind the cage, played out, and its soundness against
// the search: from positions up to 30 random moves after the seeds and the
// breakers, every man of the fixed men stands along 60 random moves more
// until the game ends; and wherever the fixed men prove a position
// unwinnable for a side, a best-first search of 20,000 positions finds no
// helpmate for it.
func TestTheCageNeverDeniesAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(47))
	fens := append([]string(nil), cageSeeds...)
	for _, br := range cageBreakers {
		fens = append(fens, br.fen)
	}
	fens = append(fens, "B3B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - - 0 1") // six bishops: a6 falls
	proofs, sets := 0, 0
	for _, fen := range fens {
		root, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for try := 0; try < 16; try++ {
			b := *root
			b = randomPlies(rng, b, rng.Intn(30))
			if b.status() != playing {
				continue
			}
			men, r := b.fixedMen()
			if men == 0 {
				continue
			}
			sets++
			playOnKeepsMen(t, rng, b, men, nil, 60)
			for _, winner := range []int{White, Black} {
				if ok, _ := menUnwinnable(&b, winner, men, stillMen{}, r); !ok {
					continue
				}
				proofs++
				if line, ok := greedyMate(&b, winner); ok {
					t.Errorf("%s (after random moves from %s) is proven unwinnable by the fixed men, but mates: %v", b.FEN(), fen, line)
				}
			}
		}
	}
	t.Logf("%d sets played on, %d proofs checked", sets, proofs)
	if proofs < 40 {
		t.Fatalf("only %d proofs: the test checks too little", proofs)
	}
}
