package gui

import (
	"image/color"
	"math"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/match"
)

// clockView is one of the two large clocks. It redraws only when its text
// changes: update computes the texts at now and arms one timer for the next
// instant the display or the flag changes (never a periodic ticker).
type clockView struct {
	feed  clockFeed
	slot  int  // 0 left, 1 right
	large bool // audience display
	frame *canvas.Rectangle
	name  *canvas.Text
	time  *glyphText
	info  *canvas.Text // period and move number
	toGo  *canvas.Text // "· 38 to control": on the same row if it fits, else below
	flag  *canvas.Text
	// notes qualify a fallen flag, one per line (flag fell when only this
	// one has, fell first when both have, or order unknown; required moves
	// done); hidden while empty, so that a clock
	// without a flag keeps its height and no line outgrows the panel
	notes [2]*canvas.Text
	obj   fyne.CanvasObject
	stop  func()
	due   time.Time // instant the armed timer fires at
	gen   int       // generation of the armed timer
	// onRedraw, when set, is told of each redraw of the time text (tests
	// and benchmarks count them).
	onRedraw func()
	// nameLabel shows name in the console (nil in the audience display)
	nameLabel *widget.Label
	// zoom scales the digits with the clock's width (1 at the theme's size);
	// zoomBox lays the body out with it, again when the reading's length
	// changes (tenths under ten seconds)
	zoom    float32
	zoomBox *fyne.Container
	// maxZoom caps the zoom for the height the clock may take (0: none;
	// never below minZoom): the console's scoresheet keeps its rows
	maxZoom float32
	// compact leaves out the flag line while no flag has fallen (a short
	// window: the console's scoresheet keeps its rows)
	compact bool
	textLen int
	// peer is the other clock of the pair: both set their digits for the
	// longer reading of the two, so the running clock with tenths (time
	// trouble) is never drawn smaller than the idle one
	peer *clockView
	// fallen is whether the flag showed fallen at the last update: when it
	// falls the console's notice and action bar say so at that instant
	fallen bool
}

// clockFeed is what a clock view shows and whom it tells: the view takes
// its data through it and holds no console.
type clockFeed struct {
	side  func() clock.Side   // the side standing at the view's place
	state func() *match.State // the match as recorded
	game  func() *match.Game  // the game shown (nil before the first)
	now   func() time.Time
	// broken tells that the record does not verify: nothing runs on it,
	// the clocks stand at now (its last sound instant), marked (nil: never)
	broken func() bool
	after  afterFunc
	// timeOfDay writes an instant as the console shows the time of day
	// (the match's zone or the local one).
	timeOfDay func(time.Time) string
	// relayout lays the view's window out again (the digits' size changed).
	relayout func()
	// onPress is told of a click on the clock (nil: the clock is not pressed
	// by a click, as on the audience display).
	onPress func()
	// onFall is told when the flag falls or is lifted (nil: nobody).
	onFall func(g *match.Game)
	// nameFits is told whether the clock's name fits its width at the
	// sub-heading size and answers whether the names are set at that size
	// (nil: if this one fits): the console's two clocks set their names
	// at one size.
	nameFits func(slot int, fits bool) bool
	// ui runs f on the UI thread (nil: fyne.Do), as the console's ui.
	ui func(f func())
}

// onUI runs f on the UI thread (a timer fires elsewhere).
func (f clockFeed) onUI(fn func()) {
	if f.ui == nil {
		fyne.Do(fn)
		return
	}
	f.ui(fn)
}

