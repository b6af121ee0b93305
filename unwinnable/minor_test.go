package unwinnable

import (
	"math/rand"
	"strings"
	"testing"
)

func TestALoneMinorPiece(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		winner int
		want   Verdict
		// nodes: the positions the verdict may take at most
		nodes int
	}{
		{"lone knight mates against king and bishop in the corner", "4kb2/8/8/8/8/4KN2/8/8 w - - 0 1", White, Winnable, 20_000},
		{"lone knight mates against king and a bishop far from its king", "8/1k1b4/8/8/8/4N3/5K2/8 w - - 0 1", White, Winnable, 20_000},
		{"lone knight mates against king and a bishop on the rim", "8/3k4/8/7b/8/2N5/1K6/8 w - - 0 1", White, Winnable, 20_000},
		{"lone knight mates against king and three bishops of one colour", "3bkb2/4b3/8/8/8/8/4N3/4K3 w - - 0 1", White, Winnable, 20_000},
		{"lone bishop cannot mate against rooks: a rook beside the king always blocks or takes", "rr6/rk6/8/8/8/2K5/2B5/8 b - - 0 1", White, Unwinnable, 5_000},
		{"lone bishop cannot mate against many rooks", "rr1r4/rk1r4/rr6/8/8/2K5/2B5/8 b - - 0 1", White, Unwinnable, 5_000},
		{"lone knight cannot mate against queens: a queen beside the king always takes the knight", "1q1q1q2/1k6/8/8/8/2K5/2N5/8 b - - 0 1", White, Unwinnable, 5_000},
		{"lone knight cannot mate against eight queens", "4k3/qqqqqqqq/8/4N3/8/8/8/4K3 b - - 0 1", White, Unwinnable, 5_000},
		{"lone knight cannot mate against two queens", "2qk4/8/8/2q5/8/8/3KN3/8 w - - 0 1", White, Unwinnable, 5_000},
		{"four bishops of one colour cannot mate against queens and rooks", "4k3/qqqqqqqq/1rrrr3/8/8/8/B1B1B1B1/4K3 w - - 0 1", White, Unwinnable, 5_000},
		{"only one bishop passes the locked chain and no mate can be set up with it", "k1b5/8/8/1p1p1pBp/1P1P1PbP/8/8/K1B5 w - - 0 1", White, Unwinnable, 5_000},
		{"only bishops of one colour pass the locked chain, against the king and a bishop of the other colour", "8/1k5B/6Bb/8/1p1p1p1p/1PpP1P1P/2Pb2K1/N1b1b3 b - - 0 1", White, Unwinnable, 5_000},
		{"a lone bishop behind the locked chain mates with the loser's bishops as blockers", "8/2k5/2b1b3/1p1p1pBp/1P1P1P1P/8/2bK1B2/8 b - - 0 1", White, Winnable, 20_000},
		{"a bishop mates once its king is held for good in the corner behind the pawns", "k7/1b6/2b5/3b4/4b3/1pB2b2/pP4b1/K6b w - - 0 1", White, Winnable, 200_000},
		{"knights held by the locked pawns never move and the bishop alone never mates", "N1b1N1N1/1pPpPpPp/1P1P1P1P/2K5/8/8/8/4B2k w - - 0 1", White, Unwinnable, 5_000},
		{"lone knight mates against king and rook", "8/8/8/4k3/8/8/1r6/4K1N1 w - - 0 1", White, Winnable, 100_000},
		{"lone bishop mates against king and knight", "8/8/8/4k3/8/8/1n6/4KB2 w - - 0 1", White, Winnable, 100_000},
		{"lone knight mates against king and pawn", "8/8/8/4k3/4p3/8/8/4K1N1 w - - 0 1", White, Winnable, 100_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			analyseChecked(t, b, tc.fen, tc.winner, tc.nodes, tc.want)
		})
	}
}

