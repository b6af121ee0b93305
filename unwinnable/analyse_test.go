package unwinnable

import (
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// replayMates replays a helpmate through notnil/chess and reports why it is
// not a checkmate by winner ("" when it is).
func replayMates(fen string, winner int, line []string) string {
	if len(strings.Fields(fen)) == 4 {
		fen += " 0 1"
	}
	opt, err := chess.FEN(fen)
	if err != nil {
		return "notnil refuses the FEN: " + err.Error()
	}
	pos := chess.NewGame(opt).Position()
	for i, u := range line {
		m, err := chess.UCINotation{}.Decode(pos, u)
		if err != nil {
			return "move " + u + " is not legal for notnil: " + err.Error()
		}
		var legal *chess.Move // notnil's own move carries the check tag Update needs
		for _, v := range pos.ValidMoves() {
			if v.String() == m.String() {
				legal = v
			}
		}
		if legal == nil {
			return "move " + u + " is not legal"
		}
		pos = pos.Update(legal)
		_ = i
	}
	loser := chess.Black
	if winner == Black {
		loser = chess.White
	}
	if pos.Status() != chess.Checkmate || pos.Turn() != loser {
		return "the line does not end in a checkmate by the winner: " + pos.String()
	}
	return ""
}

func TestVerdicts(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		winner int
		want   Verdict
	}{
		{"a bare king cannot mate", "8/8/8/4k3/8/8/8/4K2Q w - - 0 1", Black, Unwinnable},
		{"king and knight cannot mate a bare king", "8/8/8/4k3/8/8/8/4K1N1 w - - 0 1", White, Unwinnable},
		{"king and bishop cannot mate a bare king", "8/8/8/4k3/8/8/8/4KB2 w - - 0 1", White, Unwinnable},
		{"king and knight cannot mate king and queen", "8/8/2q5/4k3/8/8/8/4K1N1 w - - 0 1", White, Unwinnable},
		{"king and bishop cannot mate king and queen", "8/8/2q5/4k3/8/8/8/4KB2 w - - 0 1", White, Unwinnable},
		{"king and bishop cannot mate king and rook", "8/8/2r5/4k3/8/8/8/4KB2 w - - 0 1", White, Unwinnable},
		{"same-coloured bishops cannot mate", "8/4b3/8/4k3/8/B7/3B4/2B1K3 w - - 0 1", White, Unwinnable},
		{"same-coloured bishops on both sides cannot mate", "8/8/8/4k3/3b4/8/8/2B1K3 b - - 0 1", Black, Unwinnable},
		{"a blocked pawn chain with kings only is dead for White", "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", White, Unwinnable},
		{"a blocked pawn chain with kings only is dead for Black", "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", Black, Unwinnable},
		{"a blocked chain with bishops that cannot pass it", "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1", White, Unwinnable},
		{"a semi-blocked chain whose free pawn blocks itself (the progress search)", "3k4/p1p1p1p1/P1P1P1P1/4p3/8/4P3/8/6K1 w - - 0 1", White, Unwinnable},
		{"a chain with free pawns on both wings that can only lock it further (the progress search)", "3k4/1p1p1p1p/1P1P1P1P/3p4/8/8/3P3P/4K3 w - - 0 1", White, Unwinnable},
		{"the stalemate trap: every White move stalemates", "8/8/8/8/1N6/2N5/2K5/kN1N4 w - -", White, Unwinnable},
		{"the side to move is stalemated", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", White, Unwinnable},
		{"the checkmated side cannot mate", "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", Black, Unwinnable},
		{"only the flagged side can mate: White's queen, Black's knight", "8/8/8/3k4/8/2n5/8/Q3K3 w - - 0 1", Black, Unwinnable},
		{"only the flagged side can mate: and White can", "8/8/8/3k4/8/2n5/8/Q3K3 w - - 0 1", White, Winnable},
		{"king and knight can mate king and rook", "8/8/2r5/4k3/8/8/8/4K1N1 w - - 0 1", White, Winnable},
		{"king and bishop can mate king and knight (Ka8 Nb8, Kb6 Bb7)", "kn6/8/1K6/8/8/8/8/5B2 w - - 0 1", White, Winnable},
		{"king and knight can mate a king with a pawn", "8/8/8/4k3/4p3/8/8/4K1N1 w - - 0 1", White, Winnable},
		{"bishops of both colours can mate", "8/4b3/8/4k3/8/B7/8/3BK3 w - - 0 1", White, Winnable},
		{"king and rook can mate", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", White, Winnable},
		{"mate in one is found", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", White, Winnable},
		{"the mated side's opponent has already won", "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", White, Winnable},
		{"the initial position is winnable for Black", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Black, Winnable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := AnalyseFEN(tt.fen, tt.winner, 0)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want {
				t.Fatalf("%s for %s: %v (%s), want %v", tt.fen, colourName(tt.winner), r.Verdict, r.Proof(), tt.want)
			}
			if r.Proof() == "" && r.Verdict != Winnable || r.Reason == "" {
				t.Error("the verdict has no proof")
			}
			if r.Verdict == Winnable {
				if why := replayMates(tt.fen, tt.winner, r.Line); why != "" {
					t.Errorf("helpmate %v: %s", r.Line, why)
				}
			}
		})
	}
}

func TestDeadPositions(t *testing.T) {
	for _, tt := range []struct {
		name string
		fen  string
		want bool
	}{
		{"two bare kings are dead", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true},
		{"a locked pawn chain with kings only is dead", "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", true},
		{"the stalemate trap is dead: every White move stalemates", "8/8/8/8/1N6/2N5/2K5/kN1N4 w - - 0 1", true},
		{"a stalemate is dead", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", true},
		{"a checkmate is not a dead position", "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", false},
		{"king and rook against king is not dead", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false},
		{"the initial position is not dead", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := Dead(b, 32); got != tt.want {
				t.Errorf("Dead(%s) = %v, want %v", tt.fen, got, tt.want)
			}
		})
	}
}

func TestParseFENRefusesWhatTheSearchCannotTake(t *testing.T) {
	for name, fen := range map[string]string{
		"three fields":                 "8/8/8/8/8/8/8/k1K5 w -",
		"no black king":                "8/8/8/8/8/8/8/2K5 w - - 0 1",
		"a pawn on the last rank":      "P7/8/8/8/8/8/8/k1K5 w - - 0 1",
		"the side not to move checked": "k7/8/8/8/8/8/8/R1K5 w - - 0 1",
		"a rank of nine squares":       "9/8/8/8/8/8/8/k1K5 w - - 0 1",
		"an unknown piece":             "8/8/8/8/8/8/8/k1K4X w - - 0 1",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseFEN(fen); err == nil {
				t.Errorf("%s accepted", fen)
			}
		})
	}
}

