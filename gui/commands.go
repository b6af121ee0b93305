package gui

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/scoresheet"
)

// cmdAs is a command given now by the actor. On a protected match the
// arbiter's PIN, once given at this console, authorises the operator's and
// the players' commands entered here too (the arbiter enters them at his
// console; docs/store.md, "Credentials"); arbiter actions still need
// arbiter mode.
func (c *console) cmdAs(a match.Actor) match.Cmd {
	if a.PIN == "" && a.Role != match.RoleArbiter {
		a.PIN = c.hallPIN
	}
	c.warning = "" // a warning stands for the action that gave it
	return match.Cmd{At: c.now(), Actor: a, Warn: c.warn}
}

// warn shows a warning the core gives with a command that succeeded on the
// status line at the top right, beside the mode, without stopping the
// arbiter: a dialog at every action would be in the way of the clocks, and
// a line more under them would push the action bar off a small screen. The
// only warning there is says that an arbiter action was taken on an
// unprotected match (match.UnprotectedWarning, issue 16).
func (c *console) warn(w error) {
	c.warning = "⚠ " + translate("Unprotected match: nothing is signed")
	if match.ErrorCode(w) != match.CodeUnprotected {
		c.warning = "⚠ " + sentence(w)
	}
	if c.where != nil {
		c.refreshWhere()
		c.win.Content().Refresh() // the status line grew: lay the header out again
	}
}

func (c *console) arbiter() match.Actor {
	return match.Actor{Role: match.RoleArbiter, PIN: c.pin}
}

// actorFor is who acts for side in a game: the arbiter in arbiter mode; in
// operator mode the operator for the computer's side. Without a computer in
// the match there is no operator: each side's player acts for himself. A
// human's action in operator mode is not the operator's: forSide gives it
// in arbiter mode.
func (c *console) actorFor(side clock.Side) match.Actor {
	if c.mode == match.RoleArbiter {
		return c.arbiter()
	}
	st := c.state()
	if g := st.CurrentGame(); g != nil && st.Match != nil && st.Match.Computer != "" && g.Name(side) == st.Match.Computer {
		return match.Actor{Role: match.RoleOperator}
	}
	return match.Actor{Role: roleOf(side)}
}

// gameOrNext is the current game (the last played, once over), else the
// next one to be played; nil before any.
func (c *console) gameOrNext() *match.Game {
	st := c.state()
	if g := st.CurrentGame(); g != nil {
		return g
	}
	return st.NextGame()
}

// humanSide reports whether side is the human's in a match with a
// computer (the side operator mode never acts for).
func (c *console) humanSide(side clock.Side) bool {
	st := c.state()
	g := st.CurrentGame()
	if g == nil {
		g = st.NextGame()
	}
	return g != nil && st.Match != nil && st.Match.Computer != "" && g.Name(side) != st.Match.Computer
}

// forSide runs f with who acts for side (issue 27, "one console for both
// sides"): in arbiter mode the arbiter; in operator mode the operator for
// the computer, and never for the human: the human's action (a press, a
// move, a draw offer or answer, a resignation, a claim) needs arbiter mode,
// lent to that action (asArbiter: at once while arbiter mode is unlocked,
// else after the PIN). On the operator's laptop, whose station sends only
// the operator's commands, the human's action is refused with the advice to
// give it at the arbiter's console (what says what it is: "press", "move",
// …, a key of the console's dictionary under "advice|"). Without a
// computer each side's player acts for himself.
func (c *console) forSide(side clock.Side, what string, f func(match.Actor)) {
	if c.mode == match.RoleArbiter || !c.humanSide(side) {
		if c.mode == match.RoleArbiter && !c.unlocked() {
			c.asArbiter(func() { f(c.arbiter()) })
			return
		}
		f(c.actorFor(side))
		return
	}
	if err := c.atArbitersConsole(side, what); err != nil {
		c.showError(err)
		return
	}
	c.asArbiter(func() { f(c.arbiter()) })
}

