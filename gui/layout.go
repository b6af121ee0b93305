package gui

// The console's window: the header, the board's column, the right-hand
// column and the action bar, laid out so that a larger text size never
// makes the board or the clocks smaller.

import (
	"math"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// textScale is the console's text size (View → Larger text): 1 at 100 %.
func textScale() float32 {
	if a := fyne.CurrentApp(); a != nil {
		if t, ok := a.Settings().Theme().(*consoleTheme); ok && t.scale > 0 {
			return t.scale
		}
	}
	return 1
}

// basePad is the gap the console's layouts keep beside the clocks: the
// theme's padding, which does not grow with the text (consoleTheme), so
// that a larger text never narrows the clocks and their digits.
func basePad() float32 { return theme.Padding() }

// menuHeight is the height of the window's menu bar at the text size now
// (Fyne's menu bar: a line of text and the inner padding).
func menuHeight() float32 {
	return fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height + theme.InnerPadding()
}

// consoleLayout places the header (title, mode, games, score), the board's
// column (the board over the move field and the refusal slot, below), the
// right-hand column (clocks, notice, scoresheet, log) and the action bar.
//
// The board's side depends on the window alone, never on the text size:
// the window's height less what the menu, the header, the bar and the move
// field take at 100 % text (measured at 100 %, reserve100), or half the
// width. While the header fits above the board at that side, it spans the
// window (wide); where it does not — a larger text, a warning in the
// header —, it stands over the right-hand column only, and the board's
// column reaches up to the top (side). The horizontal gaps keep their size
// at every text size (basePad), so the right-hand column, and the clocks in
// it, keep their width too.
type consoleLayout struct {
	header *headerBox
	below  *boardColumn // the move field and the refusal slot under the board
	slot   *refusalSlot
	side   bool    // as last laid out (tests read it)
	width  float32 // of the last layout: the header's height at the minimum is at this width
}

// boardSide is the board's side in a content area of size at the text
// size now (the window less its menu bar).
func (l *consoleLayout) boardSide(size fyne.Size) float32 {
	r := reserve100(l.slot.lines)
	bp := basePad()
	h100 := size.Height + menuHeight() - r.menu // the content's height at 100 %
	// whole pixels: the same at every text size
	return float32(math.Floor(float64(max(min((size.Width-2*bp)*0.5, h100-2*bp-r.rest), boardMin))))
}

func (l *consoleLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 4 {
		return
	}
	header, left, right, bar := objs[0], objs[1], objs[2], objs[3]
	l.width = size.Width
	p, bp := theme.Padding(), basePad()
	barH := bar.MinSize().Height
	belowH := l.below.belowHeight()
	side := l.boardSide(size)
	wideH := l.header.heightAt(size.Width - 2*bp)
	l.side = size.Height-2*bp-wideH-barH-belowH-2*p < side-0.01
	top := bp + wideH + p
	if l.side {
		top = bp
		// a window too short for the board even so: the board yields
		side = max(min(side, size.Height-2*bp-barH-belowH-p), boardMin)
	}
	colH := size.Height - bp - barH - p - top
	left.Move(fyne.NewPos(bp, top))
	left.Resize(fyne.NewSize(side, colH))
	rx := bp + side + bp
	rw := size.Width - rx - bp
	ry := top + p
	if l.side {
		hh := l.header.heightAt(rw)
		header.Move(fyne.NewPos(rx, bp))
		header.Resize(fyne.NewSize(rw, hh))
		ry = bp + hh + p
	} else {
		header.Move(fyne.NewPos(bp, bp))
		header.Resize(fyne.NewSize(size.Width-2*bp, wideH))
	}
	right.Move(fyne.NewPos(rx, ry))
	right.Resize(fyne.NewSize(rw, size.Height-bp-barH-p-ry))
	bar.Move(fyne.NewPos(bp, size.Height-bp-barH))
	bar.Resize(fyne.NewSize(size.Width-2*bp, barH))
}

// MinSize is the smallest board beside the right-hand column's minimum,
// the header over the right-hand column where that is shorter.
func (l *consoleLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if len(objs) != 4 {
		return fyne.NewSize(0, 0)
	}
	p, bp := theme.Padding(), basePad()
	header, right, bar := objs[0].MinSize(), objs[2].MinSize(), objs[3].MinSize()
	belowH := l.below.belowHeight()
	rw := max(right.Width, header.Width)
	w := max(bp+boardMin+bp+rw+bp, bar.Width+2*bp)
	// the header's rows stack at a narrow width: their height is measured
	// at the width the window has
	hw, hrw := w, rw
	if l.width > w {
		hw, hrw = l.width, rw+l.width-w
	}
	col := boardMin + belowH
	wide := l.header.heightAt(hw-2*bp) + p + max(col, right.Height+p)
	side := max(col, l.header.heightAt(hrw)+p+right.Height)
	return fyne.NewSize(w, 2*bp+min(wide, side)+p+bar.Height)
}

// heights100 are the heights the menu bar and the rest of what stands
// above and below the board take at 100 % text.
type heights100 struct{ menu, rest float32 }

// reserve100 measures, at 100 % text, the menu bar and the header (the
// title's row, the games' row, a separator), the action bar and the move
// field with its refusal slot of lines lines, with the gaps between them:
// standard widgets measured under the theme at 100 %, the console's own
// from the sizes at 100 %.
func reserve100(lines int) heights100 {
	reserveMu.Lock()
	defer reserveMu.Unlock()
	if r, ok := reserved[lines]; ok {
		return r
	}
	r := measure100(lines)
	reserved[lines] = r
	return r
}

// reserved holds reserve100's measures: the sizes at 100 % do not change.
var (
	reserveMu sync.Mutex
	reserved  = map[int]heights100{}
)

func measure100(lines int) heights100 {
	base := &consoleTheme{scale: 1}
	at100 := func(o fyne.CanvasObject) float32 { return container.NewThemeOverride(o, base).MinSize().Height }
	p, ip := base.Size(theme.SizeNamePadding), base.Size(theme.SizeNameInnerPadding)
	text := base.Size(theme.SizeNameText)
	line := fyne.MeasureText("M", text, fyne.TextStyle{}).Height
	title := widget.NewLabelWithStyle("M", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	sep := at100(widget.NewSeparator())
	header := at100(title) + p + max(line, at100(widget.NewLabel("M"))) + p + sep
	bar := sep + p + at100(widget.NewButton("M", nil))
	below := moveEntryHeight(text, ip) + p + refusalSlotHeight(lines, text, base.Size(theme.SizeNameLineSpacing), ip)
	return heights100{menu: line + ip, rest: header + bar + below + 3*p}
}

// headerBox is the console's header: the title with the database and mode
// on its right, the games with the score on their right, the banner and a
// separator. Each pair shares a row where both fit, else the second stands
// under the first; the games wrap.
type headerBox struct {
	obj   fyne.CanvasObject
	rows  []*pairRow
	extra []fyne.CanvasObject // the banner and the separator, one row each
}

// pairRow is a left object and a label on its right: on one row when both
// fit (the label flush right), else the label under the left object,
// wrapping at the width (a long path, a warning, a long score).
type pairRow struct {
	left  fyne.CanvasObject
	right *widget.Label
	// kept is, per width at the text size, the room the label has needed
	// there: a shorter text (a warning that goes with the next command)
	// keeps it, so the rows under it never move up and down with it
	kept map[keptAt]keptRoom
	// natural is the left object's width on one line (a title whose label
	// would shorten it, the games on one row)
	natural func() float32
	// leftHeight is the left object's height at a width (the games wrap)
	leftHeight func(w float32) float32
}

// rightWidth is the label's width on one line.
func (r *pairRow) rightWidth() float32 {
	if r.right.Text == "" {
		return 0
	}
	return fyne.MeasureText(r.right.Text, labelTextSize(r.right), r.right.TextStyle).Width + 2*theme.InnerPadding()
}

type keptAt struct{ width, scale float32 }

type keptRoom struct {
	stacked bool    // the label stood under the left object
	height  float32 // its greatest height there
}

// room is the room the label takes at width w: under the left object or
// beside it, and its height — the most it has taken at this width and text
// size.
func (r *pairRow) room(w float32) keptRoom {
	now := keptRoom{stacked: r.right.Text != "" && r.natural()+theme.Padding()+r.rightWidth() > w}
	if r.right.Text != "" {
		lw := w
		if !now.stacked {
			lw = r.rightWidth()
		}
		now.height = wrappedHeight(r.right, lw)
	}
	if r.kept == nil || len(r.kept) > 64 {
		r.kept = map[keptAt]keptRoom{} // a window dragged through many widths
	}
	at := keptAt{float32(math.Round(float64(w))), textScale()}
	if k, ok := r.kept[at]; ok {
		now.stacked = now.stacked || k.stacked
		now.height = max(now.height, k.height)
	}
	r.kept[at] = now
	return now
}

func (r *pairRow) oneRow(w float32) bool { return !r.room(w).stacked }

// rightHeight is the label's height at width w (one line where it stands
// beside the left object).
func (r *pairRow) rightHeight(w float32) float32 { return r.room(w).height }

func (r *pairRow) heightAt(w float32) float32 {
	if r.oneRow(w) {
		return max(r.leftHeight(w), r.rightHeight(w))
	}
	return r.leftHeight(w) + r.rightHeight(w)
}

func (r *pairRow) layout(pos fyne.Position, w float32) float32 {
	if r.oneRow(w) {
		rw := r.rightWidth()
		h := max(r.leftHeight(w), r.rightHeight(w))
		r.left.Move(pos)
		r.left.Resize(fyne.NewSize(w-rw-theme.Padding(), h))
		r.right.Move(pos.Add(fyne.NewPos(w-rw, 0)))
		r.right.Resize(fyne.NewSize(rw, h))
		return h
	}
	lh, rh := r.leftHeight(w), r.rightHeight(w)
	r.left.Move(pos)
	r.left.Resize(fyne.NewSize(w, lh))
	r.right.Move(pos.Add(fyne.NewPos(0, lh)))
	r.right.Resize(fyne.NewSize(w, rh))
	return lh + rh
}

// wrappedHeight is the height of label l's text wrapped at its words at
// width w (the label's own minimum follows the width it was last given).
func wrappedHeight(l *widget.Label, w float32) float32 {
	size := labelTextSize(l)
	line := fyne.MeasureText("M", size, l.TextStyle).Height
	n := wrappedLines(l.Text, size, l.TextStyle, w-2*theme.InnerPadding())
	return float32(n)*line + float32(n-1)*theme.LineSpacing() + 2*theme.InnerPadding()
}

// labelTextSize is the size of a label's text.
func labelTextSize(l *widget.Label) float32 {
	if l.SizeName == "" {
		return theme.TextSize()
	}
	return theme.Size(l.SizeName)
}

// wrappedLines is how many lines text takes wrapped at its spaces at width
// w (a word longer than w takes a line of its own).
func wrappedLines(text string, size float32, style fyne.TextStyle, w float32) int {
	n := 0
	for _, para := range strings.Split(text, "\n") {
		n++
		cur := ""
		for _, word := range strings.Fields(para) {
			try := word
			if cur != "" {
				try = cur + " " + word
			}
			if cur != "" && fyne.MeasureText(try, size, style).Width > w {
				n++
				cur = word
				continue
			}
			cur = try
		}
	}
	return max(n, 1)
}

// heightAt is the header's height at width w.
func (h *headerBox) heightAt(w float32) float32 {
	total := float32(0)
	n := 0
	for _, r := range h.rows {
		total += r.heightAt(w)
		n++
	}
	for _, o := range h.extra {
		if o.Visible() {
			total += o.MinSize().Height
			n++
		}
	}
	return total + float32(n-1)*theme.Padding()
}

func (h *headerBox) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, r := range h.rows {
		y += r.layout(fyne.NewPos(0, y), size.Width) + theme.Padding()
	}
	for _, o := range h.extra {
		if !o.Visible() {
			continue
		}
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, o.MinSize().Height))
		y += o.MinSize().Height + theme.Padding()
	}
}

