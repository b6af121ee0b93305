package unwinnable

import (
	"math/bits"
	"slices"
)

// The deepening search (issue 29): depth-first helpmate searches with
// iterative deepening in which a move's cost in depth depends on what it
// does, each run a while with its own order of the moves, then the next.
//
// A move that brings a mate nearer costs nothing: the winner's captures
// and pawn moves, its king and knights stepping towards the mating corner
// from further than two squares, a bishop of the winner nearing the
// corner's squares from further than two bishop moves (or stepping out of
// the way from beside them: it checks from further off), the loser's
// king, knights and bishops nearing the corner, and the loser's captures
// by a pawn or of a pawn, or of a bishop of the winner's that has more
// than two (issue 29, second part: the others still mate, and a crowd of
// them untangles as the loser's knight or rook eats some; on the 251 rows
// of testdata/generated-hard.tsv 78,061 -> 70,922 positions a row, and the
// two crowds of fresh seeds 31001 and 31010 left undetermined before are
// found, in 129,971 and 41,914). The mating corner is a corner of the colour of
// the winner's bishops where they are all of one colour and the winner has
// no knight, rook or queen (else any corner), each run another, the
// nearest the loser's king first. A capture of a
// winner's piece by a piece of the loser (mating material gone) costs
// deepDear plies, any other move a ply; after a move that cost nothing the
// reply costs nothing either (the loser moves its king to the corner while
// the winner's bishops wait). Each depth may make at most deepCap
// positions a ply of its depth: an iteration that reaches its cap is given
// up and the next begun, so a search dives along the free moves early
// instead of finishing a depth whose free moves alone lead through
// millions of positions.
//
// Which lines a capped iteration reaches depends on the order in which a
// node's moves are tried: so the search is a series of runs of deepRun
// positions each, the first with the moves in the generator's order and
// each one after with another order (shuffled by a seed and the
// position's key: the same each time for the same run and position).
// Measured on 240 generated positions of one side's bishops crowded
// against a queen and rooks (undetermined at the default limit before;
// CHA-Solver finds each): one search of 1,000,000 positions in one order
// found 136, runs of 31,250 positions in 32 orders 235, and with the
// mating corners in turn from run to run 239.
//
// It only finds helpmates: each is a series of legal moves ending in a mate
// by the winner, replayed in the tests. Running out of positions proves
// nothing (the caps leave lines out).

// Costs of a move in the deepening search, in plies of depth.
const (
	deepFree = 0
	deepPly  = 1
	deepDear = 4
	// deepCap: the positions an iteration may make, a ply of its depth.
	deepCap = 3000
	// deepRun: the positions of one run (one order of the moves).
	deepRun = 32_000
	// deepWeight: a position of the deepening search counts as a
	// deepWeight-th of one against the limit (Result.Nodes counts it so
	// too): it costs about a sixth of a best-first search's position (no
	// score, no queue, no arena; measured: 7.5 M positions a second
	// against 1 to 2 M on the same rows), and the limit bounds the work a
	// verdict may take.
	deepWeight = 4
	// deepMaxPly: the longest line looked at.
	deepMaxPly = 200
	// deepMaxDepth: the deepest iteration.
	deepMaxDepth = 127
)

// deepSearch is a deepening search under way: the run with its order of
// the moves, the depth it is at and the positions it has left.
type deepSearch struct {
	s    *searcher
	root *Board
	// seed: the run's order of the moves (0: the generator's).
	seed  uint64
	depth int // the next iteration's depth
	left  int // the run's positions left
	spent int // the positions of all runs (counted as against the limit)
	// raw: the positions made; stop: where the iteration under way
	// stops (its cap), cut: it stopped there.
	raw, stop int
	cut       bool
	table     depthSet
	// corners: the mating corners, runs the number of runs begun; the
	// run's corner, and the bishop moves from each square to it or a
	// square beside it (-1: never).
	corners []int
	runs    int
	corner  int
	bishop  [64]int8
	line    []Move // the moves from the root to the node searched
	found   []Move
}

// startDeep prepares a deepening search from root.
func (s *searcher) startDeep(root *Board) *deepSearch {
	x := &deepSearch{s: s, root: root, corners: deepCorners(root, s.winner)}
	x.begin(0)
	return x
}