// forPlayer is forSide for a player's own declaration — a draw offer, an
// answer to one: where forSide gives it as the arbiter (arbiter mode, or
// arbiter mode lent from operator mode to the human's action, after the
// PIN), it is given as that player instead, authorised by the arbiter's PIN
// given at this console, as 'arbiter --as white --pin … draw offer' is, and
// the core checks that player's permission as for every face. The log, the
// PDF and the PGN then name the player who offered or answered, not the
// arbiter who entered it. The computer's offers and answers stay its
// operator's in operator mode and the arbiter's in arbiter mode.
func (c *console) forPlayer(side clock.Side, what string, f func(match.Actor)) {
	c.forSide(side, what, func(a match.Actor) {
		if a.Role == match.RoleArbiter && c.playersOwn(side) {
			a.Role = roleOf(side)
		}
		f(a)
	})
}

// playersOwn reports whether side's declarations are its player's own:
// the human's in a match with a computer, either side's in one without.
func (c *console) playersOwn(side clock.Side) bool {
	if m := c.state().Match; m != nil && m.Computer == "" {
		return true
	}
	return c.humanSide(side)
}

// atArbitersConsole refuses, on the operator's laptop, a human's action:
// it is given at the arbiter's console (nil elsewhere).
func (c *console) atArbitersConsole(side clock.Side, what string) error {
	if c.stationRole != "operator" {
		return nil
	}
	name := translate(match.Colour(side))
	if g := c.game(); g != nil {
		name = g.Name(side)
	}
	return errText(tr("%s's %s is given at the arbiter's console; this station gives only the operator's commands.", name, translate("advice|"+what)))
}

// callActor is who stops the clocks with the call key (6.12b). In operator
// mode the operator (the core refuses it on the computer's turn, rule 7); in
// arbiter mode the human player's call, recorded as that player (in a match
// without a computer, the player whose clock runs). The arbiter's own stop
// (6.12a) has a key of its own (arbiterStop).
func (c *console) callActor(g *match.Game, running clock.Side) match.Actor {
	m := c.state().Match
	if m == nil || m.Computer == "" {
		return match.Actor{Role: roleOf(running)}
	}
	if c.mode != match.RoleArbiter {
		return match.Actor{Role: match.RoleOperator}
	}
	if hs, ok := g.Side(m.Human()); ok {
		return match.Actor{Role: roleOf(hs)}
	}
	return match.Actor{Role: roleOf(running)}
}

// asArbiter runs f as the arbiter. In arbiter mode, unlocked, at once. In
// operator mode it lends arbiter mode to f alone: at once while arbiter
// mode is unlocked (the PIN was given here and the arbiter has not locked
// it since, nor has it locked itself after a while without input), else
// after asking for the PIN; the console returns to operator mode when f and
// the dialogs it opened are done, and arbiter mode stays unlocked.
func (c *console) asArbiter(f func()) {
	c.touch()
	if c.unlocked() {
		if c.mode == match.RoleArbiter {
			f()
			return
		}
		c.lend(f)
		return
	}
	if c.mode == match.RoleArbiter {
		c.askPIN(f)
		return
	}
	c.askPIN(func() { c.lend(f) })
}

// lend runs f in arbiter mode, lent from operator mode.
func (c *console) lend(f func()) {
	c.lent, c.lentBase = true, len(c.dialogs)
	c.mode = match.RoleArbiter
	f()
	c.endLoan()
}

// endLoan returns a console lent arbiter mode for one action to operator
// mode, once no dialog that action opened is open. Arbiter mode stays
// unlocked.
func (c *console) endLoan() {
	if !c.lent || len(c.dialogs) > c.lentBase {
		return
	}
	c.lent = false
	c.mode = match.RoleOperator
	c.refresh()
}

