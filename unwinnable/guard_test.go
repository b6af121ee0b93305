package unwinnable

import (
	"math/bits"
	"math/rand"
	"testing"
)

// guardSeeds are rows of the lichess-heavy set (all labelled unwinnable
// for White) whose fixed men hold only because a piece next to a square,
// along its own line, guards it for good: before, a search ran out of
// 100,000 to 1,900,000 positions on each.
var guardSeeds = []string{
	"4k3/8/3p1p2/3PbP2/3pBp2/3P1P2/4B3/4K3 w - - 0 1",
	"1k6/8/3p1p2/3PbP2/2KpBp2/3P1P2/2B5/8 b - - 0 1",
	"k7/3B4/K2p1p2/3PbP2/3pBp2/3P1P2/8/8 w - - 0 1",
	"1k6/8/1p1p1p2/bP1PbP2/Bp1pBp2/1P1P1P2/4B3/3K4 w - - 0 1",
	"4k3/8/1p2K3/bP5B/Pp6/1Pp5/B1P5/NB6 b - - 0 1",
	"1k4b1/1P1p4/BP1Pp1p1/1P2P1P1/8/P1B5/1P1B4/K7 b - - 0 1",
	"5kBB/1p2pPRB/1Pp1p1P1/2P1Pp1p/5P1P/8/1B5B/3b2BK w - - 0 1",
	"8/1p4p1/1k6/1b6/4p1p1/p2pP1P1/p1pP3B/rbK5 b - - 0 1",
	"8/5B1B/5b2/8/3p1p1p/2pP1PpP/2PpBkP1/3K1BN1 w - - 0 1",
	"nb2kBN1/2p1PRRN/1pP1PPPP/1P4P1/8/8/8/1B3BK1 w - - 0 1",
}

// A bishop, rook or queen of the fixed men guards the squares next to it
// along its lines in every position: nothing can ever stand between, and
// it never leaves. So the enemy king never takes a man standing there
// (nor steps there), as with a pawn, knight or king of the set.
func TestAPieceNextToASquareGuardsItForGood(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want Verdict
	}{
		{"the bishop on e5, walled in by its pawns, guards d4 and f4", guardSeeds[0], Unwinnable},
		{"the same with the white king on c4 next to d4", guardSeeds[1], Unwinnable},
		{"the same with the kings in the corner", guardSeeds[2], Unwinnable},
		{"two walled bishops guard the pawns beside them", guardSeeds[3], Unwinnable},
		{"a bishop on a5 guards b4, a bishop on a2 guards b3", guardSeeds[4], Unwinnable},
		{"bishops in a chain guard the pawns next to them", guardSeeds[5], Unwinnable},
		{"a rook between bishops and pawns guards its neighbours", guardSeeds[6], Unwinnable},
		{"without the bishop on e5 the white king takes d4 or f4, and White mates", "4k3/8/3p1p2/3P1P2/3pBp2/3P1P2/4B3/4K3 w - - 0 1", Winnable},
		{"a knight on e5 guards neither d4 nor f4 (and moves), and White mates", "4k3/8/3p1p2/3PnP2/3pBp2/3P1P2/4B3/4K3 w - - 0 1", Winnable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			r := analyseChecked(t, b, tc.fen, White, 200_000, tc.want)
			switch r.Verdict {
			case Winnable:
			case Unwinnable:
				// The progress search (with the same guards, of its
				// pieces of stay) may prove it first; the fixed men
				// must prove it on their own.
				men, re := b.fixedMen()
				if ok, _ := menUnwinnable(b, White, men, stillMen{}, re); !ok {
					t.Fatalf("the fixed men %s prove nothing", squareList(men))
				}
			}
		})
	}
}

// The guards for good of the knights, kings and pawns are their attacks;
// of a bishop, rook or queen only the squares next to it along its lines,
// whatever stands around.
func TestTheGuardsForGoodOfASliderAreItsNeighboursOnItsLines(t *testing.T) {
	tests := []struct {
		name, fen string
		colour    int
		want      []string
	}{
		{"a bishop: its four diagonal neighbours", "4k3/8/8/4b3/8/8/8/4K3 w - - 0 1", Black, []string{"d4", "f4", "d6", "f6"}},
		{"a rook in the corner: two squares", "r3k3/8/8/8/8/8/8/4K3 w - - 0 1", Black, []string{"b8", "a7"}},
		{"a queen: all eight neighbours", "4k3/8/8/8/3Q4/8/8/6K1 w - - 0 1", White, []string{"c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"}},
		{"a knight and a pawn: their attacks", "4k3/8/8/8/8/8/3P4/N5K1 w - - 0 1", White, []string{"b3", "c2", "c3", "e3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			var want uint64
			for _, s := range tc.want {
				q, _ := parseSquare(s)
				want |= 1 << q
			}
			set := b.occ[tc.colour] &^ b.bb[tc.colour][King]
			if got := b.guardsForGood(tc.colour, set); got != want {
				t.Fatalf("guards %s, want %s", squareList(got), squareList(want))
			}
		})
	}
}

