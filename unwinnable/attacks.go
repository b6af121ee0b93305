package unwinnable

import "math/bits"

const (
	fileA = uint64(0x0101010101010101)
	fileH = fileA << 7
	rank1 = uint64(0xFF)
	rank8 = rank1 << 56
	light = uint64(0x55AA55AA55AA55AA) // b1, a2, ... (a1 is dark)
)

var (
	knightAttacks [64]uint64
	kingAttacks   [64]uint64
	pawnAttacks   [2][64]uint64  // squares a pawn of the colour on the square attacks
	lineMask      [4][64]uint64  // file, rank, diagonal, anti-diagonal, without the square
	betweenTable  [64][64]uint64 // squaresBetween
)

// squaresBetween is the squares strictly between a and b on the rank, file
// or diagonal through both: empty when they share none or are neighbours
// (a knight's check, a pawn's), so the squares that block a check or a pin
// from b on a king on a.
func squaresBetween(a, b int) uint64 { return betweenTable[a][b] }

// walkBetween is the squares strictly between a and b on the rank, file
// or diagonal through both (empty when they share none, or are
// neighbours), walked a step at a time: the table squaresBetween reads.
func walkBetween(a, b int) uint64 {
	df, dr := b&7-a&7, b>>3-a>>3
	if df != 0 && dr != 0 && df != dr && df != -dr {
		return 0
	}
	sf, sr := sign(df), sign(dr)
	var out uint64
	for f, r := a&7+sf, a>>3+sr; f != b&7 || r != b>>3; f, r = f+sf, r+sr {
		out |= uint64(1) << (r*8 + f)
	}
	return out
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func init() {
	for a := 0; a < 64; a++ {
		for b := 0; b < 64; b++ {
			betweenTable[a][b] = walkBetween(a, b)
		}
	}
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if ff, rr := f+d[0], r+d[1]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				knightAttacks[s] |= 1 << (rr*8 + ff)
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if ff, rr := f+df, r+dr; (df != 0 || dr != 0) && ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
					kingAttacks[s] |= 1 << (rr*8 + ff)
				}
			}
		}
		for _, df := range []int{-1, 1} {
			if ff := f + df; ff >= 0 && ff < 8 {
				if r < 7 {
					pawnAttacks[White][s] |= 1 << ((r+1)*8 + ff)
				}
				if r > 0 {
					pawnAttacks[Black][s] |= 1 << ((r-1)*8 + ff)
				}
			}
		}
		for t := 0; t < 64; t++ {
			if t == s {
				continue
			}
			tf, tr := t&7, t>>3
			if tf == f {
				lineMask[0][s] |= 1 << t
			}
			if tr == r {
				lineMask[1][s] |= 1 << t
			}
			if tf-f == tr-r {
				lineMask[2][s] |= 1 << t
			}
			if tf-f == r-tr {
				lineMask[3][s] |= 1 << t
			}
		}
	}
}

// lineAttacks is hyperbola quintessence: along one line through s (a file or
// a diagonal), the squares up to and including the first blocker on each
// side. The subtraction o-2r sets the bits from s up to the first blocker
// above it; the same on the byte-swapped board (a vertical flip, which keeps
// files and diagonals lines) gives the side below.
func lineAttacks(occ uint64, s int, mask uint64) uint64 {
	o := occ & mask
	r := uint64(1) << s
	fwd := o - 2*r
	rev := bits.ReverseBytes64(bits.ReverseBytes64(o) - 2*bits.ReverseBytes64(r))
	return (fwd ^ rev) & mask
}

// firstRank[file][inner] is the attack set along a rank of a slider on file
// with the six inner squares occupied as the bits of inner say. A byte swap
// cannot flip a rank, so ranks use this table.
var firstRank [8][64]uint8

func init() {
	for f := 0; f < 8; f++ {
		for inner := 0; inner < 64; inner++ {
			occ := inner << 1
			var a uint8
			for g := f + 1; g < 8; g++ {
				a |= 1 << g
				if occ&(1<<g) != 0 {
					break
				}
			}
			for g := f - 1; g >= 0; g-- {
				a |= 1 << g
				if occ&(1<<g) != 0 {
					break
				}
			}
			firstRank[f][inner] = a
		}
	}
}

func rankAttacks(s int, occ uint64) uint64 {
	shift := s &^ 7
	inner := (occ >> (shift + 1)) & 63
	return uint64(firstRank[s&7][inner]) << shift
}

func bishopAttacks(s int, occ uint64) uint64 {
	return lineAttacks(occ, s, lineMask[2][s]) | lineAttacks(occ, s, lineMask[3][s])
}

func rookAttacks(s int, occ uint64) uint64 {
	return lineAttacks(occ, s, lineMask[0][s]) | rankAttacks(s, occ)
}

// attackersOf: pieces of colour by attacking square s with occupancy occ.
func (b *Board) attackersOf(s, by int, occ uint64) uint64 {
	p := &b.bb[by]
	return pawnAttacks[1-by][s]&p[Pawn] |
		knightAttacks[s]&p[Knight] |
		kingAttacks[s]&p[King] |
		bishopAttacks(s, occ)&(p[Bishop]|p[Queen]) |
		rookAttacks(s, occ)&(p[Rook]|p[Queen])
}

