package clock

import "arbiter/internal/phrase"

// The clock refuses with a code and its arguments (issue 25: one way to
// refuse), like every package that refuses: each face says it in its own
// words from the shared dictionary (assets/translations, keyed by the code),
// the console in English or German. Error() is the English of the table
// below, which en.json holds under the same code
// (TestEveryClockRefusalHasItsWordsInBothDictionaries).

// Code is a clock refusal's code.
type Code string

// The clock's refusals.
const (
	CodeNotAWholeNumber      Code = "clock-not-a-whole-number"
	CodeNumberTooLarge       Code = "clock-number-too-large"
	CodePeriodMustStandAlone Code = "clock-period-must-stand-alone"
	CodePerMoveBad           Code = "clock-per-move-bad"
	CodeMoveCountBad         Code = "clock-move-count-bad"
	CodeMoveCountZero        Code = "clock-move-count-zero"
	CodeSecondsBad           Code = "clock-seconds-bad"
	CodeRunsBack             Code = "clock-never-runs-back"
	CodeNotASideNumber       Code = "clock-not-a-side-number"
	CodeRunningPauseFirst    Code = "clock-running-pause-first"
	CodeRunning              Code = "clock-running"
	CodeOrPreset             Code = "clock-or-preset"
	CodeNotAPreset           Code = "clock-not-a-preset"
	CodeNotASide             Code = "clock-not-a-side"
	CodeNotASideJSON         Code = "clock-not-a-side-json"
	CodeNotASideText         Code = "clock-not-a-side-text"
	CodeCannotPress          Code = "clock-cannot-press"
	CodePeriodCount          Code = "clock-period-count"
	CodeAddUntimed           Code = "clock-add-untimed"
	CodeCannotAdd            Code = "clock-cannot-add"
	CodeCannotPause          Code = "clock-cannot-pause"
	CodeCannotBothFlags      Code = "clock-cannot-both-flags"
	CodeBothFlagsNotStarted  Code = "clock-both-flags-not-started"
	CodeCannotResume         Code = "clock-cannot-resume"
	CodeNegativeMoves        Code = "clock-negative-moves"
	CodePeriodRange          Code = "clock-period-range"
	CodePeriodNegative       Code = "clock-period-negative"
	CodeNegativeTime         Code = "clock-negative-time"
	CodeSetUntimed           Code = "clock-set-untimed"
	CodeCannotSetMoves       Code = "clock-cannot-set-moves"
	CodeCannotSetPeriod      Code = "clock-cannot-set-period"
	CodeCannotSetTime        Code = "clock-cannot-set-time"
	CodeCannotStart          Code = "clock-cannot-start"
	CodeCannotStop           Code = "clock-cannot-stop"
	CodeTakeTooMuch          Code = "clock-take-too-much"
	CodeControlMode          Code = "clock-control-mode"
	CodeAllMovesNotLast      Code = "clock-all-moves-not-last"
	CodePerMoveInvalid       Code = "clock-per-move-invalid"
	CodeMethodInvalid        Code = "clock-method-invalid"
	CodeMovesOutOfRange      Code = "clock-moves-out-of-range"
	CodePeriodTime           Code = "clock-period-time"
	CodeTimeControl          Code = "clock-time-control"
	CodeEmptyPeriod          Code = "clock-empty-period"
	CodeUntimedPeriods       Code = "clock-untimed-periods"
	CodeAlreadyStarted       Code = "clock-already-started"
	CodeMissing              Code = "clock-missing"
	CodeNoneRunning          Code = "clock-none-running"
	CodeSandclock            Code = "clock-sandclock"
	CodeNotStarted           Code = "clock-not-started"
	CodeAlreadyStopped       Code = "clock-already-stopped"
	CodeStoppedAtEnd         Code = "clock-stopped-at-end"
	CodePaused               Code = "clock-paused"
	CodeTooManyPeriods       Code = "clock-too-many-periods"
	CodeEmpty                Code = "clock-empty"
	CodeNothingAfterAll      Code = "clock-nothing-after-all"
	CodeFirstNoTime          Code = "clock-first-no-time"
)

