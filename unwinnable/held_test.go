package unwinnable

import (
	"math/bits"
	"math/rand"
	"strings"
	"testing"
)

// The rows of the 8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 family: the black king
// can take g2 (White's king on h4) or h5 (on h3), and each capture leaves
// White without a move; so the pawns stand until the game ends, and no
// white man can ever attack the black king.
func TestPawnsHeldByAStalemate(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		winner int
		want   Verdict
		nodes  int
	}{
		{"the black king takes g2 or h5 only into White's stalemate", "8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1", White, Unwinnable, 20_000},
		{"the same with many dark bishops and White to move (a forced king move first)", "8/8/3b3p/2b2p1P/1b1b1p1K/2b2Pp1/1b4P1/4bkb1 w - - 0 1", White, Unwinnable, 20_000},
		{"the same with the black king among the bishops", "8/8/7p/2b2p1P/1bkb1p1K/2b2Pp1/6P1/8 b - - 0 1", White, Unwinnable, 20_000},
		{"a piece of the winner held: Black's walled bishop on c8, which the white king takes only into Black's no-move", "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1", Black, Unwinnable, 20_000},
		{"a free white a-pawn: taking g2 stalemates nothing, and White mates", "8/8/3b3p/5p1P/3b1p1K/5Pp1/P5P1/5kb1 b - - 0 1", White, Winnable, 200_000},
		{"a white knight that can move: taking g2 stalemates nothing, and White mates", "8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kbN b - - 0 1", White, Winnable, 200_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			r := analyseChecked(t, b, tc.fen, tc.winner, tc.nodes, tc.want)
			switch r.Verdict {
			case Winnable:
			case Unwinnable:
				if !strings.Contains(r.Reason, "left without a move") {
					t.Fatalf("proven by another stage: %s", r.Reason)
				}
			}
		})
	}
}

// heldSeeds are positions where the winner's pawns are held by a
// stalemate, or the loser's men by a mate of the winner.
var heldSeeds = []string{
	"8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1",
	"8/2b5/1b5p/b4p1P/5p1K/5Pp1/6P1/5kb1 b - - 0 1",
	"8/8/7p/5p1P/5p1K/4bPp1/5bPb/4bkb1 b - - 0 1",
	"8/8/3b3p/4bp1P/5p1K/4bPp1/5bP1/5k2 b - - 0 1",
	"8/8/3b3p/2b2p1P/3b1p1K/b4Pp1/1b1b2P1/b4kb1 b - - 0 1",
	// The loser's men held: the white king takes c8 or b7 only into
	// Black's stalemate.
	"k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1",
	"8/1p6/kPp5/2P5/p1P5/P7/2K5/8 w - - 0 1",
	// A black pawn can step only into White's checkmate (c6-c5 or e6-e5
	// with the white king on d4; c3-c2 or e3-e2 with it on d1).
	"1b2kb2/8/2ppp3/3p2p1/1p1K1pP1/1P1P1P2/8/1B1B1B2 b - - 0 1",
	"B6b/8/4k3/2p1p1pB/1pP1P1P1/1Pppp3/3p4/3K4 b - - 0 1",
	// Men of the loser that can move only where they mate White.
	"8/2b4B/4k3/8/8/2p1p1p1/2PpP1P1/1B1K3n b - - 0 1",
	"6B1/b7/2k5/p1p1p1pB/P1P1P1P1/pp6/rp6/1K2b3 b - - 0 1",
	"3b1b2/3k4/2ppp3/3p4/1p1K1p1p/bP1P1P1P/8/1B3B2 w - - 0 1",
	"8/B4b2/2k5/1p1p4/1P1Pp1pB/1pp1P1P1/1p6/bK3b2 b - - 0 1",
	// A pawn of the loser the winner's king can take, and squares it can
	// step onto, only into a stalemate.
	"8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1",
	"1K6/1p4B1/kPp2B2/2P1B3/p1PB4/P1B5/8/8 w - - 0 1",
	"8/1p6/1Pp5/k1P5/p1P5/P7/8/3K4 w - - 0 1",
}

