package unwinnable

import "math/bits"

// The change search (the block search of the rounds with changeSteps
// counted): where every pawn of the winner has a pawn of the loser ahead
// on its file and none can take a pawn of the loser as the pawns stand,
// a pawn of the winner promotes only after a capture onto another file
// whose way ahead is clear; the man it takes there is a piece of the
// loser, or a pawn of the loser that came there by taking a piece of the
// winner (offered to it) or down its own file. Only an order of the
// search: no proof depends on it.

// wChange: the weight of a step of changeSteps in the score of the
// change search (as wFree, a step of a free pawn in offerScore).
const wChange = 8

// noChange: changeSteps where no such capture is in sight.
const noChange = 30

// aheadOnFile[c][s]: the squares ahead of s on its file for a pawn of
// colour c.
var aheadOnFile [2][64]uint64

func init() {
	for s := 0; s < 64; s++ {
		for t := s + 8; t < 64; t += 8 {
			aheadOnFile[White][s] |= 1 << t
		}
		for t := s - 8; t >= 0; t -= 8 {
			aheadOnFile[Black][s] |= 1 << t
		}
	}
}

// relRank is the rank of s counted from c's side: 0 on c's first rank, 7
// on its promotion rank.
func relRank(c, s int) int {
	if c == White {
		return s >> 3
	}
	return 7 - s>>3
}

// fileChangeRoot reports whether the change search runs for winner
// from b: winner has pawns, each with a pawn of the loser ahead on its
// file, no pawn of the loser stands on a file next to one of them at its
// rank or ahead (none can be taken as the pawns stand), and some piece
// besides the kings is on the board (the man taken, or the man a pawn of
// the loser takes, is a piece). Not where every pawn of the winner stands
// right behind a pawn (the offer search's rows).
func fileChangeRoot(b *Board, winner int) bool {
	w, l := b.bb[winner][Pawn], b.bb[1-winner][Pawn]
	if w == 0 || b.all()&^(w|l|b.bb[0][King]|b.bb[1][King]) == 0 {
		return false
	}
	if blocked, _ := blockedPawns(b, winner); blocked == w {
		return false
	}
	for f := w; f != 0; f &= f - 1 {
		s := bits.TrailingZeros64(f)
		if aheadOnFile[winner][s]&l == 0 {
			return false
		}
		var beside uint64
		if s&7 > 0 {
			beside |= aheadOnFile[winner][s-1] | 1<<(s-1)
		}
		if s&7 < 7 {
			beside |= aheadOnFile[winner][s+1] | 1<<(s+1)
		}
		if beside&l != 0 {
			return false
		}
	}
	return true
}

// maxPieceSteps: the moves of a piece counted by changeSteps (a square
// farther is out of sight).
const maxPieceSteps = 6

// pieceStepsTo writes into steps[c], for each square c of targets, the
// fewest moves any piece of set needs to stand on c with the pawns as
// walls (other pieces taken to step aside), where fewer than what steps
// holds and at most maxPieceSteps.
func pieceStepsTo(b *Board, set, pawns, targets uint64, steps *[64]int8) {
	for f := set; f != 0; f &= f - 1 {
		s := bits.TrailingZeros64(f)
		p := int(b.sq[s]) % 6
		seen := uint64(1) << s
		frontier := seen
		for k := 0; k <= maxPieceSteps && frontier != 0; k++ {
			for t := frontier & targets; t != 0; t &= t - 1 {
				c := bits.TrailingZeros64(t)
				steps[c] = min(steps[c], int8(k))
			}
			frontier = menAttack(p, frontier, pawns) &^ pawns &^ seen
			seen |= frontier
		}
	}
}

