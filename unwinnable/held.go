package unwinnable

import (
	"math/bits"
	"strings"

	"arbiter/internal/phrase"
)

// kingTakesStalemate reports whether the loser's king can take the
// winner's pawn on q (a man of the set cand, with r the reaches of both
// sides with cand as walls) only in positions where the winner then has no
// legal move: the game ends there (stalemate, or the winner mated), without
// a mate by the winner. It is used by fixedMenHeld to keep such a pawn in
// the set. The test, on every position where the capture can happen while
// the set stands:
//   - the winner has no castling right and no man outside the set but its
//     king;
//   - its pieces of the set move only onto its own men of the set other
//     than q (with the set as walls; other men only block more), so they
//     have no move (a piece that attacked q would make the capture
//     illegal);
//   - its pawns of the set have a man of the set, or the loser's king on q,
//     in front, and no enemy man but the king can ever stand on their
//     capture squares (the set's condition, checked by fixedMenHeld); the
//     last move was a king's, so no en-passant capture;
//   - its king, wherever it can stand (r: not next to q, else the capture
//     is illegal), has no step: every square beside it holds its own man of
//     the set (not q), or lies next to q (the loser's king), or is attacked
//     by a loser's pawn or knight of the set (they stand there for good, and
//     a pinned man still attacks).
func (b *Board) kingTakesStalemate(winner, q int, cand uint64, r [2]reach) bool {
	loser := 1 - winner
	if b.castle&([2]uint8{castleWK | castleWQ, castleBK | castleBQ})[winner] != 0 {
		return false
	}
	qb := uint64(1) << q
	own := cand & b.occ[winner] &^ qb
	if b.occ[winner]&^b.bb[winner][King]&^cand != 0 {
		return false
	}
	for f := own &^ b.bb[winner][Pawn] &^ b.bb[winner][King]; f != 0; f &= f - 1 {
		s := bits.TrailingZeros64(f)
		if manAttacks(int(b.sq[s])%6, s, cand)&^own != 0 {
			return false
		}
	}
	for f := own & b.bb[winner][Pawn]; f != 0; f &= f - 1 {
		s := bits.TrailingZeros64(f)
		if (uint64(1)<<(s+upOf(winner)))&(cand|qb) == 0 {
			return false
		}
	}
	covered := own | kingAttacks[q] | pawnsAttack(loser, b.bb[loser][Pawn]&cand)
	for f := b.bb[loser][Knight] & cand; f != 0; f &= f - 1 {
		covered |= knightAttacks[bits.TrailingZeros64(f)]
	}
	kings := r[winner].kingStand &^ kingAttacks[q] &^ qb
	for f := kings; f != 0; f &= f - 1 {
		if kingAttacks[bits.TrailingZeros64(f)]&^covered != 0 {
			return false
		}
	}
	return true
}

// heldWhy is menUnwinnable's sentence when the set holds a pawn of the
// winner by kingTakesStalemate: the same argument, saying why that pawn
// stays.
func heldWhy(winner int, why *phrase.Error) *phrase.Error {
	loser := 1 - winner
	w, l := lower(colourName(winner)), lower(colourName(loser))
	if strings.Contains(why.Format, "never mated") {
		return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s pawn only where %s is then left without a move) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, w, phrase.Word(colourName(winner)), l, w, l)
	}
	return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s pawn only where %s is then left without a move) and no %s man can ever attack a square the %s king can reach", l, w, phrase.Word(colourName(winner)), w, l)
}
