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
// attack, or the king's move opens no line to it (kingCaptureMayUncover). It is used by fixedMenHeld to keep such a man
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
	if c != winner && kings&(r[e].attack|pawnsAttack(e, b.bb[e][Pawn]&cand)) != 0 && b.kingCaptureMayUncover(e, kings, q, cand, r) {
		return false // the capture might give check: a mate
	}
	for f := kings; f != 0; f &= f - 1 {
		if kingAttacks[bits.TrailingZeros64(f)]&^covered != 0 {
			return false
		}
	}
	return true
}

// kingCaptureMayUncover reports whether side w's king, taking on q, may
// give a discovered check to the enemy king standing on a square of kings:
// the enemy was not in check before (w was to move), the king itself gives
// none, and the man taken leaves q to the king; so the only line the move
// opens runs through the square g the king came from (next to q, in its
// reach), and that only where g and the enemy king lie on a line along
// which w has a piece that moves (or a pawn outside the set, which could
// become one) with no man of the set between them (openLine, as for
// stalemateSquares).
func (b *Board) kingCaptureMayUncover(w int, kings uint64, q int, cand uint64, r [2]reach) bool {
	diag := b.bb[w][Bishop]|b.bb[w][Queen] != 0
	orth := b.bb[w][Rook]|b.bb[w][Queen] != 0
	if b.bb[w][Pawn]&^cand != 0 {
		diag, orth = true, true
	}
	for ks := kings; ks != 0; ks &= ks - 1 {
		k := bits.TrailingZeros64(ks)
		for gs := kingAttacks[q] & r[w].kingStand; gs != 0; gs &= gs - 1 {
			if openLine(k, bits.TrailingZeros64(gs), cand, diag, orth) {
				return true
			}
		}
	}
	return false
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

// selfMates reports whether the loser's man on q, a piece or pawn of type
// p, moving to s (empty, or a man of the winner taken) checkmates the
// winner, whose king stands for good in cand (a man of the set); cand the
// set, still its still men. Then that move ends the game without a mate
// by the winner, and fixedMenRules keeps the man in the set (mateRule).
// The test, on every position where the move can happen while the set
// stands:
//   - the man on s attacks the winner's king on w so that no man can step
//     between: a pawn, a knight, or a piece beside w along its line;
//   - the winner's king cannot take it: s is not beside w, or a pawn or
//     knight of the loser in the set (not the man that moved) guards s;
//   - no other man of the winner can ever attack s (its reach with the set
//     as walls and q empty: winnerAttacks);
//   - the king has no step: every square beside w but s holds a man of the
//     winner in the set, or is attacked by a pawn or knight of the loser
//     in the set (not the man that moved; they stand, and their attacks
//     cannot be blocked) or by the loser's king of the set (issue 29: two
//     kings never stand side by side), or by another piece of the loser
//     in the set or the man on s along a line on which only w and q lie
//     between (both empty then).
//
// The check needs no more: a check that cannot be parried by taking the
// checking man, by stepping between or by the king's step is a mate
// (another check at once only makes it surer).
func (b *Board) selfMates(winner, p, q, s int, cand uint64, still stillMen) bool {
	loser := 1 - winner
	wk := b.bb[winner][King]
	if wk&cand == 0 {
		return false
	}
	w := bits.TrailingZeros64(wk)
	sb, qb := uint64(1)<<s, uint64(1)<<q
	var hits, certain uint64
	switch p {
	case Pawn:
		hits, certain = pawnAttacks[loser][s], pawnAttacks[loser][s]
	case Knight:
		hits, certain = knightAttacks[s], knightAttacks[s]
	case Bishop, Rook, Queen:
		hits = manAttacks(p, s, ^uint64(0)) // beside s only
		certain = manAttacks(p, s, ^(wk | qb))
	default:
		return false
	}
	if hits&wk == 0 {
		return false
	}
	guards := pawnsAttack(loser, b.bb[loser][Pawn]&cand&^qb)
	for f := b.bb[loser][Knight] & cand &^ qb; f != 0; f &= f - 1 {
		guards |= knightAttacks[bits.TrailingZeros64(f)]
	}
	if kingAttacks[w]&sb != 0 && guards&sb == 0 {
		return false
	}
	// The loser's other pieces of the set stand too: what they attack
	// beside them (or through w or q) is covered for sure.
	covered := guards | certain
	// The loser's king of the set stands too, beside the squares it
	// attacks: the winner's king never steps there (issue 29).
	if lk := b.bb[loser][King] & cand; lk != 0 {
		covered |= kingAttacks[bits.TrailingZeros64(lk)]
	}
	for f := cand & b.occ[loser] &^ b.bb[loser][Pawn] &^ b.bb[loser][Knight] &^ b.bb[loser][King] &^ qb; f != 0; f &= f - 1 {
		t := bits.TrailingZeros64(f)
		covered |= manAttacks(int(b.sq[t])%6, t, ^(wk | qb))
	}
	if kingAttacks[w]&^sb&^(cand&b.occ[winner])&^covered != 0 {
		return false
	}
	return b.winnerAttacks(winner, cand&^qb, still)&sb == 0
}

// stepMates is selfMates for the loser's pawn on q stepping one square
// forward (not onto the last rank, where it would choose a piece, and not
// from its first rank, where it could step two).
func (b *Board) stepMates(winner, q int, cand uint64, still stillMen) bool {
	loser := 1 - winner
	s := q + upOf(loser)
	last, start := rank1, rank8>>8
	if loser == White {
		last, start = rank8, rank1<<8
	}
	if (uint64(1)<<s)&last != 0 || (uint64(1)<<q)&start != 0 {
		return false
	}
	return b.selfMates(winner, Pawn, q, s, cand, still)
}

// movesThatDoNotMate is the squares of moves (a piece of the loser on q,
// of type p) that are not selfMates.
func (b *Board) movesThatDoNotMate(winner, p, q int, moves, cand uint64, still stillMen) uint64 {
	for f := moves; f != 0; f &= f - 1 {
		if s := bits.TrailingZeros64(f); b.selfMates(winner, p, q, s, cand, still) {
			moves &^= uint64(1) << s
		}
	}
	return moves
}

// winnerAttacks is every square a man of winner other than its king can
// ever attack with walls as walls (other men step aside): its pieces'
// floods (a still man from its square), its pawns of walls from their
// squares, its other pawns as if they could take anywhere and promote.
func (b *Board) winnerAttacks(winner int, walls uint64, still stillMen) uint64 {
	var a uint64
	for p := Knight; p <= Queen; p++ {
		for f := b.bb[winner][p]; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			if still.set&(uint64(1)<<q) != 0 {
				a |= manAttacks(p, q, walls)
				continue
			}
			_, at := flood(p, q, walls, 0)
			a |= at
		}
	}
	a |= pawnsAttack(winner, b.bb[winner][Pawn]&(walls|still.set))
	for f := b.bb[winner][Pawn] &^ walls &^ still.set; f != 0; f &= f - 1 {
		_, at := pawnFlood(winner, bits.TrailingZeros64(f), walls, ^uint64(0))
		a |= at
	}
	return a
}

