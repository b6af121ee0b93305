package unwinnable

import "math/bits"

// status of the side to move.
const (
	playing = iota
	mated
	stalemated
)

// hasLegal reports whether the side to move has a legal move (stops at the
// first one found). The moves are told legal without making them (but
// en passant and castling): most positions asked are in check, and
// freeAndEvasions passes over most answers that leave it standing.
func (b *Board) hasLegal() bool {
	if b.kingCanStep() {
		return true
	}
	var l MoveList
	b.pseudo(&l)
	free, evade := b.freeAndEvasions()
	for _, m := range l.Moves[:l.N] {
		if kind := m.kind(); kind == kindEP || kind == kindCastle {
			if b.legalMade(m) {
				return true
			}
		} else if free&(1<<m.From()) != 0 || b.legalAfter(m, evade) {
			return true
		}
	}
	return false
}

// legalMade: whether m is legal, made on a copy to know.
func (b *Board) legalMade(m Move) bool {
	var c Board
	return b.MakeInto(m, &c)
}

// kingCanStep reports whether the king of the side to move can step to a
// square no enemy man attacks (the king itself taken off the board, so it
// does not hide a square behind it from a slider): a legal move, found
// without making one.
func (b *Board) kingCanStep() bool {
	us := b.stm
	k := bits.TrailingZeros64(b.bb[us][King])
	occ := b.all() &^ (uint64(1) << k)
	for t := kingAttacks[k] &^ b.occ[us]; t != 0; t &= t - 1 {
		if !b.attackedWithout(bits.TrailingZeros64(t), 1-us, occ, 0) {
			return true
		}
	}
	return false
}

func (b *Board) status() int {
	if b.hasLegal() {
		return playing
	}
	if b.InCheck() {
		return mated
	}
	return stalemated
}

// searcher holds one analysis' counters and tables.
type searcher struct {
	winner int
	nodes  int
	// proofNodes: positions spent making the helpmate short
	proofNodes int
	limit      int
	aborted    bool
	proven     map[uint64]int16 // proof search: provedNone, or the depth searched without a result
	path       []uint64
	short      map[uint64]int8 // helpmate: no helpmate of at most this many plies
	wDepth     int             // weight of a ply played in the best-first score, in quarters
	wBlock     int             // weight of the loser's men next to its king in score
	far        bool            // score counts the loser's men away from its king
	simplify   bool            // score counts the loser's pieces (wSimplify)
	corners    bool            // score counts the corners of the winner's bishops' colour too where it has pawns and onlyChecksOfOneColour holds
	offer      bool            // score counts offerScore (the loser's pieces to the capture squares of the winner's blocked pawns)
	change     bool            // score counts changeSteps (a pawn of the winner taking onto a file clear ahead)
	partial    bool            // best-first expands a node partially (stops at a child better than it)
	exhausted  bool            // the last best-first search without a ply bound ran out of positions
	stage      string          // the stage running (Result.stage)
	w          weights         // of score
	// noise > 0: the best-first score is 4*score plus a number below
	// noise read from the position's key — another order among
	// near-equal positions (a search of its own, see analyse).
	noise int
	// target: a shape of mate the best-first search steers to
	// (targetScore) instead of score.
	target *matePattern
	// orderKeys: order's scratch keys
	orderKeys [256]uint8
	// touched: the sum of the seen set's slots runBestFirst reads ahead
	// (kept only so that the reads are made)
	touched uint64
	// noDeepen: Options.noDeepen
	noDeepen bool
}

const provedNone = 1 << 14

func (s *searcher) tick() bool {
	s.nodes++
	if s.nodes > s.limit {
		s.aborted = true
	}
	return !s.aborted
}

func (s *searcher) onPath(k uint64) bool {
	for _, p := range s.path {
		if p == k {
			return true
		}
	}
	return false
}

// irreversible: a capture, a pawn move or castling; such a move can be made
// only finitely often, so a search may make it without spending depth.
func (b *Board) irreversible(m Move) bool {
	return b.sq[m.To()] >= 0 || int(b.sq[m.From()])%6 == Pawn || m.kind() == kindCastle
}

// cheb is the king-step (Chebyshev) distance between two squares.
func cheb(a, b int) int { return int(chebDist[a][b]) }

// chebDist: cheb's table (the score and the move order ask it for every
// piece of every position).
var chebDist [64][64]int8