// begin starts the run of the given seed; the runs take the mating
// corners in turn, the nearest first.
func (x *deepSearch) begin(seed uint64) {
	x.seed, x.depth, x.left = seed, 1, deepRun
	x.corner = x.corners[x.runs%len(x.corners)]
	x.bishop = bishopStepsTo(x.corner, x.root.bb[White][Pawn]|x.root.bb[Black][Pawn])
	x.runs++
	x.table.reset()
}

// deepCorners is the mating corners: a corner that the winner's king
// stands on or beside last (it keeps the loser's king out of it), then
// the nearest the loser's king first, of corners as near the one farther
// from the winner's king first, then in the order a1, h1, a8, h8. Seed
// 4711's row 2044, a crowd of four dark bishops with their king on a2,
// mates on h8 in 448,957 positions of the search alone against 1,465,225
// with a1 first; seed 5309's row 10460, four dark bishops with their king
// on g8, mates on a1 in 3,552 against none in 4,000,000 with h8 first. The
// corners of the colour of the
// winner's bishops where they are all of one colour and it has no knight,
// rook or queen, else all four.
func deepCorners(b *Board, winner int) []int {
	lk := bits.TrailingZeros64(b.bb[1-winner][King])
	w := &b.bb[winner]
	corners := []int{0, 7, 56, 63}
	if w[Knight]|w[Rook]|w[Queen] == 0 && w[Bishop] != 0 {
		switch {
		case w[Bishop]&^light == 0:
			corners = []int{7, 56}
		case w[Bishop]&light == 0:
			corners = []int{0, 63}
		}
	}
	wk := bits.TrailingZeros64(b.bb[winner][King])
	key := func(a int) int {
		k := cheb(lk, a)*16 - cheb(wk, a)
		if cheb(wk, a) <= 1 {
			k += 256 // the winner's king on the corner or beside it: last
		}
		return k
	}
	slices.SortStableFunc(corners, func(a, c int) int { return key(a) - key(c) })
	return corners
}

// bishopStepsTo is the bishop moves from each square to the corner or a
// square beside it, with walls as walls (-1: never).
func bishopStepsTo(corner int, walls uint64) [64]int8 {
	var d [64]int8
	for i := range d {
		d[i] = -1
	}
	front := (uint64(1)<<corner | kingAttacks[corner]) &^ walls
	seen := front
	for n := int8(0); front != 0; n++ {
		var next uint64
		for f := front; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			d[q] = n
			next |= bishopAttacks(q, walls)
		}
		front = next &^ walls &^ seen
		seen |= front
	}
	return d
}

// release gives the search's table back.
func (x *deepSearch) release() { x.table = depthSet{} }

// run goes on with the search within budget (counted against the
// limit: deepWeight positions a unit): the run under way on from its next
// depth, then runs of new orders. The line found is in playing order.
func (x *deepSearch) run(budget int) ([]Move, bool) {
	s := x.s
	saved := s.limit
	begun := s.nodes
	defer func() { s.limit, s.aborted, x.spent = saved, false, x.spent+s.nodes-begun }()
	s.limit = s.nodes + budget
	s.aborted = false
	for !s.aborted {
		if x.left <= 0 || x.depth > deepMaxDepth {
			x.begin(x.seed + 0x9E3779B97F4A7C15)
		}
		start := x.raw
		x.stop, x.cut = x.raw+min(x.left, x.depth*deepCap), false
		x.line = x.line[:0]
		ok := x.search(x.root, x.depth, false)
		x.left -= x.raw - start
		x.depth++
		if ok {
			return append([]Move(nil), x.found...), true
		}
	}
	return nil, false
}

// tick counts a position made: false when the iteration's cap or the
// limit is reached.
func (x *deepSearch) tick() bool {
	x.raw++
	if x.raw%deepWeight == 0 && !x.s.tick() {
		return false
	}
	if x.raw >= x.stop {
		x.cut = true
	}
	return !x.cut
}

