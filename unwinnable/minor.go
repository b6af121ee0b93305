package unwinnable

import (
	"math/bits"
	"sort"

	"arbiter/internal/phrase"
)

// The lone minor piece: the winner has its king and one knight or one
// bishop, nothing else (no pawn, so it never has more). Every mate it can
// give is then one of few shapes, and they can all be listed: the loser's
// king on k, the minor piece on s checking it, the winner's king on w (or
// too far to cover a square beside k), and on the squares beside k that
// neither covers, men of the loser, which must not be able to take the
// checking piece or (a bishop's check) step between. Listing them with an
// over-approximation gives two things (loneMinorPatterns):
//
//   - no shape at all: no mate can ever arise, a proof (below);
//   - shapes: concrete targets for a best-first search steered to one of
//     them (targetScore), which finds the helpmates of K+N against K+B(s)
//     that the searches towards "a corner" need millions of positions for.
//
// Soundness of the proof. Take any mate by the winner reachable from the
// position: the loser's king on k, the checking piece on s (the minor: the
// winner's king never checks), the winner's king on w, S the squares beside
// k on which a man of the loser stands. The listing visits k, s, and w when
// it is two squares from k (further away, its king covers nothing beside k
// and defends nothing beside it, and the listing takes it as absent), and
// S: it is a subset of the squares beside k other than s and, for a
// bishop, other than the squares between s and k (they are empty, or there
// is no check). The listing's tests are each implied by the mate:
//   - s attacks k with only k, s, w and S occupied (fewer men than the
//     real position: a line open in it is open here);
//   - every square beside k that is not in S and not s is attacked by the
//     winner's king or by the minor piece with only s, w and S occupied
//     (again the real attacks are a subset); s beside k is defended by the
//     winner's king (else the king takes it);
//   - a man of the loser on a square of S that *surely* attacks s or (a
//     bishop's check) surely reaches a square between s and k would parry
//     the check: "surely" counts a slider's line only when every square on
//     it is known to be empty in every such mate (squares beside k that are
//     not in S and not s, squares between s and k). The winner has no
//     other piece, so no man of the loser is pinned and the parry is legal.
//     Likewise a man that surely attacks w would leave the winner in check.
//     So the real man on that square has a type that the listing allows;
//   - the types: every man of the loser is one of its pieces now (a bishop
//     keeps its squares' colour) or one of its pawns, still a pawn or
//     promoted to anything; so the squares of S can be given types with at
//     most as many of each piece type (and bishop colour) as it has now,
//     the rest each taken by one of its pawns (as a pawn, never on the first
//     or last rank, or promoted). The listing asks for such an assignment
//     by a matching.
//
// All these hold in every position reachable from the root (material only
// shrinks, pawns are counted as anything they can become), so when the
// listing finds no shape, no reachable position is a mate by the winner.

// matePattern is one shape of a mate by a lone minor piece: the loser's
// king on k, the minor on s, the winner's king on w (-1: any square three
// or more from k), the loser's men on blk (the square and the piece type).
type matePattern struct {
	k, s, w int
	minor   int
	nb      int
	blk     [8]patternBlocker
	// promoted: some blocker must be a promoted pawn (the target search
	// leaves those shapes for last).
	promoted bool
	cost     int
	// minorStand: where the minor piece can stand (the winner's piece of
	// that type standing there is the one steered).
	minorStand uint64
	// tempo: squares whose men the target search's key leaves out
	// (minorRoom.tempo).
	tempo uint64
	// stuck: the loser's pawns that never move (minorRoom.loserFixed):
	// none of them is promoted (promotedSteps).
	stuck uint64
}

// patternBlocker: a man of the loser on a square beside its king in a
// shape of mate, of the given type; types: every type the listing allows
// there; promoted: a promoted pawn (or a piece of such a type already on
// the board) stands there.
type patternBlocker struct {
	sq, piece int
	types     uint8
	promoted  bool
}

// loneMinor reports whether winner has exactly a king and one knight or one
// bishop, and which.
func loneMinor(b *Board, winner int) (int, bool) {
	w := &b.bb[winner]
	if w[Pawn]|w[Rook]|w[Queen] != 0 {
		return 0, false
	}
	switch {
	case w[Bishop] == 0 && bits.OnesCount64(w[Knight]) == 1:
		return Knight, true
	case w[Knight] == 0 && w[Bishop] != 0 && (w[Bishop]&light == 0 || w[Bishop]&^light == 0):
		// One bishop, or bishops all on squares of one colour.
		return Bishop, true
	}
	return 0, false
}

// surely: a man of colour c and type p on from attacks (capture) or, with
// step, moves to (a pawn's push) the square to, every square between
// being in empty.
func surely(p, c, from, to int, empty uint64, step bool) bool {
	t := uint64(1) << to
	occ := ^empty &^ (1 << from)
	switch p {
	case Knight:
		return knightAttacks[from]&t != 0
	case Bishop: // (no line through both squares: no attack, cheaply)
		return (lineMask[2][from]|lineMask[3][from])&t != 0 && bishopAttacks(from, occ)&t != 0
	case Rook:
		return (lineMask[0][from]|lineMask[1][from])&t != 0 && rookAttacks(from, occ)&t != 0
	case Queen:
		return (lineMask[2][from]|lineMask[3][from])&t != 0 && bishopAttacks(from, occ)&t != 0 ||
			(lineMask[0][from]|lineMask[1][from])&t != 0 && rookAttacks(from, occ)&t != 0
	case Pawn:
		if !step {
			return pawnAttacks[c][from]&t != 0
		}
		d := 8
		if c == Black {
			d = -8
		}
		if from+d == to {
			return true
		}
		r := from >> 3
		if (c == White && r == 1 || c == Black && r == 6) && from+2*d == to && empty&(1<<(from+d)) != 0 {
			return true
		}
	}
	return false
}

// loneMinorPatterns lists the shapes of a mate by winner's lone minor
// piece (loneMinor) that the loser's material allows, calling visit on
// each (visit returns false to stop). It returns whether any was found.
func loneMinorPatterns(b *Board, winner, minor int, visit func(*matePattern) bool) bool {
	x := loneMinorRoom(b, winner, minor)
	return x.patterns(1-winner, visit)
}

// loneMinorRoom is the room of a lone minor piece: anywhere.
func loneMinorRoom(b *Board, winner, minor int) *minorRoom {
	x := &minorRoom{minor: minor, king: ^uint64(0), minorStand: ^uint64(0), winnerKing: ^uint64(0), block: ^uint64(0)}
	if minor == Bishop {
		if b.bb[winner][Bishop]&light != 0 {
			x.minorStand = light
		} else {
			x.minorStand = ^light
		}
		if bits.OnesCount64(b.bb[winner][Bishop]) > 1 {
			x.others, x.otherCover = true, x.minorStand
		}
		// The winner's men other than its king are bishops of one
		// colour: a pawn of the loser takes only on that colour.
		x.pawnNoTake = ^x.minorStand
	}
	x.count(b, 1-winner, 0)
	return x
}

// minorRoom: where a mate by a lone checking minor piece could stand, each
// an over-approximation (see the soundness notes): the loser king's
// squares, the minor's, the winner king's; fixed: pawns that stand in
// every position (walls, attackers and blockers that never move), of them
// loserFixed the loser's, fixedAttack the squares the winner's attack;
// block: where the loser's other men can stand; have, pawns: how many of
// each kind of man the loser has besides its fixed pawns.
type minorRoom struct {
	minor                               int
	king, minorStand, winnerKing, block uint64
	fixed, loserFixed, fixedAttack      uint64
	men                                 []blockMan
	// others: the winner has more than one bishop (all of one colour)
	// that may come near: the others may cover, and defend the checking
	// bishop on, any square of otherCover, may stand on a square of it
	// beside the king (so it is not known to be empty) and may pin a man
	// of the loser standing there against its king.
	others     bool
	otherCover uint64
	// tempo: squares where only men that never come near the loser's king
	// stand (for the target search's key).
	tempo uint64
	// pawnNoTake: squares where no man of the winner but its king ever
	// stands, so that a pawn of the loser never takes there (for the
	// order of the targets only: pawnCanStand).
	pawnNoTake uint64
}

