package unwinnable

import (
	"math/bits"
	"strings"

	"arbiter/internal/phrase"
)

// kingTakesStalemate reports whether the enemy king can take side c's man
// on q (a man of the set cand, with r the reaches of both sides with cand
// as walls) only in positions where c then has no legal move. Where c is
// the winner, the game ends there (stalemate, or the winner mated) without
// a mate by the winner; where c is the loser, the capture must not give
// check as well (a discovered check would make it a mate): the loser's king,
// wherever it can stand then, stands on no square the winner could ever
// attack (loserInCheck false). It is used by fixedMenHeld to keep such a man
// in the set. The test, on every position where the capture can happen
// while the set stands:
//   - c has no castling right and no man outside the set but its king;
//   - its pieces of the set move only onto its own men of the set other
//     than q (with the set as walls; other men only block more), so they
//     have no move (a piece that attacked q would make the capture
//     illegal);
//   - its pawns of the set have a man of the set, or the enemy king on q,
//     in front, and no enemy man but the king can ever stand on their
//     capture squares (the set's condition, checked by fixedMenHeld); the
//     last move was a king's, so no en-passant capture;
//   - its king, wherever it can stand (r: not next to q, else the capture
//     is illegal), has no step: every square beside it holds its own man of
//     the set (not q), or lies next to q (the enemy king), or is guarded
//     for good by an enemy man of the set other than the king
//     (guardsForGood: they stand there for good, and a pinned man still
//     attacks).
func (b *Board) kingTakesStalemate(c, winner, q int, cand uint64, r [2]reach) bool {
	e := 1 - c
	if b.castle&([2]uint8{castleWK | castleWQ, castleBK | castleBQ})[c] != 0 {
		return false
	}
	qb := uint64(1) << q
	own := cand & b.occ[c] &^ qb
	if b.occ[c]&^b.bb[c][King]&^cand != 0 {
		return false
	}
	for f := own &^ b.bb[c][Pawn] &^ b.bb[c][King]; f != 0; f &= f - 1 {
		s := bits.TrailingZeros64(f)
		if manAttacks(int(b.sq[s])%6, s, cand)&^own != 0 {
			return false
		}
	}
	for f := own & b.bb[c][Pawn]; f != 0; f &= f - 1 {
		s := bits.TrailingZeros64(f)
		if (uint64(1)<<(s+upOf(c)))&(cand|qb) == 0 {
			return false
		}
	}
	covered := own | kingAttacks[q] | b.guardsForGood(e, cand&^b.bb[e][King])
	kings := r[c].kingStand &^ kingAttacks[q] &^ qb
	if c != winner && kings&(r[e].attack|pawnsAttack(e, b.bb[e][Pawn]&cand)) != 0 {
		return false // the capture might give check: a mate
	}
	for f := kings; f != 0; f &= f - 1 {
		if kingAttacks[bits.TrailingZeros64(f)]&^covered != 0 {
			return false
		}
	}
	return true
}

// stepMatesWinner reports whether the loser's (l's) pawn on q, a man of the
// set cand, can step only into a mate of the winner: in every position
// where the set stands, its step (a single step; a double step must be
// impossible, its square a man of the set) checks the winner's king,
// which stands in the set, and the winner has no legal move then. So the
// step ends the game without a mate by the winner, and the pawn stays in
// the set (fixedMenHeld). The test:
//   - the step's square q1 is not on the last rank, and the pawn on q1
//     attacks the winner's king (a pawn's check cannot be blocked);
//   - no man of the winner but its king can attack q1 (the reaches with
//     the set less q as walls: the pawn has left q);
//   - every square next to the winner's king holds its own man of the set,
//     or is guarded for good by a loser's man of the set (q left out) or by
//     the pawn on q1; q1 is one of them (the pawn checks from next to the
//     king), so the king cannot take the pawn either.
func (b *Board) stepMatesWinner(l, q int, cand uint64) bool {
	w := 1 - l
	k := b.bb[w][King]
	if k&cand == 0 {
		return false
	}
	up := upOf(l)
	q1 := q + up
	if q1 < 8 || q1 >= 56 || pawnAttacks[l][q1]&k == 0 {
		return false
	}
	start := rank8 >> 8
	if l == White {
		start = rank1 << 8
	}
	if (uint64(1)<<q)&start != 0 && (uint64(1)<<(q1+up))&cand == 0 {
		return false // a double step: not tested
	}
	rest := cand &^ (uint64(1) << q)
	guards := b.guardsForGood(l, rest) | pawnAttacks[l][q1]
	r := b.reaches(rest)
	if (uint64(1)<<q1)&(r[w].attack|pawnsAttack(w, b.bb[w][Pawn]&rest)) != 0 {
		return false
	}
	if kingAttacks[bits.TrailingZeros64(k)]&^(rest&b.occ[w])&^guards != 0 {
		return false
	}
	return true
}