func newClockView(feed clockFeed, slot int, large bool) *clockView {
	v := &clockView{feed: feed, slot: slot, large: large}
	v.frame = canvas.NewRectangle(color.Transparent)
	v.frame.CornerRadius = 0
	v.name = canvas.NewText("", themeColor(theme.ColorNameForeground))
	v.name.TextStyle.Bold = true
	v.zoom = 1
	v.time = newGlyphText("-:--:--", themeColor(theme.ColorNameForeground))
	v.time.TextStyle.Bold = true
	v.info = canvas.NewText("", themeColor(theme.ColorNameForeground))
	v.toGo = canvas.NewText("", themeColor(theme.ColorNameForeground))
	infoRow := container.New(&flowLayout{relayout: feed.relayout}, v.info, v.toGo)
	v.flag = canvas.NewText("", colFlag)
	v.flag.TextStyle.Bold = true
	for i := range v.notes {
		v.notes[i] = canvas.NewText("", colFlag)
		v.notes[i].Hide()
	}
	v.restyle()
	var nameObj fyne.CanvasObject = v.name
	if !large {
		// the console's clock names never widen the window: a name too
		// long for its clock (long names, German, larger text) is set at
		// the text size, and wraps if it is still too long (zoomLayout);
		// it is never cut short
		v.nameLabel = widget.NewLabel("")
		v.nameLabel.TextStyle.Bold = true
		v.nameLabel.SizeName = theme.SizeNameSubHeadingText
		v.nameLabel.Wrapping = fyne.TextWrapWord
		nameObj = v.nameLabel
	}
	body := container.NewVBox(nameObj, v.time.obj, infoRow, v.flag, v.notes[0], v.notes[1])
	v.zoomBox = container.New(&zoomLayout{v: v}, container.New(&fixedPad{n: 2}, body))
	v.obj = container.NewStack(v.frame, v.zoomBox)
	if feed.onPress != nil {
		// a click on the console's clock presses it, as its key does
		v.obj = newTapArea(v.obj, feed.onPress)
	}
	return v
}

// tapArea is content that does something when clicked (the clock).
type tapArea struct {
	widget.BaseWidget
	content fyne.CanvasObject
	onTap   func()
}

func newTapArea(content fyne.CanvasObject, onTap func()) *tapArea {
	t := &tapArea{content: content, onTap: onTap}
	t.ExtendBaseWidget(t)
	return t
}

func (t *tapArea) Tapped(*fyne.PointEvent) { t.onTap() }

func (t *tapArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(t.content) }

// restyle sets the text sizes from the theme (after a text-size change).
func (v *clockView) restyle() {
	base := theme.TextSize()
	k, kLine := float32(1), float32(1)
	if v.large {
		// the audience display doubles the name and the time; the period
		// and flag lines grow less, so that the German ones still fit a
		// 1280-pixel projector beside the board
		k, kLine = 2, 1.5
	}
	v.name.TextSize = base * 1.3 * k
	// the digits are drawn at their design size times the zoom the
	// clock's width allows; the minimum width is measured smaller, so the
	// clocks never make the window wider than the screen
	v.time.MinTextSize = base * 4.6 * k * minZoom
	// in quarter pixels: the zoom is a whole number of pixels over the
	// design size (zoomLayout), read back exactly
	v.time.TextSize = float32(math.Round(float64(base*4.6*k*v.zoom)*4) / 4)
	v.info.TextSize = base * 1.05 * kLine
	v.toGo.TextSize = v.info.TextSize
	v.flag.TextSize = base * 1.2 * kLine
	for _, n := range v.notes {
		n.TextSize = base * 1.05 * kLine
	}
	for _, t := range []*canvas.Text{v.name, v.info, v.toGo, v.flag, v.notes[0], v.notes[1]} {
		t.Refresh()
	}
	v.time.Refresh()
}

// minZoom is how far the digits shrink below their design size in a clock
// too narrow for it (a large text size on a small screen).
const minZoom = 0.6

// zoomLayout lays out a clock's body and grows its digits with the width
// the clock is given (the window's size, 1280×800 to 3840×2160); the
// minimum width stays that of the digits at the theme's size. The console's
// clock name is set smaller when it does not fit the width (fitName).
type zoomLayout struct{ v *clockView }