// count lists the loser's men on b that are not fixed, each with the
// squares it can ever stand on: a piece by its own moves with the fixed
// pawns as walls, a pawn anywhere (it may promote).
func (x *minorRoom) count(b *Board, lc int, fixed uint64) {
	x.men = x.men[:0]
	for p := Pawn; p <= Queen; p++ {
		for f := b.bb[lc][p] &^ fixed; f != 0; f &= f - 1 {
			stand := ^uint64(0)
			if p != Pawn {
				stand, _ = flood(p, bits.TrailingZeros64(f), fixed, 0)
			}
			x.men = append(x.men, blockMan{p, stand})
		}
	}
}

// patterns lists the shapes of mate in the room (visit as above).
//
// The sets of blockers of one k, s and w are gone through in the order of
// their bits, largest first; a set that cannot pass (below) is passed over
// unvisited, so the shapes come as the plain listing gives them
// (patternsPlain, TestShapesAsListedPlainly), with fewer steps: what does
// not depend on the set is made once for each k, s and w. Passed over:
//   - sets without a square beside k that nothing covers whatever the
//     blockers: the minor's cover from s only shrinks as blockers come
//     (must);
//   - sets with a square no man of the loser can stand on as a type
//     allowed there whatever the other blockers, or with more squares than
//     the loser has men (assign finds no man for them).
//
// It stays whole (a search loop of the 6.9 analyser, which may exceed 100
// lines, issue 25): its nested loops fill one pattern p level by level and
// prune at each.
func (x *minorRoom) patterns(lc int, visit func(*matePattern) bool) bool {
	minor := x.minor
	var p matePattern
	p.minor = minor
	// The squares some man of the loser can stand on at all.
	var standAny uint64
	for _, man := range x.men {
		standAny |= man.stand
	}
	var bt blockerTypes
	bt.setMen(lc, x.men)
	any := false
	for ks := x.king &^ x.fixed; ks != 0; ks &= ks - 1 {
		k := bits.TrailingZeros64(ks)
		ring := kingAttacks[k]
		var checks uint64
		if minor == Knight {
			checks = knightAttacks[k]
		} else {
			checks = bishopAttacks(k, x.fixed)
		}
		var pinnable uint64
		if x.others {
			pinnable = ring & x.otherCover
		}
		for cs := checks & x.minorStand &^ x.fixed; cs != 0; cs &= cs - 1 {
			s := bits.TrailingZeros64(cs)
			between := squaresBetween(k, s) // none for a knight's check
			bt.startCheck(k, s, between, ring&^(1<<s)&^x.fixed&^pinnable, pinnable)
			// The winner's king: two squares from k, or absent (-1).
			var wsBuf [17]int // (-1 and the 16 squares two from k)
			ws := append(wsBuf[:0], -1)
			for f := x.winnerKing &^ x.fixed; f != 0; f &= f - 1 {
				if w := bits.TrailingZeros64(f); cheb(w, k) == 2 && w != s && between&(1<<w) == 0 {
					ws = append(ws, w)
				}
			}
			for _, w := range ws {
				var wbit, wcover uint64
				if w >= 0 {
					wbit, wcover = 1<<w, kingAttacks[w]
				}
				if ring&(1<<s) != 0 && (wcover|x.fixedAttack)&(1<<s) == 0 && !x.others {
					continue // the king takes the bishop
				}
				optional := ring &^ (1 << s) &^ between &^ x.fixed & x.block
				// The minor on s checks k whatever the blockers: for a
				// bishop, no blocker stands between (optional leaves those
				// squares out, w is not one of them, and checks has no
				// fixed man before s).
				cover := wcover | x.fixedAttack
				if x.others {
					cover |= x.otherCover
				}
				// must: the squares beside k every set of blockers must
				// hold, those that neither the cover above nor the minor
				// on s with no blockers covers (blockers only take from a
				// bishop's cover). A knight's cover does not depend on
				// them, so every set that holds must passes the test of
				// cover.
				var fullCover uint64
				if minor == Knight {
					fullCover = cover | knightAttacks[s]
				} else {
					fullCover = cover | bishopAttacks(s, wbit|x.fixed)
				}
				must := ring &^ (1 << s) &^ x.loserFixed &^ fullCover
				if must&^optional != 0 || must&^standAny != 0 || bits.OnesCount64(must) > len(x.men) {
					continue
				}
				bt.startKing(w)
				// Squares no man can ever block (bt.can): out of the sets.
				// (Not with more men than a position holds: assign then
				// takes a shape to exist without a matching.)
				if len(x.men) <= maxBlockMen {
					for f := must | optional&standAny; f != 0; f &= f - 1 {
						if q := bits.TrailingZeros64(f); !bt.can(q) {
							optional &^= 1 << q
						}
					}
					if must&^optional != 0 {
						continue
					}
				}
				free := optional &^ must & standAny
				for t := free; ; t = (t - 1) & free {
					sub := t | must
					if bits.OnesCount64(sub) <= len(x.men) &&
						(minor == Knight || ring&^sub&^(1<<s)&^x.loserFixed&^(cover|bishopAttacks(s, 1<<s|wbit|sub|x.fixed)) == 0) {
						if bt.assign(&p, sub) {
							any = true
							if !visit(&p) {
								return true
							}
						}
					}
					if t == 0 {
						break
					}
				}
			}
		}
	}
	return any
}

// blockMatching: assign's matching of the squares of a set of blockers
// to the men: the men that can stand on each square as a type allowed
// there (cand, a bit for each man), the man of each square and the square
// of each man (-1: none).
type blockMatching struct {
	cand     [8]uint32
	manOf    [8]int
	squareOf [maxBlockMen]int8
}

// maxBlockMen: the men of the loser a matching holds (more than a
// position can hold).
const maxBlockMen = 32

// try finds square i a man by an augmenting path, the men in their order
// (seen: the men on the path so far).
func (x *blockMatching) try(i int, seen *uint32) bool {
	for f := x.cand[i]; f != 0; f &= f - 1 {
		m := bits.TrailingZeros32(f)
		if *seen&(1<<m) != 0 {
			continue
		}
		*seen |= 1 << m
		if x.squareOf[m] < 0 || x.try(int(x.squareOf[m]), seen) {
			x.squareOf[m], x.manOf[i] = int8(i), m
			return true
		}
	}
	return false
}

// blockMan: a man of the loser that may block, and where it can stand.
type blockMan struct {
	piece int
	stand uint64
}

// blockerTypes gives, for one k, s and w of the listing, each square
// beside k the types a man of the loser may have there (of a set sub of
// blockers, with the squares beside k not in sub empty): a piece keeps its
// type, a pawn stays a pawn (not on the first or last rank) or promotes to
// anything, and a man parries nothing (see the soundness note above) —
// attacks w, or (unless it may be pinned) attacks s or steps or attacks
// onto a square between s and k, each "surely" (surely). Whether a man of a
// type surely does so depends on the set only through the squares on its
// line that may or may not hold a blocker: made once for each square, as
// the types out whatever the set and, for each line, the types out when no
// blocker stands on it; those of s and the squares between once for each k
// and s (makeCheck), those of w once for each w (makeKing).
type blockerTypes struct {
	lc  int
	men []blockMan
	// typeMen: the men (a bit for each) of each type. menOnSq: the men
	// that can stand on each square (made for the squares of menOnMade).
	typeMen   [Queen + 1]uint32
	menOnSq   [64]uint32
	menOnMade uint64
	k, s, w   int
	// between: the squares between s and k (empty); varying: the squares
	// empty where no blocker stands; pinnable: where a man of the loser
	// may be pinned.
	between, varying, pinnable uint64
	// The tests of s and the squares between, made for the squares of
	// checkMade since startCheck, and of w, for those of kingMade since
	// startKing: the types out whatever the set (checkOut, kingOut), and
	// the types out where no blocker stands on a line.
	checkMade, kingMade uint64
	checkOut, kingOut   [64]uint8
	checkN              [64]uint8
	checkLines          [64][maxCheckLines]typeLine
	kingLine            [64]typeLine
}