func init() {
	for a := range chebDist {
		for b := range chebDist[a] {
			df, dr := a&7-b&7, a>>3-b>>3
			chebDist[a][b] = int8(max(df, -df, dr, -dr))
		}
	}
}

// cornerDist: king steps to the nearest corner, of any colour, of the
// light ones (h1, a8), of the dark ones (a1, h8).
var cornerDist, lightCornerDist, darkCornerDist [64]int

func init() {
	near := func(s int, corners ...int) int {
		d := 8
		for _, c := range corners {
			if x := cheb(s, c); x < d {
				d = x
			}
		}
		return d
	}
	for s := range cornerDist {
		cornerDist[s] = near(s, 0, 7, 56, 63)
		cornerSteps[s] = int8(cornerDist[s])
		lightCornerDist[s] = near(s, 7, 56)
		darkCornerDist[s] = near(s, 0, 63)
	}
}

// weights of score: the loser king's steps to the corner, the winner
// king's steps beyond two from it, each of the winner's pieces' steps from
// it, a check, each of its flight squares.
type weights struct{ corner, king, piece, check, flight int }

var (
	// greedy: the weights of the first searches (tuned on the reference
	// files), still those of the proof's shortening.
	greedy = weights{corner: 6, king: 2, piece: 1, check: 4, flight: 3}
	// nearMate: the loser's king to the corner and the winner's pieces to
	// it weigh more, its flight squares less (a search is stopped by a
	// flight square less far more often than it is helped). Tuned on every
	// 10th lichess row of unwinnable-chasolver.tsv at 50,000 positions,
	// each search alone: 605 positions a row where it finds the mate
	// (greedy 637), p90 1,022 (1,166), 14 rows of 4,279 not found (22).
	nearMate = weights{corner: 10, king: 2, piece: 2, check: 10, flight: 1}
)

// Weights of score (tuned on the reference files): pawn steps to
// promotion, the loser's men next to its king.
const (
	wPromo = 3
	// wFar, wFarPawn: each of the loser's pieces (pawns) not next to its
	// king. A man away from its king is no blocker and may guard the mating
	// squares; the term draws the loser's men to its king or gets them
	// exchanged. Measured on every 40th lichess row at 50,000 positions:
	// 4 rows undetermined instead of 10 and 10 % fewer positions; 44 of a
	// sample of 63 rows undetermined before are decided.
	wFar     = 3
	wFarPawn = 1
	// farMen: wFar and wFarPawn count only when the position searched has
	// at most this many men (endgames; in a middlegame every man is away
	// from its king and the term only sends the search after exchanges).
	farMen = 24
	// wSimplify: each of the loser's pieces, in the last best-first
	// search: it offers them to the winner's few men (a lone rook or minor
	// piece often mates only once the loser's pieces are gone, its pawns
	// left as blockers). Measured on the 28 lichess rows of a sample (every
	// 10th) undetermined at 50,000 positions: 4 decided, with any weight
	// from 10 to 40.
	wSimplify = 10
)

// score estimates how far b is from a mate by winner (lower is nearer): the
// loser's king near a corner, the winner's men near it, the winner's pawns
// near promotion, the winner's material kept, the loser's men near its
// king.
func (s *searcher) score(b *Board) int {
	return s.scoreChecked(b, b.stm == 1-s.winner && b.InCheck())
}

