package gui

import (
	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/match"
)

// whyNot says why this console cannot take action id now, as the role it
// acts in, on the station it runs on ("" when it can): the action bar
// disables the button and shows the reason as its tip (issue 27). It
// foresees only what the core would refuse for certain, in the core's
// words where the core has them; anything else is left to the core.
func (c *console) whyNot(id actionID) string {
	st := c.state()
	g := st.CurrentGame()
	live := g != nil && g.Live()
	var running clock.Side
	isRunning := false
	if live {
		running, isRunning = g.Clock.Running()
	}
	gives := func() string { // this station gives commands at all
		if c.stationRole == "mirror" {
			return translate("The mirror terminal only reads the record: give commands at another station.")
		}
		return ""
	}
	arbiters := func() string { // an arbiter's command, which the laptop never sends
		if w := gives(); w != "" {
			return w
		}
		if c.stationRole == "operator" {
			return translate(atArbitersConsole)
		}
		return ""
	}
	stopped := func() string {
		switch {
		case !live:
			return sentence(match.ErrorFor(match.CodeNoGame))
		case !isRunning:
			return tr("the clocks are already stopped (%s)", pauseWhy(g.Paused))
		}
		return ""
	}
	if err := c.brokenRecord(); err != nil && writes(id) {
		// a record that does not verify takes nothing (the banner says
		// why): the core's own sentence, ahead of any other reason
		if w := gives(); w != "" {
			return w
		}
		return sentence(err)
	}
	if err := c.viewingRefusal(); err != nil && writes(id) {
		return err.Error() // another game is shown: nothing is recorded from it
	}
	switch id {
	case actPressLeft, actPressRight:
		side := c.sideAt(0)
		if id == actPressRight {
			side = c.sideAt(1)
		}
		if w := first(gives(), stopped()); w != "" {
			return capitalFirst(w)
		}
		if running != side {
			return tr("%s's clock is not running: only the running clock can be pressed.", translate(match.Colour(side)))
		}
		if g.Pressed != nil {
			// the other side pressed and its move is not entered yet: the
			// core refuses this press until it is (the button acted, and a
			// "Not done" dialog took the keys of the move typed next)
			return sentence(match.ErrorFor(match.CodeAlreadyPressed, phrase.Word(match.Colour(*g.Pressed))))
		}
		if err := c.atArbitersConsole(side, "press"); err != nil && c.humanSide(side) {
			return err.Error()
		}
	case actCallArbiter:
		if w := first(gives(), stopped()); w != "" {
			return capitalFirst(w)
		}
		if a := c.callActor(g, running); a.Role == match.RoleOperator && !c.humanSide(running) {
			return sentence(match.ErrorFor(match.CodeComputersClockRuns)) // rule 7: refused, always
		}
	case actPause:
		if w := first(arbiters(), stopped()); w != "" {
			return capitalFirst(w)
		}
	case actResume:
		if w := arbiters(); w != "" {
			return w
		}
		if !live {
			return sentence(match.ErrorFor(match.CodeNoGame))
		}
		if isRunning {
			return sentence(match.ErrorFor(match.CodeClockRunning))
		}
	case actStartGame:
		if w := arbiters(); w != "" {
			return w
		}
		if st.Match == nil {
			return sentence(match.ErrorFor(match.CodeNoMatch))
		}
		if live {
			return tr("Game %d is in progress.", g.Number)
		}
	case actDrawOffer:
		if w := gives(); w != "" {
			return w
		}
		if !live {
			return sentence(match.ErrorFor(match.CodeNoGame))
		}
	case actIncident:
		return gives()
	}
	return ""
}

// first is the first of ws that is not "".
func first(ws ...string) string {
	for _, w := range ws {
		if w != "" {
			return w
		}
	}
	return ""
}

// readsOnly are the actions that append nothing to the record (views,
// settings, reports, copies of the record, the arbiter mode): on a record
// that does not verify they stay open; every other action writes, and the
// console refuses it there at once with the core's sentence.
var readsOnly = map[actionID]bool{
	actAudience: true, actRefresh: true, actBackup: true, actStations: true, actContinue: true, actQuit: true,
	actFocusMove: true, actArbiterMode: true, actLock: true, actLockAfter: true, actSwapClocks: true,
	actExportPGN: true, actExportPDF: true, actVerify: true,
	actFlip: true, actTextBigger: true, actTextSmaller: true, actMovePresses: true, actClockKeys: true,
	actLanguage: true, actBroadcast: true, actShortcuts: true, actAbout: true,
}

// writes tells whether action id appends to the record.
func writes(id actionID) bool { return !readsOnly[id] }
