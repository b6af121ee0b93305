package gui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/notnil/chess"

	"arbiter/match"
)

// audience is the second window for a projector (Article 6.14: the audience
// display): the board, both clocks and the last moves, large, with no
// controls. It opens full screen (on the screen the platform gives it) and
// stays until it is closed (Ctrl+Shift+A again, or the window's own close).
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
	list   *widget.RichText // the game's moves, the last marked
	scroll *container.Scroll
}

// audienceEvents is what the audience window tells: a key or a character
// typed in it, a shortcut of the console given in it, and its close.
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
	a.list = widget.NewRichText()
	a.list.Wrapping = fyne.TextWrapWord
	a.scroll = container.NewVScroll(a.list)
	a.clocks[0].peer, a.clocks[1].peer = a.clocks[1], a.clocks[0]
	a.restyle()
	top := container.NewVBox(a.clocks[0].obj, a.clocks[1].obj, a.score, a.moves)
	right := container.NewBorder(top, nil, nil, nil, a.scroll)
	win.SetContent(container.NewBorder(a.title, nil, nil, nil, container.NewGridWithColumns(2, a.board, right)))
	win.SetOnClosed(func() {
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

func (c *console) toggleAudience() {
	if c.audience != nil {
		c.audience.win.Close()
		return
	}
	win := c.fa.NewWindow(translate("Arbiter — audience display"))
	c.audience = newAudience(win, [2]clockFeed{c.clockFeed(0, true), c.clockFeed(1, true)}, audienceEvents{
		onKey:  c.forwardKey,
		onRune: c.forwardRune,
		onShortcut: func(id actionID) {
			if len(c.dialogs) == 0 {
				c.do(id)
			}
		},
		onClosed: func() { c.audience = nil },
	})
	c.tellKeys(win.Canvas()) // the keys it forwards
	c.audience.show(c.audienceShows())
	win.Show()
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

// showMoves sets the move list, the last move bold in the theme's primary
// colour, and scrolls to it.
func (a *audience) showMoves(moves []audienceMove) {
	var segs []widget.RichTextSegment
	for _, m := range moves {
		style := widget.RichTextStyle{Inline: true, SizeName: theme.SizeNameHeadingText}
		if m.last {
			style.TextStyle.Bold = true
			style.ColorName = theme.ColorNamePrimary
		}
		segs = append(segs, &widget.TextSegment{Text: m.text + "   ", Style: style})
	}
	a.list.Segments = segs
	a.list.Refresh()
	a.scroll.ScrollToBottom()
}
