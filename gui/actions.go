package gui

import (
	"fyne.io/fyne/v2"
)

// actionID names one thing the console can do.
type actionID string

// The console's actions. Each is reachable from a menu (with the shortcut in
// shortcuts.go) and some also from the action bar or a key.
const (
	actNewMatch     actionID = "new-match"
	actStartGame    actionID = "start-game"
	actStartFrom    actionID = "start-from"
	actScheduleGame actionID = "schedule-game"
	actPostponeGame actionID = "postpone-game"
	actAudience     actionID = "audience"
	actQuit         actionID = "quit"
	actFocusMove    actionID = "focus-move"
	actPressLeft    actionID = "press-left"
	actPressRight   actionID = "press-right"
	actCallArbiter  actionID = "call-arbiter"
	actPause        actionID = "pause"
	actResume       actionID = "resume"
	actAdjust       actionID = "adjust"
	actSwapClocks   actionID = "swap-clocks"
	actFlagWhite    actionID = "flag-white"
	actFlagBlack    actionID = "flag-black"
	actFlagBoth     actionID = "flag-both"
	actDrawOffer    actionID = "draw-offer"
	actDrawAccept   actionID = "draw-accept"
	actDrawDecline  actionID = "draw-decline"
	actResignWhite  actionID = "resign-white"
	actResignBlack  actionID = "resign-black"
	actResult       actionID = "result"
	actIncident     actionID = "incident"
	actArbiterMode  actionID = "arbiter-mode"
	actFlip         actionID = "flip"
	actTextBigger   actionID = "text-bigger"
	actTextSmaller  actionID = "text-smaller"
	actMovePresses  actionID = "move-presses"
	actClockKeys    actionID = "clock-keys"
	actLanguage     actionID = "language"
	actRefresh      actionID = "refresh"
	actShortcuts    actionID = "shortcuts"
	actAbout        actionID = "about"
	actForfeit      actionID = "forfeit"
	actClaim        actionID = "claim"
	actAmend        actionID = "amend"
	actCorrect      actionID = "correct"
	actExportPGN    actionID = "export-pgn"
	actExportPDF    actionID = "export-pdf"
	actVerify       actionID = "verify"
	actBackup       actionID = "backup"
	actContinue     actionID = "continue"
	actBroadcast    actionID = "broadcast"
	actStations     actionID = "stations"
	actEngine       actionID = "engine"
	actArrive       actionID = "arrive"
	actLock         actionID = "lock"
	actLockAfter    actionID = "lock-after"
	actOfferWhite   actionID = "draw-offer-white"
	actOfferBlack   actionID = "draw-offer-black"
)

// action is one row of the action table: adding a command to the console is
// adding a row here (and its shortcut in shortcuts.go).
type action struct {
	id    actionID
	menu  string // English menu title (translated when shown)
	label string // English label (translated when shown)
	// arbiter actions run as the arbiter and ask for the PIN when needed.
	arbiter bool
	run     func(c *console)
}

// menus lists the menu titles in order.
var menus = []string{"Match", "Game", "Clock", "Arbiter", "Operator", "Incidents", "Reports", "View", "Help"}

// actions is the action table, in menu order (set in init: the actions
// refer back to the table).
var actions []action