// MinSize is as wide as the widest single object (pairs may stack) and as
// high as at that width.
func (h *headerBox) MinSize(_ []fyne.CanvasObject) fyne.Size {
	w := float32(0)
	for _, r := range h.rows {
		w = max(w, r.left.MinSize().Width)
	}
	for _, o := range h.extra {
		if o.Visible() {
			w = max(w, o.MinSize().Width)
		}
	}
	return fyne.NewSize(w, h.heightAt(w))
}

// fixedPad pads its one object by basePad on every side: the gap does not
// grow with the text (the clocks keep their width).
type fixedPad struct{ n float32 } // how many base paddings

func (l *fixedPad) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	d := l.n * basePad()
	for _, o := range objs {
		o.Move(fyne.NewPos(d, d))
		o.Resize(fyne.NewSize(size.Width-2*d, size.Height-2*d))
	}
}

func (l *fixedPad) MinSize(objs []fyne.CanvasObject) fyne.Size {
	d := 2 * l.n * basePad()
	s := fyne.NewSize(0, 0)
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s.Add(fyne.NewSize(d, d))
}

// twoColumns places two objects side by side in equal halves with a gap of
// basePad (the console's clocks).
type twoColumns struct{}

func (twoColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 2 {
		return
	}
	bp := basePad()
	w := (size.Width - bp) / 2
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w, size.Height))
	objs[1].Move(fyne.NewPos(w+bp, 0))
	objs[1].Resize(fyne.NewSize(w, size.Height))
}

