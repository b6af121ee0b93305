package unwinnable

import "container/heap"

// The taking search (issue 29): where stage 4k's men that stand until
// they are taken hold the loser's king (a rook that cannot move beside its
// king, both shut in a corner by the pawns), no mate can come before one
// of them is taken, and the searches of the rounds, scored towards a
// shape of mate the king cannot yet walk to, spend the limit on the
// plateau before it. E.g. B2b4/8/8/4k3/1p1p1p1p/1PpP1P1P/K1P4b/RB3B2 b
// for Black: the white king on a2, the rook on a1 and the bishop on b1
// cannot move until the black bishop from h2 takes the rook (by g1, e3,
// c1, b2); then the king walks a1, b1, c1, its bishops come to b1 and d1,
// and the black bishop mates on c1 from e3 — about 60 plies, which no
// search found within the default limit. So for each such man in turn a
// small best-first search looks for a line in which an enemy man takes
// it (scored by the moves the enemy pieces need to stand on its square,
// the pawns as walls), and the analysis is run again from the position
// after the capture with a share of the limit. Only a helpmate found so
// counts — the line to the capture and the helpmate after it are legal
// moves, replayed like any other; nothing is concluded from a search that
// finds none (one line to one capture says nothing of the others).

// takeBudget: the positions of each search for a capture; takeShare: the
// analysis after it has at most a takeShare-th of the limit.
const (
	takeBudget = 20_000
	takeShare  = 8
)

// takeNode is a position of the search for a capture and how it was
// reached.
type takeNode struct {
	b      Board
	parent int32
	m      Move
	ply    int16
}

// takeEntry is a queued position: its score and its index.
type takeEntry struct {
	score int
	i     int32
}

type takeQueue []takeEntry

func (q takeQueue) Len() int { return len(q) }
func (q takeQueue) Less(i, j int) bool {
	return q[i].score < q[j].score || q[i].score == q[j].score && q[i].i < q[j].i
}
func (q takeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *takeQueue) Push(x any)   { *q = append(*q, x.(takeEntry)) }
func (q *takeQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// takeSteps is the fewest moves an enemy piece (or king) of the man on q
// needs to stand on q, the pawns as walls; noTake when none in sight.
func takeSteps(b *Board, q int, c int) int {
	steps := [64]int8{}
	steps[q] = noTake
	pieces := b.occ[1-c] &^ b.bb[1-c][Pawn]
	pieceStepsTo(b, pieces, b.bb[White][Pawn]|b.bb[Black][Pawn], uint64(1)<<q, &steps)
	return int(steps[q])
}

// noTake: takeSteps' "no enemy piece in sight".
const noTake = maxPieceSteps + 1

// lineToCapture looks, within budget positions, for a line of legal moves
// from b after which the man standing on q now is taken; it returns the
// line and the position after it. A man of the winner's side may be taken
// as well as one of the loser's (either opens the structure).
func (s *searcher) lineToCapture(b *Board, q, budget int) ([]Move, Board, bool) {
	man := b.sq[q]
	c := int(man) / 6
	nodes := []takeNode{{b: *b, parent: -1}}
	seen := map[uint64]bool{b.key: true}
	pq := &takeQueue{{takeSteps(b, q, c) * 4, 0}}
	var l MoveList
	for pq.Len() > 0 && budget > 0 {
		e := heap.Pop(pq).(takeEntry)
		n := nodes[e.i]
		n.b.Legal(&l)
		for _, m := range l.Moves[:l.N] {
			child, _ := n.b.Make(m)
			if !seen[child.key] {
				seen[child.key] = true
				budget--
				s.nodes++
				if child.sq[q] != man || child.bb[c][int(man)%6]&(uint64(1)<<q) == 0 {
					line := []Move{m}
					for i := e.i; nodes[i].parent >= 0; i = nodes[i].parent {
						line = append(line, nodes[i].m)
					}
					for i, j := 0, len(line)-1; i < j; i, j = i+1, j-1 {
						line[i], line[j] = line[j], line[i]
					}
					return line, child, true
				}
				if child.status() != playing {
					continue
				}
				nodes = append(nodes, takeNode{b: child, parent: e.i, m: m, ply: n.ply + 1})
				heap.Push(pq, takeEntry{takeSteps(&child, q, c)*4 + int(n.ply+1), int32(len(nodes) - 1)})
			}
		}
	}
	return nil, Board{}, false
}

// takeThenMate tries the men on men in turn: a line to its capture, then
// the analysis from the position after it within a share of what is left
// (at most limit positions in all); it returns a helpmate from b.
func (s *searcher) takeThenMate(b *Board, men []int, limit int) ([]Move, bool) {
	for _, q := range men {
		if limit <= 0 {
			break
		}
		n := s.nodes
		line, after, ok := s.lineToCapture(b, q, min(takeBudget, limit))
		limit -= s.nodes - n
		if !ok || limit <= 0 {
			continue
		}
		r := AnalyseWith(&after, s.winner, Options{Limit: limit, noDeepen: s.noDeepen})
		s.nodes += r.Nodes
		limit -= r.Nodes
		if r.Verdict != Winnable {
			continue
		}
		if rest, ok := movesOf(&after, r.Line); ok {
			return append(line, rest...), true
		}
	}
	return nil, false
}

// movesOf reads a line of UCI moves from b.
func movesOf(b *Board, line []string) ([]Move, bool) {
	x := *b
	out := make([]Move, 0, len(line))
	var l MoveList
	for _, u := range line {
		x.Legal(&l)
		found := false
		for _, m := range l.Moves[:l.N] {
			if m.UCI() == u {
				out = append(out, m)
				x, _ = x.Make(m)
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return out, true
}
