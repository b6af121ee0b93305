package scoresheet

import (
	"fmt"
	"strings"

	"github.com/notnil/chess"
)

// Verdict answers "can this side still checkmate?".
type Verdict int

// Verdicts of CanMate.
const (
	// Undetermined: neither proven nor ruled out; the arbiter decides.
	Undetermined Verdict = iota
	// CannotMate: no series of legal moves ends in a checkmate by the side.
	CannotMate
	// MatePossible: some series of legal moves ends in a checkmate by the
	// side. (The brief called this constant CanMate; Go does not allow a
	// constant and the function CanMate to share the name.)
	MatePossible
)

func (v Verdict) String() string {
	switch v {
	case CannotMate:
		return "cannot mate"
	case MatePossible:
		return "can mate"
	}
	return "undetermined"
}

// MateVerdict is a Verdict with its reason, one sentence such as "White has
// only the king".
type MateVerdict struct {
	Verdict Verdict
	Reason  string
}

// searchLimit bounds the exhaustive search of CanMate (positions visited).
const searchLimit = 2000

// CanMate judges whether side could checkmate the opponent by any series of
// legal moves, however unskilled the opponent's counterplay (a helpmate).
//
// The answer is sound: CannotMate is only given when a mate is impossible.
// It is given for a bare king; for king and one knight against a bare king;
// when there are no pawns and the only pieces besides the kings are bishops
// all standing on squares of one colour (the mated king would have to stand
// on that colour with all its neighbours of the other colour covered, which
// no king can do); for a position where the game is already over without
// side having mated; and when an exhaustive search of every position
// reachable from pos (bounded to a few thousand positions, which is enough
// for blocked pawn structures where only kings can move) finds no mate.
//
// MatePossible is given when that search finds a mate, or, without pawns on the
// board, when side has enough material (queen, rook, two minor pieces not
// all bishops of one colour) and the side to move is neither in check nor
// limited to captures.
// Everything else is Undetermined.
func CanMate(pos *chess.Position, side chess.Color) MateVerdict {
	return canMate(pos, side, searchLimit)
}

func canMate(pos *chess.Position, side chess.Color, limit int) MateVerdict {
	name := colorName(side)
	opp := colorName(side.Other())
	switch pos.Status() {
	case chess.Checkmate:
		if pos.Turn() == side {
			return MateVerdict{CannotMate, fmt.Sprintf("%s is checkmated", name)}
		}
		return MateVerdict{MatePossible, fmt.Sprintf("%s is already checkmated", opp)}
	case chess.Stalemate:
		return MateVerdict{CannotMate, fmt.Sprintf("%s is stalemated and the game is over", colorName(pos.Turn()))}
	}
	me, them := material(pos, side), material(pos, side.Other())
	if me.pieces() == 0 && me.pawns == 0 {
		return MateVerdict{CannotMate, fmt.Sprintf("%s has only the king", name)}
	}
	noPawns := me.pawns == 0 && them.pawns == 0
	if noPawns {
		if me.onlyBishops() && them.onlyBishops() && (me.light == 0 && them.light == 0 || me.dark == 0 && them.dark == 0) {
			colour := "dark"
			if me.light > 0 {
				colour = "light"
			}
			return MateVerdict{CannotMate, fmt.Sprintf("%s has only bishops on %s squares and %s has nothing but bishops on %s squares, so no mate is possible", name, colour, opp, colour)}
		}
		if me.knights == 1 && me.pieces() == 1 && them.pieces() == 0 {
			return MateVerdict{CannotMate, fmt.Sprintf("%s has only king and knight against a bare king", name)}
		}
	}
	if noPawns && !inCheck(pos) && hasQuietMove(pos) && (me.queens+me.rooks > 0 || me.pieces() >= 2 && !(me.onlyBishops() && (me.light == 0 || me.dark == 0))) {
		return MateVerdict{MatePossible, fmt.Sprintf("%s has enough material to checkmate", name)}
	}
	// An exhaustive search settles small or blocked positions either way.
	if worthSearching(pos, me, them) {
		switch search(pos, side, limit) {
		case foundMate:
			return MateVerdict{MatePossible, fmt.Sprintf("%s can still reach a checkmate", name)}
		case noMate:
			return MateVerdict{CannotMate, fmt.Sprintf("no series of legal moves lets %s checkmate (every reachable position was examined)", name)}
		}
	}
	return MateVerdict{Undetermined, fmt.Sprintf("whether %s can still checkmate could not be decided automatically", name)}
}