// typeLine: the types that surely parry (or attack w) where no blocker
// stands on line (none: types 0).
type typeLine struct {
	types uint8
	line  uint64
}

// maxCheckLines: s and at most six squares between s and k, each on one
// line (a diagonal, or a file or rank) from a square beside k, and one
// pawn's double step.
const maxCheckLines = 8

// setMen sets the men of the loser (colour lc) that may block.
func (x *blockerTypes) setMen(lc int, men []blockMan) {
	x.lc, x.men = lc, men
	if len(men) > maxBlockMen {
		return // (assign does not match them)
	}
	for m, man := range men {
		x.typeMen[man.piece] |= 1 << m
	}
}

// menAs: the men (a bit for each) that may stand on a square as one of the
// types of a (a bit for each type, not none): a pawn as any (staying a
// pawn or promoted), a piece as its own.
func (x *blockerTypes) menAs(a uint8) uint32 {
	men := x.typeMen[Pawn]
	for f := a &^ 1; f != 0; f &= f - 1 {
		men |= x.typeMen[bits.TrailingZeros8(f)]
	}
	return men
}

// startCheck begins the squares of k and s (between, varying, pinnable as
// above).
func (x *blockerTypes) startCheck(k, s int, between, varying, pinnable uint64) {
	x.k, x.s = k, s
	x.between, x.varying, x.pinnable = between, varying, pinnable
	x.checkMade = 0
}

// startKing begins the squares of w (of the k and s begun).
func (x *blockerTypes) startKing(w int) {
	x.w = w
	x.kingMade = 0
}

// makeCheck makes the tests of s and the squares between for square q.
func (x *blockerTypes) makeCheck(q int) {
	x.checkMade |= 1 << q
	var out uint8
	n := 0
	if x.pinnable&(1<<q) == 0 {
		lines := &x.checkLines[q]
		n = x.target(q, x.s, false, &out, lines[:], n)
		for f := x.between; f != 0; f &= f - 1 {
			n = x.target(q, bits.TrailingZeros64(f), true, &out, lines[:], n)
		}
	}
	x.checkOut[q], x.checkN[q] = out, uint8(n)
}

// makeKing makes the test of w for square q.
func (x *blockerTypes) makeKing(q int) {
	x.kingMade |= 1 << q
	var out uint8
	var line [1]typeLine // (a capture: a slider's line at most)
	if x.w >= 0 {
		x.target(q, x.w, false, &out, line[:], 0)
	}
	x.kingOut[q], x.kingLine[q] = out, line[0]
}

// target makes surely's tests of the types on q against the square to (a
// capture, or with step a pawn's push), for any set of blockers: the
// types that reach it whatever the set go to out, those that reach it
// where no blocker stands on a line to lines from n on (a square of the
// line between s and k is always empty, one not varying never). It
// returns the lines' new end.
func (x *blockerTypes) target(q, to int, step bool, out *uint8, lines []typeLine, n int) int {
	line := func(types uint8, line uint64) {
		line &^= x.between
		switch {
		case line&^x.varying != 0: // never empty
		case line == 0:
			*out |= types
		default:
			lines[n] = typeLine{types, line}
			n++
		}
	}
	t := uint64(1) << to
	if knightAttacks[q]&t != 0 {
		*out |= 1 << Knight
	}
	if (lineMask[2][q]|lineMask[3][q])&t != 0 {
		line(1<<Bishop|1<<Queen, bishopAttacks(q, t)&bishopAttacks(to, 1<<q))
	} else if (lineMask[0][q]|lineMask[1][q])&t != 0 {
		line(1<<Rook|1<<Queen, rookAttacks(q, t)&rookAttacks(to, 1<<q))
	}
	if !step {
		if pawnAttacks[x.lc][q]&t != 0 {
			*out |= 1 << Pawn
		}
		return n
	}
	d := 8
	if x.lc == Black {
		d = -8
	}
	if q+d == to {
		*out |= 1 << Pawn
	} else if r := q >> 3; (x.lc == White && r == 1 || x.lc == Black && r == 6) && q+2*d == to {
		line(1<<Pawn, 1<<(q+d))
	}
	return n
}

// open: the types of q that no test rules out whatever the set.
func (x *blockerTypes) open(q int) uint8 {
	if x.checkMade&(1<<q) == 0 {
		x.makeCheck(q)
	}
	if x.kingMade&(1<<q) == 0 {
		x.makeKing(q)
	}
	a := uint8(1<<(Queen+1) - 1)
	if q>>3 == 0 || q>>3 == 7 {
		a &^= 1 << Pawn
	}
	return a &^ x.checkOut[q] &^ x.kingOut[q]
}

// types: the types allowed on q with the blockers of sub.
func (x *blockerTypes) types(q int, sub uint64) uint8 {
	a := x.open(q)
	for _, l := range x.checkLines[q][:x.checkN[q]] {
		if l.line&sub == 0 {
			a &^= l.types
		}
	}
	if l := x.kingLine[q]; l.types != 0 && l.line&sub == 0 {
		a &^= l.types
	}
	return a
}

// can reports whether some man of the loser can stand on q as a type
// allowed there with some set of blockers: else no set holding q passes.
func (x *blockerTypes) can(q int) bool {
	// (every type out by a line is allowed where a blocker stands on it)
	a := x.open(q)
	return a != 0 && x.menOn(q)&x.menAs(a) != 0
}

// menOn: the men (a bit for each) that can stand on q.
func (x *blockerTypes) menOn(q int) uint32 {
	if x.menOnMade&(1<<q) == 0 {
		x.menOnMade |= 1 << q
		var on uint32
		for m, man := range x.men {
			if man.stand&(1<<q) != 0 {
				on |= 1 << m
			}
		}
		x.menOnSq[q] = on
	}
	return x.menOnSq[q]
}

// assign gives each square of sub one of the loser's men that can stand
// there and, of a type it can have there (types), parries nothing: a
// matching of squares to men (augmenting paths). It fills p and reports
// whether every square has a man. (The listing gives it no set with more
// squares than men, nor with a square no man can ever stand on.)
func (x *blockerTypes) assign(p *matePattern, sub uint64) bool {
	k, s, w, men := x.k, x.s, x.w, x.men
	var sqs [8]int
	var allowed [8]uint8 // bit per piece type (Pawn..Queen)
	n := 0
	for f := sub; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		a := x.types(q, sub)
		if a == 0 {
			return false
		}
		sqs[n], allowed[n] = q, a
		n++
	}
	if n > len(men) {
		return false
	}
	if len(men) > maxBlockMen {
		// More men than a position can hold: no conclusion (a shape is
		// taken to exist, which only keeps the proofs out).
		p.k, p.s, p.w, p.nb, p.promoted = k, s, w, 0, true
		return true
	}
	// (a matching of its own, not closures: a recursive closure
	// would put its variables on the heap for every shape)
	var bm blockMatching
	for m := range men {
		bm.squareOf[m] = -1
	}
	// pawns: the first n men are pawns that every square can take. The
	// matching then gives each square one of them: it tries the men in
	// their order, and an augmenting path from any square meets a free
	// one of them before any other man. Only their type counts below.
	first := uint32(1)<<n - 1
	pawns := x.typeMen[Pawn]&first == first
	for i := 0; i < n; i++ {
		bm.cand[i] = x.menOn(sqs[i]) & x.menAs(allowed[i])
		pawns = pawns && bm.cand[i]&first == first
	}
	for i := 0; i < n && !pawns; i++ {
		var seen uint32
		if !bm.try(i, &seen) {
			return false
		}
	}
	p.k, p.s, p.w, p.nb, p.promoted = k, s, w, n, false
	for i := 0; i < n; i++ {
		p.blk[i] = patternBlocker{sq: sqs[i], types: allowed[i]}
		piece := Pawn
		if !pawns {
			piece = men[bm.manOf[i]].piece
		}
		switch {
		case piece != Pawn:
			p.blk[i].piece = piece
		case allowed[i]&1 != 0:
			p.blk[i].piece = Pawn
		default:
			p.promoted, p.blk[i].promoted = true, true
			p.blk[i].piece = bits.TrailingZeros8(allowed[i] &^ 1)
		}
	}
	return true
}

