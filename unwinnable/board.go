package unwinnable

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Colours and piece types.
const (
	White = 0
	Black = 1
)

// Piece types, indices into Board.bb.
const (
	Pawn = iota
	Knight
	Bishop
	Rook
	Queen
	King
)

// Castling right bits.
const (
	castleWK = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// Board is one position. It is a plain value: a move is made on a copy
// (copy-make), so a search never has to undo anything.
type Board struct {
	bb     [2][6]uint64 // pieces by colour and type
	occ    [2]uint64    // all pieces of a colour
	sq     [64]int8     // piece code on each square: -1 empty, else colour*6+type
	stm    int          // side to move
	castle uint8        // castling rights
	ep     int8         // en-passant target square, -1 when no capture is possible
	half   int          // half-move clock
	full   int          // full-move number
	key    uint64       // Zobrist key of placement, side, castling and en passant
}

// Zobrist keys, filled at start-up from a fixed-seed generator.
var (
	zPiece  [12][64]uint64
	zSide   uint64
	zCastle [16]uint64
	zEP     [8]uint64
)

func init() {
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for p := range zPiece {
		for q := range zPiece[p] {
			zPiece[p][q] = next()
		}
	}
	zSide = next()
	for i := range zCastle {
		zCastle[i] = next()
	}
	for i := range zEP {
		zEP[i] = next()
	}
}

// Key is the position's Zobrist key (placement, side to move, castling
// rights, and the en-passant file when a capture there is possible).
func (b *Board) Key() uint64 { return b.key }

// SideToMove is White or Black.
func (b *Board) SideToMove() int { return b.stm }

func (b *Board) all() uint64 { return b.occ[0] | b.occ[1] }

func (b *Board) put(c, p, s int) {
	m := uint64(1) << s
	b.bb[c][p] |= m
	b.occ[c] |= m
	b.sq[s] = int8(c*6 + p)
	b.key ^= zPiece[c*6+p][s]
}

func (b *Board) remove(c, p, s int) {
	m := uint64(1) << s
	b.bb[c][p] &^= m
	b.occ[c] &^= m
	b.sq[s] = -1
	b.key ^= zPiece[c*6+p][s]
}

const pieceLetters = "PNBRQKpnbrqk"

// ParseFEN reads a FEN with 4 or 6 fields. It checks what the search relies
// on: one king a side, no pawn on the first or last rank, the side not to
// move not in check, castling rights that match the king and rook squares.
func ParseFEN(fen string) (*Board, error) {
	f := strings.Fields(fen)
	if len(f) != 4 && len(f) != 6 {
		return nil, fmt.Errorf("a FEN has 4 or 6 fields, this one has %d", len(f))
	}
	b := &Board{ep: -1, full: 1}
	for i := range b.sq {
		b.sq[i] = -1
	}
	if err := b.place(f[0]); err != nil {
		return nil, err
	}
	switch f[1] {
	case "w":
		b.stm = White
	case "b":
		b.stm = Black
		b.key ^= zSide
	default:
		return nil, fmt.Errorf("the side to move is %q, not w or b", f[1])
	}
	if err := b.castlingRights(f[2]); err != nil {
		return nil, err
	}
	for c := 0; c < 2; c++ {
		if n := bits.OnesCount64(b.bb[c][King]); n != 1 {
			return nil, fmt.Errorf("%s has %d kings, not one", colourName(c), n)
		}
	}
	if (b.bb[0][Pawn]|b.bb[1][Pawn])&(rank1|rank8) != 0 {
		return nil, fmt.Errorf("a pawn stands on the first or last rank")
	}
	b.dropCastlingAwayFromHome()
	b.key ^= zCastle[b.castle]
	if f[3] != "-" {
		s, ok := parseSquare(f[3])
		if !ok {
			return nil, fmt.Errorf("en-passant square %q is not a square", f[3])
		}
		wantRank := 5
		if b.stm == Black {
			wantRank = 2
		}
		if s/8 != wantRank {
			return nil, fmt.Errorf("en-passant square %s is on the wrong rank", f[3])
		}
		b.setEP(s)
	}
	if len(f) == 6 {
		h, err1 := strconv.Atoi(f[4])
		n, err2 := strconv.Atoi(f[5])
		if err1 != nil || err2 != nil || h < 0 || n < 1 {
			return nil, fmt.Errorf("the move counters %q %q are not numbers", f[4], f[5])
		}
		b.half, b.full = h, n
	}
	if b.attacked(bits.TrailingZeros64(b.bb[1-b.stm][King]), b.stm) {
		return nil, fmt.Errorf("the side not to move is in check")
	}
	return b, nil
}

// place puts the men of a FEN's placement field on b (8 ranks, the 8th
// first).
func (b *Board) place(field string) error {
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("the placement field needs 8 ranks, it has %d", len(ranks))
	}
	for i, r := range ranks {
		rank := 7 - i
		file := 0
		for _, ch := range r {
			switch {
			case ch >= '1' && ch <= '8':
				file += int(ch - '0')
			default:
				k := strings.IndexRune(pieceLetters, ch)
				if k < 0 {
					return fmt.Errorf("%q is not a piece letter", ch)
				}
				if file > 7 {
					return fmt.Errorf("rank %d has more than 8 squares", rank+1)
				}
				b.put(k/6, k%6, rank*8+file)
				file++
			}
			if file > 8 {
				return fmt.Errorf("rank %d has more than 8 squares", rank+1)
			}
		}
		if file != 8 {
			return fmt.Errorf("rank %d has %d squares, not 8", rank+1, file)
		}
	}
	return nil
}

