// Package gui is the Arbiter console: the Fyne desktop app an arbiter (or the
// operator relaying a computer's moves) officiates a match with.
//
// Every action goes through the commands of package match, exactly as the
// command line does, so the console, the CLI and scripts can never disagree.
// The console keeps no state of the match of its own: after every change it
// reads a snapshot (match.App.State) and redraws from it.
//
// Layout: a match bar (all games, results, score; database path and mode), the
// board with the move field under it, two large clocks (the running one framed),
// the scoresheet and the incident log, and an action bar. Every action is in
// the menus with a shortcut (shortcuts.go holds them all); the action table is
// in actions.go.
//
// Time: every command's instant comes from the console's time source (now), in
// production timesource.Source. A clock display is redrawn only when its text
// changes: each clock view arms one timer for the next instant its text (or
// its flag) changes, as told by clock.Clock.Display, and the timer's callback
// reaches the widgets through the console's ui (fyne.Do). There is no
// periodic redraw.
//
// Threads: the widgets are touched only on the UI thread. Whatever runs
// elsewhere (the sender of a station's console, the engine bridge, the
// heartbeat and poll, a timer) reaches them through c.ui, in production
// fyne.Do, which queues the function for the UI thread, one at a time with
// the input. Tests give a ui of their own (uiThread, console_test.go) that
// does the same on the test's goroutine: Fyne's test driver would run
// fyne.Do at once on the calling goroutine, beside the test's own actions.
//
// Roles: the console runs in operator mode or arbiter mode and never
// relabels a role: every command goes to the core as who really acts, and the
// core's permission check decides. Arbiter actions ask for the arbiter PIN
// when the match has one (a PIN given in operator mode lends arbiter mode to
// that one action). In arbiter mode moves and presses are the arbiter's; the
// call key (Esc) is the human player's call (6.12b), recorded as him; the
// arbiter's own stop (6.12a) has its own key (F9). In operator mode the
// operator presses and enters the computer's moves, the human's press is his
// own (and so is the move that completes it), and the call key is the
// operator's, refused by the core on the computer's turn (rule 7).
package gui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/scoresheet"
	"arbiter/service"
)

const (
	sideWhite = clock.White
	sideBlack = clock.Black
)

// afterFunc arms a one-shot timer and returns its stop function. Production
// code uses time.AfterFunc; tests inject one that never fires on its own.
type afterFunc func(d time.Duration, f func()) (stop func())

func realAfter(d time.Duration, f func()) func() {
	t := time.AfterFunc(d, f)
	return func() { t.Stop() }
}

// config is what a console is made of.
type config struct {
	path  string // database path shown in the window
	role  match.Role
	pin   string
	now   func() time.Time
	after afterFunc
	// ui runs f on the UI thread, after what runs there now (nil:
	// fyne.Do); tests serialise it with their own actions.
	ui func(f func())
	// quit ends the app when the console closes (nil: the app's Quit);
	// tests count it.
	quit func()
}

// console is the main window and its state.
type console struct {
	ctx   context.Context
	fa    fyne.App
	win   fyne.Window
	core  *match.App
	cfg   config
	now   func() time.Time
	after afterFunc
	// ui is how code off the UI thread reaches the widgets (config.ui).
	ui func(f func())

	mode match.Role // RoleArbiter or RoleOperator
	pin  string
	// hallPIN is the arbiter's PIN once given right at this console; it
	// authorises operator and player commands here (cmdAs).
	hallPIN string
	// lent is true while arbiter mode is lent to one action from operator
	// mode (asArbiter): it ends when that action's dialogs have closed.
	lent bool
	// lentBase is how many dialogs were open when it was lent: those of
	// the action are the ones opened since
	lentBase int
	// lockAfter is how long arbiter mode stays unlocked without input
	// (modes.go); lastInput the last input, idleArmed whether the timer
	// that locks it is armed.
	lockAfter time.Duration
	lastInput time.Time
	idleArmed bool
	idleGen   int

	// settings (kept in the app's preferences)
	//
	// movePresses is "typing first": entering a move presses the clock.
	// The default is press-first, the official clock (6.7a): the press
	// (F1/F12 or a click on the clock) ends the move at its instant and the
	// move typed afterwards completes the entry.
	movePresses bool
	leftSide    clock.Side // the side whose clock stands on the left (6.4)
	keyLeft     fyne.KeyName
	keyRight    fyne.KeyName
	keyCall     fyne.KeyName
	keyStop     fyne.KeyName // the arbiter's own stop (6.12a)
	scale       float32
	flipped     bool

	board     *board
	clocks    [2]*clockView
	moveEntry *moveEntry
	moveErr   *widget.Label
	notice    *widget.Label

	// noticeScroll scrolls the refusal and the notice in their slot
	noticeScroll *container.Scroll

	// beatMu orders the heartbeat's beat (keepUp) and the close (closeNow):
	// once closed, nothing beats over the heartbeat's "closed"
	beatMu sync.Mutex
	closed bool

	title     *widget.Label
	header    *headerBox     // the title's and the games' rows
	layout    *consoleLayout // the window's parts
	gamesBox  *fyne.Container
	score     *widget.Label
	where     *widget.Label
	sheet     *sheetView
	sheetHead *widget.Label
	logBox    *fyne.Container
	logHead   *widget.Label
	logScr    *container.Scroll
	logToEnd  bool // scroll the log to its end at the next layout
	buttons   map[actionID]*actionButton
	bar       *actionBar
	// nameTooLong tells, per clock, that its name does not fit at the
	// sub-heading size: both names are then set at the text size
	nameTooLong [2]bool

	movePressesItem *fyne.MenuItem
	// audience is the audience display while it is open; audienceWin its
	// window, made at the first opening and kept, hidden while closed
	audience    *audience
	audienceWin fyne.Window

	// live is the match the background tickers (heartbeat, poll) use (the
	// same as core, readable from any goroutine; Continue in a new file
	// replaces it) and the change notifications that redraw the console.
	live *service.Live
	// banner says the record cannot be written (disk full, read-only);
	// blockedSeq is the record's last event then: a later event hides it.
	banner     banner
	blockedSeq int64
	// viewing is the number of the game shown instead of the current one
	// (a click on it in the games row; 0: the current game), viewBar the
	// banner saying so with the way back (gamesrow.go). Viewing writes
	// nothing and changes nothing the audience display or a feed shows:
	// c.game() stays the current game; the board, the clocks, the
	// scoresheet and the log show shownGame().
	viewing int
	viewBar *viewBanner
	// viewFlag cancels the timer armed, while another game is shown, for
	// the instant the current game's running clock reaches zero
	// (armViewFlag): the notice then says the flag fell.
	viewFlag func()
	tampered bool // the banner says the record does not verify (noteTampering)
	// correcting is the open correction dialog (tests drive it).
	correcting *correctDialog
	// submitting is true while a form dialog's OK runs; pending holds what
	// is to be shown after it closed (afterDialog).
	submitting bool
	pending    []func()

	// lastLog is the log's rows shown, kept so that a redraw replaces them
	// only when they changed (tests read them too; the scoresheet's are
	// sheet.shown).
	lastLog []string
	// onRefresh, when set, is told of each full redraw from the state
	// (tests count them: the poll and the heartbeat must not cause one when
	// nothing changed).
	onRefresh func()
	// warning is the warning of the last command given (match.Cmd.Warn),
	// shown on the status line at the top right until the next command.
	warning string
	// onEnter confirms the open quit dialog with Enter.
	onEnter func()
	// heldKey is a single key whose press was taken (Escape that closed a
	// dialog, the call key that called) and that has not been seen
	// released or pressed anew since: the driver's repeats of it while it
	// is held do nothing. A held Escape that closed a dialog went on to
	// call the arbiter (recorded), or, on the computer's turn, to open a
	// refusal under which Ctrl+Q and Enter no longer quit.
	heldKey fyne.KeyName
	// moveErrAt is the game and ply the move field's refusal was shown at.
	moveErrAt string
	// dialogs are the console's open dialogs, the newest last: Escape
	// closes the newest, and shortcuts do nothing while one is open.
	dialogs []dialog.Dialog
	// stations is the open Match → Stations… dialog, inviting its Invite
	// form (tests drive them); stationNote says, on a station's replica,
	// whose replica it is and who the authority is (gui/stations.go).
	stations    *stationsView
	inviting    *inviteForm
	stationNote string
	// stationRole is the role of the station whose record this is ("" for
	// none); on a station's record other than the mirror's the console
	// sends its commands to the authority (gui/forward.go) through sendq,
	// sending counting those not yet answered (tests wait for them).
	stationRole string
	sendq       chan sendItem
	senderDone  chan struct{}
	sending     sync.WaitGroup
	// correctionSeq is the last event noteCorrections has read.
	correctionSeq int64
	// engineLine says the engine's move in operator mode (gui/engine.go),
	// engineOffered is the move it put into the move field, notEngine the
	// open "not the engine's move" dialog, engineDlg the open Operator →
	// Engine… dialog and engine the bridge this console runs.
	engineLine    *widget.Label
	engineOffered string
	notEngine     dialog.Dialog
	engineDlg     *engineView
	engine        *engineRun
}

