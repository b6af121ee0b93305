package unwinnable

import "math/bits"

// Move packs from (6 bits), to (6 bits), the promotion piece type (3 bits,
// 0 for none) and a kind (2 bits).
type Move uint32

const (
	kindNormal = iota
	kindDouble
	kindEP
	kindCastle
)

func newMove(from, to, promo, kind int) Move {
	return Move(from | to<<6 | promo<<12 | kind<<15)
}

// From is the square the move starts on (a1 = 0, h8 = 63).
func (m Move) From() int { return int(m & 63) }

// To is the square the move ends on.
func (m Move) To() int { return int(m>>6) & 63 }

// Promo is the promotion piece type, 0 for none.
func (m Move) Promo() int { return int(m>>12) & 7 }

func (m Move) kind() int { return int(m>>15) & 3 }

// UCI writes the move as e2e4, e7e8q, e1g1.
func (m Move) UCI() string {
	s := squareName(m.From()) + squareName(m.To())
	if p := m.Promo(); p != 0 {
		s += string(" nbrq"[p])
	}
	return s
}

// MoveList is a fixed-size list (no position has more than 218 moves).
type MoveList struct {
	Moves [256]Move
	N     int
}

func (l *MoveList) add(m Move) { l.Moves[l.N] = m; l.N++ }

// Slice is the moves of the list.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// pseudo generates the pseudo-legal moves of the side to move (castling
// already checked for attacked squares).
func (b *Board) pseudo(l *MoveList) {
	l.N = 0
	us, them := b.stm, 1-b.stm
	own, opp := b.occ[us], b.occ[them]
	all := own | opp
	p := &b.bb[us]

	// Pawns.
	pawns := p[Pawn]
	var push1, push2 uint64
	var up int
	var promoRank, startRank3 uint64
	if us == White {
		up = 8
		push1 = (pawns << 8) &^ all
		push2 = ((push1 & (rank1 << 16)) << 8) &^ all
		promoRank = rank8
		_ = startRank3
	} else {
		up = -8
		push1 = (pawns >> 8) &^ all
		push2 = ((push1 & (rank8 >> 16)) >> 8) &^ all
		promoRank = rank1
	}
	for t := push1; t != 0; t &= t - 1 {
		to := bits.TrailingZeros64(t)
		from := to - up
		if (uint64(1)<<to)&promoRank != 0 {
			for pr := Queen; pr >= Knight; pr-- {
				l.add(newMove(from, to, pr, kindNormal))
			}
		} else {
			l.add(newMove(from, to, 0, kindNormal))
		}
	}
	for t := push2; t != 0; t &= t - 1 {
		to := bits.TrailingZeros64(t)
		l.add(newMove(to-2*up, to, 0, kindDouble))
	}
	for f := pawns; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		for t := pawnAttacks[us][from] & opp; t != 0; t &= t - 1 {
			to := bits.TrailingZeros64(t)
			if (uint64(1)<<to)&promoRank != 0 {
				for pr := Queen; pr >= Knight; pr-- {
					l.add(newMove(from, to, pr, kindNormal))
				}
			} else {
				l.add(newMove(from, to, 0, kindNormal))
			}
		}
		if b.ep >= 0 && pawnAttacks[us][from]&(uint64(1)<<b.ep) != 0 {
			l.add(newMove(from, int(b.ep), 0, kindEP))
		}
	}
	for f := p[Knight]; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		for t := knightAttacks[from] &^ own; t != 0; t &= t - 1 {
			l.add(newMove(from, bits.TrailingZeros64(t), 0, kindNormal))
		}
	}
	for f := p[Bishop] | p[Queen]; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		for t := bishopAttacks(from, all) &^ own; t != 0; t &= t - 1 {
			l.add(newMove(from, bits.TrailingZeros64(t), 0, kindNormal))
		}
	}
	for f := p[Rook] | p[Queen]; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		for t := rookAttacks(from, all) &^ own; t != 0; t &= t - 1 {
			l.add(newMove(from, bits.TrailingZeros64(t), 0, kindNormal))
		}
	}
	k := bits.TrailingZeros64(p[King])
	for t := kingAttacks[k] &^ own; t != 0; t &= t - 1 {
		l.add(newMove(k, bits.TrailingZeros64(t), 0, kindNormal))
	}
	// Castling: king and rook at home (ParseFEN and Make keep the rights
	// honest), the squares between empty, the king not in check and not
	// passing or landing on an attacked square.
	if us == White && b.castle&(castleWK|castleWQ) != 0 && !b.attacked(4, them) {
		if b.castle&castleWK != 0 && all&0x60 == 0 && !b.attacked(5, them) && !b.attacked(6, them) {
			l.add(newMove(4, 6, 0, kindCastle))
		}
		if b.castle&castleWQ != 0 && all&0x0E == 0 && !b.attacked(3, them) && !b.attacked(2, them) {
			l.add(newMove(4, 2, 0, kindCastle))
		}
	}
	if us == Black && b.castle&(castleBK|castleBQ) != 0 && !b.attacked(60, them) {
		if b.castle&castleBK != 0 && all&(0x60<<56) == 0 && !b.attacked(61, them) && !b.attacked(62, them) {
			l.add(newMove(60, 62, 0, kindCastle))
		}
		if b.castle&castleBQ != 0 && all&(0x0E<<56) == 0 && !b.attacked(59, them) && !b.attacked(58, them) {
			l.add(newMove(60, 58, 0, kindCastle))
		}
	}
}

