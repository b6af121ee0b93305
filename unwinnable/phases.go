package unwinnable

import (
	"math/bits"
	"slices"
	"strings"

	"arbiter/internal/phrase"
)

// Men that stand until they are taken, in phases (issue 29, stage 4k).
// The fixed men (4c) stand for good; a man of them that an enemy king or
// piece can take falls out, and the set with it. Here a few men are
// followed through their captures instead: T is up to maxPhaseMen men
// outside 4c's set that, taken never to be attacked, stand in the set they
// hold (a piece whose moves all lead onto its own men, a pawn with a man in
// front and nothing to take, a man whose every move mates the winner: 4f),
// the larger that set the earlier. For each subset C of T (the men of T
// taken so far) S_C is 4c's set (with the held men of 4d and 4f) on the
// board without the men of C, the men of T but C taken to be never
// attacked (no king steps and no piece moves onto them: that would take
// them), grown from the men of every S_C' (C' = C less one man) as first
// candidates, so that the sets only shrink as C grows. T proves the
// position unwinnable when for every C:
//   - S_C is a blocked structure (it has pawns) holding every man of T
//     but C, and no enemy pawn can ever stand where it attacks one of them
//     (its square in S_C, else its flood with S_C as walls, taking where an
//     enemy man could stand: so such a man is taken only by a piece or a
//     king, which lands in its flood);
//   - and the fixed men's test (menUnwinnable: the loser's king never
//     attacked, or attacked but never mated) holds for S_C on that board.
//
// Soundness, by induction on the moves of a game from the root, with C
// the men of T taken so far: every man of S_C stands, and every other man
// stands in its reach with S_C as walls. At the root C is empty and this
// is 4c's induction. Within a phase, the first move that would move or
// take a man of S_C is impossible by 4c's conditions, or ends the game
// (4d, 4f), unless it takes a man x of T but C (the men of T but C are
// never attacked only in the sense that their capture is this move);
// then the next phase begins, C with x: S_{C+x} is a subset of S_C less x
// (its first candidates); the taker, if a man of S_C, now has x's empty
// square to step to on the board without C and x, so it is not in
// S_{C+x}; so the men of S_{C+x} all stand, and every other man stands in
// its reach with S_C as walls, which lies within its reach with S_{C+x} as
// walls (fewer walls, larger floods), the taker on x's square included (a
// legal move past walls that stood). So every position reached is one of
// some phase, where menUnwinnable says no mate can stand. This is 4e's
// pawns taken together (pawnsOnlyTakenTogether) carried to pieces, with
// the proof itself asked in each phase. E.g. in
// 8/8/7p/2b2p1P/1bkb1p1K/2b2Pp1/6P1/7B b for White the bishop on h1, shut
// in by its pawn on g2, guards g2 while it stands; the black king can come
// round by f1 and take it, but then g2 is held all the same (the black king
// takes it only with White's king on h4, which then has no move: 4d), and
// in either phase no white man can ever attack a square the black king can
// reach. In 8/BbB5/b7/8/2p1p3/1pPpPp2/1PkBpP2/1NB1K3 w for Black the white
// knight's only move, Na3, mates the black king on c2 (4f: with the king
// standing, and the white king beside d1 — issue 29 counts the loser's king
// of the set among the men that cover the winner king's squares); while the
// knight stands, the black king stays on c2 (its only other step takes the
// knight), and once it has taken the knight every black pawn stands on a
// light square no white man can reach: in neither phase can Black ever
// attack the white king, shut in on e1.

// maxPhaseMen bounds T (the fixed men are computed once for each subset);
// phaseFiles: the files with a white pawn right below a black one where
// the stage is tried; phaseMoves: the moves a piece may have now to be a
// candidate.
const (
	maxPhaseMen = 3
	phaseFiles  = 3
	phaseMoves  = 2
)

// phasesUnwinnable is stage 4k: whether men that stand until they are
// taken, in every order of their captures, leave the fixed men's proof
// standing.
func (b *Board) phasesUnwinnable(winner int) (bool, *phrase.Error) {
	return b.phasesProve(winner, b.phaseMen(winner))
}

// phasesProve is phasesUnwinnable with T given (phaseMen).
func (b *Board) phasesProve(winner int, t []int) (bool, *phrase.Error) {
	if len(t) == 0 {
		return false, nil
	}
	// The largest T first, then each candidate alone.
	tries := [][]int{t}
	if len(t) > 1 {
		for _, q := range t {
			tries = append(tries, []int{q})
		}
	}
	for _, t := range tries {
		if ok, why := b.phasesHold(winner, t); ok {
			var names []string
			for _, q := range t {
				names = append(names, squareName(q))
			}
			slices.Sort(names)
			return true, phasesWhy(winner, strings.Join(names, ", "), why)
		}
	}
	return false, nil
}