// askPIN asks for the arbiter PIN and switches to arbiter mode when it is right.
func (c *console) askPIN(then func()) {
	pin := newFormEntry(true)
	pin.SetPlaceHolder(translate("Arbiter PIN"))
	var d dialog.Dialog
	submit := func() {
		d.Hide()
		given := pin.Text
		// checked by the core, which records a wrong PIN and backs off (on
		// a station's record: by the authority, checkArbiterPIN)
		c.checkArbiterPIN(given, func(err error) {
			if err != nil {
				if wrongCredential(err) || errors.Is(err, errWrongStationPIN) {
					c.info(translate("Not done"), translate("The PIN is wrong: give the arbiter PIN set when the match was created."))
				} else {
					c.showError(err)
				}
				return
			}
			c.pin = given
			c.hallPIN = given
			c.mode = match.RoleArbiter
			c.prepareLink() // on a station's record: its key unlocked now, not at the next press
			c.refresh()
			if then != nil {
				then()
			}
		})
	}
	pin.OnSubmitted = func(string) { submit() }
	d = dialog.NewCustomConfirm(translate("Arbiter mode"), translate("OK"), translate("Cancel"),
		widget.NewForm(widget.NewFormItem(translate("PIN"), pin)), func(ok bool) {
			if ok {
				submit()
			}
		}, c.win)
	pin.onEscape = d.Hide
	c.showDialog(d)
	c.win.Canvas().Focus(pin)
}

// toggleMode switches between arbiter and operator mode (Ctrl+M). Back to
// arbiter mode the PIN is asked only while arbiter mode is locked: one
// person entering both sides switches freely.
func (c *console) toggleMode() {
	c.touch()
	c.lent = false
	if c.mode == match.RoleArbiter {
		c.mode = match.RoleOperator
		c.refresh()
		return
	}
	if c.unlocked() {
		c.mode = match.RoleArbiter
		c.refresh()
		return
	}
	c.askPIN(nil)
}

// enterMove records a move typed or played on the board. When a clock press
// is waiting, the move is matched to it; otherwise (and only when entering a
// move presses the clock) the move presses the mover's clock.
func (c *console) enterMove(input string) bool {
	input = strings.TrimSpace(input)
	if input == "" {
		return false
	}
	g := c.game()
	if g == nil || !g.Live() {
		c.refuseMove(translate("No game is in progress: start one with Match → Start next game (Ctrl+G)."))
		return false
	}
	if err := c.brokenRecord(); err != nil {
		c.refuseMove(sentence(err)) // before "press first": nothing can be recorded
		return false
	}
	if err := c.viewingRefusal(); err != nil {
		c.refuseMove(err.Error()) // the move would go to the current game, not the one shown
		return false
	}
	pressed := g.Pressed != nil
	if !pressed && !c.movePresses && !endsGame(g, input) {
		// press first (6.7a): the move is complete at the press; a move
		// that ends the game (mate, stalemate) needs none
		// the side and its key, as the notice above names them (the
		// sentence said "the player presses his clock (or click it)")
		c.refuseMove(tr("Press first (6.7a): press %s's clock (%s or a click on it) once the move is made, then enter the move.",
			translate(match.Colour(g.ToMove())), keyText(c.keyFor(g.ToMove()))))
		return false
	}
	at := c.now()
	if side, fell, ok := c.fallenFlag(g, at); ok {
		// a move after a fallen flag: the arbiter decides first (6.8, 6.9)
		c.confirm(translate("The flag has fallen"),
			tr("%s's flag fell at %s. Record the move %s anyway? The arbiter then decides the flag (Game → %s's flag fell, 6.9).",
				translate(match.Colour(side)), c.timeOfDay(fell), input, translate(match.Colour(side))),
			translate("Record the move"), func() { c.recordMove(input, pressed, at) })
		return false
	}
	return c.recordMove(input, pressed, at)
}

// fallenFlag is a side whose flag has fallen by at and is not yet recorded.
func (c *console) fallenFlag(g *match.Game, at time.Time) (clock.Side, time.Time, bool) {
	for _, s := range []clock.Side{g.ToMove(), g.ToMove().Other()} {
		if f := g.Clock.Flag(s, at); f.Fallen && !g.FlagRecorded(s) {
			return s, f.At, true
		}
	}
	return 0, time.Time{}, false
}

// recordMove records the move at instant at (given by the mover's actor).
func (c *console) recordMove(input string, pressed bool, at time.Time) bool {
	g := c.game()
	if g == nil || !g.Live() {
		return false
	}
	// given at the press's instant (6.7a), not the entry's
	refused := false
	c.forSide(g.ToMove(), "move", func(a match.Actor) {
		c.give(a, at, match.Move{Input: input, Pressed: pressed}, func(res match.Result, err error) {
			refused = err != nil
			c.moved(res, err)
			c.askNotEngine(a, input, pressed, err)
		})
	})
	return !refused
}