// castlingRights reads a FEN's castling field ("-" for none).
func (b *Board) castlingRights(field string) error {
	if field != "-" {
		for _, ch := range field {
			switch ch {
			case 'K':
				b.castle |= castleWK
			case 'Q':
				b.castle |= castleWQ
			case 'k':
				b.castle |= castleBK
			case 'q':
				b.castle |= castleBQ
			default:
				return fmt.Errorf("castling rights %q: only K, Q, k, q or -", field)
			}
		}
	}
	return nil
}

// dropCastlingAwayFromHome drops the castling rights whose king or rook is
// not at home, as a position cannot have them.
func (b *Board) dropCastlingAwayFromHome() {
	if b.sq[4] != int8(King) {
		b.castle &^= castleWK | castleWQ
	}
	if b.sq[7] != int8(Rook) {
		b.castle &^= castleWK
	}
	if b.sq[0] != int8(Rook) {
		b.castle &^= castleWQ
	}
	if b.sq[60] != int8(6+King) {
		b.castle &^= castleBK | castleBQ
	}
	if b.sq[63] != int8(6+Rook) {
		b.castle &^= castleBK
	}
	if b.sq[56] != int8(6+Rook) {
		b.castle &^= castleBQ
	}
}

// setEP records an en-passant target only when a pawn of the side to move
// could capture there (so equal positions get equal keys) and the pawn that
// double-stepped is there.
func (b *Board) setEP(s int) {
	them := 1 - b.stm
	pawnSq := s - 8
	if b.stm == Black {
		pawnSq = s + 8
	}
	if pawnSq < 0 || pawnSq > 63 || b.sq[pawnSq] != int8(them*6+Pawn) || b.sq[s] != -1 {
		return
	}
	if pawnAttacks[them][s]&b.bb[b.stm][Pawn] == 0 {
		return
	}
	b.ep = int8(s)
	b.key ^= zEP[s&7]
}

func parseSquare(s string) (int, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return 0, false
	}
	return int(s[1]-'1')*8 + int(s[0]-'a'), true
}

func squareName(s int) string { return string([]byte{byte('a' + s&7), byte('1' + s>>3)}) }

func colourName(c int) string {
	if c == White {
		return "White"
	}
	return "Black"
}

// FEN writes the position with all 6 fields.
func (b *Board) FEN() string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			p := b.sq[rank*8+file]
			if p < 0 {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteByte(pieceLetters[p])
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteString([]string{" w ", " b "}[b.stm])
	c := ""
	for i, l := range "KQkq" {
		if b.castle&(1<<i) != 0 {
			c += string(l)
		}
	}
	if c == "" {
		c = "-"
	}
	sb.WriteString(c)
	if b.ep >= 0 {
		sb.WriteString(" " + squareName(int(b.ep)))
	} else {
		sb.WriteString(" -")
	}
	fmt.Fprintf(&sb, " %d %d", b.half, b.full)
	return sb.String()
}