func (twoColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := fyne.NewSize(0, 0)
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return fyne.NewSize(2*s.Width+basePad(), s.Height)
}

// refusalSlot keeps the room of lines lines of bold text under the move
// field, whatever it shows: a refusal shown there never moves the board (a
// longer one scrolls).
type refusalSlot struct{ lines int }

func (l *refusalSlot) height() float32 {
	return refusalSlotHeight(l.lines, theme.TextSize(), theme.LineSpacing(), theme.InnerPadding())
}

// refusalSlotHeight is the height of lines lines of bold text at size in a
// label (line spacing ls, inner padding ip).
func refusalSlotHeight(lines int, size, ls, ip float32) float32 {
	line := fyne.MeasureText("M", size, fyne.TextStyle{Bold: true}).Height
	return float32(lines)*line + float32(lines-1)*ls + 2*ip
}

func (l *refusalSlot) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l *refusalSlot) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, l.height()) }

// lineStack stacks labels of the same text size closer than a box does:
// the next label's first line stands an inner padding and a line spacing
// under the last line of the one above (their paddings overlap by one),
// which is exactly what the refusal slot's two lines (refusalSlotHeight)
// need for a refusal of one line and the notice's line to stand whole in
// it, and for the notice's line to stand wholly below it under a refusal
// of two lines (with a box, the notice's line was cut in half under a
// refusal of one line; with the labels a line spacing apart, its top
// peeked in under a refusal of two). A hidden label takes no room.
type lineStack struct{}