// scoreChecked is score with check, whether the loser is to move and in
// check, known.
func (s *searcher) scoreChecked(b *Board, check bool) int {
	w, l := &b.bb[s.winner], &b.bb[1-s.winner]
	lk := bits.TrailingZeros64(l[King])
	wk := bits.TrailingZeros64(w[King])
	sc := s.w.corner * cornerDist[lk]
	if s.corners && w[Pawn] != 0 && onlyChecksOfOneColour(b, s.winner) {
		// The offer search, bishops of one colour and pawns on that
		// colour behind the loser's pawns: until a pawn takes, every
		// check is on that colour, and a king in a corner of the other
		// colour is mated only once led out of it. The mean of the
		// steps to the nearest corner and to the nearest of that
		// colour (the colour's steps alone cost rows the nearest
		// corner's order finds: a king beside a corner of the other
		// colour mated by a pawn's check).
		if w[Bishop]&^light == 0 {
			sc = s.w.corner * (cornerDist[lk] + lightCornerDist[lk]) / 2
		} else {
			sc = s.w.corner * (cornerDist[lk] + darkCornerDist[lk]) / 2
		}
	} else if w[Pawn]|w[Knight]|w[Rook]|w[Queen] == 0 {
		// Bishops alone check a cornered king only in the corners of
		// their colour.
		switch {
		case w[Bishop]&^light == 0:
			sc = s.w.corner * lightCornerDist[lk]
		case w[Bishop]&light == 0:
			sc = s.w.corner * darkCornerDist[lk]
		}
	}
	dist := &chebDist[lk]
	d := int(dist[wk]) - 2
	if d < 0 {
		d = 0
	}
	sc += s.w.king * d
	for f := w[Knight] | w[Bishop] | w[Rook] | w[Queen]; f != 0; f &= f - 1 {
		sc += s.w.piece*int(dist[bits.TrailingZeros64(f)]) - 20
	}
	if pawns := w[Pawn]; pawns != 0 {
		sc -= 6 * bits.OnesCount64(pawns)
		if w[Queen]|w[Rook] == 0 {
			// The steps to promotion of the most advanced pawn.
			best := 7 - (63-bits.LeadingZeros64(pawns))>>3
			if s.winner == Black {
				best = bits.TrailingZeros64(pawns) >> 3
			}
			sc += wPromo * best
		}
	}
	// The loser's own men are the blockers of its king's flight squares.
	sc -= s.wBlock * bits.OnesCount64(kingAttacks[lk]&b.occ[1-s.winner])
	if s.far {
		sc += wFar * bits.OnesCount64(b.occ[1-s.winner]&^kingAttacks[lk]&^l[King]&^l[Pawn])
		sc += wFarPawn * bits.OnesCount64(l[Pawn]&^kingAttacks[lk])
	}
	if check {
		sc -= s.w.check
	}
	if s.simplify {
		sc += wSimplify * bits.OnesCount64(l[Knight]|l[Bishop]|l[Rook]|l[Queen])
	}
	if s.offer {
		sc += offerScore(b, s.winner)
	}
	if s.change {
		sc += wChange * changeSteps(b, s.winner)
	}
	return sc
}

// Weights of offerScore: each step of the loser's nearest piece to a
// capture square of the winner's blocked pawns, each step of the winner's
// most advanced free pawn to promotion.
const (
	wOffer = 10
	wFree  = 8
)

// pawnsBehindPawns: the pawns of side c that stand right behind a pawn of
// the other side (blockedPawns without the capture squares).
func pawnsBehindPawns(b *Board, c int) uint64 {
	if c == White {
		return b.bb[c][Pawn] & (b.bb[1-c][Pawn] >> 8)
	}
	return b.bb[c][Pawn] & (b.bb[1-c][Pawn] << 8)
}

// onlyChecksOfOneColour: the winner has bishops and pawns only, its
// bishops all of one colour, and each of its pawns stands on that colour
// right behind a pawn of the loser: until a pawn takes, every check it can
// give is on a square of that colour (a pawn attacks squares of its own
// square's colour). Only an order of the search: no proof depends on it.
func onlyChecksOfOneColour(b *Board, winner int) bool {
	w := &b.bb[winner]
	if w[Knight]|w[Rook]|w[Queen] != 0 || w[Bishop] == 0 || w[Pawn]&^pawnsBehindPawns(b, winner) != 0 {
		return false
	}
	men := w[Bishop] | w[Pawn]
	return men&^light == 0 || men&light == 0
}

// blockedPawns: the pawns of side c that stand right behind a pawn of the
// other side, and the squares on which they capture.
func blockedPawns(b *Board, c int) (blocked, captures uint64) {
	own, other := b.bb[c][Pawn], b.bb[1-c][Pawn]
	if c == White {
		blocked = own & (other >> 8)
		captures = (blocked&^fileA)<<7 | (blocked&^fileH)<<9
	} else {
		blocked = own & (other << 8)
		captures = (blocked&^fileA)>>9 | (blocked&^fileH)>>7
	}
	return blocked, captures
}