// mateWhy is menUnwinnable's sentence when the set holds a man of the
// loser by selfMates (and perhaps a pawn of the winner by
// kingTakesStalemate): the same argument, saying why the loser's men stay.
func mateWhy(winner int, why *phrase.Error) *phrase.Error {
	loser := 1 - winner
	w, l := lower(colourName(winner)), lower(colourName(loser))
	if strings.Contains(why.Format, "never mated") {
		return phrase.Errorf("the pawns are blocked for good (a %s man can move only where it checkmates %s) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, phrase.Word(colourName(winner)), l, w, l)
	}
	return phrase.Errorf("the pawns are blocked for good (a %s man can move only where it checkmates %s) and no %s man can ever attack a square the %s king can reach", l, phrase.Word(colourName(winner)), w, l)
}

// stalemateSquares is the squares onto which the winner's king cannot
// step (or take) without leaving the loser stalemated, in every position
// where the set cand stands and every man is in its reach r: the game is
// then over without a mate. The test, for the winner's king arriving on f
// from a square g of its reach beside f:
//   - the loser has no castling right and no man outside the set but its
//     king; its pieces of the set move only onto its own men of the set
//     (or attack f: then the king cannot step there); its pawns of the set
//     have a man of the set, or the king on f, in front, and no man of the
//     winner ever stands where they take (the set's condition; the last
//     move was a king's, so no en-passant capture);
//   - its king, on every square k of its reach not beside f, has no step:
//     each square beside k holds its own man of the set (not f), or is f
//     or beside f, or is attacked by a pawn or knight of the winner in the
//     set (their attacks cannot be blocked);
//   - and is not in check: before the move it was not (the winner was to
//     move), the king gives no check, and the only line the move opens is
//     through g: where g lies on a line with such a k, a man of the set
//     stands between them, or the winner has no piece that moves along
//     that line (nor a pawn outside the set, which might become one).
func (b *Board) stalemateSquares(winner int, cand uint64, r [2]reach) uint64 {
	if winner < 0 {
		return 0
	}
	loser := 1 - winner
	if b.castle&([2]uint8{castleWK | castleWQ, castleBK | castleBQ})[loser] != 0 ||
		b.castle&([2]uint8{castleWK | castleWQ, castleBK | castleBQ})[winner] != 0 ||
		b.occ[loser]&^b.bb[loser][King]&^cand != 0 {
		return 0
	}
	own := cand & b.occ[loser]
	var pieceTargets uint64 // squares the loser's pieces of the set attack beyond its own men
	for f := own &^ b.bb[loser][Pawn] &^ b.bb[loser][King]; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		pieceTargets |= manAttacks(int(b.sq[q])%6, q, cand) &^ own
	}
	if bits.OnesCount64(pieceTargets) > 1 {
		return 0 // a piece could move whatever square the king takes
	}
	var pawnFronts uint64 // fronts of the loser's pawns of the set that hold no man of the set
	for f := own & b.bb[loser][Pawn]; f != 0; f &= f - 1 {
		pawnFronts |= (uint64(1) << (bits.TrailingZeros64(f) + upOf(loser))) &^ cand
	}
	if bits.OnesCount64(pawnFronts|pieceTargets) > 1 {
		return 0
	}
	unblockable := pawnsAttack(winner, b.bb[winner][Pawn]&cand)
	for f := b.bb[winner][Knight] & cand; f != 0; f &= f - 1 {
		unblockable |= knightAttacks[bits.TrailingZeros64(f)]
	}
	diag := b.bb[winner][Bishop]|b.bb[winner][Queen] != 0
	orth := b.bb[winner][Rook]|b.bb[winner][Queen] != 0
	if b.bb[winner][Pawn]&^cand != 0 {
		diag, orth = true, true
	}
	kings := r[loser].kingStand
	var out uint64
	for cands := ^(cand & b.occ[winner]) &^ b.bb[loser][King]; cands != 0; cands &= cands - 1 {
		f := bits.TrailingZeros64(cands)
		fb := uint64(1) << f
		if (pawnFronts|pieceTargets)&^fb != 0 {
			continue // a pawn steps or a piece moves
		}
		near := kingAttacks[f] | fb
		ok := true
		for ks := kings &^ near; ks != 0 && ok; ks &= ks - 1 {
			k := bits.TrailingZeros64(ks)
			if kingAttacks[k]&^(own&^fb)&^near&^unblockable != 0 {
				ok = false
				break
			}
			for gs := kingAttacks[f] & r[winner].kingStand; gs != 0; gs &= gs - 1 {
				g := bits.TrailingZeros64(gs)
				if openLine(k, g, cand, diag, orth) {
					ok = false
					break
				}
			}
		}
		if ok {
			out |= fb
		}
	}
	return out
}

