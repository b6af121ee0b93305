package unwinnable

import (
	"math/bits"

	"arbiter/internal/phrase"
)

// materialUnwinnable applies the material rule: given only the pieces on
// the board (and what pawns could become), can winner ever checkmate? It
// answers true only with a proof, given in the reason; material only ever
// shrinks and pawns are taken to become anything, so a true answer holds in
// every position reachable from b and the rule may prune any search node.
//
// The proofs rest on counting the loser king's neighbours. A checkmate
// needs every neighbour of the mated king covered or blocked by one of its
// own pieces. The winner's king can never cover two orthogonal neighbours
// of the mated king (a square next to two of them is next to the king
// itself), so a king in a corner needs at least one blocker, on an edge
// two, elsewhere three, all standing on squares of the colour opposite to
// the king's square.
func materialUnwinnable(b *Board, winner int) (bool, *phrase.Error) {
	w, l := &b.bb[winner], &b.bb[1-winner]
	wn, ln := phrase.Word(colourName(winner)), phrase.Word(colourName(1-winner))
	wPieces := w[Knight] | w[Bishop] | w[Rook] | w[Queen]
	if w[Pawn]|wPieces == 0 {
		return true, phrase.Errorf("%s has only the king", wn)
	}
	if w[Pawn]|w[Rook]|w[Queen] != 0 {
		return false, nil
	}
	lPieces := l[Knight] | l[Bishop] | l[Rook] | l[Queen]
	if w[Knight] == 0 {
		// Only bishops, all on squares of one colour: the mated king stands
		// on that colour, and its blockers on the other colour. The loser's
		// pieces that can stand there (no pawns to promote) are its knights,
		// rooks, queens and bishops of the other colour.
		var c uint64
		switch {
		case w[Bishop]&^light == 0:
			c = light
		case w[Bishop]&light == 0:
			c = ^light
		default:
			return false, nil
		}
		colour := phrase.Word("dark")
		if c == light {
			colour = "light"
		}
		if l[Pawn] != 0 {
			return false, nil
		}
		blockers := l[Knight] | l[Rook] | l[Queen] | l[Bishop]&^c
		switch {
		case blockers == 0:
			return true, phrase.Errorf("%s has only bishops on %s squares and %s no piece that could stand beside its king on a %s square, so no mate is possible", wn, colour, ln, otherColour(colour))
		case bits.OnesCount64(blockers) == 1 && blockers&(l[Rook]|l[Queen]) == blockers:
			// One rook or queen: the king must be in a corner with the rook
			// or queen beside it, and that piece can always step to the
			// diagonal neighbour the bishop's check crosses, or capture
			// the bishop standing there (bishops cannot pin along a line).
			return true, phrase.Errorf("%s has only bishops on %s squares against a lone %s, which can always block or capture the checking bishop, so no mate is possible", wn, colour, pieceName(l))
		}
		return false, nil
	}
	if w[Bishop] != 0 || bits.OnesCount64(w[Knight]) != 1 || l[Pawn] != 0 {
		return false, nil
	}
	// King and one knight. The knight covers none of the mated king's
	// orthogonal neighbours, so a blocker is needed (none: no mate). A lone
	// queen as the only blocker stands orthogonally next to the cornered
	// king and attacks both squares from which the knight could check.
	switch {
	case lPieces == 0:
		return true, phrase.Errorf("%s has only king and knight against a bare king, so no mate is possible", wn)
	case lPieces == l[Queen] && bits.OnesCount64(l[Queen]) == 1:
		return true, phrase.Errorf("%s has only king and knight against king and queen: the queen, the only piece that could block a flight square, always attacks the checking knight, so no mate is possible", wn)
	}
	return false, nil
}

func otherColour(c phrase.Word) phrase.Word {
	if c == "light" {
		return "dark"
	}
	return "light"
}

func pieceName(l *[6]uint64) phrase.Word {
	if l[Queen] != 0 {
		return "queen"
	}
	return "rook"
}