// offerScore: how far the sides are from taking apart a chain of the
// winner's blocked pawns (the offer search of the rounds). The steps to
// promotion of the winner's most advanced pawn that no pawn blocks (0 once
// it has a queen, 7 when it has no such pawn); and, while it has none, the
// steps of the loser's nearest piece (pieceSteps) to a capture square of a
// blocked pawn of the winner — a pawn of the loser that no pawn blocks
// counts as the piece it may become, its steps to promotion and one more;
// 8 when no man of the loser can come. A piece offered there and taken
// sets a pawn free, which then runs to promote. Only an order of the
// search: no proof depends on it.
func offerScore(b *Board, winner int) int {
	blocked, captures := blockedPawns(b, winner)
	l := &b.bb[1-winner]
	togo := 7
	if b.bb[winner][Queen] != 0 {
		togo = 0 // promoted
	}
	for f := b.bb[winner][Pawn] &^ blocked; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		t := 7 - q>>3
		if winner == Black {
			t = q >> 3
		}
		if t < togo {
			togo = t
		}
	}
	near := 0
	if captures != 0 && togo == 7 {
		near = 8
		for f := l[Knight] | l[Bishop] | l[Rook] | l[Queen]; f != 0; f &= f - 1 {
			p := bits.TrailingZeros64(f)
			for t := captures; t != 0; t &= t - 1 {
				if d := pieceSteps(int(b.sq[p])%6, 1-winner, p, bits.TrailingZeros64(t)); d < near {
					near = d
				}
			}
		}
		// A pawn of the loser that no pawn blocks may become such a
		// piece: its steps to promotion and one more.
		lb, _ := blockedPawns(b, 1-winner)
		for f := l[Pawn] &^ lb; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			t := q>>3 + 1
			if winner == Black {
				t = 8 - q>>3
			}
			if t < near {
				near = t
			}
		}
	}
	return wOffer*near + wFree*togo
}

// Proof-search outcomes.
const (
	unknown = iota
	found
	none
)

// prove is a shallow full-width search: found when some line reaches a mate
// by winner, none when every line ends (mate of the winner, stalemate) or
// reaches a position the material rule or (with static, at the root and
// after every irreversible move: check) the blocked-pawn analysis proves
// unwinnable, unknown otherwise. Irreversible and forced moves cost no
// depth.
func (s *searcher) prove(b *Board, depth int, static bool, line *[]Move) int {
	return s.proveAt(b, depth, static, true, line)
}

// proveAt is prove at a node: check says whether the blocked-pawn analysis
// is tried here (the root, or the move into it was irreversible). Before,
// it was tried only along lines of irreversible moves from the root:
// after 1...Kd6 2.Bxb7 in B7/1b6/2k5/8/1p1p1p1p/1PpP1P1P/K1P4b/NB6 b (the
// black bishop pinned, White's one move the capture) it proves every line.
func (s *searcher) proveAt(b *Board, depth int, static, check bool, line *[]Move) int {
	if !s.tick() {
		return unknown
	}
	if d, ok := s.proven[b.key]; ok && (d == provedNone || int(d) >= depth) {
		if d == provedNone {
			return none
		}
		return unknown
	}
	if ok, _ := materialUnwinnable(b, s.winner); ok {
		s.proven[b.key] = provedNone
		return none
	}
	if static && check {
		if ok, _ := blockedUnwinnable(b, s.winner); ok {
			s.proven[b.key] = provedNone
			return none
		}
	}
	var l MoveList
	b.Legal(&l)
	if l.N == 0 {
		s.proven[b.key] = provedNone
		return none // mated or stalemated; a mate by winner is caught one ply up
	}
	if depth <= 0 {
		return unknown
	}
	s.path = append(s.path, b.key)
	defer func() { s.path = s.path[:len(s.path)-1] }()
	result := none
	var c Board
	for _, m := range l.Slice() {
		b.MakeInto(m, &c)
		if b.stm == s.winner && c.InCheck() && !c.hasLegal() {
			*line = append(*line, m)
			return found
		}
	}
	for _, m := range l.Slice() {
		b.MakeInto(m, &c)
		if s.onPath(c.key) {
			result = unknown
			continue
		}
		d := depth - 1
		irr := b.irreversible(m)
		if (l.N == 1 || irr) && len(s.path) < 48 {
			d = depth // forced and irreversible moves cost nothing (up to a ply cap)
		}
		switch s.proveAt(&c, d, static, irr, line) {
		case found:
			*line = append(*line, m)
			return found
		case unknown:
			result = unknown
		}
		if s.aborted {
			return unknown
		}
	}
	if result == none {
		s.proven[b.key] = provedNone
	} else {
		s.proven[b.key] = int16(depth)
	}
	return result
}

