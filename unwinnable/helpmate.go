package unwinnable

import "math/bits"

// givesCheck reports whether the pseudo-legal move m of the side to move
// checks the enemy king, without making it. Exact for every move; en
// passant and castling (rare) are made on a copy.
func (b *Board) givesCheck(m Move) bool {
	us := b.stm
	if k := m.kind(); k == kindEP || k == kindCastle {
		var c Board
		b.MakeInto(m, &c)
		return c.InCheck()
	}
	from, to := m.From(), m.To()
	ksq := bits.TrailingZeros64(b.bb[1-us][King])
	fromBit, toBit := uint64(1)<<from, uint64(1)<<to
	occ := b.all()&^fromBit | toBit
	pc := int(b.sq[from]) - us*6
	if pr := m.Promo(); pr != 0 {
		pc = pr
	}
	p := &b.bb[us]
	bq := (p[Bishop] | p[Queen]) &^ fromBit
	rq := (p[Rook] | p[Queen]) &^ fromBit
	switch pc {
	case Pawn:
		if pawnAttacks[us][to]&(uint64(1)<<ksq) != 0 {
			return true
		}
	case Knight:
		if knightAttacks[to]&(uint64(1)<<ksq) != 0 {
			return true
		}
	case Bishop:
		bq |= toBit
	case Rook:
		rq |= toBit
	case Queen:
		bq |= toBit
		rq |= toBit
	}
	// Sliders (the moved one on its new square, the others uncovered).
	if bq&(lineMask[2][ksq]|lineMask[3][ksq]) != 0 && bishopAttacks(ksq, occ)&bq != 0 {
		return true
	}
	return rq&(lineMask[0][ksq]|lineMask[1][ksq]) != 0 && rookAttacks(ksq, occ)&rq != 0
}

// checkSquares lets givesCheckBy answer givesCheck for all the moves of
// one position at the cost of a look-up a move: direct[p] are the squares
// from which a man of type p of the side to move would attack the enemy
// king (none for the king), uncover the men of the side to move standing
// between one of its sliders and the enemy king on their line (moving
// one may uncover a check).
type checkSquares struct {
	direct  [King + 1]uint64
	uncover uint64
}

// checkSquares is the checkSquares of the side to move.
func (b *Board) checkSquares() checkSquares {
	us := b.stm
	ksq := bits.TrailingZeros64(b.bb[1-us][King])
	occ := b.all()
	var cs checkSquares
	cs.direct[Pawn] = pawnAttacks[1-us][ksq]
	cs.direct[Knight] = knightAttacks[ksq]
	cs.direct[Bishop] = bishopAttacks(ksq, occ)
	cs.direct[Rook] = rookAttacks(ksq, occ)
	cs.direct[Queen] = cs.direct[Bishop] | cs.direct[Rook]
	p := &b.bb[us]
	diag, orth := lineMask[2][ksq]|lineMask[3][ksq], lineMask[0][ksq]|lineMask[1][ksq]
	for f := (p[Bishop] | p[Queen]) & diag; f != 0; f &= f - 1 {
		x := bits.TrailingZeros64(f)
		cs.uncover |= bishopAttacks(ksq, 1<<x) & bishopAttacks(x, 1<<ksq)
	}
	for f := (p[Rook] | p[Queen]) & orth; f != 0; f &= f - 1 {
		x := bits.TrailingZeros64(f)
		cs.uncover |= rookAttacks(ksq, 1<<x) & rookAttacks(x, 1<<ksq)
	}
	cs.uncover &= b.occ[us]
	return cs
}

// givesCheckBy is givesCheck, cs b's checkSquares. A move that neither
// promotes nor is en passant or castling, nor starts between a slider of
// the mover and the enemy king, uncovers no check, and checks directly
// just when it ends on a square from which its man attacks the king with
// the occupancy before it: the square it leaves could open the man's own
// line to the king only if it stood on that line with the king in front,
// and a slider that could move along the line would then have been
// checking already (the side not to move is never in check).
func (b *Board) givesCheckBy(m Move, cs *checkSquares) bool {
	from := m.From()
	if m.Promo() != 0 || m.kind() >= kindEP || cs.uncover&(1<<from) != 0 {
		return b.givesCheck(m)
	}
	return cs.direct[int(b.sq[from])-b.stm*6]&(1<<m.To()) != 0
}

// mateInOne finds a move of the winner (to move) that checkmates: only
// the checking moves are made.
func (s *searcher) mateInOne(b *Board) (Move, bool) {
	var l MoveList
	b.pseudo(&l)
	return s.mateAmong(b, l.Moves[:l.N])
}

// mateAmong is mateInOne among b's pseudo-legal moves, already generated.
func (s *searcher) mateAmong(b *Board, moves []Move) (Move, bool) {
	var c Board
	cs := b.checkSquares()
	for _, m := range moves {
		if !b.givesCheckBy(m, &cs) {
			continue
		}
		s.nodes++
		if b.MakeInto(m, &c) && !c.hasLegal() {
			return m, true
		}
	}
	return 0, false
}