// endsGame reports whether input is a legal move that ends the game
// (checkmate, stalemate, a dead position): such a move needs no press.
func endsGame(g *match.Game, input string) bool {
	if g.Sheet == nil {
		return false
	}
	mv, err := g.Sheet.ParseMove(input)
	if err != nil {
		return false
	}
	term, _ := scoresheet.OutcomeOf(g.Sheet.Position().Update(mv))
	return term != scoresheet.TermNone
}

// refuseMove says why the console refused a move before the core saw it
// and selects the move field's text, as a refusal of the core does
// (console.moved): the next move typed replaces the refused one. Before,
// the text stayed unselected, and e4 refused for want of a press became
// e4Nf3 when the next move was typed.
func (c *console) refuseMove(s string) {
	c.setMoveError(s)
	c.moveEntry.SelectAll()
}

func (c *console) setMoveError(s string) {
	if c.moveErr.Text == s {
		return
	}
	c.moveErr.SetText(s)
	if s == "" {
		c.moveErr.Hide()
	} else {
		c.moveErr.Show()
	}
}

// pressSlot presses the clock standing in slot 0 (left) or 1 (right): only
// the running clock can be pressed.
func (c *console) pressSlot(slot int) {
	g := c.game()
	if g == nil || !g.Live() {
		return
	}
	if c.refusedBroken() { // a key or a click on a clock that stands still
		return
	}
	side := c.sideAt(slot)
	running, ok := g.Clock.Running()
	if !ok || running != side {
		return // pressing a stopped clock does nothing, like a real clock
	}
	at := c.now() // the press's instant, also when arbiter mode asks for the PIN first
	c.forSide(side, "press", func(a match.Actor) { c.give(a, at, match.Press{}, nil) })
}

// callArbiter stops both clocks to call the arbiter (6.12b), as who really
// calls (callActor); the core refuses what it refuses.
func (c *console) callArbiter() {
	g := c.game()
	if g == nil || !g.Live() {
		return
	}
	running, ok := g.Clock.Running()
	if !ok {
		return
	}
	c.give(c.callActor(g, running), c.now(), match.Pause{Cause: match.CauseOther, Call: true}, nil)
}

// arbiterStop is the arbiter's own stop of the clocks (6.12a), on its own key.
func (c *console) arbiterStop() {
	g := c.game()
	if g == nil || !g.Live() {
		return
	}
	if _, ok := g.Clock.Running(); !ok {
		return
	}
	c.asArbiter(c.pause)
}

func roleOf(s clock.Side) match.Role {
	if s == clock.White {
		return match.RoleWhite
	}
	return match.RoleBlack
}

func (c *console) startGame() { c.give(c.arbiter(), c.now(), match.GameStart{}, c.focusAfter) }

func (c *console) resume() { c.give(c.arbiter(), c.now(), match.Resume{}, c.focusAfter) }

func (c *console) focusMove() {
	c.win.Canvas().Focus(c.moveEntry)
}

// drawOffer records a draw offer (Ctrl+D): in arbiter mode by the side
// that made its move (Game.Offerer, Article 9.1: the proper moment); in
// operator mode the computer's. An offer on the offerer's own clock, before
// his move, is Game → White offers a draw / Black offers a draw
// (drawOfferBy).
func (c *console) drawOffer() {
	g := c.game()
	if g == nil {
		c.showError(errText(translate("no game is in progress")))
		return
	}
	side := g.Offerer()
	if m := c.state().Match; c.mode != match.RoleArbiter && m != nil && m.Computer != "" {
		if cs, ok := g.Side(m.Computer); ok {
			side = cs
		}
	}
	c.drawOfferBy(side)
}

// drawOfferBy records side's draw offer, on either clock.
func (c *console) drawOfferBy(side clock.Side) {
	if g := c.game(); g == nil {
		c.showError(errText(translate("no game is in progress")))
		return
	}
	at := c.now()
	c.forPlayer(side, "draw offer", func(a match.Actor) { c.give(a, at, match.DrawOffer{Side: &side}, nil) })
}

