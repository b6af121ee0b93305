package scoresheet

import (
	"strings"

	"github.com/notnil/chess"
)

// RepetitionPosition is one position that can still occur again and so
// counts for a repetition claim (Article 9.2): the positions since the last
// capture or pawn move, each identified as the repetition rule identifies
// it (placement, side to move, castling rights, and the en-passant square
// only when an en-passant capture is legal).
type RepetitionPosition struct {
	Key   string   // "placement side castling ep"
	Count int      // occurrences so far
	Where []string // "the start position" or "after 12. Nf3", in order
}

// RepetitionPositions lists the positions that count for repetition, in the
// order they first occurred, the current position last among equals. A
// program restarted from the current FEN needs them to judge a later claim.
func (s *Sheet) RepetitionPositions() []RepetitionPosition {
	hm := s.cur().HalfMoveClock()
	first := len(s.keys) - 1 - hm
	if first < 0 {
		first = 0
	}
	var out []RepetitionPosition
	index := map[string]int{}
	for i := first; i < len(s.keys); i++ {
		k := s.keys[i]
		where := "the start position"
		if i > 0 {
			where = "after " + s.entries[i-1].Label()
		}
		if j, ok := index[k]; ok {
			out[j].Count++
			out[j].Where = append(out[j].Where, where)
			continue
		}
		index[k] = len(out)
		out = append(out, RepetitionPosition{Key: k, Count: 1, Where: []string{where}})
	}
	return out
}

// CastlingRights is the castling field of the current position ("-" when
// neither side may castle).
func (s *Sheet) CastlingRights() string { return strings.Fields(s.FEN())[2] }

// EnPassant is the en-passant field of the current FEN ("-" when none).
func (s *Sheet) EnPassant() string { return strings.Fields(s.FEN())[3] }

// MatingMaterial is the per-colour material test: side has a pawn, a rook
// or a queen; or two minor pieces other than bishops all on one colour; or
// one minor piece while the opponent has more than the king (whose own
// pieces can block its king's flight squares). It is false for a bare
// king, a lone minor piece against a bare king and same-coloured bishops
// against a bare king. True does not prove a mate (a locked pawn chain may
// forbid one); false never hides one. CanMate is the finer judge; the
// match layer falls back on this test when CanMate is Undetermined.
func MatingMaterial(pos *chess.Position, side chess.Color) bool {
	me, them := material(pos, side), material(pos, side.Other())
	switch {
	case me.pawns+me.rooks+me.queens > 0:
		return true
	case me.pieces() == 0:
		return false
	case them.pieces()+them.pawns > 0:
		return true
	case me.knights > 0 && me.pieces() >= 2:
		return true
	}
	return me.light > 0 && me.dark > 0
}
