package unwinnable

import (
	"math/bits"
	"sync"
)

// node of the best-first search: a position (packed), how it was reached.
type bfNode struct {
	b      packedBoard
	parent int32
	m      Move
	ply    int32
	// next: the index of the first move not yet made from this node
	// (partial expansion).
	next int32
	// moves: where the node's moves, in the order they are made, start
	// in the arena's moves (chunk<<16 | offset; -1: not generated yet);
	// nmoves: how many (at most 256).
	moves  int32
	nmoves int16
	// mateless: the node's moves were searched for a mate in one
	// (mateAmong) and none mates: its children need not be tested.
	mateless bool
}

// packedBoard is a Board as the best-first search keeps it in its
// arena: the pieces, the key and the small fields, without the occupancy
// and the mailbox, which unpack computes again from the pieces (120 bytes
// instead of 216: a search of 2,000,000 positions holds about 300 MB
// less, and writes and reads less memory for each position).
type packedBoard struct {
	bb         [2][6]uint64
	key        uint64
	half, full int32
	stm        uint8
	castle     uint8
	ep         int8
}

// pack keeps b in p.
func (p *packedBoard) pack(b *Board) {
	p.bb, p.key = b.bb, b.key
	p.half, p.full = int32(b.half), int32(b.full)
	p.stm, p.castle, p.ep = uint8(b.stm), b.castle, b.ep
}

// emptySquares: a mailbox with no piece.
var emptySquares = func() (sq [64]int8) {
	for i := range sq {
		sq[i] = -1
	}
	return
}()

// unpack writes the position p keeps into b.
func (p *packedBoard) unpack(b *Board) {
	b.bb, b.key = p.bb, p.key
	b.half, b.full = int(p.half), int(p.full)
	b.stm, b.castle, b.ep = int(p.stm), p.castle, p.ep
	b.sq = emptySquares
	for c := 0; c < 2; c++ {
		var o uint64
		for t := Pawn; t <= King; t++ {
			o |= p.bb[c][t]
			for f := p.bb[c][t]; f != 0; f &= f - 1 {
				b.sq[bits.TrailingZeros64(f)] = int8(c*6 + t)
			}
		}
		b.occ[c] = o
	}
}

// bfChunk nodes are kept in chunks, so that a growing search never copies
// the positions it holds.
const bfChunk = 512

type bfArena struct {
	chunks [][]bfNode
	n      int
	heap   bfHeap
	seen   keySet
	// moves: the moves of the nodes expanded so far, each node's in
	// order, generated once: a node taken from the queue again (partial
	// expansion) goes on where it stopped. Kept in chunks of
	// bfMoveChunk (a node's moves within one), filled up to mcur, so
	// that a growing search never copies them.
	moves [][]Move
	mcur  int
}

// arenas keeps arenas for reuse: a search starts without allocating.
var arenas = sync.Pool{New: func() any { return &bfArena{} }}

// keySet is a set of Zobrist keys by open addressing (linear probing in a
// table of a power of two, at most half full): several times faster than a
// Go map on the best-first search's hottest question, "seen before?". The
// key 0 stands for an empty slot and is kept aside.
type keySet struct {
	slots []uint64
	n     int
	zero  bool
}

// add inserts k and reports whether it was new.
func (s *keySet) add(k uint64) bool {
	if k == 0 {
		had := s.zero
		s.zero = true
		return !had
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := (k * 0x9E3779B97F4A7C15) >> 32 & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return false
		case 0:
			s.slots[i] = k
			s.n++
			return true
		}
	}
}

