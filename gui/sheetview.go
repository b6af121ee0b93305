package gui

import (
	"fmt"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// sheetMove is one move of the scoresheet as the sheet view is given it: a
// move played (its number, its colour and its cell: the move, the time it
// used and the mover's clock after it) or a move struck out by a position
// reset, which stands on a row of its own.
type sheetMove struct {
	number int
	black  bool
	cell   string // "e4       0:07 1:59:53", in the widths of sheetCell
	struck string // the whole row of a struck-out move ("" for a move played)
}

// sheetCell is a move's cell: the move (with (=) for a draw offer), the
// time it used and the clock after it, in columns.
func sheetCell(move, used, after string) string {
	return fmt.Sprintf("%-8s%5s %7s", move, used, after)
}

// pairRows lays the moves out as a scoresheet is written: numbered move
// pairs, White's move and Black's on one row. A struck-out move stands on a
// row of its own where it was played.
func pairRows(moves []sheetMove) []string {
	var rows []string
	cur := ""
	flush := func() {
		if cur != "" {
			rows = append(rows, cur)
			cur = ""
		}
	}
	for _, m := range moves {
		switch {
		case m.struck != "":
			flush()
			rows = append(rows, m.struck)
		case !m.black:
			flush()
			cur = fmt.Sprintf("%3d. %s", m.number, m.cell)
		default:
			if cur == "" {
				cur = fmt.Sprintf("%3d. %-21s", m.number, "…") // the width of a cell
			}
			rows = append(rows, cur+"  "+m.cell)
			cur = ""
		}
	}
	flush()
	return rows
}

// plyRows lays the moves out one to a row, for a sheet too narrow for a
// pair: White's move numbered "1.", Black's "1…", the columns aligned.
func plyRows(moves []sheetMove) []string {
	rows := make([]string, 0, len(moves))
	for _, m := range moves {
		switch {
		case m.struck != "":
			rows = append(rows, m.struck)
		case m.black:
			rows = append(rows, fmt.Sprintf("%3d… %s", m.number, m.cell))
		default:
			rows = append(rows, fmt.Sprintf("%3d. %s", m.number, m.cell))
		}
	}
	return rows
}

// sheetTextSize is the size of the scoresheet's monospaced rows.
func sheetTextSize() float32 { return theme.TextSize() * 0.86 }

// sheetView is the scoresheet's list of moves. It takes the moves as data
// (set) and shows every column of every row whole: as move pairs when its
// width holds a pair row, else one move to a row (a large text size in a
// narrow window). Its minimum width is that of its widest row one move to
// a row; the width that shows whole pairs is wantWidth, which the panel
// beside it yields when it can (splitLayout).
//
// It is a list, not a box of texts in a scroll: the GL painter draws every
// object of a window on every repaint, in view or scrolled away, and a
// repaint happens every second while a clock runs; a list holds only the
// rows in view, so a long game costs no more to show than a short one.
type sheetView struct {
	widget.BaseWidget
	list *widget.List

	pairs, plies []string // the moves laid out both ways
	// shown is what the list shows: pairs or plies (tests read it)
	shown []string
	// the widest row of each layout, measured at the text size sizedAt
	// (a text size change measures again)
	pairW, plyW float32
	sizedAt     float32
	// rowH and gap are a row's height and the space between rows as last
	// shown (atEnd)
	rowH, gap float32
}

func newSheetView() *sheetView {
	v := &sheetView{}
	v.list = widget.NewList(
		func() int { return len(v.shown) },
		func() fyne.CanvasObject {
			t := canvas.NewText("", themeColor(theme.ColorNameForeground))
			t.TextStyle.Monospace = true
			t.TextSize = sheetTextSize()
			line := canvas.NewRectangle(themeColor(theme.ColorNamePlaceHolder))
			line.Hide()
			return container.New(strikeLayout{}, t, line)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			box := o.(*fyne.Container)
			t, line := box.Objects[0].(*canvas.Text), box.Objects[1].(*canvas.Rectangle)
			r := v.shown[i]
			t.Text = r
			t.Color = themeColor(theme.ColorNameForeground)
			t.TextStyle = fyne.TextStyle{Monospace: true}
			t.TextSize = sheetTextSize()
			line.Hide()
			if strings.HasPrefix(r, struckMark) {
				t.Color = themeColor(theme.ColorNamePlaceHolder)
				t.TextStyle.Italic = true
				line.FillColor = t.Color
				line.Show()
			}
			t.Refresh()
			box.Refresh()
		})
	v.list.HideSeparators = true
	v.list.OnSelected = func(id widget.ListItemID) { v.list.Unselect(id) } // rows are read, not chosen
	v.ExtendBaseWidget(v)
	return v
}

// set shows moves and, when they changed, scrolls to the newest.
func (v *sheetView) set(moves []sheetMove) {
	pairs, plies := pairRows(moves), plyRows(moves)
	if equal(pairs, v.pairs) && equal(plies, v.plies) {
		return
	}
	v.pairs, v.plies = pairs, plies
	v.sizedAt = 0 // measure the new rows
	v.show(true)
}

// measure finds the widest row of each layout at the current text size.
// A row too short to fill its columns (a pair with only White's move yet)
// counts as full, so that the sheet keeps its width as the game goes on.
func (v *sheetView) measure() {
	size := sheetTextSize()
	if v.sizedAt == size {
		return
	}
	v.sizedAt = size
	style := fyne.TextStyle{Monospace: true}
	widest := func(rows []string, full string) float32 {
		w := fyne.MeasureText(full, size, style).Width
		for _, r := range rows {
			w = max(w, fyne.MeasureText(r, size, style).Width)
		}
		// a scroll bar stands over the right edge of the rows
		return w + 2*theme.ScrollBarSmallSize()
	}
	cell := sheetCell("Qxh8=Q+", "0:00", "1:59:59")
	v.pairW = widest(v.pairs, fmt.Sprintf("%3d. %s  %s", 100, cell, cell))
	v.plyW = widest(v.plies, fmt.Sprintf("%3d… %s", 100, cell))
}

// wantWidth is the width that shows the moves as pairs, every column whole.
func (v *sheetView) wantWidth() float32 {
	v.measure()
	return v.pairW
}

// show lays the rows out for the view's width: pairs if they fit, else one
// move to a row. The newest row stays in view if it was (or toEnd).
func (v *sheetView) show(toEnd bool) {
	if !toEnd {
		toEnd = v.atEnd()
	}
	v.measure()
	rows := v.pairs
	if w := v.Size().Width; w > 0 && w < v.pairW {
		rows = v.plies
	}
	changed := !equal(rows, v.shown)
	v.shown = rows
	if changed || toEnd {
		// the list takes its rows' height (the text size may have
		// changed) before it scrolls to the end
		v.list.Refresh()
	}
	if toEnd {
		v.list.ScrollToBottom()
	}
	v.rowH = sheetRowHeight(fyne.MeasureText("0", sheetTextSize(), fyne.TextStyle{Monospace: true}).Height)
	v.gap = theme.Padding()
}

// atEnd reports whether the list shows its last row (or has no rows), in
// the geometry last shown: a new text size or width is not yet laid out.
func (v *sheetView) atEnd() bool {
	n := len(v.shown)
	if n == 0 || v.rowH == 0 {
		return true
	}
	content := float32(n)*(v.rowH+v.gap) - v.gap
	return v.list.GetScrollOffset() >= content-v.list.Size().Height-v.rowH
}

// Resize lays the rows out again for the new width (pairs or one move to a
// row), keeping the newest row in view if it was.
func (v *sheetView) Resize(size fyne.Size) {
	toEnd := v.atEnd()
	v.BaseWidget.Resize(size)
	v.show(toEnd)
}

// Refresh draws the rows again (a new text size or theme), keeping the
// newest row in view if it was.
func (v *sheetView) Refresh() {
	toEnd := v.atEnd()
	v.BaseWidget.Refresh()
	v.show(toEnd)
}

// sheetRowsWanted is how many rows the console keeps room for at the least:
// the clocks' digits shrink for them (rightLayout).
const sheetRowsWanted = 5

// rowsHeight is the height that shows n rows whole (a padding over, for
// the list's own edge).
func (v *sheetView) rowsHeight(n int) float32 {
	h := sheetRowHeight(fyne.MeasureText("0", sheetTextSize(), fyne.TextStyle{Monospace: true}).Height)
	return float32(n)*(h+theme.Padding()) + theme.Padding()
}

// MinSize is the width of the widest row one move to a row.
func (v *sheetView) MinSize() fyne.Size {
	v.ExtendBaseWidget(v)
	v.measure()
	return fyne.NewSize(v.plyW, v.list.MinSize().Height)
}

func (v *sheetView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(v.list)
}

// strikeLayout draws a scoresheet row: its text, and over the move of a
// struck-out row a line through the middle (a canvas.Text cannot strike
// through).
type strikeLayout struct{}

func (strikeLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	t := objs[0].(*canvas.Text)
	t.Move(fyne.NewPos(0, 0))
	t.Resize(size)
	// the line covers the move and its time: from the mark to the word
	// ("struck out") after the two spaces that end them, never into it
	// (it was as long as the longest move could be, and struck the word's
	// first letters after a short one)
	mark := fyne.MeasureText(struckMark+" ", t.TextSize, t.TextStyle).Width
	struck := strings.TrimPrefix(t.Text, struckMark+" ")
	if i := strings.LastIndex(struck, "  "); i >= 0 {
		struck = struck[:i]
	}
	w := fyne.MeasureText(struck, t.TextSize, t.TextStyle).Width
	objs[1].Move(fyne.NewPos(mark, size.Height/2))
	objs[1].Resize(fyne.NewSize(w, max(1, t.TextSize/12)))
}

// MinSize is the text's, its height made a whole pitch (sheetRowHeight).
func (strikeLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := objs[0].MinSize()
	return fyne.NewSize(s.Width, sheetRowHeight(s.Height))
}

// sheetRowHeight is the height of a row whose text is h high, made such
// that the row and the list's padding under it are a whole number of
// pixels. widget.List (Fyne 2.7) finds the first row in view as
// floor(floor(offset/pitch)*pitch/pitch): with a fractional pitch (a text
// size of 120 %) that can come out a row short, and every row then stands a
// row lower, the newest below the sheet's edge. With a whole pitch the
// division is exact.
func sheetRowHeight(h float32) float32 {
	pad := theme.Padding()
	pitch := float32(math.Ceil(float64(h + pad)))
	h = pitch - pad
	for h+pad > pitch { // float32 rounding: the sum must be the pitch exactly
		h = math.Nextafter32(h, 0)
	}
	for h+pad < pitch {
		h = math.Nextafter32(h, pitch)
	}
	return h
}