// newConsole builds the main window on a fyne.App (the real one or test.NewApp).
func newConsole(ctx context.Context, fa fyne.App, core *match.App, cfg config) *console {
	if cfg.now == nil {
		cfg.now = time.Now
	}
	if cfg.after == nil {
		cfg.after = realAfter
	}
	if cfg.ui == nil {
		cfg.ui = fyne.Do
	}
	if cfg.quit == nil {
		cfg.quit = quitApp(fa)
	}
	c := &console{ctx: ctx, fa: fa, core: core, cfg: cfg, now: cfg.now, after: cfg.after, ui: cfg.ui, pin: cfg.pin, buttons: map[actionID]*actionButton{}}
	c.loadSettings()
	if m := core.State().Match; m != nil && m.Protected() && cfg.pin != "" && m.CheckPIN(cfg.pin) {
		c.hallPIN = cfg.pin
	}
	c.mode = match.RoleOperator
	if m := core.State().Match; m != nil && m.Protected() && cfg.pin != "" && !m.CheckPIN(cfg.pin) {
		c.pin = "" // a wrong PIN unlocks nothing
	}
	if cfg.role == match.RoleArbiter {
		c.mode = match.RoleArbiter
		if m := core.State().Match; m != nil && !m.CheckPIN(cfg.pin) {
			c.mode = match.RoleOperator // the PIN is asked when an arbiter action is taken
		}
	}
	c.win = fa.NewWindow("Arbiter")
	c.build()
	c.win.SetMainMenu(c.mainMenu())
	c.addShortcuts()
	c.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { c.handleKey(ev) })
	c.tellKeys(c.win.Canvas())
	// a move typed while nothing has the focus goes to the move field
	c.win.Canvas().SetOnTypedRune(func(r rune) { c.forwardRune(r) })
	c.win.SetCloseIntercept(c.quit)
	c.setCore(core)
	c.touch()
	c.refresh()
	return c
}

func (c *console) loadSettings() {
	p := c.fa.Preferences()
	c.movePresses = p.BoolWithFallback("typingFirst", false)
	c.leftSide = clock.Side(p.IntWithFallback("leftSide", int(clock.White)))
	c.keyLeft = fyne.KeyName(p.StringWithFallback("keyLeft", string(defaultKeyLeft)))
	c.keyRight = fyne.KeyName(p.StringWithFallback("keyRight", string(defaultKeyRight)))
	c.keyCall = fyne.KeyName(p.StringWithFallback("keyCall", string(defaultKeyCall)))
	c.keyStop = fyne.KeyName(p.StringWithFallback("keyStop", string(defaultKeyStop)))
	c.scale = float32(p.FloatWithFallback("scale", 1))
	c.flipped = p.BoolWithFallback("flipped", false)
	c.lockAfter = time.Duration(p.IntWithFallback("lockAfterMinutes", int(defaultLockAfter/time.Minute))) * time.Minute
	if c.lockAfter <= 0 {
		c.lockAfter = defaultLockAfter
	}
}

func (c *console) saveSettings() {
	p := c.fa.Preferences()
	p.SetBool("typingFirst", c.movePresses)
	p.SetInt("leftSide", int(c.leftSide))
	p.SetString("keyLeft", string(c.keyLeft))
	p.SetString("keyRight", string(c.keyRight))
	p.SetString("keyCall", string(c.keyCall))
	p.SetString("keyStop", string(c.keyStop))
	p.SetFloat("scale", float64(c.scale))
	p.SetBool("flipped", c.flipped)
	p.SetInt("lockAfterMinutes", int(c.lockAfter/time.Minute))
}

// tr translates a format string and fills it in.
func tr(format string, args ...any) string {
	return fmt.Sprintf(translate(format), args...)
}

