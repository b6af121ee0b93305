package gui

import (
	"image/color"
	"testing"

	"github.com/notnil/chess"
)

func TestPaintBoard(t *testing.T) {
	var cells [64]cellView
	cells[chess.E1] = cellView{piece: chess.WhiteKing, check: true}
	cells[chess.E8] = cellView{piece: chess.BlackKing}
	cells[chess.D4] = cellView{last: true}
	cells[chess.C3] = cellView{selected: true, last: true}
	cell := func(sq chess.Square) (int, int) { return 7 - int(sq)/8, int(sq) % 8 }
	noLabels := func(chess.Square) (string, string) { return "", "" }
	img := paintBoard(512, 512, cells, noLabels, cell)
	at := func(sq chess.Square, dx, dy int) color.RGBA {
		row, col := cell(sq)
		return img.RGBAAt(col*64+dx, row*64+dy)
	}
	rgba := func(c color.NRGBA) color.RGBA { return color.RGBA{c.R, c.G, c.B, c.A} }
	for _, tc := range []struct {
		name   string
		sq     chess.Square
		dx, dy int
		want   color.RGBA
	}{
		{"a1 is a dark square", chess.A1, 32, 32, rgba(colDark)},
		{"h1 is a light square", chess.H1, 32, 32, rgba(colLight)},
		{"a square of the last move takes the last-move colour", chess.D4, 32, 32, rgba(colLastMove)},
		{"the selected square outranks the last move", chess.C3, 32, 32, rgba(colSelected)},
		{"the king in check is framed", chess.E1, 1, 1, rgba(colCheck)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := at(tc.sq, tc.dx, tc.dy); got != tc.want {
				t.Errorf("pixel %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("a piece is drawn in the middle of its square", func(t *testing.T) {
		if got := at(chess.E8, 32, 40); got == rgba(colLight) {
			t.Errorf("e8 centre is the bare square colour: no king drawn")
		}
	})
	t.Run("a board smaller than 8 pixels is blank, not a crash", func(t *testing.T) {
		if b := paintBoard(5, 5, cells, noLabels, cell).Bounds(); b.Dx() != 5 {
			t.Errorf("bounds %v", b)
		}
	})
}

func BenchmarkPaintBoard(b *testing.B) {
	var cells [64]cellView
	pos := startPosition()
	for i := range cells {
		cells[i].piece = pos.Board().Piece(chess.Square(i))
	}
	cell := func(sq chess.Square) (int, int) { return 7 - int(sq)/8, int(sq) % 8 }
	labels := func(sq chess.Square) (string, string) { return "1", "a" }
	for b.Loop() {
		paintBoard(512, 512, cells, labels, cell)
	}
}