// openLine reports whether the squares k and g lie on a line along which
// the winner has a piece that moves (diag: bishops or queens, orth: rooks
// or queens) with no man of the set strictly between them.
func openLine(k, g int, cand uint64, diag, orth bool) bool {
	gb := uint64(1) << g
	for i := 0; i < 4; i++ {
		if lineMask[i][k]&gb == 0 {
			continue
		}
		if i < 2 && !orth || i >= 2 && !diag {
			return false
		}
		return squaresBetween(k, g)&cand == 0
	}
	return false
}

// gameEndsWhy is menUnwinnable's sentence when the set stands by
// stalemateSquares as well (the winner's king can step onto some squares
// only into a stalemate): any move that would touch the set, or bring the
// winner's king there, ends the game at once without a mate by the winner.
func gameEndsWhy(winner int, why *phrase.Error) *phrase.Error {
	loser := 1 - winner
	w, l := lower(colourName(winner)), lower(colourName(loser))
	if strings.Contains(why.Format, "never mated") {
		return phrase.Errorf("the men are blocked for good (any move that would change that ends the game at once, in a stalemate or a mate of %s) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", phrase.Word(colourName(winner)), l, w, l)
	}
	return phrase.Errorf("the men are blocked for good (any move that would change that ends the game at once, in a stalemate or a mate of %s) and no %s man can ever attack a square the %s king can reach", phrase.Word(colourName(winner)), w, l)
}