// The rows of the k1b5/1p1p4/1P1P4 family: the black bishop on c8, walled
// in by its pawns, can be taken by the white king (from d8, with the black
// king on a8) only into Black's stalemate, and the dark bishops never check
// a8; so the men stand until the game ends, and the black king, checked on
// b8 at most, always keeps a8.
func TestMenHeldByTheLosersStalemate(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		winner int
		want   Verdict
	}{
		{"the white king takes c8 only into Black's stalemate", "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1", White, Unwinnable},
		{"three dark bishops", "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K5B1 w - - 0 1", White, Unwinnable},
		{"behind a chain with a knight on a4, undetermined at 50,000 positions before", "k1b5/1pBp4/1PpP4/2Pp4/N1pP4/1pP5/1P6/K7 w - - 0 1", White, Unwinnable},
		{"a king and bishop, proven by a search of 24,000 positions before", "k1b5/1p1pB3/1P1P4/8/8/4K3/8/8 b - - 0 1", White, Unwinnable},
		{"a white rook could check a8: the capture could be a mate, and White mates", "k1b5/1p1p4/1P1P4/B7/8/2B5/8/KR6 w - - 0 1", White, Winnable},
		{"a white knight, which can cover a8, and White mates", "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K5N1 w - - 0 1", White, Winnable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			provenByStage(t, tc.fen, tc.winner, 200_000, tc.want, "held-men", "then stalemated")
		})
	}
}

// A pawn of the loser whose only step checks the winner's king, held in
// the set, with no flight and no man to take the pawn, stays: the step
// ends the game with the winner mated.
func TestAPawnThatCanStepOnlyIntoTheWinnersMateIsHeld(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want Verdict
	}{
		{"c6-c5 and e6-e5 mate the white king on d4", "1b2kb2/8/2ppp3/3p2p1/1p1K1pP1/1P1P1P2/8/1B1B1B2 b - - 0 1", Unwinnable},
		{"the same with two white bishops", "1b2kb2/8/2ppp3/3p2p1/1p1K1pP1/1P1P1P2/8/1B3B2 b - - 0 1", Unwinnable},
		{"c3-c2 and e3-e2 mate the white king on d1", "B6b/8/4k3/2p1p1pB/1pP1P1P1/1Pppp3/3p4/3K4 b - - 0 1", Unwinnable},
		{"without the pawn on d6 the white king has c5 and e5, and White mates", "1b2kb2/8/2p1p3/3p2p1/1p1K1pP1/1P1P1P2/8/1B1B1B2 b - - 0 1", Winnable},
		{"a white knight could take the pawn on c5 or e5, and White mates", "1b2kb2/8/2ppp3/3p2p1/1p1K1pP1/1P1P1P2/8/1B1B1BN1 b - - 0 1", Winnable},
		{"without e6, after c6-c5 nothing guards d5: the white king takes it, and White mates", "1b2kb2/8/2pp4/3p2p1/1p1K1pP1/1P1P1P2/8/1B1B1B2 b - - 0 1", Winnable},
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
				// The first search may find the mate before the held
				// men are looked at: they must not prove it either.
				if men, re := b.fixedMenHeld(White); men != 0 {
					if ok, why := menUnwinnable(b, White, men, stillMen{}, re); ok {
						t.Fatalf("the held men %s prove it: %s", squareList(men), why)
					}
				}
			case Unwinnable:
				if r.stage != "held-men" || !strings.Contains(r.Reason, "can step only into a checkmate of White") {
					t.Fatalf("proven by stage %q: %s", r.stage, r.Reason)
				}
			}
		})
	}
}

