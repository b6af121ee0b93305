package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// flowLayout places objects left to right at their minimum sizes and starts
// a new row when the width is used up, like words in a paragraph. The
// action bar uses it so that longer labels (German, or a larger text size)
// wrap to a second row instead of making the window wider than the screen.
//
// A layout's minimum height cannot know the width it will get, so the
// flow remembers the width of its last layout; when a new width needs a
// different number of rows, relayout asks the window to lay out again.
type flowLayout struct {
	width    float32 // of the last layout; 0 before the first
	relayout func()
}

// rows splits the visible objects into rows that fit width.
func (l *flowLayout) rows(objs []fyne.CanvasObject, width float32) [][]fyne.CanvasObject {
	pad := theme.Padding()
	var rows [][]fyne.CanvasObject
	var row []fyne.CanvasObject
	x := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		w := o.MinSize().Width
		if len(row) > 0 && width > 0 && x+pad+w > width {
			rows = append(rows, row)
			row, x = nil, 0
		}
		if len(row) > 0 {
			x += pad
		}
		row = append(row, o)
		x += w
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

func rowHeight(row []fyne.CanvasObject) float32 {
	h := float32(0)
	for _, o := range row {
		h = max(h, o.MinSize().Height)
	}
	return h
}

func (l *flowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	before := len(l.rows(objs, l.width))
	l.width = size.Width
	rows := l.rows(objs, size.Width)
	pad := theme.Padding()
	y := float32(0)
	for _, row := range rows {
		h := rowHeight(row)
		x := float32(0)
		for _, o := range row {
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(o.MinSize().Width, h))
			x += o.MinSize().Width + pad
		}
		y += h + pad
	}
	if len(rows) != before && l.relayout != nil {
		l.relayout() // the height this width needs differs from the one given
	}
}

func (l *flowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w := float32(0)
	for _, o := range objs {
		if o.Visible() {
			w = max(w, o.MinSize().Width)
		}
	}
	h := float32(0)
	for i, row := range l.rows(objs, l.width) {
		if i > 0 {
			h += theme.Padding()
		}
		h += rowHeight(row)
	}
	return fyne.NewSize(w, h)
}

// heightAt is the flow's height at width w.
func (l *flowLayout) heightAt(objs []fyne.CanvasObject, w float32) float32 {
	h := float32(0)
	for i, row := range l.rows(objs, w) {
		if i > 0 {
			h += theme.Padding()
		}
		h += rowHeight(row)
	}
	return h
}

// oneRowWidth is the width the visible objects take on one row.
func (l *flowLayout) oneRowWidth(objs []fyne.CanvasObject) float32 {
	w := float32(0)
	n := 0
	for _, o := range objs {
		if o.Visible() {
			w += o.MinSize().Width
			n++
		}
	}
	if n > 1 {
		w += float32(n-1) * theme.Padding()
	}
	return w
}