func (l *zoomLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	v := l.v
	if v.fitName(size.Width - 4*basePad()) {
		v.feed.relayout() // the name's height changed
	}
	design := v.time.MinTextSize / minZoom
	if design > 0 {
		ref := "0:00:00"
		n := len([]rune(v.time.Text))
		if v.peer != nil {
			n = max(n, len([]rune(v.peer.time.Text)))
		}
		if n > len(ref) {
			ref = strings.Repeat("0", n) // the reading with tenths must fit too
		}
		// the digits' size in whole pixels from the clock's width alone
		// (measured at a fixed size: the same width gives the same digits
		// at every text size), between the smallest zoom and the height's
		// cap
		perPx := fyne.MeasureText(ref, 100, v.time.TextStyle).Width / 100
		pad := 4 * basePad() // the clock's gaps do not grow with the text
		px := float32(math.Floor(float64((size.Width - pad) * 0.92 / perPx)))
		px = min(max(px, design*minZoom), design*4)
		if v.maxZoom > 0 {
			px = max(min(px, float32(math.Floor(float64(design*v.maxZoom)))), design*minZoom)
		}
		if z := px / design; z != v.zoom {
			v.zoom = z
			v.restyle()
			// the digits' height changed: lay the window out again
			v.feed.relayout()
		}
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	v.fitFlagLine()
}

// setCompact leaves the empty flag line out (on) or keeps its place.
func (v *clockView) setCompact(on bool) {
	if v.compact != on {
		v.compact = on
		v.fitFlagLine()
	}
}

// fitFlagLine shows the flag line, unless it is empty in a compact clock,
// and sets the flag's lines smaller where they are wider than the clock
// (the instant to the millisecond in German beside a large board).
func (v *clockView) fitFlagLine() {
	if w := v.zoomBox.Size().Width - 4*basePad(); w > 0 {
		for _, t := range []*canvas.Text{v.flag, v.notes[0], v.notes[1]} {
			if t.Text == "" {
				continue
			}
			if need := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width; need > w {
				t.TextSize *= w / need
				// the measure is not quite proportional to the size
				for t.TextSize > 1 && fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width > w {
					t.TextSize -= 0.25
				}
				t.Refresh()
			}
		}
	}
	if hide := v.compact && v.flag.Text == ""; hide == v.flag.Visible() {
		if hide {
			v.flag.Hide()
		} else {
			v.flag.Show()
		}
		v.feed.relayout()
	}
}

// setMaxZoom caps the digits' zoom for the height the clock may take, and
// lays the clock out again when the cap moves enough to matter.
func (v *clockView) setMaxZoom(z float32) {
	if d := z - v.maxZoom; d > -0.01 && d < 0.01 {
		return
	}
	v.maxZoom = z
	if v.zoomBox != nil && !v.zoomBox.Size().IsZero() {
		v.zoomBox.Refresh()
	}
}

func (l *zoomLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := fyne.NewSize(0, 0)
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

func setText(t *canvas.Text, s string, col color.Color) bool {
	if t.Text == s && t.Color == col {
		return false
	}
	t.Text, t.Color = s, col
	t.Refresh()
	return true
}

// update redraws the clock at the current instant and re-arms its timer.
func (v *clockView) update() {
	g := v.feed.game()
	if g == nil {
		v.showBeforeFirstGame()
		return
	}
	fg := themeColor(theme.ColorNameForeground)
	side, at := v.feed.side(), v.feed.now()
	broken := v.feed.broken != nil && v.feed.broken()
	running, isRunning := g.Clock.Running()
	on := isRunning && running == side && g.Live() && !broken
	setText(v.name, sideGlyph(side)+g.Name(side)+" — "+translate(match.Colour(side)), fg)
	v.showName()
	next := v.showReading(g, side, at, on)
	setText(v.info, tr("period %d · move %d", g.Clock.Period(side)+1, g.Clock.Moves(side)+1), fg)
	due := ""
	if n, ok := g.Clock.MovesToControl(side); ok {
		due = "· " + tr("%d to control", n)
	}
	setText(v.toGo, due, fg)
	f := g.Clock.Flag(side, at)
	watch := side // the flag whose fall changes what this clock shows
	if f.Fallen {
		watch = side.Other() // "flag fell" becomes "fell first" when the other flag falls
	}
	if !g.Clock.Flag(watch, at).Fallen && isRunning && running == watch && g.Live() {
		if fa, ok := g.Clock.FlagAt(watch); ok && fa.After(at) && (next.IsZero() || fa.Before(next)) {
			next = fa // the flag must appear at its exact instant
		}
	}
	stopped := g.State == match.Paused
	if broken && g.Live() {
		next = time.Time{} // the clocks stand still: no timer
	}
	v.showFlagLine(g, side, f, at, stopped)
	if broken && g.Live() && !f.Fallen {
		mark := translate("clocks stopped: the record does not verify")
		if v.large {
			mark = translate("clocks stopped") // the audience needs no more
		}
		setText(v.flag, "■ "+mark, colFlag)
		v.fitFlagLine()
	}
	v.setFrame(on, stopped, broken && g.Live())
	v.arm(next, at)
}

// sideGlyph is the king before a side's player's name.
func sideGlyph(side clock.Side) string {
	if side == clock.Black {
		return "♚ "
	}
	return "♔ "
}

// showBeforeFirstGame shows, before the first game, the side's player of
// the next game and the time it starts with.
func (v *clockView) showBeforeFirstGame() {
	fg := themeColor(theme.ColorNameForeground)
	side := v.feed.side()
	name, start := translate(match.Colour(side)), "-:--:--"
	if st := v.feed.state(); st.Match != nil && len(st.Games) > 0 {
		m := st.Match
		n := st.Games[0].Number
		for _, sg := range st.Games {
			if sg.State == match.Scheduled {
				n = sg.Number
				break
			}
		}
		player := m.WhiteOf(n)
		if side == clock.Black {
			player = m.Opponent(player)
		}
		name = sideGlyph(side) + player + " — " + name
		if ctl, ok := m.Controls[player]; ok {
			start = clock.FormatReading(ctl.Allotment(0))
		}
	}
	setText(v.name, name, fg)
	v.showName()
	v.time.set(start, themeColor(theme.ColorNamePlaceHolder))
	setText(v.info, "", fg)
	setText(v.toGo, "", fg)
	setText(v.flag, "", colFlag)
	v.fitFlagLine()
	v.setFrame(false, false, false)
	v.disarm()
}

// showReading shows side's clock at at, bright while it runs (on), and
// returns the instant its text next changes.
func (v *clockView) showReading(g *match.Game, side clock.Side, at time.Time, on bool) time.Time {
	txt, next := g.Clock.Display(side, at, clock.DisplayOptions{})
	col := themeColor(theme.ColorNamePlaceHolder)
	if on {
		col = themeColor(theme.ColorNameForeground)
	}
	if v.time.set(txt, col) {
		if v.onRedraw != nil {
			v.onRedraw()
		}
		if n := len([]rune(txt)); n != v.textLen {
			v.textLen = n
			v.zoomBox.Refresh() // fit the longer or shorter reading
			if v.peer != nil {
				v.peer.zoomBox.Refresh() // the pair's digits stay alike
			}
		}
	}
	return next
}

// showFlagLine shows the line under the reading: a fallen flag with its
// instant and notes (fell first, order unknown, required moves done), a
// press waiting for its move, or the clocks stopped; and tells the feed
// when the flag falls.
func (v *clockView) showFlagLine(g *match.Game, side clock.Side, f clock.Flag, at time.Time, stopped bool) {
	flagTxt := ""
	var notes [2]string
	if f.Fallen {
		flagTxt = "⚑ " + translate("FLAG")
		if !f.At.IsZero() {
			flagTxt += " " + v.feed.timeOfDay(f.At)
		}
		first, ok, unknown := g.Clock.FirstFlag(at)
		both := g.Clock.Flag(side.Other(), at).Fallen
		switch {
		case unknown:
			notes[0] = translate("order unknown (6.11)")
		case !both:
			notes[0] = translate("flag fell") // "first" only where another fell too
		case ok && first == side:
			notes[0] = translate("fell first")
		}
		if f.RequiredDone() {
			notes[1] = translate("required moves done")
		}
	}
	flagCol := color.Color(colFlag)
	if flagTxt == "" && g.Pressed != nil && *g.Pressed == side {
		// the player pressed; the move is still to be entered (clock keys
		// alone switch the clocks, or a key was pressed first)
		flagTxt, flagCol = "● "+translate("pressed: enter the move"), colRunning
	}
	if flagTxt == "" && stopped {
		flagTxt, flagCol = "■ "+translate("clocks stopped"), colStopped
	}
	if f.Fallen != v.fallen {
		v.fallen = f.Fallen
		if v.feed.onFall != nil {
			v.feed.onFall(g)
		}
	}
	setText(v.flag, flagTxt, flagCol)
	v.fitFlagLine()
	for i, n := range v.notes {
		if setText(n, notes[i], colFlag) {
			if notes[i] == "" {
				n.Hide()
			} else {
				n.Show()
			}
		}
	}
}

// fitName sets the console's clock name at the sub-heading size if it fits
// width on one line (and the other clock's does, feed.nameFits), else at
// the text size (where it wraps if it still does not fit). It reports
// whether the size changed.
func (v *clockView) fitName(width float32) bool {
	lb := v.nameLabel
	if lb == nil || width <= 0 {
		return false
	}
	room := width - 2*theme.InnerPadding() // the label's own inset
	fits := fyne.MeasureText(lb.Text, theme.Size(theme.SizeNameSubHeadingText), lb.TextStyle).Width <= room
	if v.feed.nameFits != nil {
		fits = v.feed.nameFits(v.slot, fits)
	}
	want := theme.SizeNameSubHeadingText
	if !fits {
		want = theme.SizeNameText
	}
	if lb.SizeName == want {
		return false
	}
	lb.SizeName = want
	lb.Refresh()
	return true
}

// showName copies the name into the console's label.
func (v *clockView) showName() {
	if v.nameLabel != nil && v.nameLabel.Text != v.name.Text {
		v.nameLabel.SetText(v.name.Text)
		v.fitName(v.zoomBox.Size().Width - 4*basePad())
	}
}

// setFrame frames the running clock; stopped clocks (a pause, a call) get
// a frame of their own colour, so they are seen stopped from afar, and
// clocks stopped by a record that does not verify (broken) a red one.
func (v *clockView) setFrame(on, stopped, broken bool) {
	var fill, stroke color.Color = color.Transparent, themeColor(theme.ColorNameSeparator)
	width := float32(1)
	switch {
	case broken:
		stroke, width = colFlag, 3
	case on:
		stroke, width = colRunning, 5
		fill = themeColor(theme.ColorNameHover)
	case stopped:
		stroke, width = colStopped, 3
	}
	if v.frame.StrokeColor == stroke && v.frame.FillColor == fill && v.frame.StrokeWidth == width {
		return
	}
	v.frame.StrokeColor, v.frame.FillColor, v.frame.StrokeWidth = stroke, fill, width
	v.frame.Refresh()
}

// arm sets the single timer of this clock for instant next (zero: none).
func (v *clockView) arm(next, at time.Time) {
	if next.IsZero() {
		v.disarm()
		return
	}
	if v.stop != nil && v.due.Equal(next) {
		return
	}
	v.disarm()
	d := next.Sub(at)
	if d < time.Millisecond {
		d = time.Millisecond
	}
	v.due = next
	v.gen++
	gen := v.gen
	v.stop = v.feed.after(d, func() {
		v.feed.onUI(func() {
			if gen != v.gen {
				return // superseded by a later arm
			}
			v.stop = nil
			v.update()
		})
	})
}

func (v *clockView) disarm() {
	v.gen++
	if v.stop != nil {
		v.stop()
		v.stop = nil
	}
	v.due = time.Time{}
}
