package gui

import (
	"fmt"
	"image/color"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
	"github.com/notnil/chess"
)

// Figurines: the solid glyphs are drawn for both colours (white pieces filled
// white with the outline glyph drawn over them in a dark colour), so every
// piece reads clearly on either square colour.
var (
	solidGlyph  = map[chess.PieceType]string{chess.King: "♚", chess.Queen: "♛", chess.Rook: "♜", chess.Bishop: "♝", chess.Knight: "♞", chess.Pawn: "♟"}
	hollowGlyph = map[chess.PieceType]string{chess.King: "♔", chess.Queen: "♕", chess.Rook: "♖", chess.Bishop: "♗", chess.Knight: "♘", chess.Pawn: "♙"}
)

// board draws the position of the current game: 64 square widgets in a
// square grid. The interactive board takes click-click and drag moves.
type board struct {
	widget.BaseWidget
	c           *console
	interactive bool
	squares     [64]*square // by chess.Square (a1 = 0)
	selected    int         // chess.Square selected by a first click, -1 none
	dragFrom    int
	pos         *chess.Position
}

func newBoard(c *console, interactive bool) *board {
	b := &board{c: c, interactive: interactive, selected: -1, dragFrom: -1}
	for i := range b.squares {
		b.squares[i] = newSquare(b, chess.Square(i))
	}
	b.ExtendBaseWidget(b)
	return b
}

func (b *board) CreateRenderer() fyne.WidgetRenderer {
	objs := make([]fyne.CanvasObject, 64)
	for i, s := range b.squares {
		objs[i] = s
	}
	return &boardRenderer{b: b, objs: objs}
}

type boardRenderer struct {
	b    *board
	objs []fyne.CanvasObject
}

func (r *boardRenderer) Layout(size fyne.Size) {
	defer r.b.writeGeometry()
	side := size.Width
	if size.Height < side {
		side = size.Height
	}
	sq := side / 8
	for i, s := range r.b.squares {
		row, col := r.b.cell(chess.Square(i))
		s.Move(fyne.NewPos(float32(col)*sq, float32(row)*sq))
		s.Resize(fyne.NewSize(sq, sq))
	}
}

func (r *boardRenderer) MinSize() fyne.Size {
	return fyne.NewSize(8*64, 8*64)
}
func (r *boardRenderer) Refresh() {
	r.Layout(r.b.Size())
	for _, s := range r.b.squares {
		s.Refresh()
	}
}
func (r *boardRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *boardRenderer) Destroy()                     {}

// cell is where square sq stands: row 0 at the top.
func (b *board) cell(sq chess.Square) (row, col int) {
	file, rank := int(sq)%8, int(sq)/8
	if b.c.flipped {
		return rank, 7 - file
	}
	return 7 - rank, file
}

// at is the square standing at row, col.
func (b *board) at(row, col int) chess.Square {
	if b.c.flipped {
		return chess.Square(row*8 + 7 - col)
	}
	return chess.Square((7-row)*8 + col)
}

// refresh redraws the board from the current game.
func (b *board) refresh() {
	g := b.c.game()
	var pos *chess.Position
	last := [2]int{-1, -1}
	check := -1
	if g != nil && g.Sheet != nil {
		pos = g.Sheet.Position()
		if es := g.Sheet.Entries(); len(es) > 0 {
			e := es[len(es)-1]
			if len(e.UCI) >= 4 {
				last = [2]int{squareIndex(e.UCI[0:2]), squareIndex(e.UCI[2:4])}
			}
			if strings.HasSuffix(e.SAN, "+") || strings.HasSuffix(e.SAN, "#") {
				king := chess.NewPiece(chess.King, pos.Turn())
				for sq, p := range pos.Board().SquareMap() {
					if p == king {
						check = int(sq)
					}
				}
			}
		}
	} else {
		pos = startPosition()
	}
	b.pos = pos
	for i, s := range b.squares {
		var p chess.Piece
		if pos != nil {
			p = pos.Board().Piece(chess.Square(i))
		}
		s.set(p, i == last[0] || i == last[1], i == b.selected && b.interactive, i == check)
	}
	b.Refresh()
}

