package unwinnable

import (
	"math/bits"
	"math/rand"
	"testing"
)

// The chain with holes: White's king, knight or rook and bishop in the
// corner (a2, a1, b1) are shut in by their own pawns b3 and c2 and by the
// squares a3 and b2 the black pawns b4 and c3 attack; White's one free
// man is a light bishop, which needs two dark blockers beside the black
// king, and Black has at most one dark bishop that can pass its own
// pawns. Rows of the lichess-heavy set (CHA-Solver's labels) that were
// undetermined at the default limit, with the stage that proves each.
func TestTheChainWithHolesIsProven(t *testing.T) {
	tests := []stillCase{
		{"the rook on a1 can only be taken, the black bishop on h2 never passes the pawns",
			"B2b4/8/8/4k3/1p1p1p1p/1PpP1P1P/K1P4b/RB6 b - - 0 1", Unwinnable, "fixed-men", 20_000},
		{"the same with two white bishops, the bishop on g1 behind the pawns",
			"B2b4/8/8/4k2B/1p1p1p1p/1PpP1P1P/K1P5/RB4b1 b - - 0 1", Unwinnable, "fixed-men", 20_000},
		{"the black bishop on b7 is pinned, so every black move but Bxa8 (stalemate) is met by the forced Bxb7",
			"B7/1b6/2k5/8/1p1p1p1p/1PpP1P1P/K1P4b/NB6 b - - 0 1", Unwinnable, "prove", 50_000},
		{"the same with two dark bishops behind the pawns",
			"B7/1b6/2k5/8/1p1p1p1p/1PpP1PbP/K1P4b/NB6 b - - 0 1", Unwinnable, "prove", 50_000},
		{"the same with one dark bishop in front of the pawns and one behind them",
			"B2b4/1b6/2k5/8/1p1p1p1p/1PpP1P1P/K1P4b/NB6 b - - 0 1", Unwinnable, "prove", 50_000},
		{"Qxa6+ is forced, then White must take back: one dark bishop in front, one behind",
			"1bB5/k7/Q5q1/8/1pBp1p1p/1PpP1P1P/K1P5/NB2b3 b - - 0 1", Unwinnable, "prove", 50_000},
		{"the black bishop on b7 free (not pinned): it is given up on c4, e4 or g4 and a white pawn runs",
			"B1b5/8/3k4/8/1p1p1p1p/1PpP1P1P/K1P4b/NB6 b - - 0 1", Winnable, "", 20_000},
		{"two black dark bishops in front of the pawns: both blockers beside the king in the corner",
			"B2b4/2b5/8/4k3/1p1p1p1p/1PpP1P1P/K1P4b/RB6 b - - 0 1", Winnable, "", 300_000},
		{"a black light bishop behind the pawns is given up to a white pawn",
			"B2b4/8/8/4k3/1p1p1p1p/1PpP1P1P/K1P1b3/RB6 b - - 0 1", Winnable, "", 50_000},
	}
	analyseStillCases(t, tests)
}

// The king shut in on f1: its neighbours are its pawn e2 and squares the
// black pawns on e3, f2, h2 and h3 hold; the bishop on g1 (guarded by the
// pawns f2 and h2, attacked only by the white king) and the rook on h1
// never move, so the black g-pawn never promotes, and White's light bishop
// never leaves a2, b1, c2 and d1. Rows of the lichess-heavy set that were
// undetermined at the default limit.
func TestTheKingShutInOnF1IsProven(t *testing.T) {
	analyseStillCases(t, []stillCase{
		{"the bishop on g1 is guarded against the white king, the white bishop shut in on a2, b1, c2, d1",
			"8/1p4p1/6k1/6b1/1p1p4/1P1Pp1bp/B3Pp1p/5Kbr w - - 0 1", Unwinnable, "fixed-men", 20_000},
		{"the same with a second white bishop on d1 and Black to move",
			"8/3p2p1/6k1/6b1/1p1p4/1P1Pp1bp/B3Pp1p/3B1Kbr b - - 0 1", Unwinnable, "fixed-men", 20_000},
		{"the same with two more black bishops",
			"8/1p4p1/1b1b2k1/6b1/1p1p4/1P1Pp1bp/4Pp1p/1B3Kbr b - - 0 1", Unwinnable, "fixed-men", 20_000},
		{"a white pawn on g6 that the black king can take but that never moves: no black man can stand on f7 or h7",
			"1k6/1p4p1/1b1b2P1/6b1/1p1p4/1P1Pp1bp/4Pp1p/1B3Kbr b - - 0 1", Unwinnable, "fixed-men", 20_000},
		{"a black knight gives itself up on e4 or f3 and a white pawn runs",
			"8/1p4p1/6k1/6n1/1p1p4/1P1Pp1bp/B3Pp1p/5Kbr w - - 0 1", Winnable, "", 50_000},
		{"a black knight gives itself up on f7 or h7 to the pawn on g6",
			"1k6/1p4p1/1b1n2P1/6b1/1p1p4/1P1Pp1bp/4Pp1p/1B3Kbr b - - 0 1", Winnable, "", 50_000},
		{"without the black rook the pawn on h2 promotes, and the white king comes out",
			"8/1p4p1/6k1/6b1/1p1p4/1P1Pp1bp/B3Pp1p/5Kb1 w - - 0 1", Winnable, "", 200_000},
	})
}