// phaseMen is stage 4k's T: up to maxPhaseMen men outside 4c's set that,
// taken never to be attacked, stand in the set they hold, the larger that
// set the earlier; none where pawns do not stand head to head on
// phaseFiles files or more.
func (b *Board) phaseMen(winner int) []int {
	// Only where pawns are locked head to head on phaseFiles files or
	// more: the blocked structures the stage is for (each candidate below
	// costs a computation of the fixed men; on a lichess row that reaches
	// the stage, 0.4 ms without this test).
	if bits.OnesCount64(pawnsBehindPawns(b, White)) < phaseFiles {
		return nil
	}
	base, _ := b.fixedMenWith(winner, stillMen{}, 0)
	occ := b.all()
	// The candidates: men outside the set that, taken to be never
	// attacked, stand in the set they hold; the larger that set, the
	// earlier.
	type cand struct {
		q    int
		size int
	}
	var cands []cand
	for f := occ &^ base &^ b.bb[White][King] &^ b.bb[Black][King]; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		// (A man with more than phaseMoves moves now is no candidate: it
		// would have to be held by 4d or 4f with each of them.)
		c, p := int(b.sq[q])/6, int(b.sq[q])%6
		if p == Pawn {
			if occ&(uint64(1)<<(q+upOf(c))) == 0 || pawnAttacks[c][q]&b.occ[1-c] != 0 || b.ep >= 0 {
				continue
			}
		} else if bits.OnesCount64(manAttacks(p, q, occ)&^b.occ[c]) > phaseMoves {
			continue
		}
		set, _ := b.fixedMenFrom(winner, heldRule|mateRule, stillMen{}, uint64(1)<<q, ^uint64(0))
		if set&(uint64(1)<<q) == 0 || set&^base == uint64(1)<<q {
			continue // it does not stand, or holds nothing more
		}
		cands = append(cands, cand{q, bits.OnesCount64(set)})
	}
	slices.SortStableFunc(cands, func(x, y cand) int { return y.size - x.size })
	var t []int
	for _, c := range cands[:min(len(cands), maxPhaseMen)] {
		t = append(t, c.q)
	}
	return t
}

// phasesHold reports whether the men on t prove the position as the
// stage asks, and a phase's proof: one where the loser's king can be
// checked but never mated if there is one.
func (b *Board) phasesHold(winner int, t []int) (bool, *phrase.Error) {
	n := len(t)
	sets, offs := make([]uint64, 1<<n), make([]uint64, 1<<n)
	var why *phrase.Error
	for c := 0; c < 1<<n; c++ { // a subset comes after each subset of it
		x := *b
		start, offStart := ^uint64(0), ^uint64(0)
		var safe uint64
		for i, q := range t {
			if c&(1<<i) != 0 {
				x.remove(int(b.sq[q])/6, int(b.sq[q])%6, q)
				start &= sets[c&^(1<<i)]
				offStart &= offs[c&^(1<<i)]
			} else {
				safe |= uint64(1) << q
			}
		}
		set, rs, off := x.fixedMenOff(winner, heldRule|mateRule|stalemateRule, stillMen{}, safe, start, offStart)
		sets[c], offs[c] = set, off
		if set == 0 || set&safe != safe {
			return false, nil // no blocked structure, or a man of T falls
		}
		pawnAt := x.pawnsCouldStand(set, rs)
		for f := safe; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			col := int(b.sq[q]) / 6
			if pawnAttacks[col][q]&pawnAt[1-col] != 0 {
				return false, nil
			}
		}
		ok, w := menUnwinnable(&x, winner, set, stillMen{}, rs)
		if !ok {
			return false, nil
		}
		// The sentence of the weakest phase: checked but never mated.
		if why == nil || strings.Contains(w.Format, "never mated") {
			why = w
		}
	}
	return true, why
}

// phasesWhy is stage 4k's sentence: the men that stand until taken, and
// the proof of the phases (why: never attacked in each, or at most checked
// but never mated).
func phasesWhy(winner int, squares string, why *phrase.Error) *phrase.Error {
	loser := 1 - winner
	w, l := lower(colourName(winner)), lower(colourName(loser))
	if strings.Contains(why.Format, "never mated") {
		return phrase.Errorf("the men on %s stand until they are taken, and whichever of them are, the pawns and the men that hold them stay blocked for good and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", squares, l, w, l)
	}
	return phrase.Errorf("the men on %s stand until they are taken, and whichever of them are, the pawns and the men that hold them stay blocked for good and no %s man can ever attack a square the %s king can reach", squares, w, l)
}