// loneMinorUnwinnable proves, for a winner with a lone minor piece, that no
// shape of a mate exists (see the soundness note above).
func loneMinorUnwinnable(b *Board, winner int) (bool, *phrase.Error) {
	minor, ok := loneMinor(b, winner)
	if !ok {
		return false, nil
	}
	if loneMinorPatterns(b, winner, minor, func(*matePattern) bool { return false }) {
		return false, nil
	}
	return true, loneMinorRoom(b, winner, minor).reason(winner, false)
}

// reason is the proof's sentence for the room x (blocked: behind the fixed
// pawns).
func (x *minorRoom) reason(winner int, blocked bool) *phrase.Error {
	name, checker := phrase.Word("knight"), phrase.Word("knight")
	if x.minor == Bishop {
		name, checker = "bishop", "bishop"
		if x.others {
			name = "bishops"
		}
	}
	if blocked {
		wn, ln := lower(colourName(winner)), lower(colourName(1-winner))
		return phrase.Errorf("the pawns are blocked for good and besides its king only the %s %s can ever come near the %s king; no mate can be set up with them: wherever the %s king stands, a square beside it stays free, or a man that must block it can take the checking %s or step in between", wn, name, ln, ln, checker)
	}
	wn, ln := phrase.Word(colourName(winner)), phrase.Word(colourName(1-winner))
	return phrase.Errorf("%s has only king and %s, and no mate can be set up with the men %s has or can promote to: wherever the %s king stands, a square beside it stays free, or a man that must block it can take the checking %s or step in between", wn, name, ln, ln, checker)
}

// mateTargets lists at most n shapes of a mate by the lone minor piece,
// those nearest to b first (targetScore), shapes needing a promoted pawn
// after those, and shapes needing more of the loser's pawns on a file than
// can ever reach that file (pawnFilesReachable) last: the listing keeps
// them (it over-approximates; only its order is a heuristic).
func (s *searcher) mateTargets(b *Board, x *minorRoom, n int) []matePattern {
	// The n cheapest of the first 20,000 shapes, the earlier first among
	// equal costs (as a stable sort of all of them would give), kept in
	// order as they come: a shape goes in after those that cost no more.
	var best []matePattern
	if n <= 0 {
		return best
	}
	lc := 1 - s.winner
	files := loserPawnFiles(b, s.winner)
	captures := max(0, bits.OnesCount64(b.occ[s.winner])-2)
	// pawnCanStand for each square, asked once (the same for every shape:
	// 0 not asked yet, 1 no, 2 yes).
	var canStand [64]int8
	var bound targetBound
	bound.init(b, s.winner, x)
	count := 0
	var q matePattern
	x.patterns(lc, func(p *matePattern) bool {
		count++
		q = *p
		q.minorStand, q.tempo, q.stuck = x.minorStand, x.tempo, x.loserFixed
		// A pawn blocker no pawn of the loser can ever come to as a
		// pawn is a promoted one, where the listing allows that: the
		// search is then steered to promoting it (targetScore).
		unreachable := false
		for i := 0; i < q.nb; i++ {
			bl := &q.blk[i]
			if bl.piece != Pawn {
				continue
			}
			if canStand[bl.sq] == 0 {
				canStand[bl.sq] = 1
				if pawnCanStand(b, lc, bl.sq, x.pawnNoTake, captures) {
					canStand[bl.sq] = 2
				}
			}
			if canStand[bl.sq] == 2 {
				continue
			}
			if bl.types&^1 == 0 {
				unreachable = true
				continue
			}
			bl.piece, bl.promoted, q.promoted = bits.TrailingZeros8(bl.types&^1), true, true
		}
		var extra int
		if q.promoted {
			extra += 1000
		}
		if unreachable || !pawnFilesReachable(&q, files) {
			extra += 2000
		}
		// Once n are kept, a shape whose cost is surely no less than the
		// n-th's does not go in: not scored.
		if len(best) == n && bound.cost(b, &q)+extra >= best[n-1].cost {
			return count < 20000
		}
		s.target = &q
		q.cost = s.targetScore(b) + extra
		if len(best) < n || q.cost < best[len(best)-1].cost {
			i := sort.Search(len(best), func(j int) bool { return best[j].cost > q.cost })
			if len(best) < n {
				best = append(best, matePattern{})
			}
			copy(best[i+1:], best[i:len(best)-1])
			best[i] = q
		}
		return count < 20000
	})
	s.target = nil
	return best
}

// targetBound bounds targetScore from below for the shapes of one call of
// mateTargets: its terms for the two kings and the minor piece as it
// computes them, and for each blocker the fewest moves of any man of the
// loser that could be the one targetScore takes (it takes the nearest of
// those not taken by the blockers before: never fewer moves), capped at 9
// for a promoted one (promotedSteps may give a pawn's moves beyond 9 where
// no piece is nearer; with fewer men, it gives those or 9). Its terms for
// the guards are never negative.
type targetBound struct {
	lc     int
	lk, wk int
	// noMinor: no piece of the minor's type on its squares (targetScore
	// then gives 1<<20 whatever the shape).
	noMinor bool
	minors  uint64
	minor   int
	winner  int
	stuck   uint64
	// Made when first asked (-1: not yet): tMinor times the minor's moves
	// to a square; tBlocker times the moves of the nearest man of a type
	// to a square; that of a promoted blocker of the types allowed.
	minorMoves    [64]int16
	blockerMoves  [Queen + 1][64]int16
	promotedMoves [1 << (Queen + 1)][64]int16
}

// init sets t up for the shapes of x on b.
func (t *targetBound) init(b *Board, winner int, x *minorRoom) {
	*t = targetBound{
		lc:     1 - winner,
		lk:     bits.TrailingZeros64(b.bb[1-winner][King]),
		wk:     bits.TrailingZeros64(b.bb[winner][King]),
		minors: b.bb[winner][x.minor] & x.minorStand,
		minor:  x.minor,
		winner: winner,
		stuck:  x.loserFixed,
	}
	t.noMinor = t.minors == 0
	for i := range t.minorMoves {
		t.minorMoves[i] = -1
	}
	for p := range t.blockerMoves {
		for i := range t.blockerMoves[p] {
			t.blockerMoves[p][i] = -1
		}
	}
	for p := range t.promotedMoves {
		for i := range t.promotedMoves[p] {
			t.promotedMoves[p][i] = -1
		}
	}
}

// cost is the bound for p on b.
func (t *targetBound) cost(b *Board, p *matePattern) int {
	if t.noMinor {
		return 1 << 20
	}
	sc := tKing * cheb(t.lk, p.k)
	if p.w >= 0 {
		sc += tWKing * cheb(t.wk, p.w)
	} else if d := cheb(t.wk, p.k); d < 3 {
		sc += tWKing * (3 - d)
	}
	if t.minorMoves[p.s] < 0 {
		best := 9
		for f := t.minors; f != 0; f &= f - 1 {
			best = min(best, pieceSteps(t.minor, t.winner, bits.TrailingZeros64(f), p.s))
		}
		t.minorMoves[p.s] = int16(tMinor * best)
	}
	sc += int(t.minorMoves[p.s])
	for i := 0; i < p.nb; i++ {
		bl := &p.blk[i]
		q := bl.sq
		if bl.promoted {
			c := &t.promotedMoves[bl.types&^1][q]
			if *c < 0 {
				best, _ := promotedSteps(b, t.lc, bl, t.stuck)
				*c = int16(tBlocker * min(best, 9))
			}
			sc += int(*c)
			continue
		}
		c := &t.blockerMoves[bl.piece][q]
		if *c < 0 {
			best := 9
			for f := b.bb[t.lc][bl.piece]; f != 0; f &= f - 1 {
				best = min(best, pieceSteps(bl.piece, t.lc, bits.TrailingZeros64(f), q))
			}
			*c = int16(tBlocker * best)
		}
		sc += int(*c)
	}
	return sc
}

