package unwinnable

import (
	"math/bits"

	"arbiter/internal/phrase"
)

// reach is what one side's men can ever do while the fixed pawns stay:
// squares they can stand on and squares they can attack.
type reach struct {
	stand, attack         uint64 // all men but the king
	kingStand, kingAttack uint64
}

func upOf(c int) int {
	if c == White {
		return 8
	}
	return -8
}

// flood is the set of squares a piece of type p can reach from s, moving
// through anything but the walls (other men are taken to step aside), and
// the squares it attacks from them. forbid are squares it may not stand on.
func flood(p, s int, walls, forbid uint64) (stand, attack uint64) {
	return floodFrom(p, uint64(1)<<s, walls, forbid)
}

// floodFrom is flood from every square of from.
func floodFrom(p int, from, walls, forbid uint64) (stand, attack uint64) {
	stand = from
	frontier := stand
	for frontier != 0 {
		a := menAttack(p, frontier, walls) // the whole frontier's attacks at once
		attack |= a
		next := a &^ walls &^ forbid
		frontier = next &^ stand
		stand |= next
	}
	return stand, attack
}

// pawnFlood is everything a pawn that is not fixed could do: step forward,
// capture forward onto a square where an enemy man could ever stand (capt)
// and, on the last rank, become a queen or a knight (which together move as
// any piece does).
func pawnFlood(c, s int, walls, capt uint64) (stand, attack uint64) {
	up := upOf(c)
	last := rank8
	start := rank1 << 8
	if c == Black {
		last, start = rank1, rank8>>8
	}
	stand = uint64(1) << s
	frontier := stand
	var promo uint64
	for frontier != 0 {
		var next uint64
		for f := frontier; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			if (uint64(1)<<q)&last != 0 {
				promo |= uint64(1) << q
				continue
			}
			attack |= pawnAttacks[c][q]
			next |= pawnAttacks[c][q] &^ walls & capt
			one := q + up
			if walls&(uint64(1)<<one) == 0 {
				next |= uint64(1) << one
				if (uint64(1)<<q)&start != 0 && walls&(uint64(1)<<(one+up)) == 0 {
					next |= uint64(1) << (one + up)
				}
			}
		}
		frontier = next &^ stand
		stand |= next
	}
	for f := promo; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		for _, p := range []int{Queen, Knight} {
			st, at := flood(p, q, walls, 0)
			stand |= st
			attack |= at
		}
	}
	return stand, attack
}

// reaches computes both sides' reach with the pawns in fixed as walls. A
// pawn captures only onto squares some enemy man (not the king) could stand
// on, so the two sides' reaches are computed together, from the men on the
// board up to the least fixpoint: every square a man really reaches lies in
// it, by induction on the moves played.
func (b *Board) reaches(fixed uint64) [2]reach {
	return b.reachesStill(fixed, stillMen{})
}

// stillMen are men (pieces or pawns) that never move, though they may be
// taken (immobilePieces): their squares, and what they can attack, by
// colour — from their squares, with the men that stand as long as they
// stand as walls.
//
// kingOff are squares each side's king never enters while the set stands
// (fixedMenRules' stalemateRule: its arrival would leave the other side
// stalemated, and the game over).
type stillMen struct {
	set     uint64
	attack  [2]uint64
	kingOff [2]uint64
}

// reachesStill is reaches where the men of still never move: each stands
// on its square (or is taken) and attacks only still.attack. Such a man is
// no wall: it may be taken.
func (b *Board) reachesStill(fixed uint64, still stillMen) [2]reach {
	capt := [2]uint64{b.occ[Black] &^ b.bb[Black][King], b.occ[White] &^ b.bb[White][King]}
	for {
		r := b.reachesWith(fixed, capt, still)
		next := [2]uint64{capt[0] | r[Black].stand, capt[1] | r[White].stand}
		if next == capt {
			return r
		}
		capt = next
	}
}