// has reports whether k is in the set.
func (s *keySet) has(k uint64) bool {
	if k == 0 {
		return s.zero
	}
	if len(s.slots) == 0 {
		return false
	}
	mask := uint64(len(s.slots) - 1)
	for i := (k * 0x9E3779B97F4A7C15) >> 32 & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

// touch reads the slot where a search for k starts and returns it: asked
// for the keys of all of a node's moves in a row, before any is looked
// up, the reads of a large table (nearly all cache misses) overlap
// instead of waiting one after the other.
func (s *keySet) touch(k uint64) uint64 {
	if len(s.slots) == 0 {
		return 0
	}
	return s.slots[(k*0x9E3779B97F4A7C15)>>32&uint64(len(s.slots)-1)]
}

func (s *keySet) grow() {
	old := s.slots
	size := 2 * len(old)
	if size < 1024 {
		size = 1024
	}
	s.slots, s.n = make([]uint64, size), 0
	for _, k := range old {
		if k != 0 {
			s.add(k)
		}
	}
}

// reset empties the set, keeping its table unless it grew large or the
// last use filled little of it (clearing a large table for the few
// hundred positions most searches make would cost more than they do).
func (s *keySet) reset() {
	if len(s.slots) > 1<<17 || len(s.slots) > 1<<12 && 16*s.n < len(s.slots) {
		s.slots = nil
	} else {
		clear(s.slots)
	}
	s.n, s.zero = 0, false
}

// reset empties the arena, keeping its chunks' memory up to about
// 2,000,000 nodes and 64 million moves (a long analysis runs many
// searches one after the other, the rounds up to the limit: they reuse
// it instead of asking the runtime, and the system, for fresh memory
// each time, and the memory a search leaves is not garbage).
func (a *bfArena) reset() {
	for i := range a.chunks {
		a.chunks[i] = a.chunks[i][:0]
	}
	if len(a.chunks) > 4096 {
		clear(a.chunks[4096:])
		a.chunks = a.chunks[:4096]
	}
	a.n = 0
	a.heap = a.heap[:0]
	for i := range a.moves {
		a.moves[i] = a.moves[i][:0]
	}
	if len(a.moves) > 1024 {
		clear(a.moves[1024:])
		a.moves = a.moves[:1024]
	}
	a.mcur = 0
	a.seen.reset()
}

// bfMoveChunk: moves in a chunk of the arena's moves.
const bfMoveChunk = 1 << 16

// bfFirstMoveChunk: moves in an arena's first chunk of moves; each chunk
// after it holds twice as many as the one before, up to bfMoveChunk (the
// rounds keep several searches, each with an arena, at once: most of them
// make few moves).
const bfFirstMoveChunk = 1 << 12

// keepMoves makes room for n moves (at most 256) in the arena: where
// (bfNode.moves), and the room, for the moves to be written into.
func (a *bfArena) keepMoves(n int) (int32, []Move) {
	if a.mcur < len(a.moves) && len(a.moves[a.mcur])+n > cap(a.moves[a.mcur]) {
		a.mcur++
	}
	if a.mcur == len(a.moves) {
		size := bfFirstMoveChunk
		if a.mcur > 0 {
			size = min(bfMoveChunk, 2*cap(a.moves[a.mcur-1]))
		}
		a.moves = append(a.moves, make([]Move, 0, size))
	}
	c := &a.moves[a.mcur]
	at := len(*c)
	*c = (*c)[:at+n]
	return int32(a.mcur<<16 | at), (*c)[at : at+n]
}

// movesOf is the moves node n keeps.
func (a *bfArena) movesOf(n *bfNode) []Move {
	c, off := n.moves>>16, n.moves&(1<<16-1)
	return a.moves[c][off : off+int32(n.nmoves)]
}

func (a *bfArena) at(i int32) *bfNode { return &a.chunks[i/bfChunk][i%bfChunk] }

// next is the slot the next node will take; add keeps it.
func (a *bfArena) next() *bfNode {
	c := a.n / bfChunk
	if c == len(a.chunks) {
		a.chunks = append(a.chunks, make([]bfNode, bfChunk))
	} else if len(a.chunks[c]) < bfChunk {
		a.chunks[c] = a.chunks[c][:bfChunk]
	}
	return &a.chunks[c][a.n%bfChunk]
}

// add keeps the position b in the next slot, with how it was reached.
func (a *bfArena) add(b *Board, parent int32, m Move, ply int32) int32 {
	n := a.next()
	n.b.pack(b)
	n.parent, n.m, n.ply, n.next, n.moves, n.mateless = parent, m, ply, 0, -1, false
	a.n++
	return int32(a.n - 1)
}

// bfHeap is a 4-ary min-heap of entries score<<32 | (^index): the lowest
// score first, the newest (deepest) among equals. (The entries are
// distinct, so any heap takes them out in the same order; four children
// a node, side by side in memory, halve the levels a large queue's pop
// passes through.)
type bfHeap []uint64

func bfEntry(score int, i int32) uint64 {
	return uint64(uint32(score+1<<30))<<32 | uint64(^uint32(i))
}

func (h *bfHeap) push(e uint64) {
	*h = append(*h, e)
	q := *h
	for j := len(q) - 1; j > 0; {
		p := (j - 1) / 4
		if q[p] <= q[j] {
			break
		}
		q[p], q[j] = q[j], q[p]
		j = p
	}
}

// popEntry takes the entry of lowest score off the heap: its score and
// its node.
func (h *bfHeap) popEntry() (int, int32) {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	for j := 0; ; {
		c := 4*j + 1
		if c >= n {
			break
		}
		for d, e := c+1, min(c+4, n); d < e; d++ {
			if q[d] < q[c] {
				c = d
			}
		}
		if q[j] <= q[c] {
			break
		}
		q[j], q[c] = q[c], q[j]
		j = c
	}
	*h = q
	return int(uint32(top>>32)) - 1<<30, int32(^uint32(top))
}

// order sorts the moves l of b into out so that those likely to bring a
// mate nearer come first (the partial expansion of bestFirst stops at the
// first child better than its parent): the loser's king towards a corner,
// the other men but pawns towards the loser's king (the winner's attack
// it, the loser's block its flight squares). A stable sort on a small
// key, so the order is the same each time a node's moves are generated.
func (s *searcher) order(b *Board, l *MoveList, out []Move) {
	lk := bits.TrailingZeros64(b.bb[1-s.winner][King])
	// A key is a change of distance, -7 to 7: a counting sort by key + 7.
	// (keys: the searcher's scratch, not cleared: each is written first.)
	keys := &s.orderKeys
	var count [16]int32
	// steps[p]: the distances a man of type p is keyed by (none for a
	// pawn): to the loser's king, or for the loser's king to a corner.
	dist := &chebDist[lk]
	steps := [King + 1]*[64]int8{&noSteps, dist, dist, dist, dist, dist}
	if b.stm != s.winner {
		steps[King] = &cornerSteps
	}
	own := int8(b.stm * 6)
	for k, m := range l.Moves[:l.N] {
		from, to := m.From(), m.To()
		row := steps[b.sq[from]-own]
		key := 7 + int(row[to]) - int(row[from])
		keys[k] = uint8(key)
		count[key&15]++
	}
	// Where each key's moves start: the sum runs in a register.
	var sum int32
	for i, c := range count {
		count[i] = sum
		sum += c
	}
	out = out[:l.N]
	for k, m := range l.Moves[:l.N] {
		key := keys[k] & 15
		out[count[key]] = m
		count[key]++
	}
}

// noSteps, cornerSteps: order's distances for a pawn (none) and for the
// loser's king (cornerDist, filled with it).
var noSteps, cornerSteps [64]int8

// lineTo is the line of moves from the root to node i.
func (a *bfArena) lineTo(i int32) []Move {
	var line []Move
	for j := i; a.at(j).parent >= 0; j = a.at(j).parent {
		line = append(line, a.at(j).m)
	}
	for x, y := 0, len(line)-1; x < y; x, y = x+1, y-1 {
		line[x], line[y] = line[y], line[x]
	}
	return line
}

// flights counts the squares the loser's king could step to: not its own
// men's, not attacked by the winner (the king itself taken off the board,
// so it hides no square behind it). Few flights: near a mate. The attacks
// are taken off the ring of squares piece by piece, a slider's only when
// one of its lines crosses the ring.
func (s *searcher) flights(b *Board) int {
	l := 1 - s.winner
	lk := bits.TrailingZeros64(b.bb[l][King])
	ring := kingAttacks[lk] &^ b.occ[l]
	w := &b.bb[s.winner]
	if s.winner == White {
		ring &^= (w[Pawn]<<7)&^fileH | (w[Pawn]<<9)&^fileA
	} else {
		ring &^= (w[Pawn]>>9)&^fileH | (w[Pawn]>>7)&^fileA
	}
	ring &^= kingAttacks[bits.TrailingZeros64(w[King])]
	for f := w[Knight]; f != 0 && ring != 0; f &= f - 1 {
		ring &^= knightAttacks[bits.TrailingZeros64(f)]
	}
	occ := b.all() &^ b.bb[l][King]
	for f := w[Bishop] | w[Queen]; f != 0 && ring != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		if (lineMask[2][q]|lineMask[3][q])&ring != 0 {
			ring &^= bishopAttacks(q, occ)
		}
	}
	for f := w[Rook] | w[Queen]; f != 0 && ring != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		if (lineMask[0][q]|lineMask[1][q])&ring != 0 {
			ring &^= rookAttacks(q, occ)
		}
	}
	return bits.OnesCount64(ring)
}

