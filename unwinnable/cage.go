package unwinnable

import "math/bits"

// maxCageShapes bounds the ways a cage's pieces can stand on its squares
// that cageGuards looks at; a cage with more is left out (it guards
// nothing).
const maxCageShapes = 256

// cageGuards: the squares that side c's pieces outside the set attack in
// every position in which the whole set stands, though they move. A *cage*
// is a group of c's pieces of one type (knight, bishop, rook or queen, not
// in set nor in still) whose floods with the set as walls are one region R
// (a piece's moves are reversible, so two floods of one type are equal or
// apart); when no other man can ever stand on a square of R — c's king and
// its other pieces and pawns (everything they can become) by their floods,
// the men of still on their squares, the enemy's men by its reaches r —
// then, while the set stands, the n pieces of the cage stand on n squares
// of R (they never leave it: R is their flood; none is taken and none
// arrives: no other man ever stands there) and nothing else stands on R.
// So in every such position the squares of R that hold a man are exactly
// some n of R's squares, and the cage attacks at least what those n
// pieces attack with every square outside R taken as a blocker. The
// squares attacked so for every choice of n squares are guarded (a pinned
// man still attacks: the enemy king never steps there nor takes a man
// there). E.g. B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w: the seven
// light bishops move round a8, b7, c8, d7, e8, f7, g8, h7 behind the
// pawns a6 to g6, one square always free; a6 is attacked from b7, or from
// c8 through b7 when b7 is the free square, so the black king never takes
// it. A cage whose pieces can stand in more than maxCageShapes ways is
// left out.
func (b *Board) cageGuards(c int, set uint64, still stillMen, r [2]reach) uint64 {
	// others: every square a man other than a cage's can ever stand on,
	// but c's pieces of the type asked, added per cage below.
	others := r[1-c].stand | r[1-c].kingStand | r[c].kingStand | still.set
	for f := b.bb[c][Pawn] &^ set &^ still.set; f != 0; f &= f - 1 {
		st, _ := pawnFlood(c, bits.TrailingZeros64(f), set, ^uint64(0))
		others |= st
	}
	var floods [Queen + 1][]uint64 // each piece's flood, by type
	var counts [Queen + 1][]int    // how many pieces share it
	for p := Knight; p <= Queen; p++ {
	piece:
		for f := b.bb[c][p] &^ set &^ still.set; f != 0; f &= f - 1 {
			st, _ := flood(p, bits.TrailingZeros64(f), set, 0)
			for i, g := range floods[p] {
				if g == st {
					counts[p][i]++
					continue piece
				}
			}
			floods[p] = append(floods[p], st)
			counts[p] = append(counts[p], 1)
		}
	}
	var guards uint64
	for p := Knight; p <= Queen; p++ {
		for i, region := range floods[p] {
			other := others
			for q := Knight; q <= Queen; q++ {
				for j, g := range floods[q] {
					if q != p || j != i {
						other |= g
					}
				}
			}
			if region&other != 0 {
				continue
			}
			guards |= cageAttacks(p, region, counts[p][i])
		}
	}
	return guards
}

// cageAttacks: the squares that n pieces of type p standing on any n
// squares of region (and nothing else there) attack together in every
// such placement, every square outside region taken as a blocker; 0 when
// there are more than maxCageShapes placements.
func cageAttacks(p int, region uint64, n int) uint64 {
	squares := bits.OnesCount64(region)
	holes := squares - n
	if holes < 0 || binomial(squares, holes) > maxCageShapes {
		return 0
	}
	all := ^uint64(0)
	every := all
	var place func(from, left int, placed uint64)
	place = func(from, left int, placed uint64) {
		if left == 0 {
			occ := placed | ^region
			every &= menAttack(p, placed, occ)
			return
		}
		for f := region &^ placed &^ (uint64(1)<<from - 1); bits.OnesCount64(f) >= left; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			place(q+1, left-1, placed|uint64(1)<<q)
		}
	}
	place(0, n, 0)
	if every == all {
		return 0
	}
	return every
}

// binomial is n choose k (k small), saturating far above maxCageShapes.
func binomial(n, k int) int {
	v := 1
	for i := 0; i < k; i++ {
		v = v * (n - i) / (i + 1)
		if v > 1<<20 {
			return v
		}
	}
	return v
}