// castleMask[s]: the rights kept when a move starts or ends on s.
var castleMask [64]uint8

func init() {
	for i := range castleMask {
		castleMask[i] = 15
	}
	castleMask[4] = 15 &^ (castleWK | castleWQ)
	castleMask[7] = 15 &^ castleWK
	castleMask[0] = 15 &^ castleWQ
	castleMask[60] = 15 &^ (castleBK | castleBQ)
	castleMask[63] = 15 &^ castleBK
	castleMask[56] = 15 &^ castleBQ
}

// Make plays a pseudo-legal move on a copy and reports whether it was
// legal (the mover's king is not left in check).
func (b *Board) Make(m Move) (Board, bool) {
	var n Board
	ok := b.MakeInto(m, &n)
	return n, ok
}

// MakeInto is Make writing the new position into n.
func (b *Board) MakeInto(m Move, n *Board) bool { return b.makeInto(m, n, true) }

// makeInto is MakeInto; with test false the move is known to be legal
// (a move of a piece in b.free()), and its legality is not tested.
func (b *Board) makeInto(m Move, n *Board, test bool) bool {
	*n = *b
	us, them := b.stm, 1-b.stm
	from, to := m.From(), m.To()
	pc := int(b.sq[from]) - us*6
	if n.ep >= 0 {
		n.key ^= zEP[n.ep&7]
		n.ep = -1
	}
	n.half++
	if cap := b.sq[to]; cap >= 0 {
		n.remove(them, int(cap)-them*6, to)
		n.half = 0
	}
	n.remove(us, pc, from)
	switch m.kind() {
	case kindEP:
		n.remove(them, Pawn, epTaken(us, to))
	case kindCastle:
		rookFrom, rookTo := castlingRook(to)
		n.remove(us, Rook, rookFrom)
		n.put(us, Rook, rookTo)
	}
	if pr := m.Promo(); pr != 0 {
		n.put(us, pr, to)
	} else {
		n.put(us, pc, to)
	}
	if pc == Pawn {
		n.half = 0
	}
	if c := n.castle & castleMask[from] & castleMask[to]; c != n.castle {
		n.key ^= zCastle[n.castle] ^ zCastle[c]
		n.castle = c
	}
	n.stm = them
	n.key ^= zSide
	if us == Black {
		n.full++
	}
	if test && n.attacked(bits.TrailingZeros64(n.bb[us][King]), them) {
		return false
	}
	if m.kind() == kindDouble {
		n.setEP((from + to) / 2)
	}
	return true
}

// epTaken is the square of the pawn that us's en-passant capture to to
// takes: behind to, seen from us.
func epTaken(us, to int) int {
	if us == White {
		return to - 8
	}
	return to + 8
}

// castlingRook gives the squares the rook comes from and goes to in the
// castling whose king goes to kingTo (g1, c1, g8 or c8).
func castlingRook(kingTo int) (rookFrom, rookTo int) {
	switch kingTo {
	case 6:
		return 7, 5
	case 2:
		return 0, 3
	case 62:
		return 63, 61
	}
	return 56, 59
}

// undo is what unmake needs to take a move back to the position it was
// made from: that position's key, half-move clock, castling rights and
// en-passant square, and the man the move took on its square (a piece
// code, -1 for none; an en-passant capture's pawn is known from the move).
type undo struct {
	key    uint64
	half   int32
	cap    int8
	castle uint8
	ep     int8
}

// undoOf is what unmake needs to take m, made from b, back.
func (b *Board) undoOf(m Move) undo {
	return undo{key: b.key, half: int32(b.half), cap: b.sq[m.To()], castle: b.castle, ep: b.ep}
}

// unmake takes back m on b, the position m led to (makeInto), with u, the
// undoOf of the position it was made from: b becomes that position exactly
// (TestUnmakeGivesBackThePositionTheMoveWasMadeFrom).
func (b *Board) unmake(m Move, u undo) {
	them := b.stm
	us := 1 - them
	from, to := m.From(), m.To()
	now := int(b.sq[to]) - us*6
	b.remove(us, now, to)
	if m.Promo() != 0 {
		b.put(us, Pawn, from)
	} else {
		b.put(us, now, from)
	}
	switch m.kind() {
	case kindEP:
		b.put(them, Pawn, epTaken(us, to))
	case kindCastle:
		rookFrom, rookTo := castlingRook(to)
		b.remove(us, Rook, rookTo)
		b.put(us, Rook, rookFrom)
	}
	if u.cap >= 0 {
		b.put(them, int(u.cap)-them*6, to)
	}
	b.stm, b.key, b.half, b.castle, b.ep = us, u.key, int(u.half), u.castle, u.ep
	if us == Black {
		b.full--
	}
}