// helpmate is a full-width search for a helpmate of at most plies plies
// (the winner making the last move): found with the line (in reverse
// order) appended, or unknown (none this short, or the budget ran out:
// s.aborted). s.short remembers the positions known to have no helpmate of
// that many plies or fewer; the key fixes the side to move, hence the
// parity.
func (s *searcher) helpmate(b *Board, plies int, line *[]Move) int {
	if b.stm == s.winner {
		if m, ok := s.mateInOne(b); ok {
			*line = append(*line, m)
			return found
		}
		if plies <= 1 {
			return unknown
		}
	}
	if d, ok := s.short[b.key]; ok && int(d) >= plies {
		return unknown
	}
	var l MoveList
	b.pseudo(&l)
	var c Board
	for _, m := range l.Moves[:l.N] {
		if !b.MakeInto(m, &c) {
			continue
		}
		if !s.tick() {
			return unknown
		}
		if ok, _ := materialUnwinnable(&c, s.winner); ok {
			continue
		}
		if s.helpmate(&c, plies-1, line) == found {
			*line = append(*line, m)
			return found
		}
		if s.aborted {
			return unknown
		}
	}
	s.short[b.key] = int8(plies)
	return unknown
}

// shortMate looks for the shortest helpmate of at most maxPlies plies by
// iterative deepening (only the depths where the winner makes the last
// move), within budget positions. The line is in playing order.
func (s *searcher) shortMate(b *Board, maxPlies, budget int) ([]Move, bool) {
	saved := s.limit
	s.limit = s.nodes + budget
	s.aborted = false
	defer func() { s.limit, s.aborted = saved, false }()
	if s.short == nil {
		s.short = map[uint64]int8{}
	}
	start := 1
	if b.stm != s.winner {
		start = 2
	}
	var line []Move
	for d := start; d <= maxPlies && !s.aborted; d += 2 {
		line = line[:0]
		if s.helpmate(b, d, &line) == found {
			for i, j := 0, len(line)-1; i < j; i, j = i+1, j-1 {
				line[i], line[j] = line[j], line[i]
			}
			return line, true
		}
	}
	return nil, false
}

// shorten makes a helpmate line shorter: along its positions, a position
// that a later one reaches in one or two plies (its children and, while
// the budget lasts, grandchildren), or from which the winner mates at
// once, is a shortcut. The shortest path over the line and its shortcuts is
// found backwards from the mate (each line position's distance to the mate
// is final before an earlier one looks at it). The result is a helpmate
// too: every step is a legal move and it ends in the mate.
func (s *searcher) shorten(root *Board, line []Move, budget int) []Move {
	n := len(line)
	if n < 3 {
		return line
	}
	start := budget
	pos := make([]Board, n+1)
	pos[0] = *root
	at := make(map[uint64]int, n+1)
	at[root.key] = 0
	for i, m := range line {
		pos[i].MakeInto(m, &pos[i+1])
		at[pos[i+1].key] = i + 1
	}
	toMate := make([]int, n+1)
	via := make([][]Move, n+1) // the first moves of the shortest way on
	next := make([]int, n+1)   // the line position it leads to (n+1: a mate)
	var l, l2 MoveList
	var c, g Board
	for i := n - 1; i >= 0; i-- {
		toMate[i], via[i], next[i] = 1+toMate[i+1], []Move{line[i]}, i+1
		b := &pos[i]
		b.pseudo(&l)
		for _, m := range l.Moves[:l.N] {
			if !b.MakeInto(m, &c) {
				continue
			}
			budget--
			if j, ok := at[c.key]; ok && j > i+1 && 1+toMate[j] < toMate[i] {
				toMate[i], via[i], next[i] = 1+toMate[j], []Move{m}, j
			}
			if b.stm == s.winner && toMate[i] > 1 && c.InCheck() && !c.hasLegal() {
				toMate[i], via[i], next[i] = 1, []Move{m}, n+1
			}
			if toMate[i] <= 2 || budget <= 0 {
				continue
			}
			c.pseudo(&l2)
			for _, m2 := range l2.Moves[:l2.N] {
				if !c.MakeInto(m2, &g) {
					continue
				}
				budget--
				if j, ok := at[g.key]; ok && j > i+2 && 2+toMate[j] < toMate[i] {
					toMate[i], via[i], next[i] = 2+toMate[j], []Move{m, m2}, j
				}
			}
		}
	}
	s.nodes += start - budget
	var out []Move
	for i := 0; i <= n; {
		if i == n {
			break
		}
		out = append(out, via[i]...)
		if next[i] > n {
			break
		}
		i = next[i]
	}
	return out
}