// english are the refusals' English words (the shared dictionary's).
var english = phrase.Table[Code]{
	CodeNotAWholeNumber:      "%q is not a whole number",
	CodeNumberTooLarge:       "%q is too large (at most %d)",
	CodePeriodMustStandAlone: "%q must stand alone, not as one period among others",
	CodePerMoveBad:           "%q: the %s after %q %v",
	CodeMoveCountBad:         "%q: the move count %v",
	CodeMoveCountZero:        "%q: the move count must be at least 1",
	CodeSecondsBad:           "%q: the time in seconds %v",
	CodeRunsBack:             "%s is before the last clock operation at %s, and clock time never runs back",
	CodeNotASideNumber:       "%v is not a side (White is 0, Black is 1)",
	CodeRunningPauseFirst:    "%v's clock is already running; pause it first",
	CodeRunning:              "%v's clock is running",
	CodeOrPreset:             "%v (or use a preset: %s)",
	CodeNotAPreset:           "clock: %q is not a preset: use one of %s, or write a PGN TimeControl such as 40/7200:20/3600:1800",
	CodeNotASide:             "clock: %q is not a side; write \"white\" (or \"w\") or \"black\" (or \"b\")",
	CodeNotASideJSON:         "clock: %q is not a side; write \"white\" or \"black\"",
	CodeNotASideText:         "clock: %s is not a side",
	CodeCannotPress:          "clock: %v cannot press: %v",
	CodePeriodCount:          "clock: a timed control needs between 1 and %d periods",
	CodeAddUntimed:           "clock: cannot add time for %v: %v plays without a time control",
	CodeCannotAdd:            "clock: cannot add time: %v",
	CodeCannotPause:          "clock: cannot pause: %v",
	CodeCannotBothFlags:      "clock: cannot record both flags fallen: %v",
	CodeBothFlagsNotStarted:  "clock: cannot record both flags fallen: the clock has not been started",
	CodeCannotResume:         "clock: cannot resume %v's clock: %v",
	CodeNegativeMoves:        "clock: cannot set %v's move count to %d: it cannot be negative",
	CodePeriodRange:          "clock: cannot set %v's period to %d: %v's control has periods 0 to %d only",
	CodePeriodNegative:       "clock: cannot set %v's period to %d: periods are counted from 0",
	CodeNegativeTime:         "clock: cannot set %v's time to %v: a clock cannot show negative time",
	CodeSetUntimed:           "clock: cannot set %v's time: %v plays without a time control",
	CodeCannotSetMoves:       "clock: cannot set the move count: %v",
	CodeCannotSetPeriod:      "clock: cannot set the period: %v",
	CodeCannotSetTime:        "clock: cannot set the time: %v",
	CodeCannotStart:          "clock: cannot start: %v",
	CodeCannotStop:           "clock: cannot stop: %v",
	CodeTakeTooMuch:          "clock: cannot take %v from %v: only %v remain",
	CodeControlMode:          "clock: control mode %d is not valid",
	CodeAllMovesNotLast:      "clock: period %d is for all moves but is not the last",
	CodePerMoveInvalid:       "clock: period %d: %v with %v per move is not valid",
	CodeMethodInvalid:        "clock: period %d: method %d is not valid",
	CodeMovesOutOfRange:      "clock: period %d: move count %d is out of range",
	CodePeriodTime:           "clock: period %d: time %v is not a positive whole number of seconds",
	CodeTimeControl:          "clock: time control %q: %v",
	CodeEmptyPeriod:          "a period is empty (two ':' in a row, or a ':' at an end); remove the extra ':'",
	CodeUntimedPeriods:       "clock: an untimed or unknown control has no periods",
	CodeAlreadyStarted:       "clock: cannot start: the clock has already been started",
	CodeMissing:              "is missing",
	CodeNoneRunning:          "no clock is running",
	CodeSandclock:            "sandclock (hourglass) controls are not supported; use a moves/seconds or seconds+increment control",
	CodeNotStarted:           "the clock has not been started",
	CodeAlreadyStopped:       "the clock is already stopped",
	CodeStoppedAtEnd:         "the clock was stopped at the end of the game",
	CodePaused:               "the clocks are paused; resume the clock first",
	CodeTooManyPeriods:       "it has %d periods; at most %d are supported",
	CodeEmpty:                "it is empty; write e.g. 40/7200:20/3600:1800, 5400+30, \"-\" (untimed) or \"?\" (unknown)",
	CodeNothingAfterAll:      "period %d (%q) is for all remaining moves, so nothing can follow it; give it a move count like 40/%s",
	CodeFirstNoTime:          "the first period has no time; give it some seconds, e.g. 40/7200",
}

// Codes lists the clock's refusals.
func Codes() []Code { return english.Codes() }

// English is the English format of code's words.
func English(code Code) string { return english[code] }

// refuse is the refusal code with its arguments; its Error() is the
// English words.
func refuse(code Code, args ...any) error { return english.Refuse(code, args...) }

// ErrorCode is the code of the clock's refusal in err's chain ("" if none).
func ErrorCode(err error) Code { return english.CodeIn(err) }

// word is the side's name as a word a dictionary translates.
func (s Side) word() phrase.Word { return phrase.Word(s.name()) }