func squareList(x uint64) []string {
	var out []string
	for ; x != 0; x &= x - 1 {
		q := bits.TrailingZeros64(x)
		out = append(out, string(rune('a'+q%8))+string(rune('1'+q/8)))
	}
	return out
}

// The induction behind the guards, played out: along random games from the
// seeds (White to mate), every man of the fixed men stands on its square
// in every position until the game ends.
func TestTheGuardedMenStandTillTheGameEnds(t *testing.T) {
	rng := rand.New(rand.NewSource(41))
	sets := 0
	for _, fen := range guardSeeds {
		root, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		men, _ := root.fixedMen()
		if men == 0 {
			t.Fatalf("%s: no fixed men", fen)
		}
		sets++
		for game := 0; game < 40; game++ {
			playOnKeepsMen(t, rng, *root, men, nil, 120)
		}
	}
	t.Logf("%d sets, 40 games each", sets)
}

// From positions a few random moves after the seeds: wherever the fixed
// men prove a position unwinnable, a best-first search of 20,000 positions
// must find no helpmate.
func TestTheGuardedMenNeverDenyAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(43))
	proofs := 0
	for _, fen := range guardSeeds {
		root, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for try := 0; try < 12; try++ {
			b := *root
			b = randomPlies(rng, b, rng.Intn(20))
			if b.status() != playing {
				continue
			}
			men, r := b.fixedMen()
			if men == 0 {
				continue
			}
			if ok, _ := menUnwinnable(&b, White, men, stillMen{}, r); !ok {
				continue
			}
			proofs++
			if line, ok := greedyMate(&b, White); ok {
				t.Errorf("%s (after random moves from %s) is proven unwinnable by the fixed men, but mates: %v", b.FEN(), fen, line)
			}
		}
	}
	t.Logf("%d proofs checked", proofs)
	if proofs < 40 {
		t.Fatalf("only %d proofs: the test checks too little", proofs)
	}
}

// progressSeeds are rows of the lichess-heavy set (labelled unwinnable for
// White) that the progress search proves once its pieces of stay guard the
// squares next to them: before, a search ran out of 570,000 to 1,900,000
// positions on each.
var progressSeeds = []string{
	"1k4b1/1P1p4/BP1Pp1p1/1P2P1P1/8/PpB5/1P1B4/K7 b - - 0 1",
	"1k4b1/1P1p4/BP1Pp1p1/1P2P1P1/p7/PpB5/1P1B4/K7 b - - 0 1",
	"2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K - 0 1",
}

// In the progress search a king never takes a pawn, nor steps onto a
// square, that a piece of stay guards from next to it (or a knight of
// stay, as an enemy pawn or a king held on one square does).
func TestTheProgressSearchKeepsAKingOffWhatItsPiecesOfStayGuard(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		want      Verdict
	}{
		{"the walled bishop on a6 guards b7: the black king never takes it (the white king takes b3, which frees nothing)", progressSeeds[0], Unwinnable},
		{"the same with a black pawn on a4", progressSeeds[1], Unwinnable},
		{"bishops behind a chain", progressSeeds[2], Unwinnable},
		{"without the bishop on a6 the black king takes b7, and White mates", "1k4b1/1P1p4/1P1Pp1p1/1P2P1P1/8/PpB5/1P1B4/K7 b - - 0 1", Winnable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if ok, _ := blockedUnwinnable(b, White); ok {
				t.Fatalf("the blocked-pawn analysis proves it already")
			}
			if got, n, why := progressUnwinnable(b, White, progressBudget); got != (tc.want == Unwinnable) {
				t.Fatalf("progressUnwinnable = %v after %d states (%v)", got, n, why)
			}
			analyseChecked(t, b, tc.fen, White, 200_000, tc.want)
		})
	}
}

// From positions a few random moves after the seeds of the guards and of
// the progress search (White to mate) and after every 10th community row
// of the reference files (with its colour): wherever the progress search
// proves a position unwinnable, a best-first search of 20,000 positions
// must find no helpmate.
func TestTheProgressSearchWithGuardsNeverDeniesAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(47))
	var fens []string
	var winners []int
	for _, f := range append(append([]string(nil), guardSeeds...), progressSeeds...) {
		fens, winners = append(fens, f), append(winners, White)
	}
	community, colours := communityRows(t, 10)
	fens, winners = append(fens, community...), append(winners, colours...)
	proofs := 0
	for i, fen := range fens {
		root, err := ParseFEN(fen)
		if err != nil {
			continue
		}
		w := winners[i]
		tries := 1
		if i < len(guardSeeds)+len(progressSeeds) {
			tries = 12
		}
		for try := 0; try < tries; try++ {
			b := *root
			b = randomPlies(rng, b, rng.Intn(20))
			if b.status() != playing {
				continue
			}
			if ok, _, _ := progressUnwinnable(&b, w, progressBudget); !ok {
				continue
			}
			proofs++
			if line, ok := greedyMate(&b, w); ok {
				t.Errorf("%s (after random moves from %s) is proven unwinnable by the progress search, but mates: %v", b.FEN(), fen, line)
			}
		}
	}
	t.Logf("%d proofs checked", proofs)
	if proofs < 40 {
		t.Fatalf("only %d proofs: the test checks too little", proofs)
	}
}