// The step mates only where no man of the winner but its king can ever
// attack the square the pawn steps to: a white knight that could reach a
// square attacking c5 keeps c6 out.
func TestAPawnStepMatesOnlyWhereNoManCanTakeThePawn(t *testing.T) {
	b, err := ParseFEN("1b2kb2/8/2ppp3/3p2p1/1p1K1pP1/1P1P1P2/8/1B1B1B2 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	men, _ := b.fixedMenHeld(White)
	c6, _ := parseSquare("c6")
	if men&(1<<c6) == 0 || !b.stepMatesWinner(Black, c6, men) {
		t.Fatalf("c6 (in the set: %v) does not step only into a mate", men&(1<<c6) != 0)
	}
	withKnight, err := ParseFEN("1b2kb2/8/2ppp3/3p2p1/1p1K1pP1/1P1P1P2/8/1B1B1BN1 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if withKnight.stepMatesWinner(Black, c6, men) {
		t.Fatalf("with a white knight that can reach b3, a4, d3, e4, e6, d7, b7 or a6, c6-c5 is said to mate")
	}
}

// A capture by the winner's king that leaves the loser without a move is
// a mate when it gives check (a discovered one): the loser's man is held
// only where the winner can never attack a square the loser's king may
// stand on then.
func TestAManOfTheLoserIsHeldOnlyWhereTheCaptureCannotCheck(t *testing.T) {
	c8, _ := parseSquare("c8")
	for _, tc := range []struct {
		name string
		fen  string
		want bool
	}{
		{"dark bishops never attack a8", "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1", true},
		// The rook on b1 could attack a8 through b8 only: the white
		// king would have come from b8, where it never stands, the black
		// king being on a8 or b8 (kingPairs).
		{"a rook could attack a8 only from b8", "k1b5/1p1p4/1P1P4/B7/8/2B5/8/KR6 w - - 0 1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			set := b.bb[White][Pawn] | b.bb[Black][Pawn] | uint64(1)<<c8
			r := b.reachesPaired(set, stillMen{})
			if got := b.kingTakesStalemate(Black, White, c8, set, r); got != tc.want {
				t.Fatalf("the white king takes c8 into a stalemate: %v, want %v", got, tc.want)
			}
			// With b8 in the white king's reach (its flood alone, the
			// black king left out), the king could come from b8 and
			// uncover a check by the rook.
			b8, _ := parseSquare("b8")
			r[White].kingStand |= 1 << b8
			rook := b.bb[White][Rook] != 0
			if got := b.kingTakesStalemate(Black, White, c8, set, r); got == rook {
				t.Fatalf("with the white king on b8 possible, it takes c8 into a stalemate: %v, want %v", got, !rook)
			}
		})
	}
}

// heldRoots are the seeds (White the winner) and every 5th community row
// of the reference files with its colour.
func heldRoots(t *testing.T) (fens []string, winners []int) {
	for _, f := range heldSeeds {
		fens, winners = append(fens, f), append(winners, White)
	}
	f, w := communityRows(t, 5)
	return append(fens, f...), append(winners, w...)
}

// The induction behind fixedMenHeld, played out: along random games from
// positions with such a set (captures by the loser's king of the set's men
// and moves of the set's men chosen half the time, to meet the exceptions
// often), every man of the set stands on its square in every position
// until the game ends; the exceptions are a capture by the loser's king of
// a pawn of the winner, after which the winner has no legal move, a move
// of a man of the loser's after which the winner is checkmated, and a
// capture by the winner's king after which the loser is stalemated.
func TestTheHeldMenStandTillTheGameEnds(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	fens, winners := heldRoots(t)
	sets, exceptions, mates, stalemates, kingOff := 0, 0, 0, 0, 0
	for i, fen := range fens {
		root, err := ParseFEN(fen)
		if err != nil || root.status() != playing {
			continue
		}
		w := winners[i]
		men, reached := root.fixedMenHeld(w)
		if men == 0 {
			continue
		}
		sets++
		kingStand := reached[w].kingStand
		for game := 0; game < 6; game++ {
			b := *root
			for ply := 0; ply < 80; ply++ {
				var l MoveList
				b.Legal(&l)
				if l.N == 0 {
					break
				}
				var takes []Move
				for _, m := range l.Moves[:l.N] {
					if b.sq[m.From()] >= 0 && int(b.sq[m.From()])%6 == King && men&(uint64(1)<<m.To()) != 0 || men&(uint64(1)<<m.From()) != 0 {
						takes = append(takes, m)
					}
				}
				m := l.Moves[rng.Intn(l.N)]
				if len(takes) > 0 && rng.Intn(2) == 0 {
					m = takes[rng.Intn(len(takes))]
				}
				before := b
				b, _ = b.Make(m)
				var next MoveList
				b.Legal(&next)
				if b.bb[w][King]&kingStand == 0 && (next.N != 0 || b.InCheck()) {
					t.Fatalf("%s (%s to mate): after %v from %s the winner's king left its reach %x, and the game goes on", fen, colourName(w), m.UCI(), before.FEN(), kingStand)
				}
				if b.bb[w][King]&kingStand == 0 {
					kingOff++
					break
				}
				for f := men; f != 0; f &= f - 1 {
					q := bits.TrailingZeros64(f)
					if b.sq[q] == root.sq[q] {
						continue
					}
					taker := before.sq[m.From()]
					switch {
					case m.From() == q && int(taker)/6 != w && next.N == 0 && b.InCheck():
						mates++ // the loser's man moved (a pawn's step, a piece's move) and mated the winner
					case m.To() == q && int(taker) == w*6+King && next.N == 0 && !b.InCheck():
						stalemates++ // the winner's king took it and stalemated the loser
					case m.To() == q && int(taker)%6 == King && int(taker)/6 != w && int(root.sq[q])/6 == w && next.N == 0:
						exceptions++ // the loser's king took a man of the winner, which is left without a move
					default:
						t.Fatalf("%s (%s to mate): after %v from %s the man on %d of the held set %x moved or was taken, and the game goes on", fen, colourName(w), m.UCI(), before.FEN(), q, men)
					}
				}
				if next.N == 0 {
					break
				}
			}
		}
	}
	t.Logf("%d sets, %d captures by the loser's king into a position without a move, %d moves of the loser's men that mate the winner, %d captures by the winner's king into a stalemate, %d steps of the winner's king into a stalemate", sets, exceptions, mates, stalemates, kingOff)
	if sets < 50 || exceptions == 0 || mates == 0 || stalemates+kingOff == 0 {
		t.Fatalf("%d sets, %d exceptions: the test checks too little", sets, exceptions)
	}
}