// stillCase is a row of the tests above: the verdict with White to mate,
// and for an unwinnable one the stage that proves it.
type stillCase struct {
	name  string
	fen   string
	want  Verdict
	stage string
	nodes int
}

func analyseStillCases(t *testing.T, tests []stillCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			r := AnalyseWith(b, White, Options{Limit: tc.nodes})
			if r.Verdict != tc.want {
				t.Fatalf("verdict %v after %d positions (%s), want %v", r.Verdict, r.Nodes, r.Proof(), tc.want)
			}
			switch r.Verdict {
			case Winnable:
				if why := replayMates(tc.fen, White, r.Line); why != "" {
					t.Fatalf("the line %v: %s", r.Line, why)
				}
			case Unwinnable:
				if r.stage != tc.stage {
					t.Fatalf("proven by %s (%s), want %s", r.stage, r.Reason, tc.stage)
				}
			}
		})
	}
}

// The blockers are matched to the squares man by man: two squares that
// one man alone can reach need two men.
func TestBlockersFitMatchesEachSquareToAManOfItsOwn(t *testing.T) {
	sq := func(s string) uint64 { return uint64(1) << (int(s[1]-'1')*8 + int(s[0]-'a')) }
	tests := []struct {
		name string
		need uint64
		men  []uint64
		want bool
	}{
		{"one man for two squares", sq("a7") | sq("b8"), []uint64{sq("a7") | sq("b8"), sq("h2")}, false},
		{"two men, each for both squares", sq("a7") | sq("b8"), []uint64{sq("a7") | sq("b8"), sq("a7") | sq("b8")}, true},
		{"the first man must give way to the second", sq("a7") | sq("b8"), []uint64{sq("a7") | sq("b8"), sq("a7")}, true},
		{"three squares, two of them only one man's", sq("a7") | sq("b8") | sq("b7"), []uint64{sq("a7"), sq("a7"), sq("b8") | sq("b7")}, false},
		{"nothing needed", 0, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := blockersFit(tc.need, tc.men); got != tc.want {
				t.Fatalf("blockersFit = %v, want %v", got, tc.want)
			}
		})
	}
}

// stillSeeds are positions with men that can only be taken.
var stillSeeds = []string{
	"B2b4/8/8/4k3/1p1p1p1p/1PpP1P1P/K1P4b/RB6 b - - 0 1",
	"B2b4/8/8/4k2B/1p1p1p1p/1PpP1P1P/K1P5/RB4b1 b - - 0 1",
	"B2b4/2b5/8/4k3/1p1p1p1p/1PpP1P1P/K1P4b/RB6 b - - 0 1",
	"B2b4/8/8/4k3/1p1p1p1p/1PpP1P1P/K1P1b3/RB6 b - - 0 1",
	"8/8/2B5/4k3/1p1p1p1p/1PpP1P1P/K1P4b/NB6 b - - 0 1",
	"8/1p4p1/6k1/6b1/1p1p4/1P1Pp1bp/B3Pp1p/5Kbr w - - 0 1",
	"1k6/1p4p1/1b1b2P1/6b1/1p1p4/1P1Pp1bp/4Pp1p/1B3Kbr b - - 0 1",
	"8/1p4p1/6k1/6n1/1p1p4/1P1Pp1bp/B3Pp1p/5Kbr w - - 0 1",
	"1k6/1p4p1/1b1n2P1/6b1/1p1p4/1P1Pp1bp/4Pp1p/1B3Kbr b - - 0 1",
}

// stillRoots are the seeds and the chain rows (White the winner) and
// every 3rd community row of the reference files with its colour.
func stillRoots(t *testing.T) (fens []string, winners []int) {
	for _, f := range append(append([]string(nil), stillSeeds...),
		"B7/1b6/2k5/8/1p1p1p1p/1PpP1P1P/K1P4b/NB6 b - - 0 1",
		"1bB5/k7/Q5q1/8/1pBp1p1p/1PpP1P1P/K1P5/NB2b3 b - - 0 1") {
		fens, winners = append(fens, f), append(winners, White)
	}
	f, w := communityRows(t, 3)
	return append(fens, f...), append(winners, w...)
}

