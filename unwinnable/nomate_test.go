package unwinnable

import (
	"strings"
	"testing"
)

// The "no mate" test (nomate.go) in the progress search: the winner can
// check the loser's king but never mate it. The unwinnable cases are rows
// of ../shared/data/unwinnable.tsv with their labels, which the analyser
// left undetermined at 50,000 positions before this test.
func TestAKingThatCanBeCheckedButNeverMatedIsUnwinnable(t *testing.T) {
	for _, tc := range []struct {
		name, fen, winner string
		label             string // the reference's label; "" for a constructed case
		// want: proven unwinnable by the progress search; a case the
		// reference labels winnable must not be.
		want bool
		why  string // a part of the reason
	}{
		{"bishops locked to the dark squares behind a pawn chain can check but never mate: a light flight square always stays free",
			"8/B7/1B2k3/B1B5/pBp1p1p1/P1P1P1P1/4K3/8 b - - 0 1", "white", "unwinnable", true, "checked but never mated"},
		{"the loser's one bishop blocks only one of the flight squares the winner's bishops of the other colour cannot attack",
			"3k4/2b5/8/p1p1pBp1/P1P1P1P1/2K5/2B5/8 w - - 0 1", "white", "unwinnable", true, "checked but never mated"},
		{"a king that can never leave its corner keeps the pawn in front of it from promoting",
			"k1b5/Pp1b4/1P2b2B/6B1/5Bb1/1p5b/pP1B4/K1B5 w - - 0 1", "black", "unwinnable", true, ""},
		{"a king held in its corner keeps the other king off its pawn, so that pawn never goes and the corner never opens",
			"k7/8/8/3b4/8/1pB5/pP6/K7 w - - 0 1", "white", "unwinnable", true, "checked but never mated"},
		{"a bishop shut in by its own pawns stays for good: the pawn in front of it never moves, and it blocks no flight square of its king",
			"1k6/pPp5/BpP4b/1P6/8/8/8/3B2K1 w - - 0 1", "black", "unwinnable", true, "checked but never mated"},
		{"with a second free bishop the loser can block both light flight squares next to its cornered king",
			"1k6/pPp5/BpP4b/1P6/8/5B2/8/3B2K1 w - - 0 1", "black", "winnable", false, ""},
		{"a lone bishop and king cannot take both flight squares of the other colour next to a corner",
			"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "white", "", true, "checked but never mated"},
		{"a knight of the loser can block the flight square the winner's king and bishop leave (K+B vs K+N)",
			"4k1n1/8/8/8/8/8/8/2B1K3 w - - 0 1", "white", "", false, ""},
		{"a bishop pair can mate a bare king",
			"4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "white", "", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			w, err := ParseColour(tc.winner)
			if err != nil {
				t.Fatal(err)
			}
			got, n, why := progressUnwinnable(b, w, progressBudget)
			if got != tc.want {
				t.Fatalf("progressUnwinnable = %v after %d states, want %v", got, n, tc.want)
			}
			if got && !strings.Contains(why.Error(), tc.why) {
				t.Errorf("the reason %q does not say %q", why.Error(), tc.why)
			}
			if tc.label == "" || !tc.want {
				return // a helpmate may need more positions than a unit test spends
			}
			if r := AnalyseWith(b, w, Options{Limit: 20_000}); r.Verdict.String() != tc.label {
				t.Errorf("AnalyseWith = %v (%s), the reference says %s", r.Verdict, r.Proof(), tc.label)
			}
		})
	}
}

// The "no mate" test itself: every square of the loser king's region is
// ruled out one by one, counting the loser's men that could block.
func TestNoMateSquareWhereAFlightSquareStaysFree(t *testing.T) {
	// The winner's "attack" a light-squared bishop's: a1 is dark, so no
	// check there; on b1 (light) the dark neighbours a1, c1 and b2 need
	// the winner's king, which covers at most one of them from a square
	// not next to b1.
	light := uint64(0x55AA55AA55AA55AA)
	room := mateRoom{king: 1<<0 | 1<<1, attack: light, winnerKing: ^uint64(0)}
	if k := room.mateSquare(); k >= 0 {
		t.Errorf("a mate on square %d", k)
	}
	room.block, room.movers = 1<<0|1<<2, 2 // two men of the loser on a1 and c1
	if k := room.mateSquare(); k != 1 {
		t.Errorf("the mate on b1 (a1 and c1 blocked, b2 covered by a king on b3) is not found: %d", k)
	}
	room.movers = 1 // ... but the loser has only one such man
	if k := room.mateSquare(); k >= 0 {
		t.Errorf("a mate on square %d with one man to block two squares", k)
	}
}