// From positions a few random moves after the seeds and after every 5th
// community row: wherever the held men (and not the fixed men alone)
// prove a position unwinnable, a best-first search of 20,000 positions
// must find no helpmate.
func TestTheHeldPawnsNeverDenyAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	fens, winners := heldRoots(t)
	proofs, loserHeld, stepMates := 0, 0, 0
	for i, fen := range fens {
		root, err := ParseFEN(fen)
		if err != nil {
			continue
		}
		w := winners[i]
		tries := 3
		if i < len(heldSeeds) {
			tries = 12 // the seeds' families, more often
		}
		for try := 0; try < tries; try++ {
			b := *root
			b = randomPlies(rng, b, rng.Intn(16))
			if b.status() != playing {
				continue
			}
			men, r := b.fixedMenHeld(w)
			if plain, _ := b.fixedMen(); men == 0 || men == plain {
				continue
			}
			ok, _ := menUnwinnable(&b, w, men, stillMen{}, r)
			if !ok {
				continue
			}
			proofs++
			_, _, lh, sm := b.heldSides(w, men, r)
			if lh {
				loserHeld++
			}
			if sm {
				stepMates++
			}
			if line, ok := greedyMate(&b, w); ok {
				t.Errorf("%s (after random moves from %s) is proven unwinnable by the held men, but mates: %v", b.FEN(), fen, line)
			}
		}
	}
	t.Logf("%d proofs checked (%d with men of the loser held, %d with a pawn that steps only into a mate)", proofs, loserHeld, stepMates)
	if proofs < 10 || loserHeld < 5 || stepMates < 5 {
		t.Fatalf("only %d proofs: the test checks too little", proofs)
	}
}

