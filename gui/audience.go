package gui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"github.com/notnil/chess"

	"arbiter/match"
)

// audience is the second window for a projector (Article 6.14: the audience
// display): the board, both clocks and the last moves, large, with no
// controls. It opens full screen (on the screen the platform gives it) and
// stays until it is closed (Ctrl+Shift+A again, or the window's own close).
// Its window is never closed: closing it hides it, and the driver's end at
// quit takes it with the console's (quitApp says why a window closed by
// Fyne's Window.Close can crash the program).
// It takes no key for itself: the clock keys, the call and stop keys, Enter
// and the characters of a move go to the console's move field, and the
// console's shortcuts work in it, so the clock can be worked whichever
// window has the focus.
//
// Like the board and the clock views it holds no console: it takes what it
// shows (show, and a clockFeed per clock) and tells what happens in it
// (audienceEvents).
type audience struct {
	win    fyne.Window
	board  *board
	clocks [2]*clockView
	title  *canvas.Text
	moves  *canvas.Text // the last move (and the result)
	score  *canvas.Text
	list   *fyne.Container // the game's moves, a text each, the last marked
	scroll *container.Scroll
}

// audienceEvents is what the audience window tells: a key or a character
// typed in it, a shortcut of the console given in it, and its own close
// (the window manager's, or its title bar's), which closes nothing: the
// console hides the window (console.hideAudience).
type audienceEvents struct {
	onKey      func(*fyne.KeyEvent)
	onRune     func(rune)
	onShortcut func(actionID)
	onClosed   func()
}

// audienceShows is what the audience display shows: the match's title
// with the game's number, the last move (with the result once the game is
// over), and the game on the board the way the console turns it.
type audienceShows struct {
	title, lastMove string
	score           string
	moves           []audienceMove // the game's moves in order
	game            *match.Game
	flipped         bool
}

// audienceMove is a move of the audience display's move list: "12." and
// the move for White's, the move alone for Black's ("12… Nf6" where it
// opens a row); last marks the last move.
type audienceMove struct {
	text string
	last bool
}

// newAudience lays the audience display out in win, full screen.
func newAudience(win fyne.Window, feeds [2]clockFeed, ev audienceEvents) *audience {
	a := &audience{win: win}
	a.board = newBoard(false, nil, nil)
	a.clocks[0] = newClockView(feeds[0], 0, true)
	a.clocks[1] = newClockView(feeds[1], 1, true)
	a.title = canvas.NewText("", themeColor(theme.ColorNameForeground))
	a.title.TextStyle.Bold = true
	a.moves = canvas.NewText("", themeColor(theme.ColorNameForeground))
	a.score = canvas.NewText("", themeColor(theme.ColorNameForeground))
	// the moves flow like words and wrap between moves only: a RichText of
	// a segment per move (Fyne 2.7.1) broke a move that began with less
	// than a character's room left on its line into one character a line
	// ("7" / "." / "h" / "3") and cut the list's last line off
	flow := &listFlow{}
	a.list = container.New(flow)
	a.scroll = container.NewVScroll(a.list)
	toEnd := func() { feeds[0].onUI(a.scroll.ScrollToBottom) }
	flow.relayout = func() { // the rows the list's width gives changed
		feeds[0].onUI(a.list.Refresh)
		toEnd()
	}
	flow.laidOut = toEnd
	a.clocks[0].peer, a.clocks[1].peer = a.clocks[1], a.clocks[0]
	a.restyle()
	top := container.NewVBox(a.clocks[0].obj, a.clocks[1].obj, a.score, a.moves)
	right := container.NewBorder(top, nil, nil, nil, a.scroll)
	win.SetContent(container.NewBorder(a.title, nil, nil, nil, container.NewGridWithColumns(2, a.board, right)))
	// the window's own close is intercepted, never Fyne's Window.Close:
	// that sets the window closing (view() nil) and destroys it only after
	// the driver's next poll of GLFW's events, and a pointer move in that
	// poll which changes the cursor's shape (the first move over it, from
	// no cursor to the arrow) calls SetInputMode on the nil view: the
	// program dies (the crash at quit, gui-check part 8)
	win.SetCloseIntercept(func() {
		a.disarm()
		ev.onClosed()
	})
	cv := win.Canvas()
	cv.SetOnTypedKey(ev.onKey)
	cv.SetOnTypedRune(ev.onRune)
	for id, s := range shortcuts {
		id := id
		cv.AddShortcut(s, func(fyne.Shortcut) { ev.onShortcut(id) })
	}
	win.Resize(fyne.NewSize(1280, 720))
	win.SetFullScreen(true)
	return a
}

// toggleAudience opens the audience display, or hides it when it is open.
// Its window is made once and kept: hidden when the display is closed, shown
// again (laid out anew, in the console's language) when it is opened.
func (c *console) toggleAudience() {
	if c.audience != nil {
		c.hideAudience()
		return
	}
	win := c.audienceWin
	if win == nil {
		win = c.fa.NewWindow("")
		c.audienceWin = win
	}
	win.SetTitle(translate("Arbiter — audience display"))
	c.audience = newAudience(win, [2]clockFeed{c.clockFeed(0, true), c.clockFeed(1, true)}, audienceEvents{
		onKey:  c.forwardKey,
		onRune: c.forwardRune,
		onShortcut: func(id actionID) {
			if len(c.dialogs) == 0 {
				c.do(id)
			}
		},
		onClosed: c.hideAudience,
	})
	c.tellKeys(win.Canvas()) // the keys it forwards
	c.audience.show(c.audienceShows())
	win.Show()
}