// reachesWith is reaches for given capture squares of each side's pawns.
func (b *Board) reachesWith(fixed uint64, capt [2]uint64, still stillMen) [2]reach {
	var r [2]reach
	for c := 0; c < 2; c++ {
		var fixedAttacks uint64 // the other side's fixed pawns attack these for good
		for f := b.bb[1-c][Pawn] & fixed; f != 0; f &= f - 1 {
			fixedAttacks |= pawnAttacks[1-c][bits.TrailingZeros64(f)]
		}
		k := bits.TrailingZeros64(b.bb[c][King])
		r[c].kingStand, r[c].kingAttack = flood(King, k, fixed, fixedAttacks|still.kingOff[c])
		for p := Knight; p <= Queen; p++ {
			for f := b.bb[c][p] &^ still.set; f != 0; f &= f - 1 {
				q := bits.TrailingZeros64(f)
				if fixed&(uint64(1)<<q) != 0 {
					// A piece of the set stands (its moves all lead onto
					// its own men of the set, or mate: fixedMenRules).
					r[c].stand |= uint64(1) << q
					r[c].attack |= manAttacks(p, q, fixed)
					continue
				}
				st, at := flood(p, q, fixed, 0)
				r[c].stand |= st
				r[c].attack |= at
			}
		}
		r[c].stand |= b.occ[c] & still.set
		r[c].attack |= still.attack[c]
		for f := b.bb[c][Pawn] &^ fixed &^ still.set; f != 0; f &= f - 1 {
			st, at := pawnFlood(c, bits.TrailingZeros64(f), fixed, capt[c])
			r[c].stand |= st
			r[c].attack |= at
		}
	}
	return r
}

// reachesPaired is reachesStill with the kings' squares narrowed by
// kingPairs: where their floods meet, one king can bar the other's way.
// (Used by the fixed men's stages only: the per-move dead check and the
// pawns' analysis keep the plain floods, which cost less.)
func (b *Board) reachesPaired(fixed uint64, still stillMen) [2]reach {
	r := b.reachesStill(fixed, still)
	if b.bb[White][King] == 0 || b.bb[Black][King] == 0 {
		return r
	}
	w, bl := kingPairs(bits.TrailingZeros64(b.bb[White][King]), bits.TrailingZeros64(b.bb[Black][King]), r[White].kingStand, r[Black].kingStand)
	if w != r[White].kingStand || bl != r[Black].kingStand {
		r[White].kingStand, r[White].kingAttack = w, kingsAttack(w)
		r[Black].kingStand, r[Black].kingAttack = bl, kingsAttack(bl)
	}
	return r
}

// kingPairs is the squares each king can stand on when the white king
// moves within regW from w0 and the black king within regB from b0 (their
// floods) and the two never stand on one square or side by side: the
// least set of pairs (white square, black square) that holds (w0, b0) and,
// with a pair, every pair one king's step away that keeps the kings apart.
// Every position reached while the walls of the floods stand has its
// kings on such a pair, by induction on the moves: a move of another man
// leaves the pair as it was; a king's step stays in its flood, and no
// legal position has the kings side by side; castling is two steps, each
// onto a square the enemy king does not attack (the square passed over
// too), so the pair between is in the set as well. Where the regions lie
// apart, no square of one next to the other, that is the two floods
// themselves.
//
// E.g. BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b with the pawns and
// the bishops on b8, a7 and f8 as walls: the black king's flood is c8, d8
// and e8, and the white king on c8 could pass through d7 or d8 only with
// the black king on none of the three, so it stays on c8, b7, a8 and a6.
func kingPairs(w0, b0 int, regW, regB uint64) (standW, standB uint64) {
	regW |= uint64(1) << w0
	regB |= uint64(1) << b0
	if kingsAttack(regW)&regB == 0 && regW&regB == 0 {
		return regW, regB
	}
	// black[w]: the black king's squares paired with the white king on w;
	// queued: the white squares whose pairs grew and are not yet followed.
	var black [64]uint64
	black[w0] = uint64(1) << b0
	queued := uint64(1) << w0
	for queued != 0 {
		w := bits.TrailingZeros64(queued)
		queued &^= uint64(1) << w
		// The black king's steps, the white king on w.
		apart := regB &^ kingAttacks[w] &^ (uint64(1) << w)
		x := black[w]
		for {
			next := x | kingsAttack(x)&apart
			if next == x {
				break
			}
			x = next
		}
		black[w] = x
		// The white king's steps from w, the black king where it is.
		for ts := kingAttacks[w] & regW; ts != 0; ts &= ts - 1 {
			t := bits.TrailingZeros64(ts)
			if add := x &^ kingAttacks[t] &^ (uint64(1) << t); add&^black[t] != 0 {
				black[t] |= add
				queued |= uint64(1) << t
			}
		}
	}
	for w := range black {
		if black[w] != 0 {
			standW |= uint64(1) << w
			standB |= black[w]
		}
	}
	return standW, standB
}

