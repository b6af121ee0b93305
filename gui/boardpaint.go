package gui

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"github.com/notnil/chess"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"arbiter/assets"
)

// cellView is what one square of the board shows.
type cellView struct {
	piece    chess.Piece
	last     bool // a square of the last move
	selected bool // selected by a first click or a drag
	check    bool // the king in check
}

// labels are the coordinates printed on a square, as on a printed board:
// the rank number top left in the left column, the file letter bottom right
// in the bottom row (so a1 never reads "1a").
func (b *board) labels(sq chess.Square) (rank, file string) {
	row, col := b.cell(sq)
	if col == 0 {
		rank = string(rune('1' + int(sq)/8))
	}
	if row == 7 {
		file = string(rune('a' + int(sq)%8))
	}
	return rank, file
}

// squareColour is the base colour of sq.
func squareColour(sq chess.Square) color.NRGBA {
	if (int(sq)/8+int(sq)%8)%2 == 0 {
		return colDark
	}
	return colLight
}

// paint is the raster's generator: the board at w×h pixels.
func (b *board) paint(w, h int) image.Image {
	return paintBoard(w, h, b.cells, b.labels, b.cell)
}

// paintBoard paints the squares of cells into a w×h image (the board takes
// the largest square from the top left): square colours and highlights, the
// check mark, the pieces and the coordinate labels.
func paintBoard(w, h int, cells [64]cellView, labels func(chess.Square) (string, string), cell func(chess.Square) (int, int)) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	side := min(w, h)
	if side < 8 {
		return img
	}
	// square edges at round(i*side/8), so the board fills its side exactly
	edge := func(i int) int { return i * side / 8 }
	sqPx := side / 8
	g := glyphsFor(sqPx)
	for i := range cells {
		sq := chess.Square(i)
		cv := cells[i]
		row, col := cell(sq)
		r := image.Rect(edge(col), edge(row), edge(col+1), edge(row+1))
		base := squareColour(sq)
		bg := base
		switch {
		case cv.selected:
			bg = colSelected
		case cv.last:
			bg = colLastMove
		}
		draw.Draw(img, r, image.NewUniform(bg), image.Point{}, draw.Src)
		if cv.check {
			draw.Draw(img, r, image.NewUniform(color.NRGBA{0xe0, 0x4f, 0x4f, 0x60}), image.Point{}, draw.Over)
			sw := max(2, sqPx/16)
			for _, s := range []image.Rectangle{
				image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+sw), image.Rect(r.Min.X, r.Max.Y-sw, r.Max.X, r.Max.Y),
				image.Rect(r.Min.X, r.Min.Y, r.Min.X+sw, r.Max.Y), image.Rect(r.Max.X-sw, r.Min.Y, r.Max.X, r.Max.Y),
			} {
				draw.Draw(img, s, image.NewUniform(colCheck), image.Point{}, draw.Src)
			}
		}
		if cv.piece != chess.NoPiece {
			if t := g.piece[cv.piece]; t != nil {
				at := r.Min.Add(image.Pt((r.Dx()-t.Bounds().Dx())/2, (r.Dy()-t.Bounds().Dy())/2))
				draw.Draw(img, t.Bounds().Sub(t.Bounds().Min).Add(at), t, t.Bounds().Min, draw.Over)
			}
		}
		rank, file := labels(sq)
		lc := colDark
		if base == colDark {
			lc = colLight
		}
		if rank != "" {
			g.label(img, rank, image.Pt(r.Min.X+2, r.Min.Y), false, lc)
		}
		if file != "" {
			g.label(img, file, image.Pt(r.Max.X-2, r.Max.Y), true, lc)
		}
	}
	return img
}

// glyphSet holds the pieces pre-rendered for one square size.
type glyphSet struct {
	mu    sync.Mutex // a font.Face is not safe for concurrent use
	piece map[chess.Piece]*image.RGBA
	small font.Face // the coordinate labels
}

// label draws s with its top left at p, or with its bottom right at p when
// bottomRight.
func (g *glyphSet) label(img *image.RGBA, s string, p image.Point, bottomRight bool, c color.Color) {
	g.mu.Lock()
	defer g.mu.Unlock()
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: g.small}
	m := g.small.Metrics()
	if bottomRight {
		d.Dot = fixed.Point26_6{X: fixed.I(p.X) - d.MeasureString(s), Y: fixed.I(p.Y) - m.Descent}
	} else {
		d.Dot = fixed.Point26_6{X: fixed.I(p.X), Y: fixed.I(p.Y) + m.Ascent}
	}
	d.DrawString(s)
}

var (
	glyphMu    sync.Mutex
	glyphCache = map[int]*glyphSet{} // by square size in pixels
	pieceFont  *opentype.Font
)

// glyphsFor renders the twelve pieces for squares of sqPx pixels, once per
// size: the solid figurine for both colours, white pieces filled white with
// the outline figurine drawn over them in a dark colour, so every piece reads
// clearly on either square colour.
func glyphsFor(sqPx int) *glyphSet {
	glyphMu.Lock()
	defer glyphMu.Unlock()
	if g := glyphCache[sqPx]; g != nil {
		return g
	}
	if pieceFont == nil {
		f, err := opentype.Parse(assets.DejaVuSans)
		if err != nil {
			panic("gui: the embedded DejaVu Sans does not parse: " + err.Error())
		}
		pieceFont = f
	}
	if len(glyphCache) >= 8 {
		clear(glyphCache) // the window was resized many times: start again
	}
	face := newFace(float64(sqPx) * 0.78)
	g := &glyphSet{piece: map[chess.Piece]*image.RGBA{}, small: newFace(float64(sqPx) * 0.18)}
	for pt, solid := range solidGlyph {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			t := image.NewRGBA(image.Rect(0, 0, sqPx, sqPx))
			// centre the figurine by the solid glyph's ink
			bounds, _ := font.BoundString(face, solid)
			gw := (bounds.Max.X - bounds.Min.X)
			gh := (bounds.Max.Y - bounds.Min.Y)
			dot := fixed.Point26_6{
				X: (fixed.I(sqPx)-gw)/2 - bounds.Min.X,
				Y: (fixed.I(sqPx)-gh)/2 - bounds.Min.Y,
			}
			fill := colPieceBlack
			if c == chess.White {
				fill = colPieceWhite
			}
			d := &font.Drawer{Dst: t, Src: image.NewUniform(fill), Face: face, Dot: dot}
			d.DrawString(solid)
			if c == chess.White {
				d = &font.Drawer{Dst: t, Src: image.NewUniform(colOutline), Face: face, Dot: dot}
				d.DrawString(hollowGlyph[pt])
			}
			g.piece[chess.NewPiece(pt, c)] = t
		}
	}
	glyphCache[sqPx] = g
	return g
}

func newFace(px float64) font.Face {
	face, err := opentype.NewFace(pieceFont, &opentype.FaceOptions{Size: math.Max(px, 1), DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic("gui: the embedded DejaVu Sans gives no face: " + err.Error())
	}
	return face
}