// loserPawnFiles counts, for each file, the loser's pawns that can ever
// stand on it: a pawn changes file only by taking a man of the winner, and
// the winner keeps its king and the mating piece, so a pawn on file a can
// reach file f only if |a-f| is at most the winner's other men.
func loserPawnFiles(b *Board, winner int) [8]int {
	var n [8]int
	captures := max(0, bits.OnesCount64(b.occ[winner])-2)
	for f := b.bb[1-winner][Pawn]; f != 0; f &= f - 1 {
		a := bits.TrailingZeros64(f) & 7
		for file := max(0, a-captures); file <= min(7, a+captures); file++ {
			n[file]++
		}
	}
	return n
}

// pawnFilesReachable reports whether, on every file, p's pawn blockers are
// no more than the loser's pawns that can ever stand on it (files, from
// loserPawnFiles).
func pawnFilesReachable(p *matePattern, files [8]int) bool {
	var need [8]int
	for i := 0; i < p.nb; i++ {
		if p.blk[i].piece == Pawn {
			f := p.blk[i].sq & 7
			need[f]++
			if need[f] > files[f] {
				return false
			}
		}
	}
	return true
}

// pawnCanStand reports whether a pawn of colour c on b may ever stand, as
// a pawn, on the square to: forward of it by at least as many ranks as
// files, with at most captures captures (one for each file), none of them
// on noTake. Where noTake holds every square of one colour, a pawn takes
// only on the other, and a take keeps the colour of the pawn's square
// while a step forward changes it: a pawn on the colour it never takes on
// must step forward once before it takes. (For the order of the targets:
// a shape with a pawn where none can come is one with a promoted pawn.)
func pawnCanStand(b *Board, c, to int, noTake uint64, captures int) bool {
	for f := b.bb[c][Pawn]; f != 0; f &= f - 1 {
		if pawnReaches(c, bits.TrailingZeros64(f), to, noTake, captures) {
			return true
		}
	}
	return false
}

// pawnReaches is pawnCanStand for the pawn on from.
func pawnReaches(c, from, to int, noTake uint64, captures int) bool {
	ranks := to>>3 - from>>3
	if c == Black {
		ranks = -ranks
	}
	files := to&7 - from&7
	files = max(files, -files)
	if ranks < 0 || files > ranks || files > captures {
		return false
	}
	if files == 0 {
		return true
	}
	colour := light
	if light&(1<<from) == 0 {
		colour = ^light
	}
	if noTake&colour == colour && ranks == files {
		return false // it must step onto the other colour first
	}
	return true
}

// knightDist: knight moves between two squares on an empty board.
var knightDist [64][64]int8

func init() {
	for a := 0; a < 64; a++ {
		d := &knightDist[a]
		for i := range d {
			d[i] = -1
		}
		d[a] = 0
		queue := []int{a}
		for len(queue) > 0 {
			q := queue[0]
			queue = queue[1:]
			for f := knightAttacks[q]; f != 0; f &= f - 1 {
				t := bits.TrailingZeros64(f)
				if d[t] < 0 {
					d[t] = d[q] + 1
					queue = append(queue, t)
				}
			}
		}
	}
}

// pieceSteps estimates the moves a man of type p and colour c needs from
// a to t (9: never, as far as the estimate knows).
func pieceSteps(p, c, a, t int) int {
	if a == t {
		return 0
	}
	switch p {
	case Knight:
		return int(knightDist[a][t])
	case Bishop:
		if (light>>a)&1 != (light>>t)&1 {
			return 9
		}
		if (lineMask[2][a]|lineMask[3][a])&(1<<t) != 0 {
			return 1
		}
		return 2
	case Rook:
		if (lineMask[0][a]|lineMask[1][a])&(1<<t) != 0 {
			return 1
		}
		return 2
	case Queen:
		if (lineMask[0][a]|lineMask[1][a]|lineMask[2][a]|lineMask[3][a])&(1<<t) != 0 {
			return 1
		}
		return 2
	case Pawn:
		if a&7 != t&7 {
			return 9
		}
		d := t>>3 - a>>3
		if c == Black {
			d = -d
		}
		if d < 0 {
			return 9
		}
		return d
	}
	return cheb(a, t)
}

// Weights of targetScore, in the score's units.
const (
	tKing    = 4 // the loser king's steps to k
	tWKing   = 3 // the winner king's steps to w
	tMinor   = 3 // the minor's moves to s
	tBlocker = 3 // each blocker's moves to its square
	tGuard   = 6 // each other man of the loser that parries the mate
)

// targetScore: how far b is from s.target, a shape of mate (lower is
// nearer), by the moves each man needs to reach its square there.
func (s *searcher) targetScore(b *Board) int {
	t := s.target
	lc := 1 - s.winner
	w, l := &b.bb[s.winner], &b.bb[lc]
	lk := bits.TrailingZeros64(l[King])
	wk := bits.TrailingZeros64(w[King])
	sc := tKing * cheb(lk, t.k)
	if t.w >= 0 {
		sc += tWKing * cheb(wk, t.w)
	} else if d := cheb(wk, t.k); d < 3 {
		sc += tWKing * (3 - d)
	}
	m := w[t.minor] & t.minorStand
	if m == 0 {
		return 1 << 20
	}
	best := 9
	for f := m; f != 0; f &= f - 1 {
		best = min(best, pieceSteps(t.minor, s.winner, bits.TrailingZeros64(f), t.s))
	}
	sc += tMinor * best
	var used uint64
	for i := 0; i < t.nb; i++ {
		q, p := t.blk[i].sq, t.blk[i].piece
		best, from := 9, -1
		if t.blk[i].promoted {
			best, from = promotedSteps(b, lc, &t.blk[i], used|t.stuck)
		} else {
			for f := l[p] &^ used; f != 0; f &= f - 1 {
				a := bits.TrailingZeros64(f)
				if d := pieceSteps(p, lc, a, q); d < best {
					best, from = d, a
				}
			}
		}
		if from >= 0 {
			used |= 1 << from
		}
		sc += tBlocker * best
	}
	// The loser's other men must not parry the check.
	occ := b.all()
	others := b.occ[lc] &^ used &^ l[King]
	if b.attackersOf(t.s, lc, occ)&others != 0 {
		sc += tGuard
	}
	if t.minor == Bishop {
		between := bishopAttacks(t.s, 1<<t.k) & bishopAttacks(t.k, 1<<t.s)
		for f := between; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			if others&(1<<q) != 0 || b.attackersOf(q, lc, occ)&others != 0 {
				sc += tGuard
			}
		}
	}
	return sc
}