// Every mate found by the searches from random positions of a lone minor
// piece against random men must be one of the shapes the listing allows:
// where a helpmate is found, the listing must never prove the position
// unwinnable.
func TestTheLoneMinorListingNeverDeniesAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	pieces := []byte("nbrqp")
	found, proven := 0, 0
	for i := 0; i < 600; i++ {
		var board [64]byte
		put := func(c byte, pawn bool) {
			for {
				q := rng.Intn(64)
				if board[q] == 0 && (!pawn || q>>3 != 0 && q>>3 != 7) {
					board[q] = c
					return
				}
			}
		}
		put('K', false)
		put('k', false)
		switch rng.Intn(3) {
		case 0:
			put('N', false)
		case 1:
			put('B', false)
		default:
			// Bishops of one colour: the listing's other bishops.
			for n := 2 + rng.Intn(2); n > 0; {
				q := rng.Intn(64)
				if board[q] == 0 && (q>>3+q&7)%2 == 0 {
					board[q] = 'B'
					n--
				}
			}
		}
		for n := 1 + rng.Intn(3); n > 0; n-- {
			c := pieces[rng.Intn(len(pieces))]
			put(c, c == 'p')
		}
		fen := ""
		for r := 7; r >= 0; r-- {
			empty := 0
			for f := 0; f < 8; f++ {
				if c := board[r*8+f]; c == 0 {
					empty++
				} else {
					if empty > 0 {
						fen += string(rune('0' + empty))
						empty = 0
					}
					fen += string(c)
				}
			}
			if empty > 0 {
				fen += string(rune('0' + empty))
			}
			if r > 0 {
				fen += "/"
			}
		}
		fen += " b - - 0 1"
		b, err := ParseFEN(fen)
		if err != nil || b.attacked(lsb(b.bb[White][King]), Black) || b.status() != playing {
			continue // Black may not leave White in check; a game over is said before the listing
		}
		denied, _ := loneMinorUnwinnable(b, White)
		if denied {
			proven++
		}
		s := &searcher{winner: White, limit: 20_000, proven: map[uint64]int16{}, partial: true, w: nearMate, wBlock: 2}
		if line, ok := s.bestFirst(b, 20_000, 0); ok {
			found++
			if denied {
				t.Errorf("%s: the listing says no mate, the search mates with %v", fen, line)
			}
		}
	}
	t.Logf("%d helpmates found, %d positions proven unwinnable", found, proven)
	if found < 50 {
		t.Fatalf("only %d helpmates found: the test checks too little", found)
	}
}

func lsb(x uint64) int {
	for i := 0; i < 64; i++ {
		if x&(1<<i) != 0 {
			return i
		}
	}
	return -1
}

func TestAKingHeldByPawnsIsFixedWithThem(t *testing.T) {
	b, err := ParseFEN("Bk6/2b4B/3b2B1/5B2/4B3/p1pB1B2/PpP1B3/1K6 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if fixed, _ := b.fixedPawns(); fixed != 0 {
		t.Fatalf("pawns alone fixed: %x (the test needs a position where only the king holds them)", fixed)
	}
	men, _ := b.fixedMen()
	// The white king on b1 can step nowhere (a1 and c1 are attacked by
	// the pawn on b2, which it holds in front), and guards c2 for good.
	want := uint64(0)
	for _, s := range []string{"b1", "a2", "b2", "c2", "a3", "c3"} {
		q, _ := parseSquare(s)
		want |= 1 << q
	}
	if men != want {
		t.Fatalf("fixed men %x, want %x", men, want)
	}
}

// From positions a few random moves after every 10th community row of
// the reference files: wherever the listing (4b) or the fixed men (4c)
// prove a position unwinnable, a best-first search of 20,000 positions
// must find no helpmate. (A throw-away run over every community row,
// three playouts each: 5,038 proofs, none contradicted.)
func TestTheListingAndTheFixedMenNeverDenyAMateTheSearchFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	proofs := 0
	for _, f := range referenceFiles(t) {
		for i, r := range readRows(t, f) {
			if i%10 != 0 || strings.Contains(r.source, "lichess") {
				continue
			}
			root, err := ParseFEN(r.fen)
			if err != nil {
				continue
			}
			w, _ := ParseColour(r.colour)
			b := *root
			b = randomPlies(rng, b, rng.Intn(14))
			if b.status() != playing {
				continue
			}
			proven := ""
			if ok, _ := loneMinorUnwinnable(&b, w); ok {
				proven = "the listing"
			}
			fixed, re := b.fixedPawns()
			if ok, _ := blockedMinorUnwinnable(&b, w, fixed, re); ok {
				proven = "the listing behind blocked pawns"
			}
			if men, rm := b.fixedMen(); men != 0 {
				if ok, _ := menUnwinnable(&b, w, men, stillMen{}, rm); ok {
					proven = "the fixed men"
				}
				if x := blockedMinorRoom(&b, w, men, rm); x != nil && !x.patterns(1-w, func(*matePattern) bool { return false }) {
					proven = "the listing with the fixed men"
				}
			}
			if proven == "" {
				continue
			}
			proofs++
			if line, ok := greedyMate(&b, w); ok {
				t.Errorf("%s (after random moves from %s) is proven unwinnable by %s, but mates: %v", b.FEN(), r.fen, proven, line)
			}
		}
	}
	t.Logf("%d proofs checked", proofs)
	if proofs < 100 {
		t.Fatalf("only %d proofs: the test checks too little", proofs)
	}
}