// drawAnswer accepts or declines the offer that stands, for the side it
// was made to, at once (on either clock).
func (c *console) drawAnswer(accept bool) {
	g := c.game()
	if g == nil || g.Offer == nil {
		c.showError(errText(translate("there is no draw offer to answer")))
		return
	}
	by := g.Offer.By.Other()
	answer := func() {
		var cmd match.Command = match.DrawDecline{}
		if accept {
			cmd = match.DrawAccept{}
		}
		at := c.now()
		c.forPlayer(by, "answer to the draw offer", func(a match.Actor) { c.give(a, at, cmd, nil) })
	}
	if !accept {
		answer()
		return
	}
	// accepting ends the game: one more step, as for a resignation
	d := c.newQuestion(translate("Accept draw"), tr("Record that %s (%s) accepts the draw? The game ends ½–½.", g.Name(by), translate(match.Colour(by))), func(ok bool) {
		c.onEnter = nil
		if ok {
			answer()
		}
	})
	d.SetConfirmText(translate("Accept draw"))
	c.win.Canvas().Unfocus() // Enter answers the question, not the move field
	c.onEnter = d.Confirm
	c.showDialog(d)
}

func (c *console) resign(side clock.Side) {
	g := c.game()
	if g == nil || !g.Live() {
		c.showError(errText(translate("no game is in progress")))
		return
	}
	c.confirm(translate("Resign"), tr("Record that %s (%s) resigns?", g.Name(side), translate(match.Colour(side))), translate("Resign"), func() {
		at := c.now()
		c.forSide(side, "resignation", func(a match.Actor) { c.give(a, at, match.Resign{Side: side}, nil) })
	})
}

// confirm asks before an action that ends a game (or overrides a fallen
// flag); Enter confirms, Escape cancels.
func (c *console) confirm(title, msg, yes string, f func()) {
	d := c.newQuestion(title, msg, func(ok bool) {
		c.onEnter = nil
		if ok {
			f()
		}
	})
	d.SetConfirmText(yes)
	c.win.Canvas().Unfocus() // Enter answers the question, not the move field
	c.onEnter = d.Confirm
	c.showDialog(d)
}

// flag records a fallen flag: observed by the arbiter, or claimed by the
// opponent's side.
func (c *console) flag(which string) {
	run := func() {
		at := c.now()
		give := func(a match.Actor) { c.give(a, at, match.Flag{Side: which, OrderUnknown: which == "both"}, c.flagged) }
		if which == "both" || c.mode == match.RoleArbiter {
			give(c.arbiter())
			return
		}
		s, _ := clock.ParseSide(which)
		c.forSide(s.Other(), "flag claim", give) // the opponent claims
	}
	g := c.game()
	if g == nil || !g.Live() {
		c.showError(errText(translate("no game is in progress")))
		return
	}
	at := c.now()
	msg := translate("Record that both flags have fallen, the order unknown (6.11)? The game continues.")
	title := translate("Both flags, order unknown (6.11)")
	if which != "both" {
		s, _ := clock.ParseSide(which)
		f := g.Clock.Flag(s, at)
		title = tr("%s's flag fell", translate(match.Colour(s)))
		msg = tr("Record that %s's flag has fallen? Article 6.9 decides: %s loses if %s can still checkmate, the game is drawn if not.",
			translate(match.Colour(s)), translate(match.Colour(s)), translate(match.Colour(s.Other())))
		if f.Fallen {
			msg = tr("%s's flag fell at %s.", translate(match.Colour(s)), c.timeOfDay(f.At)) + " " + msg
		}
	}
	ask := func() { c.confirm(title, msg, translate("Record the flag"), run) }
	if which == "both" {
		c.asArbiter(ask)
		return
	}
	ask()
}

func (c *console) swapClocks() {
	c.leftSide = c.leftSide.Other()
	c.saveSettings()
	c.refresh()
}

func (c *console) flip() {
	c.flipped = !c.flipped
	c.saveSettings()
	c.board.show(c.shownGame(), c.flipped)
}

func (c *console) toggleMovePresses() {
	c.movePresses = !c.movePresses
	c.saveSettings()
	c.refresh()
}