// promotedSteps estimates the moves a promoted blocker bl needs: a piece
// of the loser of a type allowed on its square already there, or a pawn
// of the loser (not on used: taken, or never moving) pushed to its last rank — a move for each
// rank and for each man in its way, which must leave its file — and the
// piece it becomes then going to the square (without the 9 of "never"
// as a bound: the pawn's progress is what steers the search). It returns
// the steps and the man's square (-1: none).
func promotedSteps(b *Board, lc int, bl *patternBlocker, used uint64) (int, int) {
	l := &b.bb[lc]
	types := bl.types &^ 1
	best, from := 9, -1
	for t := Knight; t <= Queen; t++ {
		if types&(1<<t) == 0 {
			continue
		}
		for f := l[t] &^ used; f != 0; f &= f - 1 {
			a := bits.TrailingZeros64(f)
			if d := pieceSteps(t, lc, a, bl.sq); d < best {
				best, from = d, a
			}
		}
	}
	occ := b.all()
	for f := l[Pawn] &^ used; f != 0; f &= f - 1 {
		a := bits.TrailingZeros64(f)
		promo := a & 7
		if lc == White {
			promo += 56
		}
		ranks := promo>>3 - a>>3
		ahead := lineMask[0][a] &^ (uint64(1)<<a - 1) // (White: up the file)
		if lc == Black {
			ranks, ahead = -ranks, lineMask[0][a]&(uint64(1)<<a-1)
		}
		way := bits.OnesCount64(occ & ahead)
		piece := 9
		for t := Knight; t <= Queen; t++ {
			if types&(1<<t) != 0 {
				piece = min(piece, pieceSteps(t, lc, promo, bl.sq))
			}
		}
		if d := ranks + way + piece; from < 0 || d < best {
			best, from = d, a
		}
	}
	return best, from
}

// blockedMinorUnwinnable is the listing of shapes behind blocked pawns:
// with the fixed pawns standing for good (fixedPawns), only one man of the
// winner other than its king — a knight or a bishop — can ever stand on or
// attack a square the loser's king can reach or a square next to one. Its
// other men never check the king, never cover a square next to it, never
// defend the checking piece and never stand next to it, so in every mate
// the winner's king and that piece are alone against the loser's men, and
// the listing above applies with the regions of the static analysis: the
// loser king's squares, the piece's, the winner king's and the squares the
// loser's other men can reach; the fixed pawns as walls, the winner's
// attacking (a neighbour of the king holding one of the winner's fixed
// pawns must be covered: else the king takes it) and the loser's standing
// beside the king as blockers that never take or step (a fixed pawn never
// moves nor captures). Sound by the same argument, every set being an
// over-approximation (a pawn of the winner that is not fixed is followed
// as if it could capture anywhere; one that could reach the king's
// neighbourhood makes the test give up).
func blockedMinorUnwinnable(b *Board, winner int, fixed uint64, r [2]reach) (bool, *phrase.Error) {
	x := blockedMinorRoom(b, winner, fixed, r)
	if x == nil || x.patterns(1-winner, func(*matePattern) bool { return false }) {
		return false, nil
	}
	return true, x.reason(winner, true)
}

// blockedMinorRoom is the room of blockedMinorUnwinnable, nil when more
// than one man of the winner (or none) can come near the loser's king.
func blockedMinorRoom(b *Board, winner int, fixed uint64, r [2]reach) *minorRoom {
	if fixed == 0 {
		return nil
	}
	lc := 1 - winner
	zone := r[lc].kingStand
	for f := r[lc].kingStand; f != 0; f &= f - 1 {
		zone |= kingAttacks[bits.TrailingZeros64(f)]
	}
	w := &b.bb[winner]
	n, minor := 0, 0
	// far, near: where the men that never come near the loser's king
	// stand, and the others (the target search's key leaves out the men
	// on far squares that are not near ones: their moves are only tempo).
	var minorStand, minorAttack, far, near, colours, relevant uint64
	near = zone | r[lc].kingStand
	for p := Knight; p <= Queen; p++ {
		for f := w[p]; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			st, at := flood(p, q, fixed, 0)
			if (st|at)&zone != 0 {
				n++
				if p != minor && n > 1 {
					return nil // two kinds of men
				}
				minor = p
				relevant |= 1 << q
				minorStand |= st
				minorAttack |= at
				colours |= 1 << (light >> q & 1)
				near |= st
			} else {
				far |= st
			}
		}
	}
	if r[winner].kingStand&zone == 0 {
		far |= r[winner].kingStand
	} else {
		near |= r[winner].kingStand
	}
	for p := Knight; p <= Queen; p++ {
		for f := b.bb[lc][p]; f != 0; f &= f - 1 {
			if st, _ := flood(p, bits.TrailingZeros64(f), fixed, 0); st&zone == 0 {
				far |= st
			} else {
				near |= st
			}
		}
	}
	for f := w[Pawn] &^ fixed; f != 0; f &= f - 1 {
		if st, at := pawnFlood(winner, bits.TrailingZeros64(f), fixed, ^uint64(0)); (st|at)&zone != 0 {
			return nil
		}
	}
	if n == 0 || minor != Knight && minor != Bishop || n > 1 && (minor != Bishop || colours == 3) {
		return nil // more than one knight, or bishops of both colours
	}
	x := &minorRoom{
		minor:       minor,
		king:        r[lc].kingStand,
		minorStand:  minorStand,
		winnerKing:  r[winner].kingStand,
		block:       r[lc].stand,
		fixed:       fixed &^ b.bb[White][King] &^ b.bb[Black][King] &^ relevant,
		loserFixed:  fixed & b.occ[lc] &^ b.bb[lc][King],
		fixedAttack: pawnsAttack(winner, w[Pawn]&fixed),
		tempo:       far &^ near &^ fixed,
		others:      n > 1,
		otherCover:  minorAttack,
	}
	x.count(b, lc, x.loserFixed)
	return x
}

// fixedMen is fixedPawns with pieces: the greatest set of men (pawns,
// pieces, kings) that provably never move nor disappear while they all
// stand. A pawn stands behind a man of the set and none of its capture
// squares can ever hold an enemy man (nor an enemy pawn of the set), no
// enemy man can ever attack it, and the enemy king can never step next to
// it unless a man of the set guards it for good (guardsForGood: a pawn,
// knight or king of the set attacks it, or a bishop, rook or queen of the
// set stands next to it along its line); a piece's moves (the set as
// walls) all lead onto its own men of the set, no enemy man can ever
// attack it, nor the enemy king unless the set guards it for good; a
// king's steps lead onto its own men of the set or squares the enemy men
// of the set guard for good. "Ever": the
// reaches with the set as walls, the kings' squares narrowed by their
// pairs (reachesPaired: the kings never stand side by side). No castling right for a side with men in
// it; an en-passant capture open now leaves both pawns out. Computed, as
// fixedPawns, by removing men until nothing changes (removing one can only
// enlarge what the others' enemies reach); sound by induction on the first
// move that would move or take one of them. It returns the set and the
// reaches with it as walls (pawns alone: fixedPawns).
func (b *Board) fixedMen() (uint64, [2]reach) {
	return b.fixedMenHeld(-1)
}

// fixedMenHeld is fixedMen where, for the side winner (none when -1), a
// man of the winner that the loser's king could take also stays when every
// such capture leaves the winner without a legal move, and a man of the
// loser that the winner's king could take when every such capture
// stalemates the loser (kingTakesStalemate): either ends the game without a
// mate by the winner, so the set stands in every position before a game
// end (held.go).
func (b *Board) fixedMenHeld(winner int) (uint64, [2]reach) {
	return b.fixedMenWith(winner, stillMen{}, 0)
}

// fixedMenWith is fixedMenHeld where the pieces on still never move
// (immobilePieces: they flood to their own square only, and may be taken)
// and the piece on safe (none when 0) is taken to be never attacked: the
// set then stands as long as that piece stands (immobilePieces).
func (b *Board) fixedMenWith(winner int, still stillMen, safe uint64) (uint64, [2]reach) {
	return b.fixedMenRules(winner, heldRule|mateRule|stalemateRule|lastPieceRule, still, safe)
}

// The rules of fixedMenRules beyond fixedMen's, for the side winner: men
// a king can take only into a position without a move, and pawns of the
// loser that can step only into the winner's checkmate (heldRule:
// kingTakesStalemate, stepMatesWinner); men of the loser held by a mate of
// the winner (mateRule: selfMates).
const (
	heldRule = 1 << iota
	mateRule
	// stalemateRule: squares the winner's king never enters, its arrival
	// leaving the loser stalemated (stalemateSquares); a pawn of the loser
	// on such a square stays though the winner's king could take it.
	stalemateRule
	// lastPieceRule: where the winner has no pawn and one piece besides
	// its king, a bishop, rook or queen (lastPiece), that piece may stand
	// where a pawn of the loser in the set takes, and may attack a man of
	// the loser's set that stands beside the loser's king of the set when
	// taking it checks that king and must be answered by taking the piece
	// (lastPieceTakes): either leaves the winner a lone king.
	lastPieceRule
)

