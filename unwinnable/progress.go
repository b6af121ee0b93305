package unwinnable

import (
	"math/bits"

	"arbiter/internal/phrase"
)

// pawnState is an abstract state of the progress search: the exact pawns
// of both sides and, for each side and piece type (knight to king), the
// region its pieces of that type can stand on — all squares they can
// reach with the pawns as walls (other pieces are taken to step aside). A
// concrete position belongs to the state when its pawns are these and
// each piece stands in the region of its colour and type.
//
// stay are squares of pieces (knight to queen, index type-1) that stand
// there in every position of the state: they stood there at the root and
// could never move nor be taken since (dropStay).
type pawnState struct {
	pawns [2]uint64
	reg   [2][5]uint64 // Knight, Bishop, Rook, Queen, King: index type-1
	stay  [2][4]uint64
}

// progressBudget bounds the abstract states of progressUnwinnable at the
// root. When they run out with no state allowing a check, the search runs
// again after the first helpmate search with a 1/progressShare of the
// limit (a state costs about as much as ten positions of a search).
const (
	progressBudget = 4096
	progressShare  = 20
)

// pawnsAttack is the set of squares the pawns in set of colour c attack.
func pawnsAttack(c int, set uint64) uint64 {
	if c == White {
		return set<<7&^fileH | set<<9&^fileA
	}
	return set>>9&^fileH | set>>7&^fileA
}

// close makes every region closed under its pieces' moves with the pawns
// as walls: a piece that stood in the region before a pawn moved stands on
// one of its squares that is no pawn now, and moves from there. A king
// never steps onto a square an enemy pawn attacks (it may stand on one
// already, in check). A king whose region is one square stands there in
// every position of the state, and so does a piece of stay: those
// squares are walls too (walls), and a piece of stay that could move or
// be taken leaves stay (then walls shrink and regions grow: round again).
func (st *pawnState) close() {
	for {
		st.flood()
		if !st.dropStay() {
			return
		}
	}
}

// flood is one round of close: every region flooded with the walls.
func (st *pawnState) flood() {
	stay := st.stays()
	pawns := st.pawns[0] | st.pawns[1] | stay
	// The other king's ring is left out here: its region is not flooded
	// yet, so whether it is held is known only below.
	for c := 0; c < 2; c++ {
		if k := st.reg[c][King-1]; k != 0 {
			st.reg[c][King-1], _ = floodFrom(King, k&^pawns, pawns, st.menGuards(1-c))
		}
	}
	// A king held on one square keeps the other king off its neighbours
	// (which may hold that one too: twice round).
	for i := 0; i < 4; i++ {
		c := i % 2
		if ring := kingRing(st.held(1 - c)); ring != 0 {
			st.reg[c][King-1], _ = floodFrom(King, st.reg[c][King-1]&^pawns&^ring, pawns, st.guards(1-c))
		}
	}
	walls := st.walls()
	for c := 0; c < 2; c++ {
		for i := range st.reg[c][:King-1] {
			if st.reg[c][i] != 0 {
				st.reg[c][i], _ = floodFrom(i+1, st.reg[c][i]&^walls, walls, 0)
				st.reg[c][i] |= st.stay[c][i]
			}
		}
	}
}

// dropStay takes out of stay every piece that could move (a square it
// moves to is no wall) or be taken (an enemy man could attack its
// square), and reports whether it took any. What remains is the greatest
// such set: by induction on the moves, while all of them stand, none
// moves within the state (a piece that takes a pawn makes a progress
// move, and leaves stay in the state it leads to) and none is taken.
func (st *pawnState) dropStay() bool {
	walls := st.walls()
	dropped := false
	for c := 0; c < 2; c++ {
		if st.stay[c] == [4]uint64{} {
			continue
		}
		e := 1 - c
		attacked := pawnsAttack(e, st.pawns[e]) | menAttack(King, st.reg[e][King-1], walls)&^st.guards(c)
		for p := Knight; p <= Queen; p++ {
			attacked |= menAttack(p, st.reg[e][p-1], walls)
		}
		for p := Knight; p <= Queen; p++ {
			for f := st.stay[c][p-1]; f != 0; f &= f - 1 {
				sq := f & -f
				if stand, _ := floodFrom(p, sq, walls, 0); stand != sq || sq&attacked != 0 {
					st.stay[c][p-1] &^= sq
					dropped = true
				}
			}
		}
	}
	return dropped
}

