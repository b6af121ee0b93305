package gui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// glyphText shows a clock reading such as "1:59:51" as three canvas.Texts
// side by side: all but the last two characters ("1:59:"), then each of the
// last two ("5", "1").
//
// Fyne caches a text's texture by its content, size, style and colour, and
// renders the texture again, in Go, whenever a canvas.Text shows something
// new. A running clock shows something new every second, and at clock size
// that rendering cost more than drawing the rest of the window. Split this
// way, a tick shows digits whose textures are in the cache already; only the
// first part is new, once a minute. Not one text per character: every text
// drawn costs a draw call on each repaint, and under a software renderer a
// draw call costs about as much as rendering a small text.
type glyphText struct {
	Text      string
	Color     color.Color
	TextSize  float32
	TextStyle fyne.TextStyle
	// MinTextSize, when set, is the size the minimum width is measured
	// at: a clock's digits grow with the clock's width (zoom) without
	// making the window's minimum wider, so the window can shrink again.
	MinTextSize float32

	glyphs [3]*canvas.Text // the head, then the last two characters
	obj    *fyne.Container
}

func newGlyphText(text string, col color.Color) *glyphText {
	g := &glyphText{Color: col}
	objs := make([]fyne.CanvasObject, len(g.glyphs))
	for i := range g.glyphs {
		g.glyphs[i] = canvas.NewText("", col)
		objs[i] = g.glyphs[i]
	}
	g.obj = container.New(g, objs...)
	g.set(text, col)
	return g
}

// set shows text in colour col; it reports whether anything changed.
func (g *glyphText) set(text string, col color.Color) bool {
	if g.Text == text && g.Color == col {
		return false
	}
	g.Text, g.Color = text, col
	g.Refresh()
	return true
}

// Refresh applies Text, Color, TextSize and TextStyle to the glyphs.
func (g *glyphText) Refresh() {
	parts := splitTail(g.Text)
	for i, t := range g.glyphs {
		s := parts[i]
		if t.Text == s && t.Color == g.Color && t.TextSize == g.TextSize && t.TextStyle == g.TextStyle {
			continue
		}
		t.Text, t.Color, t.TextSize, t.TextStyle = s, g.Color, g.TextSize, g.TextStyle
		t.Refresh()
	}
	g.Layout(nil, g.obj.Size())
}

// Layout places the glyphs one after another from the left (fyne.Layout).
func (g *glyphText) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for _, t := range g.glyphs {
		w := t.MinSize().Width // 0 for an empty glyph
		t.Move(fyne.NewPos(x, 0))
		t.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}

// MinSize is the width of all glyphs and the height of one line (an empty
// text is one line high too) (fyne.Layout).
func (g *glyphText) MinSize([]fyne.CanvasObject) fyne.Size {
	w := float32(0)
	for _, t := range g.glyphs {
		w += t.MinSize().Width
	}
	if g.MinTextSize > 0 {
		w = fyne.MeasureText(g.Text, g.MinTextSize, g.TextStyle).Width
	}
	return fyne.NewSize(w, g.glyphs[0].MinSize().Height)
}

// splitTail splits s into all but its last two characters and each of
// those two (fewer parts are empty when s is shorter).
func splitTail(s string) [3]string {
	r := []rune(s)
	var parts [3]string
	for i := 2; i >= 1 && len(r) > 0; i-- {
		parts[i] = string(r[len(r)-1])
		r = r[:len(r)-1]
	}
	parts[0] = string(r)
	return parts
}