// TestProofsAreShort: the helpmate shown to the arbiter is short and
// natural: the shallow full-width search finds the shortest mates of open
// positions, and a search counting the plies shortens what the greedy
// search found first.
func TestProofsAreShort(t *testing.T) {
	const initial = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	for _, tt := range []struct {
		name     string
		fen      string
		winner   int
		maxPlies int
		exact    bool
	}{
		{"from the initial position Black mates in 4 plies (a fool's mate)", initial, Black, 4, true},
		{"from the initial position White mates in 5 plies", initial, White, 5, true},
		// Middlegames of the 1997 games (internal/games), after moves 10, 20 and 30.
		{"a Deep Blue middlegame after move 10 (White)", "r2q1rk1/pp1n1pp1/2pbpn1p/3p3b/8/1P1PPNPP/PBPN1PB1/R2Q1RK1 w - - 0 11", White, 10, false},
		{"a Deep Blue middlegame after move 20 (Black)", "r3r1k1/1p1n1p2/1qp2n1p/p1b1p1pb/4P3/PP4PP/1BP2PBN/R1Q1RNK1 w - - 1 21", Black, 10, false},
		{"a Deep Blue middlegame after move 30 (White)", "3rr1k1/1p1n4/1qp4p/5Pb1/pP2pP2/P3N1P1/1BP1b1B1/R1Q4K w - - 0 31", White, 10, false},
		{"a Deep Blue middlegame after move 10 (Black)", "r1bqr1k1/2p1bpp1/p1np1n1p/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 w - - 1 11", Black, 10, false},
		{"a Deep Blue middlegame after move 20, queens off (White)", "2k1rr2/ppnn2p1/2p2qp1/3pp3/3P2PP/5NR1/PPP1QP2/1K1NR3 w - - 0 21", White, 14, false},
		{"king and queen against king mate in a natural number of moves", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", White, 24, false},
		{"king and rook against king mate in a natural number of moves", "8/8/8/3k4/8/8/8/R3K3 b - - 0 1", White, 30, false},
		{"a pawn promotes and mates in a natural number of moves", "8/2k5/8/8/8/8/5P2/4K3 w - - 0 1", White, 36, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := AnalyseFEN(tt.fen, tt.winner, 300_000)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != Winnable {
				t.Fatalf("%v (%s), want winnable", r.Verdict, r.Proof())
			}
			if why := replayMates(tt.fen, tt.winner, r.Line); why != "" {
				t.Fatalf("helpmate %v: %s", r.Line, why)
			}
			if n := len(r.Line); n > tt.maxPlies || tt.exact && n != tt.maxPlies {
				t.Errorf("the helpmate has %d plies (%s), want at most %d", n, r.Proof(), tt.maxPlies)
			}
		})
	}
}

