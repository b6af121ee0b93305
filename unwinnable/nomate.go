package unwinnable

import (
	"math/bits"

	"arbiter/internal/phrase"
)

// mateRoom is what the "no mate" test needs to know of a set of positions
// (the positions of a progress state, or every position reachable while the
// fixed pawns stand), each an over-approximation:
//   - king: the squares the loser's king can stand on;
//   - attack: the squares some man of the winner other than its king can
//     attack (with the pawns as walls: other men only block more);
//   - pawns: squares where a man of the loser (a pawn, or a piece that
//     cannot move) stands in every position;
//   - block, movers: the squares where its other men (not the king) can
//     stand, and how many such men it can have at most;
//   - winnerKing: the squares the winner's king can stand on;
//   - men: when known, the squares each of those men can stand on, one
//     entry a man (block is their union, movers their number): a square
//     that needs a blocker then needs a man of its own that can stand
//     there (blockersFit).
type mateRoom struct {
	king, attack, pawns, block, winnerKing uint64
	movers                                 int
	men                                    []uint64
}

// mateSquare is a square of room.king on which a mate of the loser's king
// is not excluded, or -1 when there is none.
//
// A mate on k needs a check, so k is attacked by a man of the winner that
// is not its king; and every neighbour f of k is one the king cannot step
// to: a man of the loser stands on f, or the winner attacks f with the
// king gone from k (a man of the winner standing on f cannot be taken only
// when another attacks f). The winner's king, on one square w at least two
// squares from k, covers the neighbours next to w; every neighbour left
// that the winner's other men cannot attack and no pawn of the loser
// blocks needs a man of the loser of its own, standing on it. Each
// condition is necessary and each set over-approximates, so no mate on
// any square proves that none can ever arise.
func (room mateRoom) mateSquare() int {
	blocked := func(need uint64) bool {
		return need&^room.block == 0 && bits.OnesCount64(need) <= room.movers &&
			(room.men == nil || blockersFit(need, room.men))
	}
	for ks := room.king & room.attack; ks != 0; ks &= ks - 1 {
		k := bits.TrailingZeros64(ks)
		need := kingAttacks[k] &^ room.pawns &^ room.attack
		if blocked(need) {
			return k
		}
		// The winner's king next to some of need and not next to k.
		near := uint64(0)
		for f := need; f != 0; f &= f - 1 {
			near |= kingAttacks[bits.TrailingZeros64(f)]
		}
		for ws := near & room.winnerKing &^ kingAttacks[k] &^ (uint64(1) << k); ws != 0; ws &= ws - 1 {
			if blocked(need &^ kingAttacks[bits.TrailingZeros64(ws)]) {
				return k
			}
		}
	}
	return -1
}

// blockersFit reports whether the squares of need can each hold a man of
// its own: a matching of the squares to distinct men, man i standing only
// on men[i] (augmenting paths; at most 8 squares and 15 men). In a mate
// every such square holds a man of the loser, distinct squares distinct
// men, each on a square its entry allows; so no matching, no mate there.
// The count and the union alone (movers, block) miss a man shut in
// elsewhere: B2b4/8/8/4k3/1p1p1p1p/1PpP1P1P/K1P4b/RB6 b, where White's
// light bishop needs two dark blockers beside the black king and Black's
// bishop on h2 can never pass its own pawns on b4, d4, f4 and h4.
func blockersFit(need uint64, men []uint64) bool {
	if len(men) > 16 {
		return true // no such position is legal; nothing proven
	}
	var sqs [8]uint64
	n := 0
	for f := need; f != 0; f &= f - 1 {
		sqs[n] = f & -f
		n++
	}
	var owner [16]int // the square of need each man holds, or -1
	for i := range owner {
		owner[i] = -1
	}
	var try func(i int, seen *uint32) bool
	try = func(i int, seen *uint32) bool {
		for m, st := range men {
			if st&sqs[i] == 0 || *seen&(1<<m) != 0 {
				continue
			}
			*seen |= 1 << m
			if owner[m] < 0 || try(owner[m], seen) {
				owner[m] = i
				return true
			}
		}
		return false
	}
	for i := 0; i < n; i++ {
		var seen uint32
		if !try(i, &seen) {
			return false
		}
	}
	return true
}

// room is the "no mate" test's view of a progress state; movers is the
// number of the loser's men (not king) at the root: in the state it has at
// most one more man for each of its pawns gone since (a pawn leaves the
// state's pawns only by being taken or by promoting), of which its pawns
// and its pieces of stay stand where they stand.
func (st *pawnState) room(winner, movers int) mateRoom {
	loser := 1 - winner
	walls := st.walls()
	r := mateRoom{
		king:       st.reg[loser][King-1],
		attack:     pawnsAttack(winner, st.pawns[winner]),
		pawns:      st.pawns[loser],
		winnerKing: st.reg[winner][King-1],
		movers:     movers - bits.OnesCount64(st.pawns[loser]),
	}
	// The loser's pieces of stay block their own squares only.
	for _, t := range st.stay[loser] {
		r.pawns |= t
		r.movers -= bits.OnesCount64(t)
	}
	for p := Knight; p <= Queen; p++ {
		r.attack |= menAttack(p, st.reg[winner][p-1], walls)
		r.block |= st.reg[loser][p-1]
	}
	return r
}

// noMateWhy is the reason of a proof by the "no mate" test: in the
// progress search (blocked false) or with the pawns blocked for good.
func noMateWhy(winner int, blocked bool) *phrase.Error {
	w, l := lower(colourName(winner)), lower(colourName(1-winner))
	if blocked {
		return phrase.Errorf("the pawns are blocked for good and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, w, l)
	}
	return phrase.Errorf("whatever pawn moves and captures are made, the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, w, l)
}

// staticRoom is the "no mate" test's view of every position reachable
// while the fixed pawns stand (fixedPawns and its reach r): the fixed
// pawns attack and block too. The loser's men that are not fixed are
// matched to the squares that need a blocker man by man (mateRoom.men).
func staticRoom(b *Board, fixed uint64, r [2]reach, winner int) mateRoom {
	loser := 1 - winner
	room := mateRoom{
		king:       r[loser].kingStand,
		attack:     r[winner].attack | pawnsAttack(winner, b.bb[winner][Pawn]&fixed),
		pawns:      b.bb[loser][Pawn] & fixed,
		block:      r[loser].stand,
		movers:     bits.OnesCount64(b.occ[loser] &^ b.bb[loser][King] &^ fixed),
		winnerKing: r[winner].kingStand,
	}
	if room.movers > 1 {
		room.men = b.manStands(loser, fixed, stillMen{}, fixed, r)
	}
	return room
}
