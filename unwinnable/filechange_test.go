package unwinnable

import "testing"

// The change search finds the helpmates in which a pawn of the winner
// changes file by a capture onto a file with no pawn of the loser ahead
// and promotes: the man it takes is a pawn of the loser that took a piece
// the winner offered it (the first row), or a piece of the loser. Each row
// is found by that search within the bound of positions (the lichess rows
// were undetermined at 50,000 positions before it, and the row it was made
// for, of which the first is a mirror image with the kings elsewhere, at
// 10,000,000), and the line found is a helpmate.
func TestTheChangeSearchTakesOntoAFileClearAhead(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		winner    int
		limit     int // Options.Limit (a small limit changes the schedule of the rounds)
		bound     int // the positions the verdict may take
	}{
		{"the bishop offered on a3 to the b-pawn, taken back by the b2-pawn, which runs", "2k3b1/1p1p1p1p/1P1P1P1P/1pBp1p1p/8/8/1P1P1P1P/6K1 w - - 0 1", White, 0, 20_000},
		{"the same at 50,000 positions", "2k3b1/1p1p1p1p/1P1P1P1P/1pBp1p1p/8/8/1P1P1P1P/6K1 w - - 0 1", White, 50_000, 20_000},
		{"six bishops and a pawn behind the g-pawn", "8/8/5k2/6p1/6B1/4pBPB/6B1/5BKB w - - 0 1", White, 50_000, 20_000},
		{"a lichess row: the knight and the a-pawn against a queen and pawns", "8/p5nk/8/P5Q1/4P3/5P2/5P2/5K2 b - - 0 55", Black, 50_000, 20_000},
		{"a lichess row: the h-pawn behind the h6-pawn", "4r3/1p4B1/3p3p/5p2/q5k1/8/1K5P/2r5 w - - 20 59", White, 50_000, 20_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			foundBy(t, tc.fen, tc.winner, tc.limit, tc.bound, "change-", "change search")
		})
	}
}

// changeSteps falls with each move that brings the file change nearer,
// along a helpmate of the first row above (the bishop offered on a3, the
// b-pawn taking it, the b2-pawn taking back and running), and never rises.
func TestChangeStepsFallAsTheBishopIsOfferedAndThePawnRuns(t *testing.T) {
	b, err := ParseFEN("2k3b1/1p1p1p1p/1P1P1P1P/1pBp1p1p/8/8/1P1P1P1P/6K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := changeSteps(b, White); got != 9 {
		t.Errorf("at the root: %d, want 9 (b5-b4, Ba3, bxa3, bxa3 and five steps to a8)", got)
	}
	// The moves marked true bring the change nearer; the others are
	// tempo moves.
	for _, m := range []struct {
		uci    string
		nearer bool
	}{
		{"c5a3", true}, {"b5b4", true}, {"g1f1", false}, {"b4a3", true}, {"b2a3", true},
		{"c8d8", false}, {"a3a4", true}, {"d8c8", false}, {"a4a5", true}, {"c8d8", false}, {"a5a6", true},
	} {
		before := changeSteps(b, White)
		var l MoveList
		b.Legal(&l)
		found := false
		for _, x := range l.Moves[:l.N] {
			if x.UCI() == m.uci {
				next, _ := b.Make(x)
				b, found = &next, true
				break
			}
		}
		if !found {
			t.Fatalf("%s is not legal", m.uci)
		}
		after := changeSteps(b, White)
		if after > before || m.nearer && after == before {
			t.Errorf("%s: %d -> %d", m.uci, before, after)
		}
	}
}

// The change search runs only where every pawn of the winner has a pawn
// of the loser ahead on its file, none can take a pawn as the pawns
// stand, and a piece is on the board; never on the offer search's rows.
func TestTheChangeSearchRunsOnlyWhereNoPawnCanPromoteNorTakeAPawn(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		winner    int
		want      bool
	}{
		{"the row of the first test above", "2k3b1/1p1p1p1p/1P1P1P1P/1pBp1p1p/8/8/1P1P1P1P/6K1 w - - 0 1", White, true},
		{"for Black there too", "2k3b1/1p1p1p1p/1P1P1P1P/1pBp1p1p/8/8/1P1P1P1P/6K1 w - - 0 1", Black, true},
		{"kings and pawns only", "3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1", White, false},
		{"a pawn with its file clear ahead", "2k3b1/1p1p1p1p/1P1P1P1P/1pBp1p1p/8/8/PP1P1P1P/6K1 w - - 0 1", White, false},
		{"a pawn that can take a pawn beside it ahead", "2k3b1/1p1p1p1p/1P1P1P1P/1pBp1p1p/8/6P1/1P1P1P1P/6K1 w - - 0 1", Black, false},
		{"every pawn right behind a pawn: the offer search's row", "1bB5/4k3/1p1p4/1P1Pp1p1/4P1P1/6bB/6r1/5K2 w - - 0 1", White, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := fileChangeRoot(b, tc.winner); got != tc.want {
				t.Errorf("%v, want %v", got, tc.want)
			}
		})
	}
}
