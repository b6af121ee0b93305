package unwinnable

import (
	"math/bits"
	"math/rand"
	"testing"
)

// togetherSeeds: Black to mate (labelled unwinnable, undetermined at the
// default limit before). The white king can take b4 (or d4) and g5, and
// each of those pawns holds the white pawn in front of it only while it
// stands; with one taken the other still holds: together they never move.
var togetherSeeds = []string{
	"1b3kBR/4pP1P/1pBpP2P/1P1P1Bp1/1pK1B1P1/1P1B1B2/8/8 b - - 0 1",
	"3b1kBR/b3pP1P/1pBpP2P/1P1P1Bp1/K2pB1P1/3P1B2/4B3/8 b - - 0 1",
}

// togetherBreakers: Black mates.
var togetherBreakers = []struct{ name, fen string }{
	{"a black knight", "1b3kBR/4pP1P/1pBpP2P/1P1P1Bp1/1pK1B1P1/1P1B1B2/8/n7 b - - 0 1"},
	{"without the white pawn on b3 the b-pawn promotes", "1b3kBR/4pP1P/1pBpP2P/1P1P1Bp1/1pK1B1P1/3B1B2/8/8 b - - 0 1"},
}

// Pawns the enemy king can take, each holding only while the other
// stands and the other way round, never move: each subset of them taken
// leaves the rest held.
func TestPawnsThatCanOnlyBeTakenHoldTogether(t *testing.T) {
	type tc struct {
		name, fen string
		want      Verdict
	}
	tests := []tc{
		{"b4 and g5", togetherSeeds[0], Unwinnable},
		{"d4 and g5", togetherSeeds[1], Unwinnable},
	}
	for _, br := range togetherBreakers {
		tests = append(tests, tc{br.name, br.fen, Winnable})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			provenByStage(t, tc.fen, Black, 200_000, tc.want, "fixed-men", "")
		})
	}
}

func TestThePawnsHeldTogetherAreThoseThatHoldEachOther(t *testing.T) {
	b, err := ParseFEN(togetherSeeds[0])
	if err != nil {
		t.Fatal(err)
	}
	got := squareList(b.immobilePieces(Black).set)
	if len(got) != 2 || got[0] != "b4" || got[1] != "g5" {
		t.Fatalf("still men %v, want [b4 g5]", got)
	}
}

// The induction played out, and the search: from positions up to 20
// random moves after the seeds and breakers, the pawns held together never
// move along 80 random moves (captures chosen half the time) until taken
// or the game ends; and wherever the fixed men with them prove Black
// unwinnable, a best-first search of 20,000 positions finds no helpmate.
func TestThePawnsHeldTogetherNeverMoveNorDenyAMate(t *testing.T) {
	rng := rand.New(rand.NewSource(59))
	fens := append([]string(nil), togetherSeeds...)
	for _, br := range togetherBreakers {
		fens = append(fens, br.fen)
	}
	sets, proofs, taken := 0, 0, 0
	for _, fen := range fens {
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
			var alone []int
			occ := b.all()
			base, _ := b.fixedMenWith(Black, stillMen{}, 0)
			for f := (b.bb[White][Pawn] | b.bb[Black][Pawn]) &^ base; f != 0; f &= f - 1 {
				q := bits.TrailingZeros64(f)
				c := int(b.sq[q]) / 6
				if occ&(uint64(1)<<(q+upOf(c))) == 0 || pawnAttacks[c][q]&b.occ[1-c] != 0 || b.ep >= 0 {
					continue
				}
				if set, _ := b.fixedMenWith(Black, stillMen{}, uint64(1)<<q); set&(uint64(1)<<q) == 0 {
					alone = append(alone, q)
				}
			}
			together := b.pawnsOnlyTakenTogether(Black, alone)
			if len(together) == 0 {
				continue
			}
			sets++
			g := b
			for ply := 0; ply < 80; ply++ {
				var l MoveList
				g.Legal(&l)
				if l.N == 0 {
					break
				}
				m := l.Moves[rng.Intn(l.N)]
				if rng.Intn(2) == 0 {
					for i := 0; i < l.N; i++ {
						if g.sq[l.Moves[i].To()] >= 0 {
							m = l.Moves[i]
							break
						}
					}
				}
				before := g
				g, _ = g.Make(m)
				for _, q := range together {
					if before.sq[q] == b.sq[q] && g.sq[q] != b.sq[q] {
						if m.To() != q {
							t.Fatalf("%s: after %v from %s the pawn on %s, held together, moved", b.FEN(), m, before.FEN(), squareName(q))
						}
						taken++
					}
				}
			}
			still := b.immobilePieces(Black)
			men, r := b.fixedMenWith(Black, still, 0)
			if men == 0 {
				continue
			}
			if ok, _ := menUnwinnable(&b, Black, men, still, r); !ok {
				continue
			}
			proofs++
			if line, ok := greedyMate(&b, Black); ok {
				t.Errorf("%s (after random moves from %s) is proven unwinnable with pawns held together, but mates: %v", b.FEN(), fen, line)
			}
		}
	}
	t.Logf("%d sets played on (%d captures of their pawns), %d proofs checked", sets, taken, proofs)
	if sets < 10 || proofs < 10 {
		t.Fatalf("only %d sets, %d proofs: the test checks too little", sets, proofs)
	}
}