// hideAudience closes the audience display: its clocks stop ticking and its
// window is hidden, never closed (newAudience says why). It leaves full
// screen first: GLFW does not hide a full-screen window (glfwHideWindow
// returns at once for a window on a monitor), which stayed on the
// projector, no longer drawn, over the console.
func (c *console) hideAudience() {
	if c.audience == nil {
		return
	}
	c.audience.disarm()
	c.audience.win.SetFullScreen(false)
	c.audience.win.Hide()
	c.audience = nil
}

// audienceShows is what the audience display shows of the console's game.
func (c *console) audienceShows() audienceShows {
	st := c.state()
	g := st.CurrentGame()
	s := audienceShows{game: c.game(), flipped: c.flipped}
	if st.Match != nil {
		s.title = st.Match.Title
		if g != nil {
			s.title += " — " + tr("Game %d", g.Number)
		}
	}
	if st.Match != nil {
		s.score = translate("Score") + ": " + say(st.Standing().Phrase())
	}
	if g != nil && g.Sheet != nil {
		es := g.Sheet.Entries()
		if n := len(es); n > 0 {
			s.lastMove = tr("Last move: %s", localSAN(es[n-1].Label()))
		}
		if g.Over() {
			s.lastMove += "   " + g.Result
		}
		for i, e := range es {
			text := localSAN(e.SAN)
			switch {
			case e.Color == chess.White:
				text = fmt.Sprintf("%d. %s", e.Number, text)
			case i == 0:
				text = fmt.Sprintf("%d… %s", e.Number, text)
			}
			s.moves = append(s.moves, audienceMove{text: text, last: i == len(es)-1})
		}
	}
	return s
}

// forwardKey takes a key pressed in the audience display to the console's
// move field, which lets the clock keys through to the console first.
func (c *console) forwardKey(ev *fyne.KeyEvent) {
	if len(c.dialogs) > 0 {
		c.handleKey(ev) // Enter or Escape answer the console's dialog
		return
	}
	c.win.Canvas().Focus(c.moveEntry)
	c.moveEntry.TypedKey(ev)
}

// forwardRune types a character of a move typed in the audience display
// into the console's move field.
func (c *console) forwardRune(r rune) {
	c.touch()
	if len(c.dialogs) > 0 {
		return
	}
	c.win.Canvas().Focus(c.moveEntry)
	c.moveEntry.TypedRune(r)
}

// disarm stops the display's clocks' timers (its window closed, or the
// console quitting with it open).
func (a *audience) disarm() {
	for _, cv := range a.clocks {
		cv.disarm()
	}
}

func (a *audience) restyle() {
	a.title.TextSize = theme.TextSize() * 2
	a.moves.TextSize = theme.TextSize() * 2.4
	a.score.TextSize = theme.TextSize() * 2
	for _, cv := range a.clocks {
		cv.restyle()
	}
}

// show shows s, and both clocks as their feeds give them now.
func (a *audience) show(s audienceShows) {
	a.title.Text = s.title
	a.title.Refresh()
	a.moves.Text = s.lastMove
	a.moves.Refresh()
	a.score.Text = s.score
	a.score.Refresh()
	a.showMoves(s.moves)
	a.board.show(s.game, s.flipped)
	for _, cv := range a.clocks {
		cv.update()
	}
}

// listFlow lays the audience display's moves out as a flowLayout does, and
// tells laidOut after each layout at a new size (the window resized, the
// text size changed), for the newest row to be brought into view.
type listFlow struct {
	flowLayout
	size    fyne.Size
	laidOut func()
}

func (l *listFlow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.flowLayout.Layout(objs, size)
	if size != l.size {
		l.size = size
		l.laidOut()
	}
}

// showMoves sets the move list, a text per move at the heading size (its
// number and the move never parted), the last move bold in the theme's
// primary colour, and scrolls to it.
func (a *audience) showMoves(moves []audienceMove) {
	objs := make([]fyne.CanvasObject, 0, len(moves))
	for i, m := range moves {
		var t *canvas.Text
		if i < len(a.list.Objects) {
			t = a.list.Objects[i].(*canvas.Text) // drawn already: no new object
		} else {
			t = canvas.NewText("", nil)
		}
		t.Text = m.text + "  "
		t.TextSize = theme.Size(theme.SizeNameHeadingText)
		t.TextStyle.Bold = m.last
		t.Color = themeColor(theme.ColorNameForeground)
		if m.last {
			t.Color = themeColor(theme.ColorNamePrimary)
		}
		t.Refresh()
		objs = append(objs, t)
	}
	a.list.Objects = objs
	a.list.Refresh()
	a.scroll.ScrollToBottom()
}
