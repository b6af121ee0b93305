package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
)

// audience is the second window for a projector (Article 6.14: the audience
// display): the board, both clocks and the last moves, large, with no
// controls. It opens full screen (on the screen the platform gives it) and
// stays until it is closed (Ctrl+Shift+A again, or the window's own close).
// It takes no key for itself: the clock keys, the call and stop keys, Enter
// and the characters of a move go to the console's move field, and the
// console's shortcuts work in it, so the clock can be worked whichever
// window has the focus.
type audience struct {
	c      *console
	win    fyne.Window
	board  *board
	clocks [2]*clockView
	title  *canvas.Text
	moves  *canvas.Text
}

func (c *console) toggleAudience() {
	if c.audience != nil {
		c.audience.win.Close()
		return
	}
	a := &audience{c: c}
	a.win = c.fa.NewWindow(lang.L("Arbiter — audience display"))
	a.board = newBoard(false, nil, nil)
	a.clocks[0] = newClockView(c.clockFeed(0, true), 0, true)
	a.clocks[1] = newClockView(c.clockFeed(1, true), 1, true)
	a.title = canvas.NewText("", themeColor(theme.ColorNameForeground))
	a.title.TextStyle.Bold = true
	a.moves = canvas.NewText("", themeColor(theme.ColorNameForeground))
	a.restyle()
	right := container.NewVBox(a.clocks[0].obj, a.clocks[1].obj, a.moves)
	a.win.SetContent(container.NewBorder(a.title, nil, nil, nil, container.NewGridWithColumns(2, a.board, right)))
	a.win.SetOnClosed(func() {
		for _, cv := range a.clocks {
			cv.disarm()
		}
		c.audience = nil
	})
	cv := a.win.Canvas()
	cv.SetOnTypedKey(func(ev *fyne.KeyEvent) { c.forwardKey(ev) })
	cv.SetOnTypedRune(func(r rune) { c.forwardRune(r) })
	for id, s := range shortcuts {
		id := id
		cv.AddShortcut(s, func(fyne.Shortcut) {
			if len(c.dialogs) > 0 {
				return
			}
			c.do(id)
		})
	}
	a.win.Resize(fyne.NewSize(1280, 720))
	a.win.SetFullScreen(true)
	c.audience = a
	a.refresh()
	a.win.Show()
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
	if len(c.dialogs) > 0 {
		return
	}
	c.win.Canvas().Focus(c.moveEntry)
	c.moveEntry.TypedRune(r)
}

func (a *audience) restyle() {
	a.title.TextSize = theme.TextSize() * 2
	a.moves.TextSize = theme.TextSize() * 2.4
	for _, cv := range a.clocks {
		cv.restyle()
	}
}

func (a *audience) refresh() {
	st := a.c.state()
	g := st.CurrentGame()
	t := ""
	if st.Match != nil {
		t = st.Match.Title
		if g != nil {
			t += " — " + tr("Game %d", g.Number)
		}
	}
	a.title.Text = t
	a.title.Refresh()
	mv := ""
	if g != nil && g.Sheet != nil {
		es := g.Sheet.Entries()
		if n := len(es); n > 0 {
			e := es[n-1]
			mv = tr("Last move: %s", localSAN(e.Label()))
		}
		if g.Over() {
			mv += "   " + g.Result
		}
	}
	a.moves.Text = mv
	a.moves.Refresh()
	a.board.show(a.c.game(), a.c.flipped)
	for _, cv := range a.clocks {
		cv.update()
	}
}