// The verdict needs any helpmate: without Options.Short none of the work
// goes into making it short, and the line found is still a helpmate;
// Analyse (the flag verdict) makes it short.
func TestOnlyTheShownVerdictSpendsPositionsOnAShortProof(t *testing.T) {
	const initial = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	b, err := ParseFEN(initial)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		short bool
	}{{"the verdict alone spends nothing on the proof", false}, {"the shown verdict makes the proof short", true}} {
		t.Run(tc.name, func(t *testing.T) {
			r := AnalyseWith(b, Black, Options{Limit: 300_000, Short: tc.short})
			if r.Verdict != Winnable {
				t.Fatalf("%v (%s), want winnable", r.Verdict, r.Proof())
			}
			if why := replayMates(initial, Black, r.Line); why != "" {
				t.Fatalf("helpmate %v: %s", r.Line, why)
			}
			if spent := r.ProofNodes > 0; spent != tc.short {
				t.Errorf("%d positions went into the proof (short: %v)", r.ProofNodes, tc.short)
			}
			if tc.short && len(r.Line) != 4 {
				t.Errorf("the shown helpmate has %d plies, want 4", len(r.Line))
			}
		})
	}
}

// The progress search proves what the blocked-pawn analysis cannot: a pawn
// that can still move is followed through every move and capture open to
// it, and none lets a White man ever attack a square the Black king can
// reach; where a free pawn can promote, it proves nothing.
func TestTheProgressSearchFollowsEveryPawnMove(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		want      bool
	}{
		{"the e-pawns step up to each other and lock the chain", "3k4/p1p1p1p1/P1P1P1P1/4p3/8/4P3/8/6K1 w - - 0 1", true},
		{"the d- and h-pawns can only lock the chain further", "3k4/1p1p1p1p/1P1P1P1P/3p4/8/8/3P3P/4K3 w - - 0 1", true},
		{"a free pawn that can promote proves nothing", "2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/7P/8 w - - 0 1", false},
		{"an open position proves nothing", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if ok, _ := blockedUnwinnable(b, White); ok {
				t.Fatalf("the blocked-pawn analysis proves it already")
			}
			got, n, _ := progressUnwinnable(b, White, progressBudget)
			if got != tc.want {
				t.Errorf("progressUnwinnable = %v after %d states, want %v", got, n, tc.want)
			}
		})
	}
}

// A best-first search that runs out of positions has made every position
// reachable through positions from which a mate could follow, and none was
// a mate: unwinnable, also where no pawn is blocked for good (so the
// exhaustive search of closed positions does not run).
func TestABestFirstSearchThatRunsOutOfPositionsProvesUnwinnable(t *testing.T) {
	for _, tc := range []struct{ name, fen string }{
		{"a CHA test vector where every line ends within a few plies", "8/4b1pk/4p3/6PK/6PP/5b2/8/8 w - - 0 1"},
		{"a CHA test vector with White's pieces behind its own pawns (about 130 positions)", "4k3/8/8/8/1p1p1p2/1P1P1Pp1/BPBPB1P1/NB1B1BK1 w - - 0 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if fixed, _ := b.fixedPawns(); fixed != 0 {
				t.Fatalf("pawns are fixed: the exhaustive search would prove it")
			}
			if r := AnalyseWith(b, White, Options{Limit: 50_000}); r.Verdict != Unwinnable {
				t.Errorf("%v (%s), want unwinnable", r.Verdict, r.Proof())
			}
			// The best-first search on its own (an earlier stage may
			// prove it first: the second case, since the progress search
			// keeps pieces that can never move).
			s := &searcher{winner: White, limit: 50_000, proven: map[uint64]int16{}, wBlock: 2, partial: true}
			if _, ok := s.bestFirst(b, 50_000, 0); ok || !s.exhausted {
				t.Errorf("the best-first search gives a mate %v or does not run out of positions (exhausted %v)", ok, s.exhausted)
			}
		})
	}
}