// DeadPosition reports whether neither side can checkmate (Article 6.9 and
// the dead-position draw): both CanMate verdicts are CannotMate.
func DeadPosition(pos *chess.Position) bool {
	return CanMate(pos, chess.White).Verdict == CannotMate && CanMate(pos, chess.Black).Verdict == CannotMate
}

type counts struct {
	pawns, knights, light, dark, rooks, queens int
}

func (c counts) pieces() int       { return c.knights + c.light + c.dark + c.rooks + c.queens }
func (c counts) onlyBishops() bool { return c.pawns+c.knights+c.rooks+c.queens == 0 }

func material(pos *chess.Position, c chess.Color) counts {
	var n counts
	for s, p := range pos.Board().SquareMap() {
		if p.Color() != c {
			continue
		}
		switch p.Type() {
		case chess.Pawn:
			n.pawns++
		case chess.Knight:
			n.knights++
		case chess.Bishop:
			if (int(s.File())+int(s.Rank()))%2 == 0 {
				n.dark++
			} else {
				n.light++
			}
		case chess.Rook:
			n.rooks++
		case chess.Queen:
			n.queens++
		}
	}
	return n
}

type searchResult int

const (
	gaveUp searchResult = iota
	foundMate
	noMate
)

// search walks every position reachable from pos breadth-first (so short
// mates are found first) and reports foundMate when side checkmates the
// opponent somewhere, noMate when every reachable position was visited
// without such a mate, and gaveUp after limit positions. Positions are
// identified by placement, side to move, castling rights and en-passant
// square; the move counters do not change which moves are legal.
func search(pos *chess.Position, side chess.Color, limit int) searchResult {
	seen := map[string]bool{posKey(pos): true}
	queue := []*chess.Position{pos}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, m := range p.ValidMoves() {
			next := p.Update(m)
			k := posKey(next)
			if seen[k] {
				continue
			}
			if next.Status() == chess.Checkmate {
				if p.Turn() == side {
					return foundMate
				}
				seen[k] = true
				continue
			}
			// A position where side cannot mate by material alone is a
			// dead end for the search.
			if hopeless(next, side) {
				seen[k] = true
				continue
			}
			if len(seen) >= limit {
				return gaveUp
			}
			seen[k] = true
			queue = append(queue, next)
		}
	}
	return noMate
}

// hasQuietMove reports whether the side to move has a legal move that is not
// a capture (so it is not forced to take mating material off the board).
func hasQuietMove(pos *chess.Position) bool {
	for _, m := range pos.ValidMoves() {
		if !m.HasTag(chess.Capture) {
			return true
		}
	}
	return false
}

// worthSearching picks the positions where the bounded search has a chance:
// few pieces, and either no pawns or only pawns that cannot advance (a closed
// structure where mostly the kings and bishops move).
func worthSearching(pos *chess.Position, me, them counts) bool {
	if me.pieces()+them.pieces() > 4 {
		return false
	}
	b := pos.Board()
	for s, p := range b.SquareMap() {
		if p.Type() != chess.Pawn {
			continue
		}
		r := int(s.Rank()) + 1
		if p.Color() == chess.Black {
			r = int(s.Rank()) - 1
		}
		if b.Piece(chess.NewSquare(s.File(), chess.Rank(r))) == chess.NoPiece {
			return false
		}
	}
	return true
}

// hopeless is the material part of CanMate (sound CannotMate rules).
func hopeless(pos *chess.Position, side chess.Color) bool {
	me, them := material(pos, side), material(pos, side.Other())
	if me.pieces() == 0 && me.pawns == 0 {
		return true
	}
	if me.pawns != 0 || them.pawns != 0 {
		return false
	}
	if me.onlyBishops() && them.onlyBishops() && (me.light == 0 && them.light == 0 || me.dark == 0 && them.dark == 0) {
		return true
	}
	return me.knights == 1 && me.pieces() == 1 && them.pieces() == 0
}

func posKey(pos *chess.Position) string {
	f := strings.Fields(pos.String())
	return f[0] + " " + f[1] + " " + f[2] + " " + f[3]
}
