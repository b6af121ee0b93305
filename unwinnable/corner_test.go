package unwinnable

import "testing"

// In the offer search, where the winner has only bishops of one colour
// and pawns on that colour each behind a pawn of the loser, every check it
// can give (until a pawn takes) is on that colour, and the score counts
// the loser king's steps to the corners of that colour as well as to the
// nearest corner (in the first row the white king stands on h1, a light
// corner no dark bishop checks; the helpmate found leads it to a1). Each row was undetermined at 2,000,000 positions before; each
// is now found by the offer search within the bound, and the line found
// is a helpmate.
func TestBishopsBesideBlockedPawnsDriveTheKingToTheirCorner(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		winner    int
		bound     int // the positions the verdict may take (found in about three quarters of it)
	}{
		{"dark bishops and a blocked pawn mate the king led from h1 to a1", "k7/8/8/8/2B5/6p1/6Pb/6bK w - - 0 1", Black, 200_000},
		{"the rook given up, dark bishops behind the chain", "1b6/4k3/1p1p4/1P1Pp1p1/4P1P1/6bB/6r1/5K1B w - - 0 1", Black, 420_000},
		{"light bishops behind a chain of blocked pawns", "k1b5/8/8/1pBpBpBp/bPbP1PpP/Pp4P1/1P4P1/K1B1B3 w - - 0 1", Black, 420_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			foundBy(t, tc.fen, tc.winner, 0, tc.bound, "offer-", "offer search")
		})
	}
}

// onlyChecksOfOneColour holds where the winner's men are bishops of one
// colour and pawns on that colour, each right behind a pawn of the loser.
func TestOnlyChecksOfOneColourNeedsBishopsAndBlockedPawnsOfOneColour(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		winner    int
		want      bool
	}{
		{"dark bishops, a pawn on g3 behind g2", "k7/8/8/8/2B5/6p1/6Pb/6bK w - - 0 1", Black, true},
		{"light bishops, six pawns on light squares, each blocked", "k1b5/8/8/1pBpBpBp/bPbP1PpP/Pp4P1/1P4P1/K1B1B3 w - - 0 1", Black, true},
		{"bishops alone", "7k/8/8/3B4/8/8/7b/6bK w - - 0 1", Black, true},
		{"a rook beside the bishops", "1b6/4k3/1p1p4/1P1Pp1p1/4P1P1/6bB/6r1/5K1B w - - 0 1", Black, false},
		{"a pawn free to advance", "7k/8/8/3B4/8/8/6pb/6bK w - - 0 1", Black, false},
		{"a blocked pawn on the other colour", "7k/8/8/3B4/6p1/6P1/7b/6bK w - - 0 1", Black, false},
		{"bishops of both colours", "7k/8/8/3B4/8/6p1/6Pb/5bbK w - - 0 1", Black, false},
		{"no bishop", "7k/8/8/3B4/8/6p1/6P1/7K w - - 0 1", Black, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := onlyChecksOfOneColour(b, tc.winner); got != tc.want {
				t.Fatalf("onlyChecksOfOneColour = %v, want %v", got, tc.want)
			}
		})
	}
}

// The score of the offer search for Black's dark bishops beside a blocked
// pawn falls as the white king goes from the light corner h1 towards the
// dark corner a1; the other searches still count h1 as the best square.
func TestTheCornersOfTheBishopsColourInTheOfferSearch(t *testing.T) {
	steps := []struct{ name, fen string }{
		{"the king on h1", "7k/8/8/8/8/6p1/B5P1/2b3bK b - - 0 1"},
		{"the king on e1", "7k/8/8/8/8/6p1/B5P1/2b1K1b1 b - - 0 1"},
		{"the king on a1", "7k/8/8/8/8/6p1/B5P1/K1b3b1 b - - 0 1"},
	}
	s := &searcher{winner: Black, w: nearMate, wBlock: 2, corners: true}
	other := &searcher{winner: Black, w: nearMate, wBlock: 2}
	last := 1 << 30
	for i, st := range steps {
		b, err := ParseFEN(st.fen)
		if err != nil {
			t.Fatal(err)
		}
		sc := s.score(b)
		if sc >= last {
			t.Errorf("%s: %d, not below the step before (%d)", st.name, sc, last)
		}
		last = sc
		if i == 0 {
			h1 := other.score(b)
			e1, _ := ParseFEN(steps[1].fen)
			if h1 >= other.score(e1) {
				t.Errorf("without corners: h1 scores %d, not below e1's %d", h1, other.score(e1))
			}
		}
	}
}
