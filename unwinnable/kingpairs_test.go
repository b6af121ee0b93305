package unwinnable

import (
	"math/rand"
	"testing"
)

// kingPairsSeeds are rows of the reference files that the fixed men prove
// for Black only with the kings' squares narrowed by kingPairs: the black
// king (e8, d8, c8 behind its pawns and bishops) bars the white king's way
// past d7 and d8, so it never comes near the bishop on f8 nor the pawns it
// guards, and White's king stays on light squares that Black's dark men
// never attack. Both were undetermined at the default limit.
var kingPairsSeeds = []string{
	"BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - - 0 1",
	"Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/8/p7/P7/4b2B b - - 0 1",
}

// kingPairsBreakers are the first seed with a man more, less or other:
// Black mates in each.
var kingPairsBreakers = []struct{ name, fen string }{
	{"a light black bishop checks on the white king's squares", "BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B1b3B b - - 0 1"},
	{"a black knight checks on them", "BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b1nB b - - 0 1"},
	{"without the bishop on f8 the black king steps aside to the king's side", "BbK1k3/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - - 0 1"},
	{"without the bishop on a7 the white king takes on b8", "BbK1kb2/2p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - - 0 1"},
}

// The kings never stand side by side: where a king's flood is a corridor
// that the other king holds, its squares beyond are never reached, and
// the fixed men those squares would have threatened stand.
func TestKingPairsKeepTheKingsApart(t *testing.T) {
	type tc struct {
		name, fen string
		winner    int
		want      Verdict
	}
	tests := []tc{
		{"the black king bars the white king's way (Black to mate)", kingPairsSeeds[0], Black, Unwinnable},
		{"the same, White to move", "BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B w - - 0 1", Black, Unwinnable},
		{"the white king on b7", kingPairsSeeds[1], Black, Unwinnable},
		{"White mates there with its light bishops", kingPairsSeeds[0], White, Winnable},
		{"and there", kingPairsSeeds[1], White, Winnable},
	}
	for _, br := range kingPairsBreakers {
		tests = append(tests, tc{br.name, br.fen, Black, Winnable})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			provenByStage(t, tc.fen, tc.winner, 300_000, tc.want, "fixed-men", "")
		})
	}
}

// kingPairs on the seed's walls, and where the regions lie apart.
func TestKingPairsNarrowOnlyWhereTheKingsMeet(t *testing.T) {
	sq := func(names ...string) uint64 {
		var x uint64
		for _, s := range names {
			q, _ := parseSquare(s)
			x |= 1 << q
		}
		return x
	}
	at := func(s string) int { q, _ := parseSquare(s); return q }
	files2 := uint64(0x0303030303030303) // the a- and b-files
	files3 := uint64(0x0707070707070707) // a to c
	tests := []struct {
		name         string
		w0, b0       string
		regW, regB   uint64
		wantW, wantB uint64
	}{
		{"the seed's corridor", "c8", "e8",
			sq("c8", "b7", "a8", "a6", "d7", "d8", "e8", "f7", "g8", "h8", "h7"), sq("c8", "d8", "e8"),
			sq("c8", "b7", "a8", "a6"), sq("c8", "d8", "e8")},
		{"regions apart are the floods", "a1", "h8",
			sq("a1", "a2", "b1", "b2"), sq("h8", "g8", "h7"),
			sq("a1", "a2", "b1", "b2"), sq("h8", "g8", "h7")},
		{"in a corridor three files wide each king walks round the other", "a1", "a8",
			files3, files3, files3, files3},
		{"in one two files wide neither passes (opposition)", "a1", "a8",
			files2, files2, files2 &^ sq("a7", "b7", "a8", "b8"), files2 &^ sq("a1", "b1", "a2", "b2")},
		{"in a one-file corridor neither passes", "a1", "a8",
			sq("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"), sq("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"),
			sq("a1", "a2", "a3", "a4", "a5", "a6"), sq("a3", "a4", "a5", "a6", "a7", "a8")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, b := kingPairs(at(tc.w0), at(tc.b0), tc.regW, tc.regB)
			if w != tc.wantW || b != tc.wantB {
				t.Fatalf("white %v, black %v; want %v and %v", squareList(w), squareList(b), squareList(tc.wantW), squareList(tc.wantB))
			}
		})
	}
}

// The induction behind kingPairs, played out, and its soundness against
// the search: from positions up to 30 random moves after the seeds, the
// breakers and every 40th community row of the reference files, along 60
// random moves more, every man of the fixed men (fixedMen, whose reaches
// are narrowed by kingPairs) stands and each king stays on the squares
// its reach gives it; and wherever the fixed men's stage proves a
// position unwinnable for a side, a best-first search of 20,000 positions
// finds no helpmate for it.
func TestKingPairsNeverDenyAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	fens := append([]string(nil), kingPairsSeeds...)
	for _, br := range kingPairsBreakers {
		fens = append(fens, br.fen)
	}
	seeds := len(fens)
	community, _ := communityRows(t, 40)
	fens = append(fens, community...)
	narrowed, sets, proofs := 0, 0, 0
	for i, fen := range fens {
		root, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		tries := 2 // a community row
		if i < seeds {
			tries = 12
		}
		for try := 0; try < tries; try++ {
			b := randomPlies(rng, *root, rng.Intn(30))
			if b.status() != playing {
				continue
			}
			men, r := b.fixedMen()
			if men != 0 {
				sets++
				if plain := b.reachesStill(men, stillMen{}); plain[White].kingStand != r[White].kingStand || plain[Black].kingStand != r[Black].kingStand {
					narrowed++
				}
				playOnKeepsMen(t, rng, b, men, &r, 60)
			}
			fixed, _ := b.fixedPawns()
			for _, winner := range []int{White, Black} {
				s := &searcher{winner: winner, limit: 1 << 30, proven: map[uint64]int16{}}
				if why, _ := s.fixedMenStage(&b, fixed); why == nil {
					continue
				}
				proofs++
				if line, ok := greedyMate(&b, winner); ok {
					t.Errorf("%s (after random moves from %s) is proven unwinnable by the fixed men, but mates: %v", b.FEN(), fen, line)
				}
			}
		}
	}
	t.Logf("%d sets played on (%d narrowed by kingPairs), %d proofs checked", sets, narrowed, proofs)
	if narrowed < 20 || proofs < 40 {
		t.Fatalf("only %d narrowed sets and %d proofs: the test checks too little", narrowed, proofs)
	}
}