// changeSteps estimates the moves (of both sides) until the winner
// promotes: 0 once it has a queen; the steps to promotion of its most
// advanced pawn with no pawn of the loser ahead on its file, where it
// has one; else, over the squares c a pawn of the winner can take on
// (from its square or one it can advance to) with at most one pawn of the
// loser ahead of c on its file, the pawn's steps there, the capture, its
// steps to promotion from c, and the moves that bring a man of the loser
// onto c: the one pawn of the loser ahead on c's file, its steps down to
// c; else a piece's moves (pieceStepsTo); or a pawn of the loser on a
// file next to c, its steps down to the square from which it takes on c,
// the capture, and the moves of the winner's nearest piece to c, offered
// there. noChange when no such square is in sight. Pawns are the only
// walls.
func changeSteps(b *Board, winner int) int {
	w, l := &b.bb[winner], &b.bb[1-winner]
	if w[Queen] != 0 {
		return 0
	}
	loser := 1 - winner
	pawns := w[Pawn] | l[Pawn]
	best := noChange
	for f := w[Pawn]; f != 0; f &= f - 1 {
		s := bits.TrailingZeros64(f)
		if aheadOnFile[winner][s]&l[Pawn] == 0 {
			best = min(best, 7-relRank(winner, s))
		}
	}
	if best < noChange {
		return best
	}
	// base[c]: the fewest steps a pawn of the winner needs to stand where
	// it takes on c, the capture and its steps to promotion from c (0:
	// none can take there, or two pawns of the loser stand ahead of c).
	var base [64]int8
	var targets uint64
	up := upOf(winner)
	for f := w[Pawn]; f != 0; f &= f - 1 {
		s := bits.TrailingZeros64(f)
		for k := 0; ; k++ {
			for t := pawnAttacks[winner][s]; t != 0; t &= t - 1 {
				c := bits.TrailingZeros64(t)
				if ahead := aheadOnFile[winner][c] & l[Pawn]; ahead&(ahead-1) != 0 {
					continue
				}
				n := int8(k + 1 + 7 - relRank(winner, c))
				if base[c] == 0 || base[c] > n {
					base[c] = n
				}
				targets |= 1 << c
			}
			s += up
			if s < 0 || s >= 64 || pawns&(1<<s) != 0 {
				break
			}
		}
	}
	// The moves of the loser's pieces to each target, and of the
	// winner's pieces (to be offered there).
	var come, offer [64]int8
	for c := range come {
		come[c], offer[c] = noChange, noChange
	}
	pieceStepsTo(b, l[Knight]|l[Bishop]|l[Rook]|l[Queen], pawns, targets, &come)
	if offered := w[Knight] | w[Bishop] | w[Rook]; offered != 0 && l[Pawn] != 0 {
		pieceStepsTo(b, offered, pawns, targets, &offer)
	}
	for t := targets; t != 0; t &= t - 1 {
		c := bits.TrailingZeros64(t)
		n := int(base[c])
		if n >= best {
			continue
		}
		if b.sq[c] >= 0 && int(b.sq[c])/6 == loser && int(b.sq[c])%6 != King {
			best = n // a man of the loser stands there
			continue
		}
		if ahead := aheadOnFile[winner][c] & l[Pawn]; ahead != 0 {
			// The one pawn of the loser ahead comes down to c.
			s := bits.TrailingZeros64(ahead)
			if aheadOnFile[loser][s]&^aheadOnFile[loser][c]&pawns == 0 {
				best = min(best, n+relRank(winner, s)-relRank(winner, c))
			}
			continue
		}
		m := int(come[c])
		if offer[c] < noChange {
			// A pawn of the loser on a file next to c steps down to the
			// square a rank on from c, its way clear of pawns, and takes
			// a piece of the winner offered on c.
			var beside uint64
			if c&7 > 0 {
				beside |= aheadOnFile[winner][c-1]
			}
			if c&7 < 7 {
				beside |= aheadOnFile[winner][c+1]
			}
			for f := l[Pawn] & beside; f != 0; f &= f - 1 {
				s := bits.TrailingZeros64(f)
				to := c&^7 + s&7 + up
				if aheadOnFile[loser][s]&^aheadOnFile[loser][to]&pawns != 0 {
					continue
				}
				m = min(m, relRank(winner, s)-relRank(winner, to)+1+int(offer[c]))
			}
		}
		best = min(best, n+m)
	}
	return best
}