// Men of the loser held by a mate of the winner (selfMates): a man whose
// every move checkmates the winner's king, which stands for good, stays
// where it is until the game ends. Rows of the lichess-heavy set that were
// undetermined at the default limit, and positions that must stay
// winnable where the move does not mate.
func TestMenHeldByAMateOfTheWinner(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		want  Verdict
		nodes int
	}{
		{"the knight on h1 moves only to f2, which mates the white king shut in on d1",
			"8/2b4B/4k3/8/8/2p1p1p1/2PpP1P1/1B1K3n b - - 0 1", Unwinnable, 20_000},
		{"the rook on a2 moves only to a1, which mates the white king shut in on b1",
			"6B1/b7/2k5/p1p1p1pB/P1P1P1P1/pp6/rp6/1K2b3 b - - 0 1", Unwinnable, 20_000},
		{"c6-c5 and e6-e5 both mate the white king shut in on d4, so the pawn on d5 stays guarded",
			"3b1b2/3k4/2ppp3/3p4/1p1K1p1p/bP1P1P1P/8/1B3B2 w - - 0 1", Unwinnable, 20_000},
		{"c3-c2 mates the white king shut in on b1",
			"8/B4b2/2k5/1p1p4/1P1Pp1pB/1pp1P1P1/1p6/bK3b2 b - - 0 1", Unwinnable, 20_000},
		{"without the pawn on d2 the white king has d2, the knight comes out and blocks",
			"8/2b4B/4k3/8/8/2p1p1p1/2P1P1P1/1B1K3n b - - 0 1", Winnable, 50_000},
		{"a second black dark bishop in front of the pawns blocks beside the king in the corner",
			"6B1/b3b3/2k5/p1p1p1pB/P1P1P1P1/pp6/rp6/1K2b3 b - - 0 1", Winnable, 50_000},
		{"a white dark bishop takes on c5, so c6-c5 mates nothing",
			"3b1b2/3k4/2ppp3/3p4/1p1K1p1p/bP1P1P1P/8/1B2B3 w - - 0 1", Winnable, 50_000},
		{"the white king on c5 is held by the knights on b8 and d8 (b6, d6) and the pawns; the knights move only where they mate it",
			"bn1n2k1/2p2p2/2p2Pp1/1pKp1pP1/1P1P1P2/8/8/B1B1B1B1 b - - 0 1", Unwinnable, 20_000},
		{"the same with other bishops",
			"bn1n2k1/2p2p1b/2p2Pp1/1pKp1pP1/1P1P1P2/8/5B2/2B3B1 b - - 0 1", Unwinnable, 20_000},
		{"without the knight on d8 the white king goes by d6 and the f-pawn promotes",
			"bn4k1/2p2p2/2p2Pp1/1pKp1pP1/1P1P1P2/8/8/B1B1B1B1 b - - 0 1", Winnable, 50_000},
		{"without the knight on b8 the white king goes by b6",
			"b2n2k1/2p2p2/2p2Pp1/1pKp1pP1/1P1P1P2/8/8/B1B1B1B1 b - - 0 1", Winnable, 50_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			r := analyseChecked(t, b, tc.fen, White, tc.nodes, tc.want)
			switch r.Verdict {
			case Winnable:
			case Unwinnable:
				// A pawn that can only step into the mate is held by
				// stepMatesWinner (4d) already, with its own sentence.
				byStep := r.stage == "held-men" && strings.Contains(r.Reason, "can step only into a checkmate of White")
				if !byStep && (r.stage != "mate-men" || !strings.Contains(r.Reason, "only where it checkmates White")) {
					t.Fatalf("proven by %s: %s", r.stage, r.Reason)
				}
			}
		})
	}
}

// Squares the winner's king can enter only into the loser's stalemate
// (stalemateSquares): the black king shuttles between a5 and a6, its only
// moves; White's king reaching a7, or taking b7, leaves it none. Rows of
// the lichess-heavy set that were undetermined at the default limit, and
// positions that must stay winnable.
func TestTheWinnersKingStepsNextToTheBoxedKingOnlyIntoAStalemate(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want Verdict
	}{
		{"Ka7 or Kxb7 stalemates the black king on a5, and a6 needs the white king beside it for a mate on a5",
			"8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1", Unwinnable},
		{"the same with six dark bishops",
			"8/1p2B1B1/1PpB1B2/k1P1B3/p1P2B2/P7/5K2/8 w - - 0 1", Unwinnable},
		{"the same with the white king on b8 already",
			"1K6/1p4B1/kPp2B2/2P1B3/p1PB4/P1B5/8/8 w - - 0 1", Unwinnable},
		{"a white light bishop covers a6, so a dark bishop mates on a5",
			"8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/5B2 w - - 0 1", Winnable},
		{"a black knight keeps Black from being stalemated",
			"8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/7n w - - 0 1", Winnable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			provenByStage(t, tc.fen, White, 20_000, tc.want, "stalemate-men", "in a stalemate")
		})
	}
}
