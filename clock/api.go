// Package clock is the official chess clock of a match, as an immutable value.
//
// A Clock is a plain value: every operation takes the instant it happens at and
// returns a new Clock (or an error, leaving the old value valid). Reading the
// remaining time, the flag state or the display at an instant is pure. Nothing
// in this package reads the wall clock, starts goroutines or sets timers.
//
// The rules, in short (FIDE Laws, Article 6, the edition of the 1996 match):
//
//   - New shows each side its first period's time; Start runs White's clock
//     (6.5); Press completes the presser's move and runs the opponent's (6.7).
//   - A period ends when that player completes its last move (move 40, then
//     60, for 40/7200:20/3600:1800); the next period's time is then added to
//     what is left (6.2). A final period with a move count repeats.
//   - A Fischer increment is credited after every completed move, never
//     before move 1, at the rate of the period the move was made in.
//   - With a delay D (simple or Bronstein) a turn of running time t costs
//     max(0, t−D): unused delay is never banked (6.2 "except in delay mode").
//   - A flag falls at the exact instant the main time reaches zero; a press
//     at that instant is late. After a flag no time is credited automatically,
//     except that after Article 6.11 (BothFlagsOrderUnknown) completing the
//     period still credits the next period's time.
//   - Pause keeps the turn open (6.12); corrections (SetRemaining, AddTime,
//     SetMoves, SetPeriod, BothFlagsOrderUnknown) are allowed at any time.
//   - Instants never run back: an operation before the last one is refused.
//
// The full specification, with the decisions taken where clocks differ, is
// docs/clock.md.
package clock

import "time"

// Side is one of the two players' displays.
type Side uint8

const (
	White Side = 0
	Black Side = 1
)

// Method is the per-move time method of a period.
type Method uint8

const (
	MethodNone  Method = iota // no time per move
	Fischer                   // increment added after each completed move
	Bronstein                 // delay: the used part of the delay is given back at the press
	SimpleDelay               // US delay: main time does not run for the first PerMove of a turn
)

// Period is one stage of a time control.
type Period struct {
	Moves    int           // moves to complete in this period; 0 = all remaining moves
	Duration time.Duration // main time added when the period begins
	Method   Method
	PerMove  time.Duration // the increment or delay of Method
}

// Mode tells whether a control is timed.
type Mode uint8

const (
	Timed   Mode = iota
	Untimed      // PGN "-"
	Unknown      // PGN "?"
)

// Control is one player's time control: a list of periods, the last of which
// repeats when it has a move count.
type Control struct {
	Mode    Mode
	Periods []Period
}

// Flag describes whether a side's time has run out.
type Flag struct {
	Fallen   bool
	At       time.Time // exact instant the time reached zero; zero when unknown
	Moves    int       // moves the side had completed when it fell
	Required int       // cumulative moves the passed control required; 0 = all moves
	// OrderUnknown: the flag is one of the two of an Article 6.11 finding
	// (BothFlagsOrderUnknown). Such a flag can never be claimed; it goes
	// only when the side's next period is credited or a correction gives
	// the side time again.
	OrderUnknown bool
}

// RequiredDone reports whether the side had completed the required moves when
// its flag fell (Article 6.3).
func (f Flag) RequiredDone() bool { return f.Required > 0 && f.Moves >= f.Required }

// DisplayOptions configures Display.
type DisplayOptions struct {
	// TenthsBelow shows tenths of seconds when the time shown is below this; 0 means 10s, negative never.
	TenthsBelow time.Duration
}