func (c *console) build() {
	c.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.title.SizeName = theme.SizeNameSubHeadingText
	// the games wrap and the path shortens rather than widen the window
	gamesFlow := &flowLayout{}
	c.gamesBox = container.New(gamesFlow)
	c.score = widget.NewLabel("")
	c.where = widget.NewLabel("")
	c.where.Alignment = fyne.TextAlignTrailing
	c.where.Wrapping = fyne.TextWrapWord // under the title where it does not fit beside it
	c.score.Wrapping = fyne.TextWrapWord
	c.title.Truncation = fyne.TextTruncateEllipsis // only a title too long for the whole row
	c.banner = newBanner()
	c.viewBar = newViewBanner(func() { c.view(0) })
	// the mode stands right of the title and the score right of the games
	// where they fit, else under them
	c.header = &headerBox{rows: []*pairRow{
		{left: c.title, right: c.where,
			natural: func() float32 {
				return fyne.MeasureText(c.title.Text, theme.Size(c.title.SizeName), c.title.TextStyle).Width + 2*theme.InnerPadding()
			},
			leftHeight: func(float32) float32 { return c.title.MinSize().Height }},
		{left: c.gamesBox, right: c.score,
			natural:    func() float32 { return gamesFlow.oneRowWidth(c.gamesBox.Objects) },
			leftHeight: func(w float32) float32 { return gamesFlow.heightAt(c.gamesBox.Objects, w) }},
	}, extra: []fyne.CanvasObject{c.banner.obj, widget.NewSeparator()}}
	header := container.New(c.header, c.title, c.where, c.gamesBox, c.score, c.header.extra[0], c.header.extra[1])

	c.board = newBoard(true, func(uci string) { c.enterMove(uci) }, c.askPromotion)
	c.moveEntry = newMoveEntry(c.handleKey)
	c.moveEntry.onKeyDown, c.moveEntry.onKeyUp = c.keyDown, c.keyUp
	c.moveEntry.SetPlaceHolder(translate("Move: type SAN or UCI; Enter records it"), translate("Move, then Enter"))
	c.moveEntry.OnSubmitted = func(s string) { c.enterMove(s) }
	// a refusal wraps under the field rather than widening the board's
	// column: some reasons are longer than the board is wide
	c.moveErr = widget.NewLabel("")
	c.moveErr.Wrapping = fyne.TextWrapWord
	c.moveErr.Importance = widget.DangerImportance
	c.moveErr.TextStyle = fyne.TextStyle{Bold: true}
	c.notice = widget.NewLabel("")
	c.notice.Wrapping = fyne.TextWrapWord
	c.engineLine = newEngineLine()
	// under the move field, in a slot of a fixed height, a refusal of what
	// was entered and the notice of what is due now (White to move, a
	// fallen flag): the board never moves for them (a longer text scrolls)
	slot := &refusalSlot{lines: 2}
	c.moveErr.Hide() // shown with a refusal
	// the notice's lines follow the refusal's closer than in a box
	// (lineStack): two labels in a box, each with its padding, took more
	// than the slot's two lines, and the notice's line was cut in half
	// under a refusal of one line
	c.noticeScroll = container.NewVScroll(container.New(lineStack{}, c.moveErr, c.notice))
	slotObj := container.New(slot, c.noticeScroll)
	below := &boardColumn{entry: c.moveEntry, slot: slotObj}
	left := container.New(below, c.board, c.moveEntry, slotObj)

	c.clocks[0] = newClockView(c.clockFeed(0, false), 0, false)
	c.clocks[1] = newClockView(c.clockFeed(1, false), 1, false)
	c.clocks[0].peer, c.clocks[1].peer = c.clocks[1], c.clocks[0]
	clocks := container.New(twoColumns{}, c.clocks[0].obj, c.clocks[1].obj)

	c.sheetHead = widget.NewLabelWithStyle(translate("Scoresheet"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.sheet = newSheetView()
	sheetFoot := widget.NewLabel(translate("move · time used · clock after · (=) draw offer"))
	sheetFoot.SizeName = theme.SizeNameCaptionText
	sheetFoot.Wrapping = fyne.TextWrapWord // the sheet may be narrower (one move to a row)
	sheet := card(container.NewBorder(c.sheetHead, sheetFoot, nil, nil, c.sheet))

	c.logHead = widget.NewLabelWithStyle(translate("Incidents"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.logBox = container.NewVBox()
	c.logScr = container.NewVScroll(c.logBox)
	logc := card(container.NewBorder(c.logHead, nil, nil, nil, container.New(&logEnd{scr: c.logScr, box: c.logBox, toEnd: &c.logToEnd}, c.logScr)))

	// the scoresheet takes the width its move pairs need, the incident log
	// (whose entries wrap) yielding it down to its share
	split := &splitLayout{frac: 0.56, maxFrac: 0.7, want: func() float32 { return c.sheet.wantWidth() + cardInset() }}
	lower := container.New(split, sheet, logc)
	// the clocks' digits take the height the scoresheet's rows leave
	right := container.New(&rightLayout{clocks: c.clocks, legend: sheetFoot, lowWant: func() float32 {
		return sheet.MinSize().Height - c.sheet.MinSize().Height + c.sheet.rowsHeight(sheetRowsWanted)
	}}, container.NewVBox(c.viewBar.obj, clocks, c.engineLine), lower)

	c.bar = c.buildActionBar()
	c.layout = &consoleLayout{header: c.header, below: below, slot: slot}
	main := container.New(c.layout, header, left, right, container.NewVBox(widget.NewSeparator(), c.bar))
	c.win.SetPadded(false) // the layout pads: its gaps beside the clocks keep their size
	c.win.SetContent(main)
	gamesFlow.relayout = func() { c.ui(main.Refresh) }
	c.win.Resize(fyne.NewSize(1280, 800))
}

// buildActionBar is the action bar under the console: the clock keys,
// the call, the fallen flags (hidden until one falls), the game's and the
// arbiter's keys; when the row is too narrow, the clock keys, the call and
// a fallen flag keep their place longest, the mode and the audience
// display go first under More….
func (c *console) buildActionBar() *actionBar {
	ids := []actionID{actPressLeft, actPressRight, actCallArbiter, actPause, actResume, actFlagWhite, actFlagBlack, actStartGame, actDrawOffer, actIncident, actArbiterMode, actAudience}
	buttons := make([]*actionButton, len(ids))
	for i, id := range ids {
		id := id
		b := newActionButton(func() { c.do(id) })
		switch id {
		case actCallArbiter:
			b.Importance = widget.DangerImportance
		case actFlagWhite, actFlagBlack:
			b.Importance = widget.WarningImportance
			b.Hide() // shown once that flag has fallen
		}
		c.buttons[id] = b
		buttons[i] = b
	}
	bar := newActionBar(buttons, []int{0, 1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 11})
	for _, id := range ids {
		bar.ids = append(bar.ids, string(id))
	}
	return bar
}

// keyText is a key as printed on a label.
func keyText(k fyne.KeyName) string {
	if k == fyne.KeyEscape {
		return "Esc"
	}
	return string(k)
}

// gap is a fixed horizontal space.
func gap() fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	r.SetMinSize(fyne.NewSize(theme.Padding()*4, 1))
	return r
}

// card frames content like a panel. The frame is four 1-pixel lines, not a
// stroked rectangle: the GL painter shades every pixel a rectangle covers
// (stroke or not) on each repaint, and a repaint happens every second while
// a clock runs.
func card(content fyne.CanvasObject) fyne.CanvasObject {
	line := func() fyne.CanvasObject {
		r := canvas.NewRectangle(themeColor(theme.ColorNameSeparator))
		r.SetMinSize(fyne.NewSize(1, 1))
		return r
	}
	return container.NewBorder(line(), line(), line(), line(), container.NewPadded(content))
}

// cardInset is how much wider a card is than its content: a line and a
// padding on each side (the border's), and the padding around the content.
func cardInset() float32 { return 2 * (1 + 2*theme.Padding()) }

// state is the current snapshot of the match.
func (c *console) state() *match.State { return c.core.State() }

// game is the current game or nil.
func (c *console) game() *match.Game { return c.state().CurrentGame() }

// viewedGame is the game shown instead of the current one (viewing), or
// nil while the current game is shown.
func (c *console) viewedGame(st *match.State) *match.Game {
	cur := st.CurrentGame()
	if c.viewing == 0 || cur == nil || cur.Number == c.viewing {
		return nil
	}
	return st.Game(c.viewing)
}

// shownGame is the game the board, the clocks, the scoresheet and the log
// show: the one viewed, else the current one (nil before the first).
func (c *console) shownGame() *match.Game {
	st := c.state()
	if g := c.viewedGame(st); g != nil {
		return g
	}
	return st.CurrentGame()
}

// view shows game n (0, or the current game's number: the current game
// again). Nothing is written: only what the console shows changes.
func (c *console) view(n int) {
	if cur := c.game(); cur != nil && cur.Number == n {
		n = 0
	}
	if n == c.viewing {
		return
	}
	c.viewing = n
	c.board.selected = -1
	c.setMoveError("")
	c.refresh()
}

// armViewFlag arms, while another game is shown, a timer for the instant
// the current game's running clock reaches zero (derived from the clock,
// never sampled), which redraws the console so that the notice says the
// flag fell; it cancels the one armed before.
func (c *console) armViewFlag(st *match.State) {
	if c.viewFlag != nil {
		c.viewFlag()
		c.viewFlag = nil
	}
	cur := st.CurrentGame()
	if c.viewedGame(st) == nil || cur.State != match.Running {
		return
	}
	side, ok := cur.Clock.Running()
	if !ok {
		return
	}
	at, ok := cur.Clock.FlagAt(side)
	if !ok || !at.After(c.clockNow()) {
		return // fallen already: the notice says it
	}
	c.viewFlag = c.after(at.Sub(c.clockNow()), func() { c.ui(c.refresh) })
}

// viewingRefusal says, while another game than the current one is shown,
// that nothing is recorded from its view and how to go back (nil while the
// current game is shown): every action that writes asks it first.
func (c *console) viewingRefusal() error {
	st := c.state()
	v := c.viewedGame(st)
	if v == nil {
		return nil
	}
	cur := st.CurrentGame().Number
	return errText(tr("Game %d is shown, not game %d: nothing is recorded from this view. Go back to game %d first (its label in the games row, or “Back to game %d” above).", v.Number, cur, cur, cur))
}

// sideAt is the side whose clock stands in slot 0 (left) or 1 (right).
func (c *console) sideAt(slot int) clock.Side {
	if slot == 0 {
		return c.leftSide
	}
	return c.leftSide.Other()
}

// refresh redraws everything from the current state.
func (c *console) refresh() {
	if c.onRefresh != nil {
		c.onRefresh()
	}
	st := c.state()
	m := st.Match
	g := st.CurrentGame()
	shown := g
	if v := c.viewedGame(st); v != nil {
		shown = v
	} else {
		c.viewing = 0
	}
	c.noteCorrections(st)
	c.armIdleLock()
	c.refreshWhere()
	if m == nil {
		c.win.SetTitle("Arbiter — " + c.cfg.path)
		c.title.SetText(translate("No match yet"))
		c.score.SetText(translate("Create the match: Match → New match… (Ctrl+N)"))
	} else {
		c.win.SetTitle("Arbiter — " + m.Title + " — " + c.cfg.path)
		t := m.Title
		if g != nil {
			t += " — " + tr("Game %d of %d", g.Number, m.GamesPlanned)
		}
		c.title.SetText(t)
		c.score.SetText(translate("Score") + ": " + say(st.Standing().Phrase()))
	}
	if st.Seq > c.blockedSeq && c.banner.obj.Visible() && !c.tampered {
		c.hideBanner() // a later event was written: the record takes writes again
	}
	c.noteTampering()
	// a refusal under the move field concerns the position it was typed
	// in: once the game has moved on (or another game begun), it goes
	key := ""
	if g != nil && g.Sheet != nil {
		key = fmt.Sprintf("%d/%d", g.Number, g.Sheet.Ply())
	}
	if key != c.moveErrAt {
		c.moveErrAt = key
		c.setMoveError("")
	}
	c.refreshGames(st)
	if v := c.viewedGame(st); v != nil {
		c.viewBar.set(v, g.Number)
	} else {
		c.viewBar.set(nil, 0)
	}
	c.board.locked = shown != g
	c.board.show(shown, c.flipped)
	for _, cv := range c.clocks {
		cv.update()
	}
	c.refreshSheet(shown)
	c.refreshLog(shown)
	c.refreshNotice(shown)
	c.armViewFlag(st)
	c.refreshEngine(g)
	c.refreshButtons()
	if c.audience != nil {
		c.audience.show(c.audienceShows())
	}
	// texts changed size: lay the window out again (only on a state change,
	// never on a clock tick)
	c.win.Content().Refresh()
}

func initials(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		r := []rune(w)
		b.WriteRune(r[0])
	}
	return strings.ToUpper(b.String())
}

func (c *console) refreshGames(st *match.State) {
	c.gamesBox.RemoveAll()
	for _, g := range st.Games {
		txt := tr("G%d %s–%s", g.Number, initials(g.White), initials(g.Black))
		switch {
		case g.Over():
			txt += " " + g.Result
		case g.Live() && st.Match != nil && c.core.Why() != nil:
			txt += " ⚠ " + translate("stopped") // nothing runs on it (the banner says why)
		case g.Live():
			txt += " " + translate(string(g.State))
		case g.State == match.Postponed:
			txt += " " + translate("postponed")
		}
		t := canvas.NewText(txt, themeColor(theme.ColorNameForeground))
		if cur := st.CurrentGame(); cur != nil && cur.Number == g.Number && g.Live() && c.core.Why() == nil {
			t.Color = colRunning
			if fyne.CurrentApp().Settings().ThemeVariant() == theme.VariantLight {
				t.Color = colRunningOnLight // the bright yellow is unreadable on white
			}
			t.TextStyle.Bold = true
		}
		if c.viewing == g.Number {
			t.Color, t.TextStyle.Bold = viewingColor(), true // the game shown, as the banner says
		}
		t.TextSize = theme.TextSize()
		var onTap func()
		if g.Over() || g.Live() { // a game not yet played has nothing to show
			n := g.Number
			onTap = func() { c.touch(); c.view(n) }
		}
		c.gamesBox.Add(newGameLabel(t, onTap))
		c.gamesBox.Add(gap())
	}
	c.gamesBox.Refresh()
}

// sheetMoves is the scoresheet's data: each move with the time it used and
// the mover's clock after it, (=) marking a draw offer. Moves struck out by
// a position reset (rule 10, 6.13) stand where they were played, each on a
// row of its own (opened by struckMark, drawn struck through and greyed)
// just before the move that replaced it; moves struck and not yet replaced
// follow the last move. Piece letters are the console's language's (German
// S L T D K). The sheet view lays the moves out (move pairs, or one move to
// a row when narrow).
func sheetMoves(g *match.Game) []sheetMove {
	if g == nil || g.Sheet == nil {
		return nil
	}
	// a reset strikes plies P, P+1, …: the run stands before ply P
	struck := map[int][]scoresheet.Entry{}
	var anchors []int
	anchor, next := 0, 0
	for i, e := range g.Sheet.Struck() {
		if i == 0 || e.Ply != next {
			anchor = e.Ply
			if _, seen := struck[anchor]; !seen {
				anchors = append(anchors, anchor)
			}
		}
		next = e.Ply + 1
		struck[anchor] = append(struck[anchor], e)
	}
	var moves []sheetMove
	strike := func(ply int) {
		for _, e := range struck[ply] {
			moves = append(moves, sheetMove{number: e.Number, black: e.Color == chess.Black,
				struck: fmt.Sprintf("%s %-10s %5s  %s", struckMark, localSAN(e.Label()), clock.FormatUsed(e.Used), translate("struck out"))})
		}
		delete(struck, ply)
	}
	for _, e := range g.Sheet.Entries() {
		strike(e.Ply)
		after := e.ClockWhite
		if e.Color == chess.Black {
			after = e.ClockBlack
		}
		mv := localSAN(e.SAN)
		if e.DrawOffer {
			mv += " (=)"
		}
		moves = append(moves, sheetMove{number: e.Number, black: e.Color == chess.Black,
			cell: sheetCell(mv, clock.FormatUsed(e.Used), clock.FormatReading(after.Truncate(time.Second)))})
	}
	for _, a := range anchors {
		strike(a) // struck and not yet replaced
	}
	return moves
}

// struckMark opens a scoresheet row of a struck-out move.
const struckMark = "  ✗"

// localSAN writes a move (or a label such as "12. Nf3") with the piece
// letters of the console's language: German S L T D K for N B R Q K.
func localSAN(s string) string {
	letters := []rune(translate("NBRQK"))
	if len(letters) != 5 || string(letters) == "NBRQK" {
		return s
	}
	r := strings.NewReplacer("N", string(letters[0]), "B", string(letters[1]), "R", string(letters[2]), "Q", string(letters[3]), "K", string(letters[4]))
	return r.Replace(s)
}

func (c *console) refreshSheet(g *match.Game) {
	if g != nil {
		c.sheetHead.SetText(tr("Scoresheet (game %d)", g.Number))
	}
	c.sheet.set(sheetMoves(g))
}

// logRows renders the incident log in the order things happened
// (match.Game.ByInstant): the event's number in the record (an appeal names
// the ruling it contests by it), time, the move it followed (the last on
// the scoresheet at its instant, "(struck out)" when struck out since; none
// before the first move), both clock readings, actor, kind and rule, and
// the text.
func logRows(m *match.Match, g *match.Game) []string {
	if g == nil {
		return nil
	}
	var rows []string
	for _, in := range g.ByInstant() {
		// the record stays English; the log shows it in the console's
		// language: the role, the kind, the rule, the text and the effect
		who := translate(string(in.Role))
		if in.Actor != "" {
			who += " " + in.Actor
		}
		kind := translate(in.Kind)
		if in.Rule != "" {
			kind += " (" + ruleText(in.Rule) + ")"
		}
		// the move written as the PDF's incident log writes it: "1… e5"
		after := ""
		if e := g.Follows(in); e != nil && e.Struck {
			after = tr("after %s (struck out)", e.NumberMark()+" "+localSAN(e.SAN)) + "  "
		} else if e != nil {
			after = tr("after %s", e.NumberMark()+" "+localSAN(e.SAN)) + "  "
		}
		clocks := tr("W %s · B %s", clock.FormatReading(in.WhiteClock.Truncate(time.Second)), clock.FormatReading(in.BlackClock.Truncate(time.Second)))
		head := fmt.Sprintf("#%d  %s  %s%s  %s · %s", in.Seq, m.LocalTime(in.At, "15:04:05"), after, clocks, who, kind)
		text := sayRecorded(in.Text, in.Said)
		if ref := refersText(in); ref != "" {
			text = strings.TrimSuffix(ref+": "+text, ": ")
		}
		if in.Effect != "" {
			text = strings.TrimSpace(text + " [" + sayRecorded(in.Effect, in.EffectSaid) + "]")
		}
		rows = append(rows, head+"\n"+text)
	}
	return rows
}

// refersText is what an appeal contests ("against #14", the decision
// logged as event 14) or which appeal a decision closes ("on appeal #15"),
// as the PDF and the PGN say it, so that the appeals board can match them;
// "" for other incidents.
func refersText(in match.Incident) string {
	switch {
	case in.Refers == 0:
		return ""
	case in.Kind == match.IncidentAppeal:
		return tr("against #%d", in.Refers)
	case in.Kind == match.IncidentAppealDecision:
		return tr("on appeal #%d", in.Refers)
	}
	return ""
}

// sayRecorded is a text of the incident log in the console's language: the
// phrase the core keeps beside it (match.Incident.Said), else the text the
// dictionary knows whole, else as recorded (the words a person typed).
func sayRecorded(text string, said *phrase.Error) string {
	if said != nil {
		return say(said)
	}
	return translate(text)
}

func (c *console) refreshLog(g *match.Game) {
	rows := logRows(c.state().Match, g)
	if g != nil {
		c.logHead.SetText(tr("Incidents (game %d)", g.Number))
	}
	if equal(rows, c.lastLog) {
		return
	}
	c.lastLog = rows
	c.logBox.RemoveAll()
	for _, r := range rows {
		head, text, _ := strings.Cut(r, "\n")
		h := widget.NewLabel(head)
		h.Wrapping = fyne.TextWrapWord
		h.TextStyle.Bold = true
		h.SizeName = theme.SizeNameCaptionText
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		c.logBox.Add(container.NewVBox(h, l))
	}
	c.logBox.Refresh()
	// wrapped entries know their height only once laid out at the log's
	// width: lay the log out first, then scroll to the newest entry
	c.logScr.Refresh()
	c.logBox.Resize(fyne.NewSize(c.logScr.Size().Width, c.logBox.MinSize().Height))
	c.logScr.ScrollToBottom()
	c.logToEnd = c.logScr.Size().Height == 0 // not laid out yet: at the first layout
}

// logEnd lays out the incident log's scroll and, when the log changed
// before the window was laid out (at start), scrolls it to the newest entry
// once it has a size.
type logEnd struct {
	scr   *container.Scroll
	box   *fyne.Container
	toEnd *bool // scroll to the end at the next layout (cleared then)
}

func (l *logEnd) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	s := l.scr
	// a log showing its newest entry keeps showing it when the window
	// is resized
	atEnd := s.Offset.Y >= l.box.MinSize().Height-s.Size().Height-1
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if (*l.toEnd || atEnd) && size.Height > 0 {
		*l.toEnd = false
		l.scr.Refresh()
		l.box.Resize(fyne.NewSize(size.Width, l.box.MinSize().Height))
		l.scr.ScrollToBottom()
	}
}

func (l *logEnd) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// refreshNotice says in one line what the arbiter should know now.
func (c *console) refreshNotice(g *match.Game) {
	st := c.state()
	txt := ""
	switch {
	case st.Match == nil:
		txt = translate("No match in this database yet: create it with Match → New match… (Ctrl+N).")
	case c.viewedGame(st) != nil:
		// the notice is the current game's: here it says where that is,
		// and first that its flag fell (6.8), which the clocks shown, the
		// other game's, do not
		cur := st.CurrentGame()
		txt = tr("Game %d as the record holds it; game %d goes on meanwhile. Back to game %d: its label in the games row, or the button above.", c.viewing, cur.Number, cur.Number)
		if cur.State == match.Running && c.flagNotice(cur) != "" {
			txt = tr("Game %d: %s", cur.Number, c.flagNotice(cur)) + " " + txt
		}
	case c.core.Why() != nil && g != nil && g.Live():
		// nothing runs on a record that does not verify (the banner says
		// why): the clocks stand as the record last proves them
		txt = "■ " + tr("Clocks stopped: the record does not verify, so nothing can be recorded. It verifies up to event %d; the clocks show how they stood at its last instant, %s.", st.Seq, c.timeOfDay(st.LastAt))
	case g == nil || g.Over() || g.State == match.Scheduled:
		if g != nil && g.Over() {
			txt = tr("Game %d is over: %s (%s). ", g.Number, g.Result, translate(string(g.Termination)))
		}
		txt += translate("Start the next game with Match → Start next game (Ctrl+G).")
	case g.State == match.Running && c.flagNotice(g) != "":
		txt = c.flagNotice(g)
	case g.State == match.Paused:
		if who := caller(g); g.Paused.Call && who != "" {
			// the arbiter walking to the board knows whom to hear
			txt = tr("Clocks stopped: %s called the arbiter (6.12b). The arbiter resumes with Ctrl+R.", who)
		} else if g.Paused.Call {
			txt = translate("Clocks stopped: a player called the arbiter (6.12b). The arbiter resumes with Ctrl+R.")
		} else if why, ok := strings.CutSuffix(g.Paused.Reason, ": the arbiter resumes"); ok {
			// a position reset's recorded reason says who resumes: say it once
			txt = tr("Clocks stopped (%s). The arbiter resumes with Ctrl+R.", translate(why))
		} else {
			txt = tr("Clocks stopped (%s). The arbiter resumes with Ctrl+R.", pauseWhy(g.Paused))
		}
	case g.Pressed != nil:
		txt = tr("%s pressed the clock: enter the move played.", translate(match.Colour(*g.Pressed)))
	case g.Offer != nil:
		txt = tr("%s offers a draw: accept (Ctrl+Shift+D) or decline (Ctrl+Shift+E).", translate(match.Colour(g.Offer.By)))
	default:
		txt = tr("%s to move.", translate(match.Colour(g.ToMove())))
		if c.movePresses {
			txt += " " + translate("Typing first: entering the move presses the clock (not the official clock).")
		} else {
			txt += " " + tr("The press (%s or a click on the clock) completes the move (6.7a); then enter it.", keyText(c.keyFor(g.ToMove())))
		}
	}
	c.notice.SetText(txt)
}

// keyFor is the clock key of side's clock, where it stands (6.4: the
// arbiter may swap the clocks' sides).
func (c *console) keyFor(side clock.Side) fyne.KeyName {
	if c.sideAt(1) == side {
		return c.keyRight
	}
	return c.keyLeft
}

// caller is who stopped the clocks to call the arbiter (6.12b): the
// player with his colour ("Garry Kasparov (White)"), or the operator for
// the computer; "" when the record does not say.
func caller(g *match.Game) string {
	switch g.Paused.By {
	case match.RoleWhite:
		return tr("%s (%s)", g.White, translate(match.Colour(clock.White)))
	case match.RoleBlack:
		return tr("%s (%s)", g.Black, translate(match.Colour(clock.Black)))
	case match.RoleOperator:
		return translate("the operator")
	}
	return ""
}

// refreshWhere is the status line at the top right: the database, the mode
// and the warning of the last command (warn).
func (c *console) refreshWhere() {
	mode := translate("OPERATOR mode")
	if c.mode == match.RoleArbiter {
		mode = translate("ARBITER mode")
	} else if m := c.state().Match; m != nil && m.Protected() && c.unlocked() {
		mode = translate("OPERATOR mode (arbiter unlocked)")
	}
	txt := c.cfg.path + " · " + mode
	if c.stationNote != "" {
		txt += " · " + c.stationNote
	}
	if c.warning != "" {
		txt += " · " + c.warning
	}
	if c.where.Text != txt {
		c.where.SetText(txt)
	}
}

// noteTampering shows the banner while the record does not verify (an
// event edited, deleted or reordered in the file: match.App.Problem), as
// 'arbiter status' warns: the core refuses every command on it, and the
// banner says why before the arbiter tries one (issue 16).
func (c *console) noteTampering() {
	p := say(c.core.Why())
	if p == "" {
		if c.tampered {
			c.tampered = false
			c.hideBanner()
		}
		return
	}
	c.tampered = true
	txt := "⚠ " + tr("The record does not verify (%s): nothing more can be written to it. Keep this file as it is, tell the appeals board, and continue from a backup.", p)
	if c.banner.text.Text != txt {
		c.banner.text.SetText(txt)
	}
	if !c.banner.obj.Visible() {
		c.banner.obj.Show()
	}
}

// clockNow is the instant the clocks are shown at: now, or, on a record
// that does not verify, the last instant of its events that verify
// (match.State.LastAt): nothing runs on a broken record, so its clocks
// stand as the record last proves them and no flag falls after it.
func (c *console) clockNow() time.Time {
	if c.core.Why() != nil {
		return c.state().LastAt
	}
	return c.now()
}

// brokenRecord is the core's refusal of every command on a record that
// does not verify (match.CodeRecordBroken), or nil while it verifies: the
// console says it before asking anything of an action that would write.
func (c *console) brokenRecord() error {
	if p := c.core.Why(); p != nil {
		return match.ErrorFor(match.CodeRecordBroken, p)
	}
	return nil
}

// refusedBroken says the core's refusal at once when the record does not
// verify, or the console's while another game than the current one is
// shown (viewingRefusal), and reports whether it did: the clock keys, the
// stops and every action that writes ask it first, so that no dialog opens
// for nothing.
func (c *console) refusedBroken() bool {
	err := c.brokenRecord()
	if err == nil {
		err = c.viewingRefusal() // another game is shown: nothing is recorded from it
	}
	if err != nil {
		c.showError(err)
	}
	return err != nil
}

// timeOfDay is instant t as the console shows a time of day: in the match's
// time zone with the zone named ("19:43:05.120 EST", match.LocalTime); the
// record keeps UTC.
func (c *console) timeOfDay(t time.Time) string {
	return c.state().Match.LocalTime(t, "15:04:05.000")
}

// flagNotice says that a flag has fallen, with its exact instant, and how to
// record it ("" while no unrecorded flag has fallen).
func (c *console) flagNotice(g *match.Game) string {
	side, at, ok := c.fallenFlag(g, c.clockNow())
	if !ok {
		return ""
	}
	key := shortcutText(shortcuts[actFlagWhite])
	if side == clock.Black {
		key = shortcutText(shortcuts[actFlagBlack])
	}
	return "⚑ " + tr("%s's flag has fallen at %s: record it with Game → %s's flag fell (%s); Article 6.9 gives the verdict.",
		translate(match.Colour(side)), c.timeOfDay(at), translate(match.Colour(side)), key)
}

func (c *console) refreshButtons() {
	changed := false
	for id, b := range c.buttons {
		label := translate(findAction(id).label)
		switch id {
		case actPressLeft, actPressRight:
			slot := 0
			key := c.keyLeft
			if id == actPressRight {
				slot, key = 1, c.keyRight
			}
			label = tr("%s clock (%s)", translate(match.Colour(c.sideAt(slot))), keyText(key))
			if slot == 0 {
				label = "◀ " + label
			} else {
				label += " ▶"
			}
		case actCallArbiter:
			label = tr("Stop clocks · call arbiter (%s)", keyText(c.keyCall))
		case actPause:
			label = tr("Arbiter stops the clocks (%s)", keyText(c.keyStop))
		case actResume:
			label = translate("Resume (Ctrl+R)")
		case actFlagWhite, actFlagBlack:
			label = "⚑ " + translate(findAction(id).label) + "… (" + shortcutText(shortcuts[id]) + ")"
		case actStartGame:
			label = translate("Start game")
		case actIncident:
			label = translate("Incident…")
		case actArbiterMode:
			switch {
			case c.mode == match.RoleArbiter:
				label = translate("Operator mode")
			case c.unlocked():
				label = translate("Arbiter mode")
			default:
				label = translate("Arbiter mode (PIN)")
			}
		case actAudience:
			label = translate("Audience")
		}
		if b.Text != label {
			b.SetText(label)
			changed = true
		}
	}
	g := c.game()
	live := g != nil && g.Live()
	for id, side := range map[actionID]clock.Side{actFlagWhite: clock.White, actFlagBlack: clock.Black} {
		b := c.buttons[id]
		fallen := live && g.Clock.Flag(side, c.clockNow()).Fallen && !g.FlagRecorded(side)
		if fallen != b.Visible() {
			changed = true
			if fallen {
				b.Show()
			} else {
				b.Hide()
			}
		}
	}
	if changed && c.bar != nil {
		c.bar.Refresh() // the row holds other buttons now
	}
	for id, b := range c.buttons {
		b.allow(c.whyNot(id))
	}
	if m := c.movePressesItem; m != nil && m.Checked != c.movePresses {
		m.Checked = c.movePresses
		c.win.MainMenu().Refresh()
	}
}

func enable(b interface {
	Disabled() bool
	Enable()
	Disable()
}, on bool) {
	if b == nil || b.Disabled() != on {
		return
	}
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// showError shows a refusal as one sentence in a dialog.
func (c *console) showError(err error) {
	if err == nil {
		return
	}
	msg := c.explain(err)
	c.noteWriteError(err)
	var notApplied *service.NotAppliedError
	if errors.As(err, &notApplied) { // it stands in the record: not "not done"
		c.info(translate("Committed, not yet here"), msg)
		return
	}
	c.info(translate("Not done"), msg)
}

// info shows a message; Enter closes it.
func (c *console) info(title, msg string) {
	var d dialog.Dialog = c.newNote(title, msg)
	if len(msg) > 400 {
		// a long note (a 6.9 verdict with a long helpmate) scrolls in a
		// dialog of a fixed size instead of covering the window
		l := widget.NewLabel(msg)
		l.Wrapping = fyne.TextWrapWord
		scr := container.NewVScroll(l)
		scr.SetMinSize(fyne.NewSize(600, 240))
		d = dialog.NewCustom(title, translate("OK"), scr, c.win)
	}
	d.SetOnClosed(func() { c.onEnter = nil })
	c.onEnter = d.Hide
	c.showDialog(d)
}

// boardMin is the smallest side of the board.
const boardMin = 8 * 40

// rightLayout places the clocks over the scoresheet and the incident log
// (the notice stands under the move field, boardColumn). The clocks' digits grow with their width
// only as far as the height leaves the scoresheet room for sheetRowsWanted
// rows (lowWant), and shrink with the height down to minZoom. Where even
// that is too short (a larger text size on a 1280×800 screen) the layout
// goes compact: the clocks leave out their flag line while no flag has
// fallen, and the scoresheet its legend. The minimum height is the compact
// one, at the smallest digits.
type rightLayout struct {
	clocks  [2]*clockView
	legend  fyne.CanvasObject // the scoresheet's legend, left out when compact
	lowWant func() float32    // the scoresheet panel's height for its rows
	compact bool
}

// heights are the top's height without the digits and the lower panels'
// wanted height, full and compact, and the digits' height per unit of zoom
// (at the text size); none depends on the zoom or the mode now.
func (l *rightLayout) heights(objs []fyne.CanvasObject) (fixed, low, fixedCompact, lowCompact, perZoom float32) {
	top := objs[0]
	clockH, rest := float32(0), float32(0)
	flagH := theme.Padding()
	for _, v := range l.clocks {
		h := v.obj.MinSize().Height
		clockH, rest = max(clockH, h), max(rest, h-v.time.obj.MinSize().Height)
		if v.flag.Text != "" {
			flagH = 0
		}
	}
	if flagH > 0 {
		flagH += l.clocks[0].flag.MinSize().Height
	}
	legendH := l.legend.MinSize().Height + theme.Padding()
	fixed = top.MinSize().Height - clockH + rest
	low = max(l.lowWant(), objs[1].MinSize().Height)
	if l.compact {
		fixed, low = fixed+flagH, low+legendH
	}
	v := l.clocks[0]
	perZoom = fyne.MeasureText("0", v.time.MinTextSize/minZoom, v.time.TextStyle).Height
	return fixed, low, fixed - flagH, low - legendH, perZoom
}

// smallest is the digits' height at their smallest.
func (l *rightLayout) smallest() float32 {
	v := l.clocks[0]
	return fyne.MeasureText("0", v.time.MinTextSize, v.time.TextStyle).Height
}

func (l *rightLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 2 {
		return
	}
	top, low := objs[0], objs[1]
	p := theme.Padding()
	fixed, want, fixedC, wantC, perZoom := l.heights(objs)
	compact := size.Height < fixed+l.smallest()+p+want
	if compact {
		fixed, want = fixedC, wantC
	}
	if compact != l.compact {
		l.compact = compact
		l.legend.Show()
		if compact {
			l.legend.Hide()
		}
	}
	for _, v := range l.clocks {
		v.setCompact(compact)
		if perZoom > 0 {
			v.setMaxZoom((size.Height - p - want - fixed) / perZoom)
		}
	}
	th := top.MinSize().Height
	top.Move(fyne.NewPos(0, 0))
	top.Resize(fyne.NewSize(size.Width, th))
	low.Move(fyne.NewPos(0, th+p))
	low.Resize(fyne.NewSize(size.Width, size.Height-th-p))
}

func (l *rightLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if len(objs) != 2 {
		return fyne.NewSize(0, 0)
	}
	_, _, fixed, low, _ := l.heights(objs)
	w := max(objs[0].MinSize().Width, objs[1].MinSize().Width)
	return fyne.NewSize(w, fixed+l.smallest()+theme.Padding()+low)
}

// splitLayout places two panels side by side, the first taking frac of the
// width, or the width it wants (want) up to maxFrac, the second keeping the
// rest: the scoresheet takes the width that shows its move pairs whole, and
// the incident log, whose entries wrap, yields it down to its share. Never
// less than the first panel's minimum (the scoresheet one move to a row).
type splitLayout struct {
	frac, maxFrac float32
	want          func() float32 // the first panel's preferred width (nil: none)
}

// first is the width of the first panel out of avail.
func (l *splitLayout) first(objs []fyne.CanvasObject, avail float32) float32 {
	w := avail * l.frac
	if l.want != nil {
		if want := l.want(); want > w && want <= avail*l.maxFrac {
			w = want
		}
	}
	return min(max(w, objs[0].MinSize().Width), avail)
}

func (l *splitLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 2 {
		return
	}
	p := theme.Padding()
	w := l.first(objs, size.Width-p)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w, size.Height))
	objs[1].Move(fyne.NewPos(w+p, 0))
	objs[1].Resize(fyne.NewSize(size.Width-w-p, size.Height))
}

