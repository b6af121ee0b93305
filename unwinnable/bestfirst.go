package unwinnable

import (
	"container/heap"
	"math/bits"
)

// node of the best-first search: a position, how it was reached, its score.
type bfNode struct {
	b      Board
	parent int32
	m      Move
	score  int32
	ply    int32
}

type bfQueue struct {
	idx   []int32
	nodes *[]bfNode
}

func (q bfQueue) Len() int { return len(q.idx) }
func (q bfQueue) Less(i, j int) bool {
	a, b := (*q.nodes)[q.idx[i]].score, (*q.nodes)[q.idx[j]].score
	if a != b {
		return a < b
	}
	return q.idx[i] > q.idx[j] // deeper (newer) first among equals
}
func (q bfQueue) Swap(i, j int) { q.idx[i], q.idx[j] = q.idx[j], q.idx[i] }
func (q *bfQueue) Push(x any)   { q.idx = append(q.idx, x.(int32)) }
func (q *bfQueue) Pop() any {
	n := len(q.idx) - 1
	x := q.idx[n]
	q.idx = q.idx[:n]
	return x
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
	nodes := []bfNode{{b: *root, parent: -1}}
	q := &bfQueue{nodes: &nodes}
	heap.Push(q, int32(0))
	seen := map[uint64]bool{root.key: true}
	var l MoveList
	for q.Len() > 0 && budget > 0 {
		i := heap.Pop(q).(int32)
		b := nodes[i].b
		b.pseudo(&l)
		for _, m := range l.Moves[:l.N] {
			var c Board
			if !b.MakeInto(m, &c) || seen[c.key] {
				continue
			}
			seen[c.key] = true
			budget--
			s.nodes++
			ply := nodes[i].ply + 1
			if maxPly > 0 && int(ply) > maxPly {
				continue
			}
			winnerMoved := b.stm == s.winner
			if winnerMoved && c.InCheck() && !c.hasLegal() {
				line := []Move{m}
				for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
					line = append(line, nodes[j].m)
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
			nodes = append(nodes, bfNode{b: c, parent: i, m: m, score: int32(sc), ply: ply})
			heap.Push(q, int32(len(nodes)-1))
		}
	}
	return nil, false
}