// free is the set of the pieces of the side to move whose moves are all
// legal (none leaves the king in check): when the king is not in check,
// every piece but the king that no enemy slider pins to it (a pinned
// piece is the only man between its king and a slider on their line);
// none when the king is in check. An en-passant capture, which takes a
// second man off a line, is left to the test even from a free square.
func (b *Board) free() uint64 {
	k := bits.TrailingZeros64(b.bb[b.stm][King])
	if b.attacked(k, 1-b.stm) {
		return 0
	}
	return b.unpinned(k)
}

// unpinned is free for a king on k not in check.
func (b *Board) unpinned(k int) uint64 {
	us, them := b.stm, 1-b.stm
	own := b.occ[us] &^ (uint64(1) << k)
	occ := b.all()
	p := &b.bb[them]
	bq, rq := p[Bishop]|p[Queen], p[Rook]|p[Queen]
	var snipers uint64
	if bq&(lineMask[2][k]|lineMask[3][k]) != 0 {
		snipers |= bishopAttacks(k, b.occ[them]) & bq
	}
	if rq&(lineMask[0][k]|lineMask[1][k]) != 0 {
		snipers |= rookAttacks(k, b.occ[them]) & rq
	}
	for ; snipers != 0; snipers &= snipers - 1 {
		s := bits.TrailingZeros64(snipers)
		between := squaresBetween(k, s)
		if between&occ&(between&occ-1) == 0 {
			own &^= between // one man or none between: it stays
		}
	}
	return own
}

// freeAndEvasions is free and, for the moves of the other men, a first
// sieve: evade is, when the king is in check, the squares such a move
// must end on to be legal at all (the lone checker's square and the
// squares between it and the king; none in a double check: no move but
// the king's answers two checks), every square when it is not. A move of
// another man ending elsewhere leaves the check standing; the best-first
// search, most of whose illegal moves are answers to a check, passes
// them over without a test.
func (b *Board) freeAndEvasions() (free, evade uint64) {
	us, them := b.stm, 1-b.stm
	k := bits.TrailingZeros64(b.bb[us][King])
	if !b.attacked(k, them) {
		return b.unpinned(k), ^uint64(0)
	}
	checkers := b.attackersOf(k, them, b.all())
	if checkers&(checkers-1) != 0 {
		return 0, 0
	}
	s := bits.TrailingZeros64(checkers)
	// The squares between: empty, as the checker checks (none beside
	// the king or for a knight, which stands on no line through it).
	return 0, checkers | squaresBetween(k, s)
}

// legalAfter is makeInto's test of a pseudo-legal move m that is neither
// en passant nor castling (whether the mover's king is left unattacked),
// answered without making the move: the attacks on the king's square
// after it, with the occupancy after it, by the other side's men but the
// one m takes. evade is freeAndEvasions'.
func (b *Board) legalAfter(m Move, evade uint64) bool {
	us, them := b.stm, 1-b.stm
	from, to := m.From(), m.To()
	toBit := uint64(1) << to
	occ := b.all()&^(uint64(1)<<from) | toBit
	if k := bits.TrailingZeros64(b.bb[us][King]); k != from {
		return evade&toBit != 0 && !b.attackedWithout(k, them, occ, toBit)
	}
	return !b.attackedWithout(to, them, occ, toBit)
}

// keyAfter is the key of the position after the pseudo-legal move m
// (MakeInto's n.key), computed without making it; ok is false for a
// double step (whether en passant is open after it needs the new
// position) and castling, which are made to know.
func (b *Board) keyAfter(m Move) (key uint64, ok bool) {
	kind := m.kind()
	if kind == kindDouble || kind == kindCastle {
		return 0, false
	}
	us := b.stm
	from, to := m.From(), m.To()
	key = b.key ^ zSide
	if b.ep >= 0 {
		key ^= zEP[b.ep&7]
	}
	pc := int(b.sq[from])
	key ^= zPiece[pc][from]
	if cap := b.sq[to]; cap >= 0 {
		key ^= zPiece[cap][to]
	}
	if kind == kindEP {
		key ^= zPiece[(1-us)*6+Pawn][epTaken(us, to)]
	}
	if pr := m.Promo(); pr != 0 {
		key ^= zPiece[us*6+pr][to]
	} else {
		key ^= zPiece[pc][to]
	}
	if c := b.castle & castleMask[from] & castleMask[to]; c != b.castle {
		key ^= zCastle[b.castle] ^ zCastle[c]
	}
	return key, true
}

// Legal lists the legal moves of the side to move.
func (b *Board) Legal(l *MoveList) {
	var p MoveList
	b.pseudo(&p)
	l.N = 0
	var c Board
	for _, m := range p.Moves[:p.N] {
		if b.MakeInto(m, &c) {
			l.add(m)
		}
	}
}

// Perft counts the leaf positions of the legal move tree to depth d.
func (b *Board) Perft(d int) int64 {
	var l MoveList
	b.pseudo(&l)
	var n int64
	var c Board
	for _, m := range l.Moves[:l.N] {
		if !b.MakeInto(m, &c) {
			continue
		}
		if d <= 1 {
			n++
		} else {
			n += c.Perft(d - 1)
		}
	}
	return n
}