// A progress search that runs out of states at the root (4,096) without a
// state that allows a check runs again, after the first helpmate search,
// with a twentieth of the limit: this chain of pawns that can still close
// it needs about 10,000 states.
func TestTheProgressSearchGetsMoreStatesWhenTheRootsRunOut(t *testing.T) {
	const fen = "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1"
	b, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	if ok, n, _ := progressUnwinnable(b, White, progressBudget); ok || n <= progressBudget {
		t.Fatalf("the root's search gives %v after %d states: the case does not need more", ok, n)
	}
	r := AnalyseWith(b, White, Options{Limit: 300_000})
	if r.Verdict != Unwinnable || !strings.Contains(r.Reason, "hatever pawn moves and captures are made") {
		t.Errorf("%v (%s), want unwinnable by the progress search", r.Verdict, r.Proof())
	}
}

// The rounds go on with each search where it stopped in the round before
// instead of beginning it afresh with the round's positions: a search
// run on makes the same positions, in the same order, as one begun
// afresh with as many positions in all, and finds the same line (or runs
// out of positions at the same point), each position made once.
func TestASearchRunOnMakesThePositionsOfAFreshSearch(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		round     int // the positions of the round before; the search runs on to twice as many
	}{
		{"a helpmate the searches of 16,000 positions find", "4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b - e3 0 1", 8000},
		{"a helpmate after a mate-less stretch", "B6b/pr6/7b/8/8/4p1pp/P3Pp1p/5K1k w - - 0 1", 8000},
		{"a search that runs out of positions", "8/8/1p6/bPp5/PpP2k2/1Pp5/B1P5/RB5K b - - 0 1", 4000},
		{"neither, within the positions", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/4KBNR w - - 0 1", 4000},
	} {
		b, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range roundSearches {
			t.Run(tc.name+"/"+sc.name, func(t *testing.T) {
				setup := func() *searcher {
					s := &searcher{winner: White, limit: 1 << 30, proven: map[uint64]int16{}, partial: true}
					s.far = bits.OnesCount64(b.all()) <= farMen
					s.wBlock, s.simplify, s.offer, s.noise, s.w = sc.block, sc.simplify, sc.offer, sc.noise, sc.w
					return s
				}
				fresh := setup()
				fx := startBestFirst(b, 0)
				defer fx.release()
				freshLine, freshOK := fresh.runBestFirst(fx, 2*tc.round)
				on := setup()
				ox := startBestFirst(b, 0)
				defer ox.release()
				onLine, onOK := on.runBestFirst(ox, tc.round)
				if !onOK && !on.exhausted {
					onLine, onOK = on.runBestFirst(ox, 2*tc.round-ox.spent)
				}
				if onOK != freshOK || !slices.Equal(onLine, freshLine) || on.exhausted != fresh.exhausted {
					t.Fatalf("run on: mate %v %v, ran out %v; afresh: mate %v %v, ran out %v", onOK, onLine, on.exhausted, freshOK, freshLine, fresh.exhausted)
				}
				if on.nodes != fresh.nodes || ox.nodes.n != fx.nodes.n {
					t.Fatalf("run on: %d positions, %d nodes; afresh: %d, %d", on.nodes, ox.nodes.n, fresh.nodes, fx.nodes.n)
				}
				for i := int32(0); i < int32(fx.nodes.n); i++ {
					if f, o := fx.nodes.at(i), ox.nodes.at(i); f.b != o.b || f.parent != o.parent || f.m != o.m {
						t.Fatalf("node %d differs", i)
					}
				}
				t.Logf("mate %v (%d plies), ran out %v, %d positions (%d spent)", onOK, len(onLine), on.exhausted, on.nodes, fx.spent)
			})
		}
	}
}