var startPos = func() *chess.Position {
	fen, _ := chess.FEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	return chess.NewGame(fen).Position()
}()

func startPosition() *chess.Position { return startPos }

func squareIndex(s string) int {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return -1
	}
	return int(s[1]-'1')*8 + int(s[0]-'a')
}

func squareName(sq chess.Square) string {
	return string([]byte{'a' + byte(sq%8), '1' + byte(sq/8)})
}

// tapped handles a click on sq: the first click selects a piece of the side
// to move, the second plays it to the clicked square.
func (b *board) tapped(sq chess.Square) {
	if !b.interactive || b.pos == nil {
		return
	}
	p := b.pos.Board().Piece(sq)
	own := p != chess.NoPiece && p.Color() == b.pos.Turn()
	switch {
	case b.selected < 0 && own:
		b.selected = int(sq)
	case b.selected < 0:
		return
	case int(sq) == b.selected:
		b.selected = -1
	case own:
		b.selected = int(sq)
	default:
		from := chess.Square(b.selected)
		b.selected = -1
		b.play(from, sq)
	}
	b.refresh()
}

// play enters the move from → to, asking for the promotion piece when a pawn
// reaches the last rank.
func (b *board) play(from, to chess.Square) {
	uci := squareName(from) + squareName(to)
	p := b.pos.Board().Piece(from)
	if p.Type() == chess.Pawn && (to/8 == 7 || to/8 == 0) {
		choices := []string{lang.L("Queen"), lang.L("Rook"), lang.L("Bishop"), lang.L("Knight")}
		letters := []string{"q", "r", "b", "n"}
		sel := widget.NewRadioGroup(choices, nil)
		sel.SetSelected(choices[0])
		dialog.ShowCustomConfirm(lang.L("Promotion"), lang.L("OK"), lang.L("Cancel"), sel, func(ok bool) {
			if !ok {
				return
			}
			for i, ch := range choices {
				if ch == sel.Selected {
					b.c.enterMove(uci + letters[i])
				}
			}
		}, b.c.win)
		return
	}
	b.c.enterMove(uci)
}

// square is one square of the board.
type square struct {
	widget.BaseWidget
	b       *board
	sq      chess.Square
	bg      *canvas.Rectangle
	mark    *canvas.Rectangle
	fill    *canvas.Text
	outline *canvas.Text
	coord   *canvas.Text // rank number, top left (left column only)
	file    *canvas.Text // file letter, bottom right (bottom row only)
	dragPos fyne.Position
}

func newSquare(b *board, sq chess.Square) *square {
	s := &square{b: b, sq: sq}
	base := colLight
	if (int(sq)/8+int(sq)%8)%2 == 0 {
		base = colDark
	}
	s.bg = canvas.NewRectangle(base)
	s.mark = canvas.NewRectangle(color.Transparent)
	s.fill = canvas.NewText("", colPieceWhite)
	s.fill.FontSource = fontRegular
	s.fill.Alignment = fyne.TextAlignCenter
	s.outline = canvas.NewText("", colOutline)
	s.outline.FontSource = fontRegular
	s.outline.Alignment = fyne.TextAlignCenter
	s.coord = canvas.NewText("", colDark)
	s.file = canvas.NewText("", colDark)
	s.ExtendBaseWidget(s)
	return s
}

func (s *square) set(p chess.Piece, last, selected, check bool) {
	base := colLight
	if (int(s.sq)/8+int(s.sq)%8)%2 == 0 {
		base = colDark
	}
	s.bg.FillColor = base
	s.mark.FillColor = color.Transparent
	s.mark.StrokeWidth = 0
	switch {
	case selected:
		s.bg.FillColor = colSelected
	case last:
		s.bg.FillColor = colLastMove
	}
	if check {
		s.mark.StrokeColor = colCheck
		s.mark.StrokeWidth = 4
		s.mark.FillColor = color.NRGBA{0xe0, 0x4f, 0x4f, 0x60}
	}
	s.fill.Text, s.outline.Text = "", ""
	if p != chess.NoPiece {
		s.fill.Text = solidGlyph[p.Type()]
		if p.Color() == chess.White {
			s.fill.Color = colPieceWhite
			s.outline.Text = hollowGlyph[p.Type()]
		} else {
			s.fill.Color = colPieceBlack
		}
	}
	// as on a printed board: rank numbers top left in the left column, file
	// letters bottom right in the bottom row (so a1 never reads "1a")
	row, col := s.b.cell(s.sq)
	s.coord.Text, s.file.Text = "", ""
	if col == 0 {
		s.coord.Text = string(rune('1' + int(s.sq)/8))
	}
	if row == 7 {
		s.file.Text = string(rune('a' + int(s.sq)%8))
	}
	s.coord.Color, s.file.Color = colDark, colDark
	if base == colDark {
		s.coord.Color, s.file.Color = colLight, colLight
	}
}

