package unwinnable

import (
	"slices"
	"testing"
)

// exhaustReference is the exhaustive search as it was before its path was
// kept packed and in chunks (a full Board and a legal-move list a ply in
// growing slices, a Go map of the positions seen): exhaust must visit the
// same positions in the same order (TestTheExhaustiveSearchVisitsWhatItVisitedBefore).
func (s *searcher) exhaustReference(root *Board, line *[]Move) int {
	// A frame is a position on the path with its legal moves, kept in one
	// shared slice (moves[lo:hi], the next at i): a deep path costs a
	// board and its few moves a ply, not a full move list.
	type frame struct {
		b         Board
		lo, i, hi int
	}
	var moves []Move
	var l MoveList
	push := func(stack []frame, b *Board) []frame {
		b.Legal(&l)
		lo := len(moves)
		moves = append(moves, l.Moves[:l.N]...)
		return append(stack, frame{b: *b, lo: lo, i: lo, hi: len(moves)})
	}
	seen := map[uint64]bool{root.key: true}
	stack := push(nil, root)
	var n Board
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i == f.hi {
			moves = moves[:f.lo]
			stack = stack[:len(stack)-1]
			continue
		}
		m := moves[f.i]
		f.i++
		if !s.tick() {
			return unknown
		}
		f.b.MakeInto(m, &n)
		if seen[n.key] {
			continue
		}
		seen[n.key] = true
		if !n.hasLegal() {
			if f.b.stm == s.winner && n.InCheck() {
				// the line: the move that led from each frame, then m
				for i := 0; i < len(stack)-1; i++ {
					*line = append(*line, moves[stack[i].i-1])
				}
				*line = append(*line, m)
				return found
			}
			continue
		}
		if ok, _ := materialUnwinnable(&n, s.winner); ok {
			continue
		}
		if f.b.irreversible(m) {
			if ok, _ := blockedUnwinnable(&n, s.winner); ok {
				continue
			}
		}
		stack = push(stack, &n)
	}
	return none
}

// The exhaustive search keeps its path packed and in chunks and tests a
// move's legality only where it can fail: it must visit the same positions
// in the same order as the search it replaced (exhaustReference), so give
// the same outcome after the same count of positions and the same line.
func TestTheExhaustiveSearchVisitsWhatItVisitedBefore(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		winner    int
		limit     int
	}{
		{"a lone bishop behind a chain: the limit is reached deep in the path", "3k4/4b3/3bB3/p1pBp1p1/P1PbP1P1/4b3/4B3/3K1B2 b - - 0 1", White, 60_000},
		{"bishops of one colour against a locked chain", "k1b1b3/8/8/1pBpBpBp/1PbPbPbP/8/8/K1B1B3 w - - 0 1", White, 60_000},
		{"a king held by its own pawn", "Bk6/2b4B/3b2B1/5B2/4B3/p1pB1B2/PpP1B3/1K6 w - - 0 1", White, 60_000},
		{"rooks and a queen against bishops", "4k3/1b1rqr1b/2b3b1/8/3B4/B1B1B3/1B1B1B2/1KB1B3 w - - 0 1", White, 60_000},
		{"a mate behind a locked chain", "k7/8/8/1p1p1p1p/1P1P1P1P/8/8/K5QR w - - 0 1", White, 200_000},
		{"a closed position that runs out of positions", "k7/8/8/1p1p1p1p/1P1P1P1P/8/8/K7 w - - 0 1", White, 200_000},
		{"castling and en passant", "r3k3/8/8/1p1p1p1p/1P1P1P1P/8/8/R3K3 w Qq - 0 1", Black, 200_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			run := func(f func(*searcher, *Board, *[]Move) int) (int, int, []Move) {
				s := &searcher{winner: tc.winner, limit: tc.limit, proven: map[uint64]int16{}}
				var line []Move
				r := f(s, b, &line)
				return r, s.nodes, line
			}
			got, gotN, gotLine := run((*searcher).exhaust)
			want, wantN, wantLine := run((*searcher).exhaustReference)
			t.Logf("outcome %d after %d positions, line of %d plies", want, wantN, len(wantLine))
			if got != want || gotN != wantN || !slices.Equal(gotLine, wantLine) {
				t.Errorf("exhaust = %d after %d positions, line %v; before: %d after %d, line %v", got, gotN, gotLine, want, wantN, wantLine)
			}
		})
	}
}