// The argument of immobilePieces, played out: along random games from
// positions with such men (captures of them chosen half the time, and
// then moves of the men they shut in), a man that can only be taken never
// moves: its square holds it until an enemy man takes it.
func TestAManThatCanOnlyBeTakenNeverMoves(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	fens, winners := stillRoots(t)
	pieces, taken := 0, 0
	for i, fen := range fens {
		root, err := ParseFEN(fen)
		if err != nil || root.status() != playing {
			continue
		}
		still := root.immobilePieces(winners[i])
		if still.set == 0 {
			continue
		}
		pieces += bits.OnesCount64(still.set)
		for game := 0; game < 8; game++ {
			b := *root
			standing := still.set
			for ply := 0; ply < 100 && standing != 0; ply++ {
				var l MoveList
				b.Legal(&l)
				if l.N == 0 {
					break
				}
				var takes []Move
				for _, m := range l.Moves[:l.N] {
					if standing&(uint64(1)<<m.To()) != 0 {
						takes = append(takes, m)
					}
				}
				m := l.Moves[rng.Intn(l.N)]
				if len(takes) > 0 && rng.Intn(2) == 0 {
					m = takes[rng.Intn(len(takes))]
				}
				if standing&(uint64(1)<<m.From()) != 0 {
					t.Fatalf("%s: the man on %d of the still set %x moves (%v) in %s", fen, m.From(), still.set, m, b.FEN())
				}
				if standing&(uint64(1)<<m.To()) != 0 {
					standing &^= uint64(1) << m.To()
					taken++
				}
				b, _ = b.Make(m)
			}
		}
	}
	t.Logf("%d men that can only be taken, %d taken in the games", pieces, taken)
	if pieces < 10 || taken == 0 {
		t.Fatalf("%d men, %d taken: the test checks too little", pieces, taken)
	}
}

// From positions a few random moves after the seeds, the chain rows and
// every 3rd community row: wherever the blockers matched man by man or
// the pieces that can only be taken prove a position unwinnable and the
// tests before them (the blockers counted, no still pieces) do not, a
// best-first search of 20,000 positions must find no helpmate.
func TestTheMatchedBlockersAndStillPiecesNeverDenyAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	fens, winners := stillRoots(t)
	proofs := 0
	for i, fen := range fens {
		root, err := ParseFEN(fen)
		if err != nil {
			continue
		}
		w := winners[i]
		for try := 0; try < 3; try++ {
			b := *root
			b = randomPlies(rng, b, rng.Intn(12))
			if b.status() != playing {
				continue
			}
			if !newProof(&b, w) {
				continue
			}
			proofs++
			if line, ok := greedyMate(&b, w); ok {
				t.Errorf("%s (after random moves from %s) is proven unwinnable by the matched blockers or the still pieces, but mates: %v", b.FEN(), fen, line)
			}
		}
	}
	t.Logf("%d proofs checked", proofs)
	if proofs < 10 {
		t.Fatalf("only %d proofs: the test checks too little", proofs)
	}
}

// newProof reports whether b is proven unwinnable for winner by the
// blocked-pawn analysis or the fixed men with the blockers matched man by
// man and the still pieces, where the same without them proves nothing.
func newProof(b *Board, winner int) bool {
	old := func(room mateRoom) bool {
		room.men = nil
		return room.mateSquare() < 0
	}
	loser := 1 - winner
	if fixed, r := b.fixedPawns(); fixed != 0 && r[winner].attack&r[loser].kingStand != 0 {
		room := staticRoom(b, fixed, r, winner)
		if room.mateSquare() < 0 && !old(room) {
			return true
		}
	}
	still := b.immobilePieces(winner)
	men, r := b.fixedMenWith(winner, still, 0)
	if men == 0 {
		return false
	}
	if ok, _ := menUnwinnable(b, winner, men, still, r); !ok {
		return false
	}
	plain, pr := b.fixedMenHeld(winner)
	if plain == 0 {
		return true
	}
	// The same set without the still pieces and with the blockers counted.
	if pr[winner].attack&pr[loser].kingStand == 0 {
		return false
	}
	room := mateRoom{
		king:       pr[loser].kingStand,
		attack:     pr[winner].attack | pawnsAttack(winner, b.bb[winner][Pawn]&plain),
		pawns:      plain & b.occ[loser] &^ b.bb[loser][King],
		block:      pr[loser].stand,
		movers:     bits.OnesCount64(b.occ[loser] &^ b.bb[loser][King] &^ plain),
		winnerKing: pr[winner].kingStand,
	}
	return room.mateSquare() >= 0
}

// squaresBetween on every pair of squares: the squares a queen on a
// crosses towards b on an otherwise empty board, when b is on its lines.
func TestSquaresBetweenAreTheQueensPath(t *testing.T) {
	for a := 0; a < 64; a++ {
		for b := 0; b < 64; b++ {
			if a == b {
				continue
			}
			var want uint64
			if manAttacks(Queen, a, 0)&(uint64(1)<<b) != 0 {
				// From each end with only the other standing: the line
				// between them (and other lines, which the line cuts off).
				want = manAttacks(Queen, a, uint64(1)<<b) & manAttacks(Queen, b, uint64(1)<<a) & lineThrough(a, b)
			}
			if got := squaresBetween(a, b); got != want {
				t.Fatalf("squaresBetween(%d, %d) = %x, want %x", a, b, got, want)
			}
		}
	}
}

// lineThrough is the line (of lineMask) through a and b, or 0.
func lineThrough(a, b int) uint64 {
	for i := 0; i < 4; i++ {
		if lineMask[i][a]&(uint64(1)<<b) != 0 {
			return lineMask[i][a]
		}
	}
	return 0
}