// stays is the squares of every piece of stay.
func (st *pawnState) stays() uint64 {
	var s uint64
	for c := 0; c < 2; c++ {
		for _, t := range st.stay[c] {
			s |= t
		}
	}
	return s
}

// walls are the squares no man can ever pass or step onto in a position
// of the state: the pawns, the square of a king that cannot leave it (its
// region is that square; a king is never taken) and the pieces of stay,
// so no pawn steps or captures onto them and no piece moves through them.
func (st *pawnState) walls() uint64 {
	return st.pawns[0] | st.pawns[1] | st.held(White) | st.held(Black) | st.stays()
}

// kingRing is the squares next to the square in set (empty or one square).
func kingRing(set uint64) uint64 {
	if set == 0 {
		return 0
	}
	return kingAttacks[bits.TrailingZeros64(set)]
}

// held is the square of c's king when its region is that one square, else
// the empty set.
func (st *pawnState) held(c int) uint64 {
	if k := st.reg[c][King-1]; k&(k-1) == 0 {
		return k
	}
	return 0
}

// guards is what c's men standing in every position of the state attack
// in every such position: its pawns, the ring of its king held on one
// square, its knights of stay, and its bishops, rooks and queens of stay
// on the squares next to them along their lines (guardsForGood: nothing
// can stand between). The enemy king never steps onto such a square nor
// takes a man there.
func (st *pawnState) guards(c int) uint64 {
	return st.menGuards(c) | kingRing(st.held(c))
}

// menGuards is guards without the king's ring.
func (st *pawnState) menGuards(c int) uint64 {
	g := pawnsAttack(c, st.pawns[c]) | knightsAttack(st.stay[c][Knight-1])
	for p := Bishop; p <= Queen; p++ {
		g |= menAttack(p, st.stay[c][p-1], ^uint64(0))
	}
	return g
}

// checks reports whether some man of winner could attack a square the
// loser's king could stand on in a position of the state: a check.
func (st *pawnState) checks(winner int) bool {
	walls := st.walls()
	a := pawnsAttack(winner, st.pawns[winner])
	for p := Knight; p <= Queen; p++ {
		a |= menAttack(p, st.reg[winner][p-1], walls)
	}
	return a&st.reg[1-winner][King-1] != 0
}