// bestFirst is a greedy best-first search for a helpmate: the position of
// lowest score is expanded next, each position once. It returns the line
// in playing order. With maxPly > 0 only helpmates of at most maxPly
// plies are looked for; s.wDepth adds the plies played to the score.
// Without, s.exhausted reports a queue run empty: every position reachable
// from root through positions the material rule does not prove
// unwinnable was made, and none was a mate by the winner.
func (s *searcher) bestFirst(root *Board, budget, maxPly int) ([]Move, bool) {
	x := startBestFirst(root, maxPly)
	defer x.release()
	return s.runBestFirst(x, budget)
}

// bfSearch is a best-first search under way: run on with more positions,
// it goes on where it stopped.
type bfSearch struct {
	nodes  *bfArena
	maxPly int
	spent  int // the budget spent in all runs
}

// startBestFirst begins a best-first search from root (its queue holds
// the root); release gives its memory back.
func startBestFirst(root *Board, maxPly int) *bfSearch {
	nodes := arenas.Get().(*bfArena)
	nodes.reset()
	nodes.add(root, -1, 0, 0)
	nodes.heap.push(bfEntry(0, 0))
	nodes.seen.add(root.key)
	return &bfSearch{nodes: nodes, maxPly: maxPly}
}

func (x *bfSearch) release() {
	if x.nodes != nil {
		arenas.Put(x.nodes)
		x.nodes = nil
	}
}