// fixedMenRules is fixedMenWith with the rules chosen.
func (b *Board) fixedMenRules(winner, rules int, still stillMen, safe uint64) (uint64, [2]reach) {
	return b.fixedMenFrom(winner, rules, still, safe, ^uint64(0))
}

// fixedMenFrom is fixedMenRules with the men of start only as the first
// candidates: the greatest such set within start.
func (b *Board) fixedMenFrom(winner, rules int, still stillMen, safe, start uint64) (uint64, [2]reach) {
	set, r, _ := b.fixedMenOff(winner, rules, still, safe, start, ^uint64(0))
	return set, r
}

// fixedMenOff is fixedMenFrom where, with stalemateRule, the squares the
// winner's king never enters (stalemateSquares) are sought within offStart
// only (stage 4k: within those of the phases before); it returns them too.
//
// It stays whole (a search loop of the 6.9 analyser, which may exceed 100
// lines, issue 25): a fixpoint whose sets only shrink, each pass reading
// what the one before left.
func (b *Board) fixedMenOff(winner, rules int, still stillMen, safe, start, offStart uint64) (uint64, [2]reach, uint64) {
	if winner < 0 {
		rules = 0
	}
	pawns := b.bb[White][Pawn] | b.bb[Black][Pawn]
	cand := b.all() & start
	for c := 0; c < 2; c++ {
		if b.castle&([2]uint8{castleWK | castleWQ, castleBK | castleBQ})[c] != 0 {
			cand &^= b.bb[c][King] | b.bb[c][Rook]
		}
	}
	if b.ep >= 0 {
		them := 1 - b.stm
		cand &^= pawnAttacks[them][b.ep] & b.bb[b.stm][Pawn]
		cand &^= uint64(1) << (int(b.ep) + upOf(them))
	}
	// off: squares the winner's king never enters; from all squares down
	// to a set where every arrival stalemates the loser, together with
	// the set (both only shrink, and the reaches are computed with both).
	var off uint64
	if rules&stalemateRule != 0 {
		off = offStart
	}
	last := -1
	if rules&lastPieceRule != 0 {
		last = b.lastPiece(winner)
	}
	for cand != 0 {
		if winner >= 0 {
			still.kingOff[winner] = off
		}
		r := b.reachesPaired(cand, still)
		offBefore := off
		if off != 0 {
			// A square holding a man of the winner in the set (not its
			// king) is never entered while the set stands: kept, so that
			// it is tested when the man leaves the set.
			off &= b.stalemateSquares(winner, cand, r) | cand&b.occ[winner]&^b.bb[winner][King]
		}
		// Guarded for good by a man of the set (guardsForGood: a pawn,
		// knight or king of the set attacks it, or a bishop, rook or queen
		// of the set stands next to it along its line; their attacks cannot
		// be blocked, and a pinned man still guards): the enemy king never
		// takes it.
		guards := [2]uint64{b.guardsForGood(White, cand), b.guardsForGood(Black, cand)}
		// Guarded in every position by pieces that move round a cage
		// (cageGuards): the same.
		for c := 0; c < 2; c++ {
			guards[c] |= b.cageGuards(c, cand, still, r)
		}
		held := rules&heldRule != 0
		keep := cand
		for f := cand; f != 0; f &= f - 1 {
			q := bits.TrailingZeros64(f)
			c, p := int(b.sq[q])/6, int(b.sq[q])%6
			m := uint64(1) << q
			e := &r[1-c]
			own := cand & b.occ[c]
			// The loser's man may have moves that mate the winner, and
			// squares the winner's king never enters.
			mates := rules&mateRule != 0 && c != winner
			var kOff uint64
			if c != winner {
				kOff = off
			}
			// The winner's last piece: where it stands, a pawn of the
			// loser takes it; a man it takes may be one it can take only
			// into being taken (lastPieceTakes).
			stand, attack := e.stand, e.attack
			if last >= 0 && c != winner {
				stand = 0
				if b.lastPieceTakes(winner, last, q, cand) {
					attack = 0
				}
			}
			switch p {
			case Pawn:
				front := uint64(1) << (q + upOf(c))
				guarded := m&guards[c] != 0
				if front&cand == 0 && !(mates && b.stepMates(winner, q, cand, still)) &&
					!(held && c != winner && b.stepMatesWinner(c, q, cand)) ||
					pawnAttacks[c][q]&(stand|e.kingStand|b.bb[1-c][Pawn]&cand) != 0 ||
					m&attack&^safe != 0 || m&e.kingAttack&^safe&^kOff != 0 && !guarded && (!held || !b.kingTakesStalemate(c, winner, q, cand, r)) {
					keep &^= m
				}
				continue
			case King:
				// Its steps lead onto its own men of the set or squares the
				// enemy men of the set guard for good (they stand, and their
				// attacks cannot be blocked).
				// (A step onto a man of safe takes it: the set stands
				// only as long as that man stands, so no such step is
				// made while it does.)
				if kingAttacks[q]&^own&^guards[1-c]&^safe != 0 {
					keep &^= m
				}
				continue
			}
			// A piece: its moves lead onto its own men of the set, no
			// enemy man attacks it, and the enemy king only where the set
			// guards it for good or where taking it ends the game.
			// (No move ever takes a king: the enemy king of the set is no
			// square to move to, though the piece may check it.)
			moves := manAttacks(p, q, cand) &^ own &^ (b.bb[1-c][King] & cand) &^ safe
			if mates && moves != 0 {
				moves = b.movesThatDoNotMate(winner, p, q, moves, cand, still)
			}
			if moves != 0 || m&attack&^safe != 0 ||
				m&e.kingAttack&^safe&^kOff&^guards[c] != 0 && (!held || !b.kingTakesStalemate(c, winner, q, cand, r)) {
				keep &^= m
			}
		}
		if keep == cand && off == offBefore {
			if cand&pawns == 0 {
				return 0, [2]reach{}, 0 // pieces alone are no blocked structure
			}
			return cand, r, off
		}
		cand = keep
	}
	return 0, [2]reach{}, 0
}