// successors calls f with every state a progress move (a pawn move or a
// capture of a pawn) can lead to. Captures of pieces are not made: by
// monotonicity a state with the captured piece still in it allows every
// check and every pawn move the state without it allows.
//
// The order matters only for speed: the search takes the last state
// found first, so the winner's pawn moves come last, its most advanced
// pawn's last of all — where a pawn can run to promotion, the search
// reaches the new queen (and a check) in a few states instead of trying
// every other pawn's moves first.
func (st *pawnState) successors(winner int, f func(pawnState)) {
	walls := st.walls()
	for _, c := range [2]int{1 - winner, winner} {
		own, opp := st.pawns[c], st.pawns[1-c]
		up := upOf(c)
		start, last := rank1<<8, rank8
		if c == Black {
			start, last = rank8>>8, rank1
		}
		var pieces uint64 // squares where an enemy piece could stand, to be captured by a pawn
		for i := 0; i < 4; i++ {
			pieces |= st.reg[1-c][i]
		}
		move := func(from, to int, captured uint64) {
			n := *st
			n.pawns[c] &^= uint64(1) << from
			n.pawns[1-c] &^= captured
			if uint64(1)<<to&last != 0 {
				for p := Knight; p <= Queen; p++ {
					m := n
					m.reg[c][p-1] |= uint64(1) << to
					m.close()
					f(m)
				}
				return
			}
			n.pawns[c] |= uint64(1) << to
			n.close()
			f(n)
		}
		// A piece takes an enemy pawn it could attack; a king one no
		// other enemy pawn guards.
		for p := Knight; p <= King; p++ {
			r := st.reg[c][p-1]
			if r == 0 {
				continue
			}
			for t := menAttack(p, r, walls) & opp; t != 0; t &= t - 1 {
				bit := t & -t
				if p == King && bit&st.guards(1-c) != 0 {
					continue
				}
				n := *st
				n.pawns[1-c] &^= bit
				n.reg[c][p-1] |= bit
				if p < King {
					// The piece that took may be one of stay.
					for f := n.stay[c][p-1]; f != 0; f &= f - 1 {
						if menAttack(p, f&-f, walls)&bit != 0 {
							n.stay[c][p-1] &^= f & -f
						}
					}
				}
				n.close()
				f(n)
			}
		}
		for ps := own; ps != 0; {
			// White's pawns from the lowest square up, Black's from the
			// highest down: the least advanced first.
			var s int
			if c == White {
				s = bits.TrailingZeros64(ps)
			} else {
				s = 63 - bits.LeadingZeros64(ps)
			}
			ps &^= uint64(1) << s
			one := s + up
			if walls&(uint64(1)<<one) == 0 {
				move(s, one, 0)
				two := one + up
				if uint64(1)<<s&start != 0 && walls&(uint64(1)<<two) == 0 {
					move(s, two, 0)
					// En passant: an enemy pawn beside the square reached
					// takes on the square passed.
					for e := opp & pawnAttacks[c][one]; e != 0; e &= e - 1 {
						n := *st
						n.pawns[c] &^= uint64(1) << s
						n.pawns[1-c] = n.pawns[1-c]&^(e&-e) | uint64(1)<<one
						n.close()
						f(n)
					}
				}
			}
			for t := pawnAttacks[c][s] & (opp | pieces); t != 0; t &= t - 1 {
				to := bits.TrailingZeros64(t)
				move(s, to, opp&(uint64(1)<<to))
			}
		}
	}
}

// progressUnwinnable is the progress search: from the position's abstract
// state, every state reachable by pawn moves and captures of pawns is
// visited (finitely many: a pawn move or a capture cannot be undone); when
// in none of them a man of winner could ever attack a square the loser's
// king could stand on, the loser's king is never even checked. Sound by
// induction on the moves of any game from b: every position reached
// belongs to a visited state (see pawnState, close and successors).
// Unknown (false) when some state allows a check or after budget states.
func progressUnwinnable(b *Board, winner, budget int) (bool, int, *phrase.Error) {
	var st pawnState
	for c := 0; c < 2; c++ {
		st.pawns[c] = b.bb[c][Pawn]
		for p := Knight; p <= King; p++ {
			st.reg[c][p-1] = b.bb[c][p]
		}
		for p := Knight; p <= Queen; p++ {
			st.stay[c][p-1] = b.bb[c][p]
		}
	}
	st.close()
	seen := map[pawnState]bool{st: true}
	stack := []pawnState{st}
	if b.ep >= 0 {
		// An en-passant capture open now.
		us := b.stm
		for e := b.bb[us][Pawn] & pawnAttacks[1-us][b.ep]; e != 0; e &= e - 1 {
			n := st
			n.pawns[us] = n.pawns[us]&^(e&-e) | uint64(1)<<b.ep
			n.pawns[1-us] &^= uint64(1) << (int(b.ep) + upOf(1-us))
			n.close()
			if !seen[n] {
				seen[n] = true
				stack = append(stack, n)
			}
		}
	}
	visited, checked := 0, false
	loser := 1 - winner
	movers := bits.OnesCount64(b.occ[loser] &^ b.bb[loser][King]) // pieces and pawns: see room
	for len(stack) > 0 {
		st := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visited++
		if visited > budget {
			return false, visited, nil
		}
		if st.checks(winner) {
			// A check, but perhaps never a mate (nomate.go).
			if st.room(winner, movers).mateSquare() >= 0 {
				return false, visited, nil
			}
			checked = true
		}
		st.successors(winner, func(n pawnState) {
			if !seen[n] {
				seen[n] = true
				stack = append(stack, n)
			}
		})
	}
	if checked {
		return true, visited, noMateWhy(winner, false)
	}
	return true, visited, phrase.Errorf("whatever pawn moves and captures are made, no %s piece can ever attack a square the %s king can reach", lower(colourName(winner)), lower(colourName(1-winner)))
}