// lineStackGap is how far a label in a lineStack reaches into the one
// above it (negative: an overlap).
func lineStackGap() float32 { return theme.LineSpacing() - theme.InnerPadding() }

func (lineStack) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y, first := float32(0), true
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		if !first {
			y += lineStackGap()
		}
		first = false
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}

func (lineStack) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	first := true
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		if !first {
			h += lineStackGap()
		}
		first = false
		m := o.MinSize()
		w, h = max(w, m.Width), h+m.Height
	}
	return fyne.NewSize(w, h)
}

// boardColumn places the board at the top of its column, the move field
// under it and the slot of the refusal and the notice under that, taking
// the height that is left (the slot's minimum where there is none).
type boardColumn struct {
	entry, slot fyne.CanvasObject
}

// belowHeight is the move field's and the slot's least height under the
// board, with the gaps.
func (b *boardColumn) belowHeight() float32 {
	return theme.Padding() + b.entry.MinSize().Height + theme.Padding() + b.slot.MinSize().Height
}

func (b *boardColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 3 {
		return
	}
	p := theme.Padding()
	side := max(min(size.Width, size.Height-b.belowHeight()), 0)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(size.Width, side))
	eh := b.entry.MinSize().Height
	objs[1].Move(fyne.NewPos(0, side+p))
	objs[1].Resize(fyne.NewSize(size.Width, eh))
	y := side + p + eh + p
	objs[2].Move(fyne.NewPos(0, y))
	objs[2].Resize(fyne.NewSize(size.Width, max(size.Height-y, b.slot.MinSize().Height)))
}

func (b *boardColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if len(objs) != 3 {
		return fyne.NewSize(0, 0)
	}
	return fyne.NewSize(max(objs[0].MinSize().Width, b.entry.MinSize().Width), objs[0].MinSize().Height+b.belowHeight())
}
