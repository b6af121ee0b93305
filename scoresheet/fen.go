package scoresheet

import (
	"strconv"
	"strings"

	"github.com/notnil/chess"
)

// fenPieces are the FEN letters of notnil's pieces, by Piece-1 (White's
// king, queen, rook, bishop, knight, pawn, then Black's).
const fenPieces = "KQRBNPkqrbnp"

// fenAfter writes the FEN of next, the position after a move made in a
// position whose FEN is fen, the same text as next.String() (which writes
// the board square by square through a map and a dozen string
// replacements: most of the processor time of entering a move). The move
// number, which notnil does not export, is fen's, one more after Black's
// move.
func fenAfter(next *chess.Position, fen string) string {
	number, _ := strconv.Atoi(fen[strings.LastIndexByte(fen, ' ')+1:])
	if next.Turn() == chess.White {
		number++
	}
	var b strings.Builder
	b.Grow(90)
	board := next.Board()
	for r := chess.Rank8; ; r-- {
		empty := 0
		for f := chess.FileA; f <= chess.FileH; f++ {
			p := board.Piece(chess.NewSquare(f, r))
			if p == chess.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(fenPieces[p-1])
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r == chess.Rank1 {
			break
		}
		b.WriteByte('/')
	}
	b.WriteByte(' ')
	b.WriteString(next.Turn().String())
	b.WriteByte(' ')
	b.WriteString(next.CastleRights().String())
	b.WriteByte(' ')
	if ep := next.EnPassantSquare(); ep != chess.NoSquare {
		b.WriteString(ep.String())
	} else {
		b.WriteByte('-')
	}
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(next.HalfMoveClock()))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(number))
	return b.String()
}