// cost is the depth the move m of b costs.
func (x *deepSearch) cost(b *Board, m Move) int {
	from, to := m.From(), m.To()
	p := int(b.sq[from]) % 6
	capture := b.sq[to] >= 0 || m.kind() == kindEP
	if b.stm == x.s.winner {
		switch {
		case capture, p == Pawn:
			return deepFree
		case p == King, p == Knight:
			if d0, d1 := cheb(from, x.corner), cheb(to, x.corner); d0 > 2 && d1 < d0 {
				return deepFree
			}
		case p == Bishop:
			if d0, d1 := x.bishop[from], x.bishop[to]; d0 > 2 && d1 >= 0 && d1 < d0 || d0 >= 0 && d0 <= 1 && d1 > d0 {
				return deepFree
			}
		}
		return deepPly
	}
	if capture {
		if p == Pawn || int(b.sq[to])%6 == Pawn || m.kind() == kindEP {
			return deepFree
		}
		// A bishop of a crowd of more than two: the others still mate,
		// and fewer of them stand in each other's way (the loser's
		// knight eats the winner's bishops to untangle them).
		if int(b.sq[to])%6 == Bishop && bits.OnesCount64(b.bb[x.s.winner][Bishop]) > 2 {
			return deepFree
		}
		return deepDear
	}
	switch p {
	case King, Knight:
		if cheb(to, x.corner) < cheb(from, x.corner) {
			return deepFree
		}
	case Bishop:
		if d0, d1 := x.bishop[from], x.bishop[to]; d1 >= 0 && (d0 < 0 || d1 < d0) {
			return deepFree
		}
	}
	return deepPly
}

// search looks for a helpmate from b within depth plies of cost; free:
// the move into b cost nothing, so a move that costs a ply costs nothing
// here.
func (x *deepSearch) search(b *Board, depth int, free bool) bool {
	s := x.s
	if len(x.line) >= deepMaxPly || !x.table.deeper(b.key, depth) {
		return false
	}
	var l MoveList
	b.pseudo(&l)
	x.shuffle(b, &l)
	n := l.N
	var c Board
	winnerMoves := b.stm == s.winner
	for _, m := range l.Moves[:n] {
		if !b.makeInto(m, &c, true) {
			continue
		}
		if !x.tick() {
			return false
		}
		if winnerMoves && c.InCheck() && !c.hasLegal() {
			x.found = append(append(x.found[:0], x.line...), m)
			return true
		}
		if w := &c.bb[s.winner]; w[Pawn]|w[Rook]|w[Queen] == 0 {
			if ok, _ := materialUnwinnable(&c, s.winner); ok {
				continue
			}
		}
		cost := x.cost(b, m)
		progress := cost == deepFree
		if cost == deepPly && free {
			cost = deepFree
		}
		if cost > depth {
			continue
		}
		x.line = append(x.line, m)
		ok := x.search(&c, depth-cost, progress)
		x.line = x.line[:len(x.line)-1]
		if ok {
			return true
		}
		if x.cut || s.aborted {
			return false
		}
	}
	return false
}

// shuffle puts b's moves l in the run's order: the generator's (seed 0),
// or shuffled by the seed and the position's key (Fisher-Yates, a linear
// congruential generator's high bits).
func (x *deepSearch) shuffle(b *Board, l *MoveList) {
	if x.seed == 0 {
		return
	}
	h := b.key ^ x.seed
	for i := l.N - 1; i > 0; i-- {
		h = h*6364136223846793005 + 1442695040888963407
		j := int((h >> 33) % uint64(i+1))
		l.Moves[i], l.Moves[j] = l.Moves[j], l.Moves[i]
	}
}

// depthSet keeps, for each position searched, the depth left when it was
// (open addressing; a key's top 56 bits beside the depth plus one in its
// low byte: a position whose top bits match another's may be passed over,
// which only loses a line — the search proves nothing by missing one).
type depthSet struct {
	slots []uint64
	n     int
}

// deeper records that key is searched with depth left, and reports
// whether it was not searched before with at least that much.
func (t *depthSet) deeper(key uint64, depth int) bool {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	tag := key | 0xFF
	mask := uint64(len(t.slots) - 1)
	for i := (tag * 0x9E3779B97F4A7C15) >> 32 & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		switch {
		case v == 0:
			t.slots[i] = tag&^0xFF | uint64(depth+1)
			t.n++
			return true
		case v|0xFF == tag:
			if int(v&0xFF)-1 >= depth {
				return false
			}
			t.slots[i] = tag&^0xFF | uint64(depth+1)
			return true
		}
	}
}

func (t *depthSet) grow() {
	old := t.slots
	size := max(2*len(old), 1<<12)
	t.slots, t.n = make([]uint64, size), 0
	mask := uint64(size - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		for i := ((v | 0xFF) * 0x9E3779B97F4A7C15) >> 32 & mask; ; i = (i + 1) & mask {
			if t.slots[i] == 0 {
				t.slots[i] = v
				t.n++
				break
			}
		}
	}
}

// reset empties the table, keeping its memory.
func (t *depthSet) reset() {
	clear(t.slots)
	t.n = 0
}