// runBestFirst runs the search x on with at most budget more positions
// (the score's weights are the searcher's: keep them between runs).
//
// It stays one loop (the 6.9 analyser's search loops may exceed 100
// lines, issue 25): select, expand and back up share the arena, the path
// and the budget, and this is the search's hot path.
func (s *searcher) runBestFirst(x *bfSearch, budget int) ([]Move, bool) {
	nodes, maxPly := x.nodes, x.maxPly
	q := &nodes.heap
	seen := &nodes.seen
	var l MoveList
	// b: the position taken from the queue, unpacked; c: its child,
	// made there and packed into the arena when kept.
	var boards [2]Board
	b, c := &boards[0], &boards[1]
	// pending: a child better than its parent at which an expansion
	// stopped (-1: none), and its score. It is better than every entry
	// of the queue (the parent was the best, and its other children
	// kept are no better than it), so the queue would give it next: it
	// is taken at once instead, its position still in c.
	pending, pendingScore := int32(-1), 0
	tempo := s.target != nil && s.target.tempo != 0
	var keys [256]uint64
	var known [256]bool
	defer func(b int) {
		s.exhausted = maxPly == 0 && len(*q) == 0 && (s.target == nil || s.target.tempo == 0)
		x.spent += b - budget
	}(budget)
	for (pending >= 0 || len(*q) > 0) && budget > 0 {
		var parentScore int
		var i int32
		if pending >= 0 {
			parentScore, i, pending = pendingScore, pending, -1
			b, c = c, b
		} else {
			parentScore, i = q.popEntry()
			nodes.at(i).b.unpack(b)
		}
		node := nodes.at(i)
		first := node.next
		if node.moves < 0 {
			b.pseudo(&l)
			at, ms := nodes.keepMoves(l.N)
			if s.partial {
				s.order(b, &l, ms)
			} else {
				copy(ms, l.Moves[:l.N])
			}
			node.moves, node.nmoves = at, int16(l.N)
			if s.partial && b.stm == s.winner && (maxPly == 0 || int(node.ply) < maxPly) {
				// A mate in one is looked for among the checking
				// moves before any child is made.
				if m, ok := s.mateAmong(b, ms); ok {
					return append(nodes.lineTo(i), m), true
				}
				node.mateless = true
			}
		}
		moves := nodes.movesOf(node)
		// (The node stays where it is while children are added: the
		// arena's chunks never move.)
		ply := node.ply + 1
		winnerMoved := b.stm == s.winner
		free, evade := b.freeAndEvasions()
		// In a large search (a seen set of more than 64,000 keys, far
		// beyond the caches) the keys of the positions the moves lead to
		// are computed from the moves (known false: made to know), and
		// the seen set's slots for them read all at once; a small one
		// makes its moves as they come (the partial expansion makes few
		// of them, and the set is in the cache).
		pre := !tempo && len(seen.slots) >= 1<<17
		if pre {
			var t uint64
			for k := int(first); k < len(moves); k++ {
				keys[k], known[k] = b.keyAfter(moves[k])
				t += seen.touch(keys[k])
			}
			s.touched += t
		}
		for k := int(first); k < len(moves); k++ {
			m := moves[k]
			// A position seen before is passed over without making the
			// move (most of a long search's moves lead to one). (Seen
			// before, the move is left out whether it is legal or not.)
			if pre && known[k] && seen.has(keys[k]) {
				continue
			}
			// The move is made into c, kept only if the position is
			// legal, new and worth expanding. A move not known legal
			// (not from a free square) is tested before it is made,
			// but en passant and castling (rare), tested made.
			test := free&(1<<m.From()) == 0
			if kind := m.kind(); kind == kindEP || kind == kindCastle {
				test = true
			} else if test {
				if !b.legalAfter(m, evade) {
					continue
				}
				test = false
			}
			if !b.makeInto(m, c, test) {
				continue
			}
			key := c.key
			if tempo {
				key = tempoKey(c, s.target.tempo)
			}
			if !seen.add(key) {
				continue
			}
			budget--
			s.nodes++
			if maxPly > 0 && int(ply) > maxPly {
				continue
			}
			// check: the loser in check (asked once, for the mate and
			// for the score).
			check := winnerMoved && c.InCheck()
			if check && !node.mateless && !c.hasLegal() {
				return append(nodes.lineTo(i), m), true
			}
			if maxPly > 0 && int(ply) >= maxPly {
				continue // no room left for the mate
			}
			// (A winner with a pawn, a rook or a queen is never
			// short of material: the rule is not asked.)
			if w := &c.bb[s.winner]; w[Pawn]|w[Rook]|w[Queen] == 0 {
				if ok, _ := materialUnwinnable(c, s.winner); ok {
					continue
				}
			}
			var sc int
			if s.target != nil {
				sc = s.targetScore(c) + int(ply)*s.wDepth/4
			} else {
				sc = s.scoreChecked(c, check) + s.w.flight*s.flights(c) + int(ply)*s.wDepth/4
			}
			if s.noise > 0 {
				sc = 4*sc + int(c.key>>60)%s.noise
			}
			child := nodes.add(c, i, m, ply)
			if s.partial && sc < parentScore && k+1 < len(moves) {
				// Partial expansion: a child better than its parent
				// is looked at first; the parent's other moves wait
				// in the queue at the parent's score.
				node.next = int32(k + 1)
				q.push(bfEntry(parentScore, i))
				pending, pendingScore = child, sc
				break
			}
			q.push(bfEntry(sc, child))
		}
	}
	if pending >= 0 {
		q.push(bfEntry(pendingScore, pending)) // where a later run finds it
	}
	return nil, false
}
