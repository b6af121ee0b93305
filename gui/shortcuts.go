package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// This file holds every keyboard shortcut of the console, so that they can be
// read, changed and documented (docs/console.md) in one place.
//
// Menu shortcuts carry Ctrl (Cmd on macOS is mapped by Fyne): a shortcut
// without a modifier would be swallowed by the move field. The clock keys
// and the call-the-arbiter key are single keys, handled by the console's key
// dispatcher even while the move field has the focus.

// Default clock keys (configurable under View → Clock keys…). F1 and F12 lie
// at the two ends of the keyboard, like the two buttons of a chess clock; they
// never occur while typing a move.
const (
	defaultKeyLeft  = fyne.KeyF1
	defaultKeyRight = fyne.KeyF12
	// defaultKeyCall stops both clocks to call the arbiter (Article 6.12b):
	// one key anyone can hit.
	defaultKeyCall = fyne.KeyEscape
	// defaultKeyStop is the arbiter's own stop of the clocks (6.12a).
	defaultKeyStop = fyne.KeyF9
)

// keyChoices are the keys offered for the clock keys and the call key.
var keyChoices = []fyne.KeyName{
	fyne.KeyF1, fyne.KeyF2, fyne.KeyF3, fyne.KeyF4, fyne.KeyF5, fyne.KeyF6,
	fyne.KeyF7, fyne.KeyF8, fyne.KeyF9, fyne.KeyF11, fyne.KeyF12, // F10 opens the menus
	fyne.KeyEscape, fyne.KeyInsert, fyne.KeyHome, fyne.KeyEnd, fyne.KeyPageUp, fyne.KeyPageDown,
}

func ctrl(k fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
}

func ctrlShift(k fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
}

// shortcuts maps an action to its menu shortcut.
var shortcuts = map[actionID]fyne.Shortcut{
	actNewMatch:     ctrl(fyne.KeyN),
	actStartGame:    ctrl(fyne.KeyG),
	actStartFrom:    ctrl(fyne.KeyO),
	actScheduleGame: ctrlShift(fyne.KeyS),
	actPostponeGame: ctrlShift(fyne.KeyP),
	actQuit:         ctrl(fyne.KeyQ),
	actFocusMove:    ctrl(fyne.KeyL),
	actPressLeft:    ctrl(fyne.Key1),
	actPressRight:   ctrl(fyne.Key2),
	actCallArbiter:  ctrl(fyne.KeyK),
	actPause:        ctrl(fyne.KeyP),
	actResume:       ctrl(fyne.KeyR),
	actAdjust:       ctrl(fyne.KeyJ),
	actSwapClocks:   ctrlShift(fyne.KeyW),
	actFlagWhite:    ctrlShift(fyne.KeyF),
	actFlagBlack:    ctrlShift(fyne.KeyB),
	actFlagBoth:     ctrlShift(fyne.KeyX),
	actDrawOffer:    ctrl(fyne.KeyD),
	actDrawAccept:   ctrlShift(fyne.KeyD),
	actDrawDecline:  ctrlShift(fyne.KeyE),
	actResignWhite:  ctrlShift(fyne.Key1),
	actResignBlack:  ctrlShift(fyne.Key2),
	actResult:       ctrlShift(fyne.KeyR),
	actIncident:     ctrl(fyne.KeyI),
	actArbiterMode:  ctrl(fyne.KeyM),
	actFlip:         ctrl(fyne.KeyF),
	actAudience:     ctrlShift(fyne.KeyA),
	actTextBigger:   ctrl(fyne.KeyEqual),
	actTextSmaller:  ctrl(fyne.KeyMinus),
	actMovePresses:  ctrlShift(fyne.KeyM),
	actClockKeys:    ctrlShift(fyne.KeyK),
	actShortcuts:    ctrl(fyne.KeySlash),
	actRefresh:      ctrlShift(fyne.KeyY),
	actLock:         ctrlShift(fyne.KeyL),
	actLockAfter:    ctrlShift(fyne.KeyZ),
	actArrive:       ctrlShift(fyne.KeyJ),
	actOfferWhite:   ctrlShift(fyne.Key3),
	actOfferBlack:   ctrlShift(fyne.Key4),
	actLanguage:     ctrlShift(fyne.KeyG),
	actAbout:        ctrlShift(fyne.KeyH),
	actForfeit:      ctrlShift(fyne.KeyT),
	actAmend:        ctrlShift(fyne.KeyN),
	actClaim:        ctrlShift(fyne.KeyC),
	actCorrect:      ctrl(fyne.KeyU),
	actExportPGN:    ctrl(fyne.KeyE),
	actExportPDF:    ctrl(fyne.KeyT),
	actVerify:       ctrlShift(fyne.KeyV),
	actBackup:       ctrl(fyne.KeyB),
	actContinue:     ctrlShift(fyne.KeyO),
	actBroadcast:    ctrlShift(fyne.KeyU),
	actStations:     ctrlShift(fyne.KeyI),
	actEngine:       ctrl(fyne.KeyH),
}

// shortcutText is how a shortcut is written in the help dialog, a flag's
// notice and button, in the console's language (the docs write it in English).
func shortcutText(s fyne.Shortcut) string {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok || cs == nil {
		return ""
	}
	// the keys' names in the console's language (German Strg+,
	// Umschalt+), as its texts name them; Fyne's menus draw their own
	// (Ctrl+, not to be changed: docs/console.md)
	t := ""
	if cs.Modifier&fyne.KeyModifierShortcutDefault != 0 {
		t += translate("Ctrl+")
	}
	if cs.Modifier&fyne.KeyModifierShift != 0 {
		t += translate("Shift+")
	}
	k := string(cs.KeyName)
	switch cs.KeyName {
	case fyne.KeyEqual:
		k = "="
	case fyne.KeyMinus:
		k = "-"
	case fyne.KeySlash:
		k = "/"
	}
	return t + k
}