func (s *square) CreateRenderer() fyne.WidgetRenderer {
	return &squareRenderer{s: s, objs: []fyne.CanvasObject{s.bg, s.mark, s.fill, s.outline, s.coord, s.file}}
}

type squareRenderer struct {
	s    *square
	objs []fyne.CanvasObject
}

func (r *squareRenderer) Layout(size fyne.Size) {
	s := r.s
	s.bg.Resize(size)
	s.mark.Resize(size)
	ts := size.Height * 0.78
	for _, t := range []*canvas.Text{s.fill, s.outline} {
		t.TextSize = ts
		t.Resize(size)
		t.Move(fyne.NewPos(0, (size.Height-t.MinSize().Height)/2))
	}
	s.coord.TextSize = size.Height * 0.18
	s.coord.Move(fyne.NewPos(2, 0))
	s.file.TextSize = size.Height * 0.18
	fs := s.file.MinSize()
	s.file.Move(fyne.NewPos(size.Width-fs.Width-2, size.Height-fs.Height))
}

func (r *squareRenderer) MinSize() fyne.Size { return fyne.NewSize(20, 20) }
func (r *squareRenderer) Refresh() {
	r.Layout(r.s.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}
func (r *squareRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *squareRenderer) Destroy()                     {}

// Tapped is a click on the square.
func (s *square) Tapped(*fyne.PointEvent) { s.b.tapped(s.sq) }

// Dragged starts or continues dragging the piece on the square.
func (s *square) Dragged(ev *fyne.DragEvent) {
	if !s.b.interactive {
		return
	}
	if s.b.dragFrom < 0 {
		s.b.dragFrom = int(s.sq)
		s.b.selected = int(s.sq)
		s.b.refresh()
	}
	s.dragPos = ev.Position
}

// DragEnd drops the piece on the square under the pointer.
func (s *square) DragEnd() {
	b := s.b
	if b.dragFrom < 0 {
		return
	}
	from := chess.Square(b.dragFrom)
	b.dragFrom = -1
	b.selected = -1
	size := s.Size()
	row, col := b.cell(s.sq)
	dc := floorDiv(s.dragPos.X, size.Width)
	dr := floorDiv(s.dragPos.Y, size.Height)
	row, col = row+dr, col+dc
	if row < 0 || row > 7 || col < 0 || col > 7 {
		b.refresh()
		return
	}
	to := b.at(row, col)
	if to == from || b.pos == nil {
		b.refresh()
		return
	}
	b.play(from, to)
	b.refresh()
}

func floorDiv(x, w float32) int {
	if w <= 0 {
		return 0
	}
	q := x / w
	if q < 0 {
		return int(q) - 1
	}
	return int(q)
}

// writeGeometry writes where the board stands on the screen, in pixels:
// "x y square flipped" (for scripts/gui-check.sh, which clicks squares).
func (b *board) writeGeometry() {
	if b.c.geometryFile == "" || !b.interactive {
		return
	}
	cv := fyne.CurrentApp().Driver().CanvasForObject(b)
	if cv == nil {
		return
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
	size := b.Size()
	side := size.Width
	if size.Height < side {
		side = size.Height
	}
	s := cv.Scale()
	txt := fmt.Sprintf("%d %d %d %v\n", int(pos.X*s), int(pos.Y*s), int(side/8*s), b.c.flipped)
	_ = os.WriteFile(b.c.geometryFile, []byte(txt), 0o644)
}
