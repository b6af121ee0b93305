package gui

import (
	"fmt"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
	"github.com/notnil/chess"

	"arbiter/match"
)

// Figurines: the solid glyphs are drawn for both colours (white pieces filled
// white with the outline glyph drawn over them in a dark colour), so every
// piece reads clearly on either square colour.
var (
	solidGlyph  = map[chess.PieceType]string{chess.King: "♚", chess.Queen: "♛", chess.Rook: "♜", chess.Bishop: "♝", chess.Knight: "♞", chess.Pawn: "♟"}
	hollowGlyph = map[chess.PieceType]string{chess.King: "♔", chess.Queen: "♕", chess.Rook: "♖", chess.Bishop: "♗", chess.Knight: "♘", chess.Pawn: "♙"}
)

// board draws the position of the current game as ONE raster image (see
// boardpaint.go): every canvas object Fyne's GL painter draws costs time on
// each repaint of the window, and a running clock repaints the window once a
// second, so the 64 squares, their pieces and labels are painted in Go into
// an image that changes only when the position, the highlights, the
// orientation or the size change. The interactive board takes click-click
// and drag moves: the board maps the pointer's position to a square.
//
// It takes what it shows (show: the game and the orientation) and emits the
// moves played on it (onMove, onPromote); it knows nothing of the console.
type board struct {
	widget.BaseWidget
	interactive bool
	// locked: the board takes no moves for now (the console shows a game
	// that is not the current one)
	locked  bool
	g       *match.Game // the game shown (nil: the start position)
	flipped bool        // Black at the bottom
	// onMove is told a move played on the board, in UCI ("e2e4");
	// onPromote a pawn's move to the last rank without the piece
	// ("e7e8"), for the console to ask which piece.
	onMove, onPromote func(uci string)
	// geometryFile receives the board's position in pixels after each
	// layout (ARBITER_GUI_GEOMETRY, used by scripts/gui-check.sh).
	geometryFile string
	cells        [64]cellView // by chess.Square (a1 = 0): what each square shows
	selected     int          // chess.Square selected by a first click, -1 none
	dragFrom     int
	dragPos      fyne.Position // pointer position of the drag, board coordinates
	pos          *chess.Position
	raster       *canvas.Raster
	shown        bool // cells and painted hold what the image shows
	painted      bool // the orientation (flipped) the image shows
}

// newBoard makes a board; an interactive one tells moves played on it to
// onMove and onPromote.
func newBoard(interactive bool, onMove, onPromote func(uci string)) *board {
	b := &board{interactive: interactive, onMove: onMove, onPromote: onPromote, selected: -1, dragFrom: -1}
	b.raster = canvas.NewRaster(b.paint)
	b.raster.ScaleMode = canvas.ImageScalePixels
	b.ExtendBaseWidget(b)
	return b
}

func (b *board) CreateRenderer() fyne.WidgetRenderer {
	return &boardRenderer{b: b, objs: []fyne.CanvasObject{b.raster}}
}

type boardRenderer struct {
	b    *board
	objs []fyne.CanvasObject
}

func (r *boardRenderer) Layout(size fyne.Size) {
	defer r.b.writeGeometry()
	side := r.b.side(size)
	r.b.raster.Move(fyne.NewPos(0, 0))
	r.b.raster.Resize(fyne.NewSize(side, side))
}

func (r *boardRenderer) MinSize() fyne.Size {
	return fyne.NewSize(boardMin, boardMin)
}
func (r *boardRenderer) Refresh() {
	r.Layout(r.b.Size())
	r.b.raster.Refresh()
}
func (r *boardRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *boardRenderer) Destroy()                     {}

// side is the length of the board's side in a widget of the given size.
func (b *board) side(size fyne.Size) float32 {
	return min(size.Width, size.Height)
}

// squareAt is the square under p (board coordinates), ok false off the board.
func (b *board) squareAt(p fyne.Position) (sq chess.Square, ok bool) {
	side := b.side(b.Size())
	if side <= 0 {
		return 0, false
	}
	col, row := floorDiv(p.X, side/8), floorDiv(p.Y, side/8)
	if row < 0 || row > 7 || col < 0 || col > 7 {
		return 0, false
	}
	return b.at(row, col), true
}

// centre is the centre of sq in board coordinates (tests click there).
func (b *board) centre(sq chess.Square) fyne.Position {
	s := b.side(b.Size()) / 8
	row, col := b.cell(sq)
	return fyne.NewPos((float32(col)+0.5)*s, (float32(row)+0.5)*s)
}

// Tapped is a click on the board.
func (b *board) Tapped(ev *fyne.PointEvent) {
	if sq, ok := b.squareAt(ev.Position); ok {
		b.tapped(sq)
	}
}

// Dragged starts or continues dragging the piece on the square the drag
// started on.
func (b *board) Dragged(ev *fyne.DragEvent) {
	if !b.interactive || b.locked {
		return
	}
	if b.dragFrom < 0 {
		start := ev.Position.Subtract(fyne.NewPos(ev.Dragged.DX, ev.Dragged.DY))
		sq, ok := b.squareAt(start)
		if !ok {
			return
		}
		b.dragFrom = int(sq)
		b.selected = int(sq)
		b.refresh()
	}
	b.dragPos = ev.Position
}

// DragEnd drops the piece on the square under the pointer.
func (b *board) DragEnd() {
	if b.dragFrom < 0 {
		return
	}
	from := chess.Square(b.dragFrom)
	b.dragFrom = -1
	b.selected = -1
	to, ok := b.squareAt(b.dragPos)
	if !ok || to == from || b.pos == nil {
		b.refresh()
		return
	}
	b.play(from, to)
	b.refresh()
}

// cell is where square sq stands: row 0 at the top.
func (b *board) cell(sq chess.Square) (row, col int) {
	file, rank := int(sq)%8, int(sq)/8
	if b.flipped {
		return rank, 7 - file
	}
	return 7 - rank, file
}

// at is the square standing at row, col.
func (b *board) at(row, col int) chess.Square {
	if b.flipped {
		return chess.Square(row*8 + 7 - col)
	}
	return chess.Square((7-row)*8 + col)
}

// show draws game g (nil: the start position), flipped or not.
func (b *board) show(g *match.Game, flipped bool) {
	b.g, b.flipped = g, flipped
	b.refresh()
}

// refresh redraws the board from the game it shows.
func (b *board) refresh() {
	g := b.g
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
	var cells [64]cellView
	for i := range cells {
		if pos != nil {
			cells[i].piece = pos.Board().Piece(chess.Square(i))
		}
		cells[i].last = i == last[0] || i == last[1]
		cells[i].selected = i == b.selected && b.interactive
		cells[i].check = i == check
	}
	if b.shown && cells == b.cells && b.painted == b.flipped {
		return // nothing changed: keep the image (and the frame) as it is
	}
	b.cells, b.painted, b.shown = cells, b.flipped, true
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
	if !b.interactive || b.locked || b.pos == nil {
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
		if b.onPromote != nil {
			b.onPromote(uci)
		}
		return
	}
	if b.onMove != nil {
		b.onMove(uci)
	}
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
	if b.geometryFile == "" || !b.interactive {
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
	txt := fmt.Sprintf("%d %d %d %v\n", int(pos.X*s), int(pos.Y*s), int(side/8*s), b.flipped)
	_ = os.WriteFile(b.geometryFile, []byte(txt), 0o644)
}