func init() {
	actions = []action{
		{id: actNewMatch, menu: "Match", label: "New match…", arbiter: true, run: (*console).newMatchDialog},
		{id: actStartGame, menu: "Match", label: "Start next game", arbiter: true, run: (*console).startGame},
		{id: actScheduleGame, menu: "Match", label: "Schedule game…", arbiter: true, run: (*console).scheduleDialog},
		{id: actPostponeGame, menu: "Match", label: "Postpone game…", arbiter: true, run: (*console).postponeDialog},
		{id: actAudience, menu: "Match", label: "Audience display", run: (*console).toggleAudience},
		{id: actRefresh, menu: "Match", label: "Reload from database", run: (*console).reload},
		{id: actBackup, menu: "Match", label: "Back up the record…", run: (*console).backupDialog},
		{id: actStations, menu: "Match", label: "Stations…", run: (*console).stationsDialog},
		{id: actContinue, menu: "Match", label: "Continue in a new file…", run: (*console).continueDialog},
		{id: actQuit, menu: "Match", label: "Quit", run: (*console).quit},

		{id: actFocusMove, menu: "Game", label: "Enter a move", run: (*console).focusMove},
		{id: actStartFrom, menu: "Game", label: "Start from a position…", arbiter: true, run: (*console).startFromDialog},
		{id: actArrive, menu: "Game", label: "Player arrived at the board…", arbiter: true, run: (*console).arriveDialog},
		{id: actDrawOffer, menu: "Game", label: "Offer draw", run: (*console).drawOffer},
		{id: actOfferWhite, menu: "Game", label: "White offers a draw", run: func(c *console) { c.drawOfferBy(sideWhite) }},
		{id: actOfferBlack, menu: "Game", label: "Black offers a draw", run: func(c *console) { c.drawOfferBy(sideBlack) }},
		{id: actDrawAccept, menu: "Game", label: "Accept draw", run: func(c *console) { c.drawAnswer(true) }},
		{id: actDrawDecline, menu: "Game", label: "Decline draw", run: func(c *console) { c.drawAnswer(false) }},
		{id: actResignWhite, menu: "Game", label: "White resigns…", run: func(c *console) { c.resign(sideWhite) }},
		{id: actResignBlack, menu: "Game", label: "Black resigns…", run: func(c *console) { c.resign(sideBlack) }},
		{id: actFlagWhite, menu: "Game", label: "White's flag fell", run: func(c *console) { c.flag("white") }},
		{id: actFlagBlack, menu: "Game", label: "Black's flag fell", run: func(c *console) { c.flag("black") }},

		{id: actPressLeft, menu: "Clock", label: "Press left clock", run: func(c *console) { c.pressSlot(0) }},
		{id: actPressRight, menu: "Clock", label: "Press right clock", run: func(c *console) { c.pressSlot(1) }},
		{id: actCallArbiter, menu: "Clock", label: "Stop clocks, call arbiter", run: (*console).callArbiter},
		{id: actSwapClocks, menu: "Clock", label: "Swap clock sides (6.4)", arbiter: true, run: (*console).swapClocks},

		{id: actArbiterMode, menu: "Arbiter", label: "Arbiter mode (PIN) / operator mode", run: (*console).toggleMode},
		{id: actLock, menu: "Arbiter", label: "Lock arbiter mode", run: (*console).lockArbiter},
		{id: actLockAfter, menu: "Arbiter", label: "Lock arbiter mode after…", run: (*console).lockAfterDialog},
		{id: actPause, menu: "Arbiter", label: "Pause clocks", arbiter: true, run: (*console).pause},
		{id: actResume, menu: "Arbiter", label: "Resume clocks", arbiter: true, run: (*console).resume},
		{id: actAdjust, menu: "Arbiter", label: "Adjust clock…", arbiter: true, run: (*console).adjustDialog},
		{id: actResult, menu: "Arbiter", label: "Result by decision…", arbiter: true, run: (*console).resultDialog},
		{id: actFlagBoth, menu: "Arbiter", label: "Both flags, order unknown (6.11)", arbiter: true, run: func(c *console) { c.flag("both") }},
		{id: actForfeit, menu: "Arbiter", label: "Forfeit…", arbiter: true, run: (*console).forfeitDialog},
		{id: actAmend, menu: "Arbiter", label: "Amend a move…", arbiter: true, run: (*console).amendDialog},
		{id: actCorrect, menu: "Arbiter", label: "Correct a position (rule 10)…", arbiter: true, run: (*console).correctDialog},
		{id: actClaim, menu: "Game", label: "Claim a draw…", run: (*console).claimDialog},

		{id: actEngine, menu: "Operator", label: "Engine…", run: (*console).engineDialog},

		{id: actIncident, menu: "Incidents", label: "Log incident…", run: (*console).incidentDialog},

		{id: actExportPGN, menu: "Reports", label: "Export PGN…", run: (*console).exportPGNDialog},
		{id: actExportPDF, menu: "Reports", label: "Export PDF…", run: (*console).exportPDFDialog},
		{id: actVerify, menu: "Reports", label: "Verify the record", run: (*console).verifyRecord},

		{id: actFlip, menu: "View", label: "Flip board", run: (*console).flip},
		{id: actTextBigger, menu: "View", label: "Larger text", run: func(c *console) { c.setScale(c.scale + 0.1) }},
		{id: actTextSmaller, menu: "View", label: "Smaller text", run: func(c *console) { c.setScale(c.scale - 0.1) }},
		{id: actMovePresses, menu: "View", label: "Typing first: entering a move presses the clock", run: (*console).toggleMovePresses},
		{id: actClockKeys, menu: "View", label: "Clock keys…", run: (*console).clockKeysDialog},
		{id: actLanguage, menu: "View", label: "Language…", run: (*console).languageDialog},
		{id: actBroadcast, menu: "View", label: "Broadcast…", run: (*console).broadcastDialog},

		{id: actShortcuts, menu: "Help", label: "Keys and shortcuts", run: (*console).shortcutsDialog},
		{id: actAbout, menu: "Help", label: "About Arbiter", run: (*console).about},
	}
}

func findAction(id actionID) *action {
	for i := range actions {
		if actions[i].id == id {
			return &actions[i]
		}
	}
	return nil
}

// do runs an action: arbiter actions first make sure the console acts as the
// arbiter (asking for the PIN when the match has one).
func (c *console) do(id actionID) {
	a := findAction(id)
	if a == nil {
		return
	}
	c.touch()
	if writes(id) && c.refusedBroken() { // before a dialog or the PIN: the core takes nothing
		return
	}
	if a.arbiter && c.stationRole == "operator" && id != actSwapClocks {
		c.showError(errText(translate(atArbitersConsole))) // the laptop sends only the operator's commands
		return
	}
	if a.arbiter {
		c.asArbiter(func() { a.run(c) })
		return
	}
	a.run(c)
}

// mainMenu builds the menus from the action table.
func (c *console) mainMenu() *fyne.MainMenu {
	var ms []*fyne.Menu
	for _, title := range menus {
		var items []*fyne.MenuItem
		for _, a := range actions {
			if a.menu != title {
				continue
			}
			id := a.id
			label := translate(a.label)
			if a.arbiter {
				label += " ⚖"
			}
			it := fyne.NewMenuItem(label, func() { c.do(id) })
			it.Shortcut = shortcuts[id]
			if id == actMovePresses {
				it.Checked = c.movePresses
				c.movePressesItem = it
			}
			if id == actQuit {
				it.IsQuit = true
			}
			items = append(items, it)
		}
		ms = append(ms, fyne.NewMenu(translate(title), items...))
	}
	return fyne.NewMainMenu(ms...)
}

// addShortcuts registers every shortcut on the window's canvas, so that they
// work even where the driver shows no native menu.
func (c *console) addShortcuts() {
	for id, s := range shortcuts {
		id := id
		c.win.Canvas().AddShortcut(s, func(fyne.Shortcut) {
			if len(c.dialogs) > 0 {
				return // no action behind an open dialog; Escape closes it first
			}
			c.do(id)
		})
	}
}
