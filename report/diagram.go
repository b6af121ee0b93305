package report

// The initial position of a game started from a position: a diagram and
// its FEN.

import (
	"strings"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/scoresheet"
)

// diagramSquare is the side of one square of a diagram, in millimetres.
const diagramSquare = 5.6

// startPosition draws, for a game started from a position, the diagram of
// that position (White at the bottom, files and ranks named), its FEN, the
// side to move and the move number the scoresheet counts from. A game from
// the standard position draws nothing.
func (r *renderer) startPosition(g *match.Game) {
	if g.Sheet == nil || g.Sheet.StartFEN() == scoresheet.StandardFEN {
		return
	}
	pos, err := scoresheet.ParseFEN(g.Sheet.StartFEN())
	if err != nil {
		return
	}
	f, t := r.f, r.t
	side := 8 * diagramSquare
	r.ensure(side + 16)
	r.heading(t.s("Starting position"), 11)
	x, y := r.margin+4, f.GetY()+1
	board := pos.Board()
	for rank := 7; rank >= 0; rank-- {
		for file := 0; file < 8; file++ {
			sx, sy := x+float64(file)*diagramSquare, y+float64(7-rank)*diagramSquare
			if (rank+file)%2 == 0 {
				f.SetFillColor(181, 136, 99) // a dark square
			} else {
				f.SetFillColor(240, 217, 181)
			}
			f.Rect(sx, sy, diagramSquare, diagramSquare, "F")
			p := board.Piece(chess.Square(rank*8 + file))
			if p == chess.NoPiece {
				continue
			}
			r.font(diagramSquare*2.35, false)
			if p.Color() == chess.White {
				// the outlined glyph is hollow: fill it white with the
				// solid one first, or the square shows through
				f.SetTextColor(255, 255, 255)
				f.SetXY(sx, sy)
				f.CellFormat(diagramSquare, diagramSquare, pieceGlyph(chess.NewPiece(p.Type(), chess.Black)), "", 0, "C", false, 0, "")
				f.SetTextColor(0, 0, 0)
			}
			f.SetXY(sx, sy)
			f.CellFormat(diagramSquare, diagramSquare, pieceGlyph(p), "", 0, "C", false, 0, "")
		}
	}
	f.SetDrawColor(60, 60, 60)
	f.SetLineWidth(0.3)
	f.Rect(x, y, side, side, "D")
	r.font(6, false)
	f.SetTextColor(90, 90, 90)
	for i := 0; i < 8; i++ {
		f.SetXY(x+float64(i)*diagramSquare, y+side)
		f.CellFormat(diagramSquare, 3, string(rune('a'+i)), "", 0, "C", false, 0, "")
		f.SetXY(x-3.5, y+float64(i)*diagramSquare)
		f.CellFormat(3, diagramSquare, string(rune('8'-i)), "", 0, "R", false, 0, "")
	}
	f.SetTextColor(0, 0, 0)
	// beside the diagram: the FEN, the side to move, the first move
	fields := strings.Fields(pos.String())
	toMove := clock.White
	if pos.Turn() == chess.Black {
		toMove = clock.Black
	}
	lx := x + side + 6
	lw := r.margin + r.cw - lx
	f.SetXY(lx, y)
	r.font(9.5, true)
	f.CellFormat(lw, 4.6, t.s("FEN"), "", 2, "L", false, 0, "")
	r.font(9, false)
	for _, l := range f.SplitText(pos.String(), lw) {
		f.SetX(lx)
		f.CellFormat(lw, 4.4, l, "", 2, "L", false, 0, "")
	}
	f.Ln(1.5)
	f.SetX(lx)
	r.font(9, false)
	f.CellFormat(lw, 4.6, t.f("%s to move, move %s", t.colour(toMove), fields[5]), "", 2, "L", false, 0, "")
	f.SetX(lx)
	r.font(8, false)
	f.SetTextColor(90, 90, 90)
	for _, l := range f.SplitText(t.s("The scoresheet counts its moves from this position."), lw) {
		f.SetX(lx)
		f.CellFormat(lw, 4, l, "", 2, "L", false, 0, "")
	}
	f.SetTextColor(0, 0, 0)
	f.SetXY(r.margin, y+side+6)
}

// pieceGlyph is a piece as the chess symbols of Unicode (DejaVu Sans has
// them): outlined for White, solid for Black.
func pieceGlyph(p chess.Piece) string {
	white := map[chess.PieceType]string{chess.King: "♔", chess.Queen: "♕", chess.Rook: "♖", chess.Bishop: "♗", chess.Knight: "♘", chess.Pawn: "♙"}
	black := map[chess.PieceType]string{chess.King: "♚", chess.Queen: "♛", chess.Rook: "♜", chess.Bishop: "♝", chess.Knight: "♞", chess.Pawn: "♟"}
	if p.Color() == chess.White {
		return white[p.Type()]
	}
	return black[p.Type()]
}