func (c *console) setScale(s float32) {
	if s < 0.6 || s > 3 {
		return
	}
	c.scale = float32(int(s*10+0.5)) / 10
	c.saveSettings()
	c.fa.Settings().SetTheme(&consoleTheme{scale: c.scale})
	for _, cv := range c.clocks {
		cv.restyle()
	}
	if c.audience != nil {
		c.audience.restyle()
	}
	c.refreshGames(c.state()) // the games' texts take the new size
}

func (c *console) reload() {
	if err := c.core.Refresh(c.ctx); err != nil {
		c.showError(err)
	}
	c.refresh()
}

// handleKey handles the single keys: the two clock keys and the call key.
// It reports whether the key was one of them.
func (c *console) handleKey(ev *fyne.KeyEvent) bool {
	c.touch()
	// Enter confirms the open note or question, unless a move is being
	// typed: the move field holds text and has the window's focus. Behind
	// an open dialog the field keeps its own focus (the dialog has the
	// window's), and the question is answered: Ctrl+Q and Enter quit with
	// the engine's move offered in the field and a note open under the
	// question.
	typing := c.moveEntry.Text != "" && c.win.Canvas().Focused() == c.moveEntry
	if ev.Name == fyne.KeyReturn && c.onEnter != nil && !typing {
		f := c.onEnter
		c.onEnter = nil
		f()
		return true
	}
	if ev.Name == fyne.KeyEscape && len(c.dialogs) > 0 {
		if c.heldKey == fyne.KeyEscape {
			// a repeat of the Escape that closed a dialog: the dialog
			// opened after it (the quit question of Ctrl+Q given while
			// Escape was still held) stays, as the arbiter stays uncalled
			return true
		}
		c.heldKey = fyne.KeyEscape         // its repeats while held call nobody and close nothing more
		c.dialogs[len(c.dialogs)-1].Hide() // Escape closes the newest dialog, as Cancel would
		return true
	}
	switch ev.Name {
	case c.keyLeft:
		c.view(0) // a player's key: the game played comes before the one read
		c.pressSlot(0)
	case c.keyRight:
		c.view(0)
		c.pressSlot(1)
	case c.keyCall:
		if c.win.Canvas().Overlays().Top() != nil {
			return false // with a dialog open the key (often Escape) means "close it"
		}
		if c.heldKey == ev.Name {
			return true // the key's repeat: the press closed a dialog or called already
		}
		c.heldKey = ev.Name
		c.view(0) // a player calls the arbiter to the game played
		if !c.refusedBroken() {
			c.callArbiter()
		}
	case fyne.KeyF10:
		// the menus from the keyboard (the arrows move, Enter chooses)
		if m, ok := c.win.Canvas().(interface{ ToggleMenu() }); ok {
			m.ToggleMenu()
		}
	case c.keyStop:
		if c.win.Canvas().Overlays().Top() != nil {
			return false
		}
		if !c.refusedBroken() {
			c.arbiterStop()
		}
	default:
		return false
	}
	return true
}

// keyDown and keyUp are told of a key pressed and released (the driver
// tells them apart from its repeats, which come as typed keys alone): a
// fresh press or the release of the held key lets it act again.
func (c *console) keyDown(ev *fyne.KeyEvent) {
	if ev.Name == c.heldKey {
		c.heldKey = ""
	}
}

func (c *console) keyUp(ev *fyne.KeyEvent) { c.keyDown(ev) }

// tellKeys tells keyDown and keyUp of the keys a window's canvas gets
// while nothing in it has the focus (the console's, the audience's).
func (c *console) tellKeys(cv fyne.Canvas) {
	if dc, ok := cv.(desktop.Canvas); ok {
		dc.SetOnKeyDown(c.keyDown)
		dc.SetOnKeyUp(c.keyUp)
	}
}

// escapeClosing is close for Escape in a dialog's text field: like the
// Escape handleKey takes, its repeats while held call nobody.
func (c *console) escapeClosing(close func()) func() {
	return func() {
		c.heldKey = fyne.KeyEscape
		close()
	}
}

type errText string

func (e errText) Error() string { return string(e) }

func atoiOr(s string, def int) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
