package unwinnable

import "testing"

// The offer search finds the helpmates in which the loser takes apart a
// chain of the winner's blocked pawns: it offers its pieces on the capture
// squares of the blocked pawns, a pawn takes and is set free, and it
// promotes. Each row is found by that search within the bound of
// positions (before it, the first was undetermined at 2,000,000
// positions, the last took about 1,080,000), and the line found is a
// helpmate.
func TestTheOfferSearchTakesABlockedChainApart(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		winner    int
		limit     int // Options.Limit (a small limit changes the schedule of the rounds)
		bound     int // the positions the verdict may take
	}{
		{"a rook offered on c6 sets the b-pawn free, which promotes", "1bB5/4k3/1p1p4/1P1Pp1p1/4P1P1/6bB/6r1/5K2 w - - 0 1", White, 50_000, 5_000},
		{"the winner's rook taken on e6 by the pawn in front of its own d-pawn, which promotes", "1k1rrb2/p7/Pp1p1p2/1PpPpPp1/2P1P1Pp/7P/8/5K2 w - - 0 1", Black, 50_000, 5_000},
		{"the black king takes c2, the c-pawn becomes a knight and is offered on g4", "8/8/3b4/2b5/1p1p1pBp/1PpP1P1P/2P5/1k1K4 w - - 0 1", White, 2_000_000, 300_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			foundBy(t, tc.fen, tc.winner, tc.limit, tc.bound, "offer-", "offer search")
		})
	}
}

// offerScore falls as the loser's nearest piece comes to a capture square
// of the winner's blocked pawns, and again once a pawn taking there is set
// free, with each of its steps to promotion.
func TestTheOfferScoreFallsAsAPieceIsOfferedAndAPawnSetFree(t *testing.T) {
	// Each position one step further along the helpmate of the first row
	// above: the rook two moves from c6, on the c-file, on c6; the b-pawn
	// taken on c6, then one step on.
	steps := []struct{ name, fen string }{
		{"the rook two moves from a capture square", "1b6/4k3/Bp1p4/1P1Pp1p1/4P1P1/6bB/6r1/5K2 b - - 0 1"},
		{"the rook one move from it", "1b6/4k3/Bp1p4/1P1Pp1p1/4P1P1/6bB/2r5/6K1 b - - 0 1"},
		{"the rook on it", "1b6/4k3/Bprp4/1P1Pp1p1/4P1P1/6bB/8/6K1 w - - 0 1"},
		{"the pawn that took it set free", "1b6/4k3/BpPp4/3Pp1p1/4P1P1/6bB/8/6K1 b - - 0 1"},
		{"the free pawn a step on", "1b6/2P1k3/Bp1p4/3Pp1p1/4P1P1/6bB/8/6K1 b - - 0 1"},
	}
	last := 1 << 30
	for _, st := range steps {
		b, err := ParseFEN(st.fen)
		if err != nil {
			t.Fatal(err)
		}
		sc := offerScore(b, White)
		if sc >= last {
			t.Errorf("%s: %d, not below the step before (%d)", st.name, sc, last)
		}
		last = sc
	}
	// A loser's pawn that no pawn blocks counts as the piece it may
	// become (here the black king has taken c2 and stands aside).
	with, _ := ParseFEN("8/8/3b4/2b5/1p1p1pBp/1PpP1P1P/8/3K1k2 w - - 0 1")
	without, _ := ParseFEN("8/8/3b4/2b5/1p1p1pBp/1PpP1P1P/2P5/3K1k2 w - - 0 1")
	if a, b := offerScore(with, White), offerScore(without, White); a >= b {
		t.Errorf("the c-pawn free to promote: %d, not below %d with it blocked", a, b)
	}
}