// exhaust visits every position reachable from b (a reachability search:
// both sides cooperate, so the order of visits does not matter), skipping
// those the material rule or the blocked-pawn analysis proves unwinnable.
// found: a mate by winner, line set; none: every reachable position was
// seen; unknown: the node limit was hit.
//
// A depth-first search whose path can be nearly as long as the positions
// it has seen (a search of 1,000,000 positions had paths of 700,000): a
// frame of the path keeps only the move that led to it and what takes
// that move back (unmake), 32 bytes, in chunks that are never copied; the
// moves of the position at the path's end are generated again when the
// search comes back to it, and the positions seen are kept in an
// open-addressing set. A move counts (tick) when it is legal, in the order
// of the legal moves, as before: exhaustReference in the tests, the former
// search, which kept a Board and a legal-move list a ply in slices that
// grew by copying and a Go map, visits the same positions in the same
// order (its long searches spent most of their time copying the path and
// faulting in fresh memory for it).
func (s *searcher) exhaust(root *Board, line *[]Move) int {
	var x exhaustPath
	var bufs [2]Board
	var lists [2]MoveList
	// cur: the position at the path's end, ml its pseudo-legal moves;
	// next: a move's result, nl its moves, which become cur and ml when
	// it is entered.
	cur, next := &bufs[0], &bufs[1]
	ml, nl := &lists[0], &lists[1]
	*cur = *root
	x.seen.add(root.key)
	cur.pseudo(ml)
	x.push(exhaustFrame{free: cur.free()})
	for {
		f := x.top()
		if int(f.i) == ml.N {
			if x.n == 1 {
				return none
			}
			// Back to the position before.
			cur.unmake(f.m, f.undo)
			x.n--
			cur.pseudo(ml)
			continue
		}
		m := ml.Moves[f.i]
		f.i++
		// Only a legal move counts (the former search made the legal
		// moves only).
		if !cur.makeInto(m, next, f.free&(1<<m.From()) == 0 || m.kind() == kindEP) {
			continue
		}
		if !s.tick() {
			return unknown
		}
		n := next
		if !x.seen.add(n.key) {
			continue
		}
		// The moves of n, generated once for the "has it a legal move?"
		// test and, when it is entered, for its frame.
		n.pseudo(nl)
		free := n.free()
		if !n.kingCanStep() && !anyLegal(n, nl, free) {
			if cur.stm == s.winner && n.InCheck() {
				// The line: the move that led to each frame, then m.
				for i := 1; i < x.n; i++ {
					*line = append(*line, x.frame(i).m)
				}
				*line = append(*line, m)
				return found
			}
			continue
		}
		if ok, _ := materialUnwinnable(n, s.winner); ok {
			continue
		}
		if cur.irreversible(m) {
			if ok, _ := blockedUnwinnable(n, s.winner); ok {
				continue
			}
		}
		x.push(exhaustFrame{m: m, undo: cur.undoOf(m), free: free})
		cur, next = next, cur
		ml, nl = nl, ml
	}
}

// anyLegal reports whether one of the pseudo-legal moves l of b is legal
// (free: b.free()).
func anyLegal(b *Board, l *MoveList, free uint64) bool {
	var c Board
	for _, m := range l.Moves[:l.N] {
		if b.makeInto(m, &c, free&(1<<m.From()) == 0 || m.kind() == kindEP) {
			return true
		}
	}
	return false
}

// exhaustFrame is a position on the exhaustive search's path: the move
// that led to it from the frame before and what takes it back (none at
// the root), the men whose moves need no legality test (Board.free), and
// the index of its next pseudo-legal move.
type exhaustFrame struct {
	undo
	free uint64
	m    Move
	i    int32
}

// exhaustChunk: frames in a chunk of exhaustPath.frames.
const exhaustChunk = 8192

// exhaustPath is the exhaustive search's path, its frames in chunks so
// that a deep path is never copied, and the positions it has seen.
type exhaustPath struct {
	frames [][]exhaustFrame
	n      int
	seen   keySet
}

func (x *exhaustPath) frame(i int) *exhaustFrame {
	return &x.frames[i/exhaustChunk][i%exhaustChunk]
}

func (x *exhaustPath) top() *exhaustFrame { return x.frame(x.n - 1) }

// push puts f at the end of the path.
func (x *exhaustPath) push(f exhaustFrame) {
	if x.n/exhaustChunk == len(x.frames) {
		x.frames = append(x.frames, make([]exhaustFrame, exhaustChunk))
	}
	*x.frame(x.n) = f
	x.n++
}