// heldSides says whose men of the set men (the held set of fixedMenHeld,
// with r its reaches) stand only because the enemy king can take them only
// into a position without a legal move: the winner's (taken by the loser's
// king; winnerPiece: one of them is no pawn) and the loser's (taken by the
// winner's king, a stalemate); and whether a pawn of the loser stands only
// because its step mates the winner (stepMate: stepMatesWinner).
func (b *Board) heldSides(winner int, men uint64, r [2]reach) (winnerHeld, winnerPiece, loserHeld, stepMate bool) {
	guards := [2]uint64{b.guardsForGood(White, men), b.guardsForGood(Black, men)}
	for f := men &^ b.bb[White][King] &^ b.bb[Black][King]; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		c := int(b.sq[q]) / 6
		if int(b.sq[q])%6 == Pawn && (uint64(1)<<(q+upOf(c)))&men == 0 {
			stepMate = true
		}
		if uint64(1)<<q&r[1-c].kingAttack&^guards[c] == 0 {
			continue
		}
		if c == winner {
			winnerHeld = true
			winnerPiece = winnerPiece || int(b.sq[q])%6 != Pawn
		} else {
			loserHeld = true
		}
	}
	return winnerHeld, winnerPiece, loserHeld, stepMate
}

// heldWhy is menUnwinnable's sentence when the set holds men by
// kingTakesStalemate (heldSides): the same argument, saying why they stay.
func heldWhy(winner int, why *phrase.Error, winnerHeld, winnerPiece, loserHeld, stepMate bool) *phrase.Error {
	loser := 1 - winner
	w, l := lower(colourName(winner)), lower(colourName(loser))
	W, L := phrase.Word(colourName(winner)), phrase.Word(colourName(loser))
	mated := strings.Contains(why.Format, "never mated")
	switch {
	case stepMate && (winnerHeld || loserHeld) && mated:
		return phrase.Errorf("the pawns are blocked for good (a king can take a man of the set only where the other side is then left without a move, and a %s pawn can step only into a checkmate of %s) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, W, l, w, l)
	case stepMate && (winnerHeld || loserHeld):
		return phrase.Errorf("the pawns are blocked for good (a king can take a man of the set only where the other side is then left without a move, and a %s pawn can step only into a checkmate of %s) and no %s man can ever attack a square the %s king can reach", l, W, w, l)
	case stepMate && mated:
		return phrase.Errorf("the pawns are blocked for good (a %s pawn can step only into a checkmate of %s) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, W, l, w, l)
	case stepMate:
		return phrase.Errorf("the pawns are blocked for good (a %s pawn can step only into a checkmate of %s) and no %s man can ever attack a square the %s king can reach", l, W, w, l)
	case winnerHeld && loserHeld && mated:
		return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s man only where %s is then left without a move, and the %s king a %s man only where %s is then stalemated) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, w, W, w, l, L, l, w, l)
	case winnerHeld && loserHeld:
		return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s man only where %s is then left without a move, and the %s king a %s man only where %s is then stalemated) and no %s man can ever attack a square the %s king can reach", l, w, W, w, l, L, w, l)
	case loserHeld && mated:
		return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s man only where %s is then stalemated) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", w, l, L, l, w, l)
	case loserHeld:
		return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s man only where %s is then stalemated) and no %s man can ever attack a square the %s king can reach", w, l, L, w, l)
	case winnerPiece && mated:
		return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s man only where %s is then left without a move) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, w, W, l, w, l)
	case winnerPiece:
		return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s man only where %s is then left without a move) and no %s man can ever attack a square the %s king can reach", l, w, W, w, l)
	case mated:
		return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s pawn only where %s is then left without a move) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, w, W, l, w, l)
	}
	return phrase.Errorf("the pawns are blocked for good (the %s king can take a %s pawn only where %s is then left without a move) and no %s man can ever attack a square the %s king can reach", l, w, W, w, l)
}
