package unwinnable

import (
	"fmt"
	"math/bits"
	"math/rand"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The listing of the shapes of a lone minor piece's mate as it was made
// first (branch w24a and before), plainly: every set of blockers of every
// k, s and w tested in turn, every shape scored. The listing and
// mateTargets in minor.go do the same with fewer steps (branch w25a), and
// TestShapesAsListedPlainly checks that they give the same shapes in the
// same order, with the same costs.

// patternsPlain lists the shapes of mate in the room (visit as above).
func (x *minorRoom) patternsPlain(lc int, visit func(*matePattern) bool) bool {
	minor := x.minor
	var p matePattern
	p.minor = minor
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
		for cs := checks & x.minorStand &^ x.fixed; cs != 0; cs &= cs - 1 {
			s := bits.TrailingZeros64(cs)
			var between uint64
			if minor == Bishop {
				between = bishopAttacks(s, 1<<k) & bishopAttacks(k, 1<<s)
			}
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
				// must: the squares beside k every set of blockers
				// must hold. A knight's cover does not depend on them:
				// the squares beside k nothing covers are such, and
				// only the sets that hold them are gone through, in the
				// same order (the others fail the test below).
				var must uint64
				if minor == Knight {
					cover := wcover | x.fixedAttack | knightAttacks[s]
					if x.others {
						cover |= x.otherCover
					}
					must = ring &^ (1 << s) &^ x.loserFixed &^ cover
					if must&^optional != 0 {
						continue
					}
				}
				free := optional &^ must
				for t := free; ; t = (t - 1) & free {
					sub := t | must
					occ := 1<<k | 1<<s | wbit | sub | x.fixed
					if minorAttacksFrom(minor, s, occ)&(1<<k) != 0 {
						cover := wcover | x.fixedAttack | minorAttacksFrom(minor, s, occ&^(1<<k))
						var pinnable uint64
						if x.others {
							cover |= x.otherCover
							pinnable = ring & x.otherCover
						}
						if ring&^sub&^(1<<s)&^x.loserFixed&^cover == 0 {
							empty := ring&^sub&^(1<<s)&^x.fixed&^pinnable | between
							if assignBlockersPlain(&p, k, s, w, sub, between, empty, pinnable, lc, x.men) {
								any = true
								if !visit(&p) {
									return true
								}
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

// blockMatchingPlain: assignBlockersPlain's matching of the squares (sqs, with the
// types allowed on each) to the men (manOf, squareOf: -1 for none).
type blockMatchingPlain struct {
	sqs      *[8]int
	allowed  *[8]uint8
	men      []blockMan
	manOf    [8]int
	squareOf [32]int
}

// can: man m can stand on square i with a type allowed there.
func (x *blockMatchingPlain) can(i, m int) bool {
	man := x.men[m]
	if man.stand&(1<<x.sqs[i]) == 0 {
		return false
	}
	if man.piece == Pawn {
		return true // as a pawn or promoted: allowed[i] != 0
	}
	return x.allowed[i]&(1<<man.piece) != 0
}

// try finds square i a man by an augmenting path.
func (x *blockMatchingPlain) try(i int, seen *[32]bool) bool {
	for m := range x.men {
		if seen[m] || !x.can(i, m) {
			continue
		}
		seen[m] = true
		if x.squareOf[m] < 0 || x.try(x.squareOf[m], seen) {
			x.squareOf[m], x.manOf[i] = i, m
			return true
		}
	}
	return false
}

// assignBlockersPlain gives each square of sub one of the loser's men (colour
// lc) that can stand there and, of a type it can have there, parries
// nothing (see the soundness note above): a piece keeps its type, a pawn
// stays a pawn (not on the first or last rank) or promotes to anything. A
// matching of squares to men (augmenting paths). It fills p and reports
// whether every square has a man.
func assignBlockersPlain(p *matePattern, k, s, w int, sub, between, empty, pinnable uint64, lc int, men []blockMan) bool {
	// No matching without a man for every square, nor where a square
	// has no man that can stand there: said before the parries are
	// looked at (the answer is the same, found cheaply).
	if bits.OnesCount64(sub) > len(men) {
		return false
	}
	var stand uint64
	for _, man := range men {
		stand |= man.stand
	}
	if sub&^stand != 0 {
		return false
	}
	var sqs [8]int
	var allowed [8]uint8 // bit per piece type (Pawn..Queen)
	n := 0
	for f := sub; f != 0; f &= f - 1 {
		q := bits.TrailingZeros64(f)
		var a uint8
		for t := Pawn; t <= Queen; t++ {
			if t == Pawn && (q>>3 == 0 || q>>3 == 7) {
				continue
			}
			if w >= 0 && surely(t, lc, q, w, empty, false) {
				continue
			}
			if pinnable&(1<<q) != 0 {
				a |= 1 << t // it may be pinned: no parry is sure
				continue
			}
			if surely(t, lc, q, s, empty, false) {
				continue
			}
			parries := false
			for bt := between; bt != 0 && !parries; bt &= bt - 1 {
				parries = surely(t, lc, q, bits.TrailingZeros64(bt), empty, t == Pawn)
			}
			if !parries {
				a |= 1 << t
			}
		}
		if a == 0 {
			return false
		}
		sqs[n], allowed[n] = q, a
		n++
	}
	if n > len(men) {
		return false
	}
	// (a matching of its own, not closures: a recursive closure
	// would put its variables on the heap for every shape)
	var x blockMatchingPlain
	x.sqs, x.allowed, x.men = &sqs, &allowed, men
	manOf, squareOf := &x.manOf, &x.squareOf
	for m := range squareOf {
		squareOf[m] = -1
	}
	if len(men) > len(squareOf) {
		// More men than a position can hold: no conclusion (a shape is
		// taken to exist, which only keeps the proofs out).
		p.k, p.s, p.w, p.nb, p.promoted = k, s, w, 0, true
		return true
	}
	for i := 0; i < n; i++ {
		var seen [32]bool
		if !x.try(i, &seen) {
			return false
		}
	}
	p.k, p.s, p.w, p.nb, p.promoted = k, s, w, n, false
	for i := 0; i < n; i++ {
		p.blk[i] = patternBlocker{sq: sqs[i], types: allowed[i]}
		switch man := men[manOf[i]]; {
		case man.piece != Pawn:
			p.blk[i].piece = man.piece
		case allowed[i]&1 != 0:
			p.blk[i].piece = Pawn
		default:
			p.promoted, p.blk[i].promoted = true, true
			p.blk[i].piece = bits.TrailingZeros8(allowed[i] &^ 1)
		}
	}
	return true
}

// mateTargetsPlain lists at most n shapes of a mate by the lone minor piece,
// those nearest to b first (targetScore), shapes needing a promoted pawn
// after those, and shapes needing more of the loser's pawns on a file than
// can ever reach that file (pawnFilesReachable) last: the listing keeps
// them (it over-approximates; only its order is a heuristic).
func (s *searcher) mateTargetsPlain(b *Board, x *minorRoom, n int) []matePattern {
	// The n cheapest of the first 20,000 shapes, the earlier first among
	// equal costs (as a stable sort of all of them would give), kept in
	// order as they come: a shape goes in after those that cost no more.
	var best []matePattern
	if n <= 0 {
		return best
	}
	files := loserPawnFiles(b, s.winner)
	captures := max(0, bits.OnesCount64(b.occ[s.winner])-2)
	count := 0
	var q matePattern
	x.patternsPlain(1-s.winner, func(p *matePattern) bool {
		count++
		q = *p
		q.minorStand, q.tempo, q.stuck = x.minorStand, x.tempo, x.loserFixed
		// A pawn blocker no pawn of the loser can ever come to as a
		// pawn is a promoted one, where the listing allows that: the
		// search is then steered to promoting it (targetScore).
		unreachable := false
		for i := 0; i < q.nb; i++ {
			bl := &q.blk[i]
			if bl.piece != Pawn || pawnCanStand(b, 1-s.winner, bl.sq, x.pawnNoTake, captures) {
				continue
			}
			if bl.types&^1 == 0 {
				unreachable = true
				continue
			}
			bl.piece, bl.promoted, q.promoted = bits.TrailingZeros8(bl.types&^1), true, true
		}
		s.target = &q
		q.cost = s.targetScore(b)
		if q.promoted {
			q.cost += 1000
		}
		if unreachable || !pawnFilesReachable(&q, files) {
			q.cost += 2000
		}
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

func minorAttacksFrom(minor, s int, occ uint64) uint64 {
	if minor == Knight {
		return knightAttacks[s]
	}
	return bishopAttacks(s, occ)
}

// TestShapesAsListedPlainly: the listing (patterns) and mateTargets give
// the same shapes, in the same order and with the same costs, as their
// plain versions above, on the rooms of a lone minor piece or of one
// behind fixed pawns or men of every 80th row of both reference files
// (UNWINNABLE_SHAPES=n: every nth), of random plies from them, and of
// random lone minor pieces against random men.
func TestShapesAsListedPlainly(t *testing.T) {
	every := 80
	if v := os.Getenv("UNWINNABLE_SHAPES"); v != "" {
		if _, err := fmt.Sscan(v, &every); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewSource(25))
	rooms := 0
	var want []matePattern
	check := func(b *Board, winner int) {
		var xs []*minorRoom
		if minor, ok := loneMinor(b, winner); ok {
			xs = append(xs, loneMinorRoom(b, winner, minor))
		}
		fixed, reached := b.fixedPawns()
		if x := blockedMinorRoom(b, winner, fixed, reached); x != nil {
			xs = append(xs, x)
		}
		s := &searcher{winner: winner, proven: map[uint64]int16{}}
		if _, x := s.fixedMenStage(b, fixed); x != nil {
			xs = append(xs, x)
		}
		for _, x := range xs {
			rooms++
			want = want[:0]
			wantAny := x.patternsPlain(1-winner, func(p *matePattern) bool { want = append(want, *p); return len(want) < 30_000 })
			got := 0
			gotAny := x.patterns(1-winner, func(p *matePattern) bool {
				if got >= len(want) || *p != want[got] {
					t.Fatalf("%s for %s: shape %d differs", b.FEN(), colourName(winner), got)
				}
				got++
				return got < 30_000
			})
			if gotAny != wantAny || got != len(want) {
				t.Fatalf("%s for %s: %d shapes (%v), want %d (%v)", b.FEN(), colourName(winner), got, gotAny, len(want), wantAny)
			}
			for _, n := range []int{minorTargets, 400} {
				got := s.mateTargets(b, x, n)
				want := s.mateTargetsPlain(b, x, n)
				if !slices.Equal(got, want) {
					t.Fatalf("%s for %s: the %d targets differ", b.FEN(), colourName(winner), n)
				}
			}
		}
	}
	for _, f := range referenceFiles(t) {
		for i, r := range readRows(t, f) {
			if i%every != 0 {
				continue
			}
			b, err := ParseFEN(r.fen)
			if err != nil {
				t.Fatal(err)
			}
			for winner := White; winner <= Black; winner++ {
				check(b, winner)
				if _, ok := loneMinor(b, winner); ok {
					c := randomPlies(rng, *b, 1+rng.Intn(6))
					check(&c, winner)
				}
			}
		}
	}
	// Random lone minor pieces (a knight, a bishop or bishops of one
	// colour) against random men.
	for i := 0; i < 200; i++ {
		var sq [64]byte
		for j := range sq {
			sq[j] = '1'
		}
		free := func(ranks int) int {
			for {
				q := rng.Intn(64)
				if r := q >> 3; sq[q] == '1' && (ranks == 0 || r != 0 && r != 7) {
					return q
				}
			}
		}
		wk := free(0)
		sq[wk] = 'K'
		for {
			q := free(0)
			if cheb(q, wk) > 1 {
				sq[q] = 'k'
				break
			}
		}
		if rng.Intn(2) == 0 {
			sq[free(0)] = 'N'
		} else {
			colour := uint64(rng.Intn(2))
			for n := 1 + rng.Intn(2); n > 0; {
				if q := free(0); light>>q&1 == colour {
					sq[q] = 'B'
					n--
				}
			}
		}
		for n := rng.Intn(9); n > 0; n-- {
			if p := "pnbrqpp"[rng.Intn(7)]; p == 'p' {
				sq[free(1)] = p
			} else {
				sq[free(0)] = p
			}
		}
		var fen strings.Builder
		for r := 7; r >= 0; r-- {
			fen.Write(sq[r*8 : r*8+8])
			if r > 0 {
				fen.WriteByte('/')
			}
		}
		b, err := ParseFEN(fen.String() + " w - - 0 1")
		if err != nil {
			continue
		}
		check(b, White)
	}
	t.Logf("%d rooms", rooms)
}

// BenchmarkMateTargets runs mateTargets, and BenchmarkMateTargetsPlain its
// plain version, on the rooms of a lone minor piece (or one behind fixed
// pawns) of the rows of BenchmarkLichessSample, for the row's winner.
func BenchmarkMateTargets(b *testing.B)      { benchMateTargets(b, false) }
func BenchmarkMateTargetsPlain(b *testing.B) { benchMateTargets(b, true) }

func benchMateTargets(b *testing.B, plain bool) {
	type room struct {
		b *Board
		s *searcher
		x *minorRoom
	}
	var rooms []room
	n := 0
	for _, r := range readRows(b, chasolverFile(b)) {
		if !strings.Contains(r.source, "lichess") {
			continue
		}
		if n++; (n-1)%10 != 0 {
			continue
		}
		bd, err := ParseFEN(r.fen)
		if err != nil {
			b.Fatal(err)
		}
		winner, _ := ParseColour(r.colour)
		s := &searcher{winner: winner, proven: map[uint64]int16{}}
		if minor, ok := loneMinor(bd, winner); ok {
			rooms = append(rooms, room{bd, s, loneMinorRoom(bd, winner, minor)})
		} else if fixed, reached := bd.fixedPawns(); fixed != 0 {
			if x := blockedMinorRoom(bd, winner, fixed, reached); x != nil {
				rooms = append(rooms, room{bd, s, x})
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range rooms {
			if plain {
				r.s.mateTargetsPlain(r.b, r.x, minorTargets)
			} else {
				r.s.mateTargets(r.b, r.x, minorTargets)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(rooms)), "µs/room")
	b.ReportMetric(float64(len(rooms)), "rooms")
}