// manStands is, for each man of side c that is not its king and not on a
// square of skip, the squares it can ever stand on as reachesWith floods
// them (fixed the walls, still the pieces that never move, r the reaches
// of both sides with them): one entry a man, a pawn's with everything it
// can become. The "no mate" test matches the squares that need a blocker
// to these men (blockersFit).
func (b *Board) manStands(c int, fixed uint64, still stillMen, skip uint64, r [2]reach) []uint64 {
	capt := b.occ[1-c]&^b.bb[1-c][King] | r[1-c].stand
	var men []uint64
	for f := b.occ[c] &^ b.bb[c][King] &^ skip; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		st := uint64(1) << q
		switch p := int(b.sq[q]) % 6; {
		case (fixed|still.set)&st != 0:
		case p == Pawn:
			st, _ = pawnFlood(c, q, fixed, capt)
		default:
			st, _ = flood(p, q, fixed, 0)
		}
		men = append(men, st)
	}
	return men
}

// fixedPawns is the greatest set of pawns that provably never move nor
// disappear: each stands behind a fixed pawn, no enemy man can ever stand
// on a square it could capture on (en passant included: the double-stepping
// pawn crosses that square), attack it, or (the enemy king) step next to it
// when no fixed pawn of its own guards it. Computed by removing pawns from
// the candidates until nothing changes; the removal of one pawn can only
// enlarge what the others' enemies can reach.
func (b *Board) fixedPawns() (uint64, [2]reach) {
	pawns := b.bb[White][Pawn] | b.bb[Black][Pawn]
	fixed := b.bb[White][Pawn]&(pawns>>8) | b.bb[Black][Pawn]&(pawns<<8)
	if b.ep >= 0 {
		// An en-passant capture open now moves both pawns.
		them := 1 - b.stm
		fixed &^= pawnAttacks[them][b.ep] & b.bb[b.stm][Pawn]
		fixed &^= uint64(1) << (int(b.ep) + upOf(them))
	}
	for {
		if fixed == 0 {
			return 0, [2]reach{}
		}
		r := b.reaches(fixed)
		keep := fixed
		for c := 0; c < 2; c++ {
			e := &r[1-c]
			for f := b.bb[c][Pawn] & fixed; f != 0; f &= f - 1 {
				s := bits.TrailingZeros64(f)
				m := uint64(1) << s
				front := uint64(1) << (s + upOf(c))
				guarded := pawnAttacks[1-c][s]&b.bb[c][Pawn]&fixed != 0
				switch {
				case front&fixed == 0,
					pawnAttacks[c][s]&(e.stand|e.kingStand|b.bb[1-c][Pawn]&fixed) != 0,
					m&e.attack != 0,
					m&e.kingAttack != 0 && !guarded:
					keep &^= m
				}
			}
		}
		if keep == fixed {
			return fixed, r
		}
		fixed = keep
	}
}

// blockedUnwinnable is the static analysis of blocked pawns: with the fixed
// pawns standing for good, no man of winner can ever attack a square the
// loser's king can ever stand on, so the loser's king is never even
// checked.
func blockedUnwinnable(b *Board, winner int) (bool, *phrase.Error) {
	fixed, r := b.fixedPawns()
	if fixed == 0 {
		return false, nil
	}
	loser := 1 - winner
	if r[winner].attack&r[loser].kingStand != 0 {
		if staticRoom(b, fixed, r, winner).mateSquare() >= 0 {
			return false, nil
		}
		return true, noMateWhy(winner, true)
	}
	return true, phrase.Errorf("the pawns are blocked for good and no %s piece can ever reach the %s king's region behind them", lower(colourName(winner)), lower(colourName(loser)))
}

func lower(s string) phrase.Word {
	if s == "White" {
		return "white"
	}
	return "black"
}