// lastPiece is the square of the winner's one man besides its king when
// that man is a bishop, rook or queen and the winner has nothing else (no
// pawn: it could promote), or -1. Once that piece is taken, the winner has
// a lone king, which never mates (the material rule).
func (b *Board) lastPiece(winner int) int {
	if winner < 0 {
		return -1
	}
	men := b.occ[winner] &^ b.bb[winner][King]
	if bits.OnesCount64(men) != 1 || men&(b.bb[winner][Bishop]|b.bb[winner][Rook]|b.bb[winner][Queen]) == 0 {
		return -1
	}
	return bits.TrailingZeros64(men)
}

// lastPieceTakes reports whether the winner's last piece (lastPiece, on
// s) can take the loser's man on q, a man of the set cand, only into being
// taken at once, in every position where the set stands:
//   - the loser's king stands in the set on k beside q (so its steps lead
//     only onto its own men of the set or squares the winner's men of the
//     set guard for good: fixedMenRules' condition for a king);
//   - the piece on q attacks k (a queen always, a rook orthogonally, a
//     bishop diagonally; beside k nothing can step between): the loser is
//     in check, its king's only step is onto q, and every legal reply
//     takes the piece;
//   - and one such reply is legal: the winner's king stands in the set on
//     a square not beside q (the loser's king takes), or a pawn, knight or
//     piece of the loser in the set other than its king guards q for good
//     (guardsForGood; no man of the winner is left to pin it, and a king
//     gives no check).
//
// So the capture is no mate, and after the reply the winner has a lone
// king.
func (b *Board) lastPieceTakes(winner, s, q int, cand uint64) bool {
	loser := 1 - winner
	kings := b.bb[loser][King] & cand
	if kings == 0 {
		return false
	}
	k := bits.TrailingZeros64(kings)
	if kingAttacks[k]&(uint64(1)<<q) == 0 {
		return false
	}
	orth := q/8 == k/8 || q%8 == k%8
	switch b.sq[s] % 6 {
	case Rook:
		if !orth {
			return false
		}
	case Bishop:
		if orth {
			return false
		}
	}
	m := uint64(1) << q
	if wk := b.bb[winner][King] & cand; wk != 0 && kingsAttack(wk)&m == 0 {
		return true
	}
	return b.guardsForGood(loser, cand&^kings)&m != 0
}

// lastPieceWhy is menUnwinnable's sentence when the set stands by
// lastPieceTakes as well: a move that would touch the set ends the game,
// or is the winner's last piece taking a man beside the loser's king, which
// must be answered by taking the piece.
func lastPieceWhy(winner int, why *phrase.Error) *phrase.Error {
	loser := 1 - winner
	w, l := lower(colourName(winner)), lower(colourName(loser))
	W := phrase.Word(colourName(winner))
	if strings.Contains(why.Format, "never mated") {
		return phrase.Errorf("the men are blocked for good (a move that would change that ends the game at once, or is a capture by the only %s piece that must be answered by taking it, leaving %s a lone king) and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", w, W, l, w, l)
	}
	return phrase.Errorf("the men are blocked for good (a move that would change that ends the game at once, or is a capture by the only %s piece that must be answered by taking it, leaving %s a lone king) and no %s man can ever attack a square the %s king can reach", w, W, w, l)
}
