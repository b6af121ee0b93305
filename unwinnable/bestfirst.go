package unwinnable

import (
	"math/bits"
	"sync"
)

// node of the best-first search: a position, how it was reached.
type bfNode struct {
	b      Board
	parent int32
	m      Move
	ply    int32
}

// bfChunk nodes are kept in chunks, so that a growing search never copies
// the positions it holds.
const bfChunk = 512

type bfArena struct {
	chunks [][]bfNode
	n      int
	heap   bfHeap
	seen   map[uint64]bool
}

// arenas keeps arenas for reuse: a search starts without allocating.
var arenas = sync.Pool{New: func() any { return &bfArena{seen: map[uint64]bool{}} }}

// reset empties the arena, keeping its first chunks' memory.
func (a *bfArena) reset() {
	for i := range a.chunks {
		a.chunks[i] = a.chunks[i][:0]
	}
	if len(a.chunks) > 16 {
		a.chunks = a.chunks[:16]
	}
	a.n = 0
	a.heap = a.heap[:0]
	if len(a.seen) > 1<<16 {
		a.seen = map[uint64]bool{}
	} else {
		clear(a.seen)
	}
}

func (a *bfArena) at(i int32) *bfNode { return &a.chunks[i/bfChunk][i%bfChunk] }

func (a *bfArena) add(n bfNode) int32 {
	c := a.n / bfChunk
	if c == len(a.chunks) {
		a.chunks = append(a.chunks, make([]bfNode, 0, bfChunk))
	}
	a.chunks[c] = append(a.chunks[c], n)
	a.n++
	return int32(a.n - 1)
}

// bfHeap is a binary min-heap of entries score<<32 | (^index): the lowest
// score first, the newest (deepest) among equals.
type bfHeap []uint64

func bfEntry(score int, i int32) uint64 {
	return uint64(uint32(score+1<<30))<<32 | uint64(^uint32(i))
}

func (h *bfHeap) push(e uint64) {
	*h = append(*h, e)
	q := *h
	for j := len(q) - 1; j > 0; {
		p := (j - 1) / 2
		if q[p] <= q[j] {
			break
		}
		q[p], q[j] = q[j], q[p]
		j = p
	}
}

func (h *bfHeap) pop() int32 {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	for j := 0; ; {
		c := 2*j + 1
		if c >= n {
			break
		}
		if c+1 < n && q[c+1] < q[c] {
			c++
		}
		if q[j] <= q[c] {
			break
		}
		q[j], q[c] = q[c], q[j]
		j = c
	}
	*h = q
	return int32(^uint32(top))
}

// flights counts the squares the loser's king could step to: not its own
// men's, not attacked by the winner. Few flights: near a mate.
func (s *searcher) flights(b *Board) int {
	l := 1 - s.winner
	lk := bits.TrailingZeros64(b.bb[l][King])
	n := 0
	occ := b.all() &^ b.bb[l][King]
	for t := kingAttacks[lk] &^ b.occ[l]; t != 0; t &= t - 1 {
		if b.attackersOf(bits.TrailingZeros64(t), s.winner, occ) == 0 {
			n++
		}
	}
	return n
}

// bestFirst is a greedy best-first search for a helpmate: the position of
// lowest score is expanded next, each position once. It returns the line
// in playing order. With maxPly > 0 only helpmates of at most maxPly
// plies are looked for; s.wDepth adds the plies played to the score.
func (s *searcher) bestFirst(root *Board, budget, maxPly int) ([]Move, bool) {
	nodes := arenas.Get().(*bfArena)
	nodes.reset()
	defer arenas.Put(nodes)
	nodes.add(bfNode{b: *root, parent: -1})
	q := &nodes.heap
	q.push(bfEntry(0, 0))
	seen := nodes.seen
	seen[root.key] = true
	var l MoveList
	for len(*q) > 0 && budget > 0 {
		i := q.pop()
		b := &nodes.at(i).b
		b.pseudo(&l)
		for _, m := range l.Moves[:l.N] {
			var c Board
			if !b.MakeInto(m, &c) || seen[c.key] {
				continue
			}
			seen[c.key] = true
			budget--
			s.nodes++
			ply := nodes.at(i).ply + 1
			if maxPly > 0 && int(ply) > maxPly {
				continue
			}
			winnerMoved := b.stm == s.winner
			if winnerMoved && c.InCheck() && !c.hasLegal() {
				line := []Move{m}
				for j := i; nodes.at(j).parent >= 0; j = nodes.at(j).parent {
					line = append(line, nodes.at(j).m)
				}
				for x, y := 0, len(line)-1; x < y; x, y = x+1, y-1 {
					line[x], line[y] = line[y], line[x]
				}
				return line, true
			}
			if maxPly > 0 && int(ply) >= maxPly {
				continue // no room left for the mate
			}
			if ok, _ := materialUnwinnable(&c, s.winner); ok {
				continue
			}
			sc := s.score(&c) + wFlight*s.flights(&c) + int(ply)*s.wDepth/4
			q.push(bfEntry(sc, nodes.add(bfNode{b: c, parent: i, m: m, ply: ply})))
		}
	}
	return nil, false
}