// MinSize is the first panel's minimum beside the second's: long rows
// (which wrap, or go one move to a row) never push the window wider than
// the screen.
func (l *splitLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if len(objs) != 2 {
		return fyne.NewSize(200, 80)
	}
	w := objs[0].MinSize().Width + theme.Padding() + objs[1].MinSize().Width
	return fyne.NewSize(max(w, 200), 80)
}

// showDialog shows d and keeps it on the console's stack of open dialogs
// until it closes, so that Escape can close it (see handleKey).
func (c *console) showDialog(d dialog.Dialog) {
	c.dialogs = append(c.dialogs, d)
	d.SetOnClosed(func() {
		for i := len(c.dialogs) - 1; i >= 0; i-- {
			if c.dialogs[i] == d {
				c.dialogs = append(c.dialogs[:i], c.dialogs[i+1:]...)
				break
			}
		}
		c.endLoan()
	})
	d.Show()
}

// askPromotion asks which piece a pawn moved to the last rank on the board
// becomes (uci is its move without the piece), then enters the move.
func (c *console) askPromotion(uci string) {
	choices := []string{translate("Queen"), translate("Rook"), translate("Bishop"), translate("Knight")}
	letters := []string{"q", "r", "b", "n"}
	sel := widget.NewRadioGroup(choices, nil)
	sel.SetSelected(choices[0])
	c.showDialog(dialog.NewCustomConfirm(translate("Promotion"), translate("OK"), translate("Cancel"), sel, func(ok bool) {
		if !ok {
			return
		}
		for i, ch := range choices {
			if ch == sel.Selected {
				c.enterMove(uci + letters[i])
			}
		}
	}, c.win))
}

// clockFeed gives the clock at slot (0 left, 1 right) of the console
// (large: of the audience display) its data and callbacks.
func (c *console) clockFeed(slot int, large bool) clockFeed {
	f := clockFeed{
		side:  func() clock.Side { return c.sideAt(slot) },
		state: c.state,
		game:  c.shownGame, // the audience's: always the current game

		now:       c.clockNow,
		broken:    func() bool { return c.core.Why() != nil },
		after:     func(d time.Duration, f func()) func() { return c.after(d, f) },
		timeOfDay: c.timeOfDay,
		relayout: func() {
			w := c.win
			if large && c.audience != nil {
				w = c.audience.win
			}
			c.ui(w.Content().Refresh)
		},
		ui: c.ui,
	}
	if large {
		f.game = c.game
	} else {
		f.onPress = func() { c.pressSlot(slot) }
		f.nameFits = func(slot int, fits bool) bool {
			c.nameTooLong[slot] = !fits
			return !c.nameTooLong[0] && !c.nameTooLong[1]
		}
		f.onFall = func(g *match.Game) {
			c.refreshNotice(g)
			c.refreshButtons()
		}
	}
	return f
}