// The shapes of mate that need more of the loser's pawns on a file than can
// ever reach that file go last in the lone-minor searches: in the lichess
// row below White has one h-pawn and Black nothing but the bishop for its
// pawns to take, so the shapes of the white king on h4 between pawns on h3
// and h5 are never set up; the shapes of the king on h8 shut in by its pawn
// on h7 come first, and the helpmate is found.
func TestShapesNeedingMorePawnsOnAFileThanCanReachItGoLast(t *testing.T) {
	const fen = "R7/1P6/8/8/3P3k/2P2PbP/1P6/6K1 w - - 3 41"
	b, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("a pawn changes file only by taking a man of the winner besides its king and mating piece", func(t *testing.T) {
		got := loserPawnFiles(b, Black)
		want := [8]int{0, 2, 1, 1, 0, 1, 0, 1}
		if got != want {
			t.Errorf("loserPawnFiles = %v, want %v", got, want)
		}
		var p matePattern
		p.nb = 2
		p.blk[0].sq, p.blk[0].piece = 23, Pawn // h3
		p.blk[1].sq, p.blk[1].piece = 39, Pawn // h5
		if pawnFilesReachable(&p, got) {
			t.Error("a shape with pawns on h3 and h5 is reachable with one h-pawn")
		}
		p.nb = 1
		if !pawnFilesReachable(&p, got) {
			t.Error("a shape with one pawn on h3 is unreachable with one h-pawn")
		}
	})
	t.Run("the helpmate by hand is a helpmate", func(t *testing.T) {
		line := strings.Fields("c3c4 g3f4 c4c5 f4d2 c5c6 h4g5 c6c7 g5f6 c7c8b f6e7 c8e6 e7d6 e6g8 d2a5 " +
			"g1f2 d6c6 f2g3 c6d6 g3g4 d6c6 g4g5 c6d6 g5g6 d6c6 g6g7 c6d6 g7h8 d6c6 h3h4 c6d6 h4h5 d6c6 " +
			"h5h6 c6d6 h6h7 a5d2 a8a7 d2h6 a7a8 d6e7 a8a7 e7f6 a7a8 h6g7")
		if why := replayMates(fen, Black, line); why != "" {
			t.Fatal(why)
		}
	})
	t.Run("the lichess row is found within 300,000 positions", func(t *testing.T) {
		r, err := AnalyseFEN(fen, Black, 300_000)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Winnable {
			t.Fatalf("%v (%s), want winnable", r.Verdict, r.Proof())
		}
		if why := replayMates(fen, Black, r.Line); why != "" {
			t.Fatalf("helpmate %v: %s", r.Line, why)
		}
	})
}

// A shape of mate whose pawn blocker no pawn of the loser can ever come to
// as a pawn is taken as one of a promoted pawn, and the search steered to
// it counts the pawn's way to promotion (promotedSteps). In the row
// below White has only its king and six dark bishops, and Black's
// king can be boxed in only with a man of its own on a light square
// beside it: a bishop of White covers no light square, its king at most
// one beside a king on a dark square, and only the f-pawn, promoted, can
// stand beside a dark corner (it takes only on the dark squares, where
// the bishops stand, and must step forward first). The shapes with a pawn
// on h7 or a2 came first; a kin of this row with nine dark bishops a side
// (one of CHA's test vectors) was undetermined at the default limit.
func TestPawnBlockersNoPawnCanReachArePromoted(t *testing.T) {
	const fen = "3b1b1k/2b1bpb1/1b3b2/8/4KB2/4B3/3B1B2/2B1B3 w - - 0 1"
	sq := func(s string) int {
		q, _ := parseSquare(s)
		return q
	}
	t.Run("a pawn's reach", func(t *testing.T) {
		for _, c := range []struct {
			from, to string
			noTake   uint64
			captures int
			want     bool
		}{
			{"f7", "f1", light, 8, true},  // pushes only
			{"f7", "a2", light, 8, false}, // five takes from a light square
			{"f7", "a2", 0, 8, true},      // takes anywhere
			{"f7", "b2", light, 8, true},  // f6 first, then four takes
			{"f6", "b2", light, 8, true},  // from a dark square at once
			{"f6", "b2", light, 3, false}, // four takes, three men to take
			{"f7", "h7", 0, 8, false},     // no rank forward
			{"f6", "e5", ^light, 8, false},
		} {
			if got := pawnReaches(Black, sq(c.from), sq(c.to), c.noTake, c.captures); got != c.want {
				t.Errorf("pawnReaches(%s, %s, noTake %x, %d) = %v, want %v", c.from, c.to, c.noTake, c.captures, got, c.want)
			}
		}
	})
	b, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the first shapes are of the promoted f-pawn beside the king on h8", func(t *testing.T) {
		s := &searcher{winner: White, proven: map[uint64]int16{}}
		minor, _ := loneMinor(b, White)
		targets := s.mateTargets(b, loneMinorRoom(b, White, minor), minorTargets)
		for _, p := range targets[:minorRoundTargets] {
			if p.k != sq("h8") || p.nb != 1 || !p.blk[0].promoted || p.blk[0].sq != sq("g8") && p.blk[0].sq != sq("h7") {
				t.Errorf("shape: king %s, check from %s, blocker %+v", squareName(p.k), squareName(p.s), p.blk[0])
			}
		}
	})
	t.Run("the row is found within 20,000 positions", func(t *testing.T) {
		analyseChecked(t, b, fen, White, 20_000, Winnable)
	})
}