// attacked: whether a piece of colour by attacks square s. The sliders'
// lines are only traced when a slider stands on one of them.
func (b *Board) attacked(s, by int) bool {
	p := &b.bb[by]
	if pawnAttacks[1-by][s]&p[Pawn]|knightAttacks[s]&p[Knight]|kingAttacks[s]&p[King] != 0 {
		return true
	}
	occ := b.all()
	if bq := p[Bishop] | p[Queen]; bq&(lineMask[2][s]|lineMask[3][s]) != 0 && bishopAttacks(s, occ)&bq != 0 {
		return true
	}
	rq := p[Rook] | p[Queen]
	return rq&(lineMask[0][s]|lineMask[1][s]) != 0 && rookAttacks(s, occ)&rq != 0
}

// attackedWithout is attacked with occupancy occ, the men of colour by
// on gone left out (a man a move takes).
func (b *Board) attackedWithout(s, by int, occ, gone uint64) bool {
	p := &b.bb[by]
	if (pawnAttacks[1-by][s]&p[Pawn]|knightAttacks[s]&p[Knight]|kingAttacks[s]&p[King])&^gone != 0 {
		return true
	}
	if bq := (p[Bishop] | p[Queen]) &^ gone; bq&(lineMask[2][s]|lineMask[3][s]) != 0 && bishopAttacks(s, occ)&bq != 0 {
		return true
	}
	rq := (p[Rook] | p[Queen]) &^ gone
	return rq&(lineMask[0][s]|lineMask[1][s]) != 0 && rookAttacks(s, occ)&rq != 0
}

// InCheck: whether the side to move is in check.
func (b *Board) InCheck() bool {
	return b.attacked(bits.TrailingZeros64(b.bb[b.stm][King]), 1-b.stm)
}

// The attacks of a set of men of one type at once (the union of each
// one's attacks, the same squares as asking square by square): the flood
// fills of the static stages move a whole frontier a step at a time.

// knightsAttack: the squares the knights on set attack.
func knightsAttack(set uint64) uint64 {
	const notA, notAB = ^fileA, ^(fileA | fileA<<1)
	const notH, notGH = ^fileH, ^(fileH | fileH>>1)
	l1, l2 := (set>>1)&notH, (set>>2)&notGH
	r1, r2 := (set<<1)&notA, (set<<2)&notAB
	h1, h2 := l1|r1, l2|r2
	return h1<<16 | h1>>16 | h2<<8 | h2>>8
}

// kingsAttack: the squares the kings on set attack.
func kingsAttack(set uint64) uint64 {
	a := (set<<1)&^fileA | (set>>1)&^fileH
	c := set | a
	return a | c<<8 | c>>8
}

// slide: the squares the sliders on set attack in one direction (shift
// left by sh, or right by -sh; keep: the squares a step may land on),
// with occ blocking (the blocker included). Kogge-Stone fills.
func slide(set, occ uint64, sh int, keep uint64) uint64 {
	empty := ^occ & keep
	if sh > 0 {
		s := uint(sh)
		set |= empty & (set << s)
		empty &= empty << s
		set |= empty & (set << (2 * s))
		empty &= empty << (2 * s)
		set |= empty & (set << (4 * s))
		return (set << s) & keep
	}
	s := uint(-sh)
	set |= empty & (set >> s)
	empty &= empty >> s
	set |= empty & (set >> (2 * s))
	empty &= empty >> (2 * s)
	set |= empty & (set >> (4 * s))
	return (set >> s) & keep
}

// menAttack: the squares men of type p (knight, bishop, rook, queen or
// king; a pawn: none) on set attack, occ blocking.
func menAttack(p int, set, occ uint64) uint64 {
	switch p {
	case Knight:
		return knightsAttack(set)
	case Bishop:
		return bishopsAttack(set, occ)
	case Rook:
		return rooksAttack(set, occ)
	case Queen:
		return bishopsAttack(set, occ) | rooksAttack(set, occ)
	case King:
		return kingsAttack(set)
	}
	return 0
}

// manAttacks: the squares a man of type p (knight, bishop, rook, queen or
// king; a pawn: none) on s attacks, occ blocking.
func manAttacks(p, s int, occ uint64) uint64 {
	switch p {
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return bishopAttacks(s, occ)
	case Rook:
		return rookAttacks(s, occ)
	case Queen:
		return bishopAttacks(s, occ) | rookAttacks(s, occ)
	case King:
		return kingAttacks[s]
	}
	return 0
}

// bishopsAttack: the squares the bishops on set attack, occ blocking.
func bishopsAttack(set, occ uint64) uint64 {
	return slide(set, occ, 9, ^fileA) | slide(set, occ, 7, ^fileH) |
		slide(set, occ, -7, ^fileA) | slide(set, occ, -9, ^fileH)
}

// rooksAttack: the squares the rooks on set attack, occ blocking.
func rooksAttack(set, occ uint64) uint64 {
	return slide(set, occ, 8, ^uint64(0)) | slide(set, occ, -8, ^uint64(0)) |
		slide(set, occ, 1, ^fileA) | slide(set, occ, -1, ^fileH)
}

// guardsForGood: the squares that side c's men of set attack in every
// position in which the whole set stands where it stands: the attacks of
// its pawns, knights and king, and those of its bishops, rooks and queens
// on the squares next to them along their lines (nothing can ever stand
// between). A pinned man still attacks: the enemy king never steps onto
// such a square, nor takes a man standing on it.
func (b *Board) guardsForGood(c int, set uint64) uint64 {
	p := &b.bb[c]
	g := pawnsAttack(c, p[Pawn]&set) | knightsAttack(p[Knight]&set) | kingsAttack(p[King]&set)
	for t := Bishop; t <= Queen; t++ {
		g |= menAttack(t, p[t]&set, ^uint64(0))
	}
	return g
}