// immobilePieces is the set of men (pieces or pawns, of either side) that
// provably never move, though they may be taken: a man X that cannot move
// now (a piece's moves all lead onto its own men; a pawn has a man in
// front and no enemy man on a square it takes on) and that stays in the
// set of fixedMenWith when X alone is taken to be never attacked. Sound:
// that set stands as long as X stands — the induction of fixedMen on the
// first move that touches it, where the capture of X ends the claim and
// every other condition is checked as before — so while X stands, it has
// no move (a piece's squares hold its own men of the set; a pawn's front
// holds a man of the set, and no enemy man ever stands where it takes,
// en passant included); and once taken, X moves no more. For the same
// reason X attacks, while it stands, only what it attacks with the men of
// that set as blockers. E.g. B2b4/8/8/4k3/1p1p1p1p/1PpP1P1P/K1P4b/RB6 b
// for White: the rook on a1 can be taken by the bishop from h2 (by g1, e1
// or e3, d2, c1 and b2), but while it stands the king on a2 (a3 and b2
// attacked by the pawns on b4 and c3) and the bishop on b1 (c2 its own
// pawn) cannot move, nor can it; and in
// 1k6/1p4p1/1b1b2P1/6b1/1p1p4/1P1Pp1bp/4Pp1p/1B3Kbr b the pawn on g6,
// which the black king can take, never moves: the pawn on g7 in front of
// it never moves while it stands, and no black man can ever stand on f7
// or h7. Each X is proven on its own (the claim for one never leans on
// another's), so all of them hold together; winner is fixedMenHeld's.
func (b *Board) immobilePieces(winner int) stillMen {
	occ := b.all()
	var still stillMen
	var alone []int // pawns that cannot move now, not proven on their own
	// The men of the set itself stand for good: no need to ask.
	base, _ := b.fixedMenWith(winner, stillMen{}, 0)
	for c := 0; c < 2; c++ {
		for p := Pawn; p <= Queen; p++ {
			for f := b.bb[c][p] &^ base; f != 0; f &= f - 1 {
				q := bits.TrailingZeros64(f)
				m := uint64(1) << q
				if p == Pawn {
					if occ&(uint64(1)<<(q+upOf(c))) == 0 || pawnAttacks[c][q]&b.occ[1-c] != 0 || b.ep >= 0 {
						continue // it can move now (or an en-passant capture is open)
					}
				} else if manAttacks(p, q, occ)&^b.occ[c] != 0 {
					continue // it can move now
				}
				set, _ := b.fixedMenWith(winner, stillMen{}, m)
				if set&m == 0 {
					if p == Pawn {
						alone = append(alone, q)
					}
					continue
				}
				still.set |= m
				if p == Pawn {
					still.attack[c] |= pawnAttacks[c][q]
				} else {
					still.attack[c] |= manAttacks(p, q, set)
				}
			}
		}
	}
	for _, q := range b.pawnsOnlyTakenTogether(winner, alone) {
		still.set |= uint64(1) << q
		still.attack[int(b.sq[q])/6] |= pawnAttacks[int(b.sq[q])/6][q]
	}
	return still
}

// tempoKey is b's key without the men on squares of tempo: positions that
// differ only in where such men stand are one for the target search (it
// only finds lines, each replayed, and never concludes from running out).
func tempoKey(b *Board, tempo uint64) uint64 {
	k := b.key
	for f := b.all() & tempo; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		k ^= zPiece[b.sq[q]][q]
	}
	return k
}

// menUnwinnable is the static analysis of blocked pawns (stage 3 and the
// "no mate" test) with the men of fixedMen instead of the pawns of
// fixedPawns: the loser's men among them stand beside its king in every
// position (they never move nor are taken), the winner's attack from their
// squares (their floods, in the reaches).
func menUnwinnable(b *Board, winner int, men uint64, still stillMen, r [2]reach) (bool, *phrase.Error) {
	loser := 1 - winner
	w, l := lower(colourName(winner)), lower(colourName(loser))
	if r[winner].attack&r[loser].kingStand == 0 {
		return true, phrase.Errorf("the pawns and the men that hold them are blocked for good and no %s man can ever attack a square the %s king can reach", w, l)
	}
	room := mateRoom{
		king:       r[loser].kingStand,
		attack:     r[winner].attack | pawnsAttack(winner, b.bb[winner][Pawn]&men),
		pawns:      men & b.occ[loser] &^ b.bb[loser][King],
		block:      r[loser].stand,
		movers:     bits.OnesCount64(b.occ[loser] &^ b.bb[loser][King] &^ men),
		winnerKing: r[winner].kingStand,
	}
	if room.movers > 1 {
		room.men = b.manStands(loser, men, still, men, r)
	}
	if room.mateSquare() >= 0 {
		return false, nil
	}
	return true, phrase.Errorf("the pawns and the men that hold them are blocked for good and the %s king can be checked but never mated: wherever it can stand, a square next to it stays that no %s man can attack and no %s man can block", l, w, l)
}

// pawnsCouldStand is, for each side, where its pawns could ever stand
// with set standing and rs the reaches with it as walls: a pawn's square
// in the set, else its flood, taking where an enemy man could stand.
func (b *Board) pawnsCouldStand(set uint64, rs [2]reach) [2]uint64 {
	var at [2]uint64
	for e := 0; e < 2; e++ {
		at[e] = b.bb[e][Pawn] & set
		capt := b.occ[1-e]&^b.bb[1-e][King] | rs[1-e].stand
		for f := b.bb[e][Pawn] &^ set; f != 0; f &= f - 1 {
			st, _ := pawnFlood(e, bits.TrailingZeros64(f), set, capt)
			at[e] |= st
		}
	}
	return at
}

// maxTogether bounds the pawns pawnsOnlyTakenTogether proves together
// (it computes the fixed men once for each subset of them).
const maxTogether = 4

// pawnsOnlyTakenTogether is immobilePieces for pawns that hold only
// together (each of the pawns on cands cannot move now; branch w21c): the
// largest T of them (dropping those that fail) such that, for every
// subset C of T, the set S_C of fixedMenFrom (the rules of 4d and 4f, not
// stalemateRule: its squares are left out of the winner king's reach from
// the root, and the king may stand on one when a man of T is taken, so
// they would not hold from there) on the board without the men
// of C, with the men of T but C never attacked (safe) and the men of
// every S_C' (C' = C less one man) as the first candidates, holds every
// man of T but C. Then no man of T ever moves. Sound by induction on the
// captures of T's men (each standing man of T but C must also be out of
// reach of every enemy pawn's flood with S_C as walls — as fixedMen
// floods them, taking where an enemy man could ever stand —, so that it is taken
// only by a piece or the king, which lands on a square of its flood with
// S_C as walls): while the men of C are the ones taken, S_C stands
// as long as every man of T but C stands (fixedMen's induction on the
// first move that touches it: the capture of a man of T moves on to
// C with it, every other such move is impossible), so those men do not
// move; the sets only shrink from one C to the next, so the reaches of
// S_C (flooded from the root's squares, with S_C as walls) hold every man
// wherever it went while a larger set stood. E.g. in
// 1b3kBR/4pP1P/1pBpP2P/1P1P1Bp1/1pK1B1P1/1P1B1B2/8/8 b the white king can
// take b4 and g5: with b4 taken, g5 still holds the pawn on g4 (which
// holds it), and the other way round; 4e alone, which asks for each on its
// own, lets the other's pawn run to promotion.
func (b *Board) pawnsOnlyTakenTogether(winner int, cands []int) []int {
	// The pawns asked about: those the enemy king could come next to,
	// with every pawn that cannot move now and the kings as walls (a
	// choice only: any choice is sound).
	walls := b.bb[White][King] | b.bb[Black][King]
	for _, q := range cands {
		walls |= uint64(1) << q
	}
	r := b.reachesStill(walls, stillMen{})
	var t []int
	for _, q := range cands {
		if r[1-int(b.sq[q])/6].kingAttack&(uint64(1)<<q) != 0 {
			t = append(t, q)
		}
	}
	if len(t) < 2 || len(t) > maxTogether {
		return nil
	}
	for len(t) >= 2 {
		n := len(t)
		sets := make([]uint64, 1<<n)
		bad := -1
	subsets:
		for c := 0; c < 1<<n; c++ { // a subset comes after each subset of it
			x := *b
			start := ^uint64(0)
			var safe uint64
			for i, q := range t {
				if c&(1<<i) != 0 {
					x.remove(int(b.sq[q])/6, Pawn, q)
					start &= sets[c&^(1<<i)]
				} else {
					safe |= uint64(1) << q
				}
			}
			set, rs := x.fixedMenFrom(winner, heldRule|mateRule, stillMen{}, safe, start)
			sets[c] = set
			pawnAt := x.pawnsCouldStand(set, rs)
			for i, q := range t {
				col := int(b.sq[q]) / 6
				if c&(1<<i) == 0 && (set&(uint64(1)<<q) == 0 || pawnAttacks[col][q]&pawnAt[1-col] != 0) {
					// Without the men of C the others fall: drop the
					// first of C (its capture frees too much), or the
					// man that falls when none is taken.
					bad = i
					if c != 0 {
						bad = bits.TrailingZeros(uint(c))
					}
					break subsets
				}
			}
		}
		if bad < 0 {
			return t
		}
		t = append(t[:bad], t[bad+1:]...)
	}
	return nil
}
