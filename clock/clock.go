package clock

import (
	"time"
)

// Clock is the state of both displays of a chess clock. It is a value: every
// operation returns a new Clock and leaves the receiver untouched, so a copy
// is a snapshot. The zero Clock is not useful; use New.
//
// Time is never read from the system: every operation and read takes the
// instant it refers to. The time shown on the running display is derived
// from the instant its clock started running, not stored per tick.
type Clock struct {
	ctl  [2]Control // shared, never mutated
	side [2]sideState

	last time.Time // instant of the last operation; operations before it are refused

	// The one-byte fields side by side, in one word: a Clock is copied
	// with its game at every move (docs/performance.md, "Move and commit,
	// thirteenth pass").
	state state
	// The open turn: the side whose move is being thought about. The turn stays
	// open while the clocks are paused, so that the delay not yet used is kept.
	turnOpen  bool
	turn      Side
	turnMeth  Method        // the delay method of this turn, or MethodNone
	segStart  time.Time     // when turn's clock last started running
	turnPrev  time.Duration // running time of the turn before segStart (pauses excluded)
	turnR0    time.Duration // main time at the start of the turn (rebased by corrections)
	turnDelay time.Duration // the delay D of this turn (0 unless a delay method applies)
}

type sideState struct {
	remaining time.Duration // main time while this side has no open turn
	used      time.Duration // time charged on closed turns
	ran       time.Duration // running time of closed turns (delays included, pauses excluded)
	credit    time.Duration // net bonuses and corrections
	moves     int           // completed moves
	period    int           // current period, 0-based
	flag      Flag
}

type state uint8

const (
	notStarted state = iota
	running
	paused
	stopped
)

// New returns a clock for the two controls, not started: each display shows
// the Duration of its first period (0 for an untimed or unknown control).
// The controls' period slices are shared by every copy and must not be
// modified afterwards.
func New(white, black Control) Clock {
	c := Clock{ctl: [2]Control{white, black}}
	for s := range c.side {
		if c.ctl[s].timed() {
			c.side[s].remaining = c.ctl[s].PeriodAt(0).Duration
		}
	}
	return c
}

// --- reads -----------------------------------------------------------------

// Started reports whether Start has been called.
func (c Clock) Started() bool { return c.state != notStarted }

// Last is the instant of the last operation (zero before the first): no
// later operation may be earlier.
func (c Clock) Last() time.Time { return c.last }

// Stopped reports whether Stop has been called.
func (c Clock) Stopped() bool { return c.state == stopped }

// Running returns the side whose clock runs, if any.
func (c Clock) Running() (Side, bool) {
	if c.state == running {
		return c.turn, true
	}
	return 0, false
}

// RunningSince returns the instant from which the running side's clock
// has run without a stop (its turn's start, or the resume after a pause),
// if a clock runs.
func (c Clock) RunningSince() (time.Time, bool) {
	if c.state == running {
		return c.segStart, true
	}
	return time.Time{}, false
}

// elapsed returns the running time of the open turn at instant at. Reads at
// an instant before the current run began count as the run's start.
func (c *Clock) elapsed(at time.Time) time.Duration {
	t := c.turnPrev
	if c.state == running {
		if d := at.Sub(c.segStart); d > 0 {
			t += d
		}
	}
	return t
}

// charged returns the part of a turn's running time t that is taken from the
// main time: all of it beyond the delay.
func (c *Clock) charged(t time.Duration) time.Duration {
	if t > c.turnDelay {
		return t - c.turnDelay
	}
	return 0
}

// Remaining returns side's main time at instant at, never below 0. During a
// delay this is the time the press would leave (before any increment).
func (c Clock) Remaining(side Side, at time.Time) time.Duration {
	r := c.remaining(side&1, at)
	if r < 0 {
		return 0
	}
	return r
}

// remaining is Remaining without the clamp at zero.
func (c *Clock) remaining(side Side, at time.Time) time.Duration {
	if !c.ctl[side].timed() {
		return 0
	}
	if c.turnOpen && c.turn == side {
		return c.turnR0 - c.charged(c.elapsed(at))
	}
	return c.side[side].remaining
}

// Used returns the thinking time charged to side up to instant at, including
// the open turn. Delay time a player did not have to pay is not counted;
// increments and bonuses are not subtracted. Time keeps being counted after a
// flag has fallen.
func (c Clock) Used(side Side, at time.Time) time.Duration {
	side &= 1
	u := c.side[side].used
	if c.turnOpen && c.turn == side {
		u += c.charged(c.elapsed(at))
	}
	return u
}

// Ran returns the running time of side's clock up to instant at, including
// the open turn: the time its clock ran, delays included and time with the
// clocks stopped excluded. Unlike Used it counts the part of a turn that a
// delay did not charge. The difference of two readings taken at side's
// consecutive presses is the running time of the move ([%emt]).
func (c Clock) Ran(side Side, at time.Time) time.Duration {
	side &= 1
	r := c.side[side].ran
	if c.turnOpen && c.turn == side {
		r += c.elapsed(at)
	}
	return r
}

// Credit returns side's net time from AddTime and from the changes
// SetRemaining made; positive when the player was given time.
func (c Clock) Credit(side Side) time.Duration { return c.side[side&1].credit }

// Moves returns how many moves side has completed (pressed the clock after).
func (c Clock) Moves(side Side) int { return c.side[side&1].moves }

// Period returns side's current period, 0-based.
func (c Clock) Period(side Side) int { return c.side[side&1].period }

// MovesToControl returns how many moves side must still complete in its
// current period (never below 0), and false when the period is for all
// remaining moves or the control is untimed.
func (c Clock) MovesToControl(side Side) (int, bool) {
	side &= 1
	s := &c.side[side]
	mt := c.ctl[side].MovesThrough(s.period)
	if mt == 0 || !c.ctl[side].timed() {
		return 0, false
	}
	if mt < s.moves {
		return 0, true
	}
	return mt - s.moves, true
}

// Control returns side's time control. Its Periods slice is shared: do not
// modify it.
func (c Clock) Control(side Side) Control { return c.ctl[side&1] }

// FlagAt returns the exact instant side's time reaches zero: for a side whose
// clock is running it is computed (and may lie in the future); for any other
// side it is known only if its flag has already fallen.
func (c Clock) FlagAt(side Side) (time.Time, bool) {
	side &= 1
	if f := c.side[side].flag; f.Fallen {
		return f.At, !f.At.IsZero()
	}
	if c.state == running && c.turn == side && c.ctl[side].timed() {
		return c.flagInstant(), true
	}
	return time.Time{}, false
}

// flagInstant is when the running turn's main time reaches zero: the run
// started at segStart with turnPrev already elapsed; time reaches zero when
// the turn's running time equals turnR0 + turnDelay.
func (c *Clock) flagInstant() time.Time {
	return c.segStart.Add(c.turnR0 + c.turnDelay - c.turnPrev)
}

// Flag returns side's flag state at instant at. A running side whose time ran
// out at or before at is reported fallen, with the computed instant, even if
// no operation has recorded it yet.
func (c Clock) Flag(side Side, at time.Time) Flag {
	side &= 1
	if f := c.side[side].flag; f.Fallen {
		return f
	}
	if t, ok := c.FlagAt(side); ok && !at.Before(t) {
		return c.flagRecord(side, t)
	}
	return Flag{}
}

func (c *Clock) flagRecord(side Side, at time.Time) Flag {
	s := &c.side[side]
	return Flag{Fallen: true, At: at, Moves: s.moves, Required: c.ctl[side].MovesThrough(s.period)}
}

// FirstFlag reports which side's flag fell first as of instant at, among the
// flags that can still be claimed (not those of an Article 6.11 finding).
// ok is false when no flag has fallen. orderUnknown is true when the only
// fallen flags are those of an Article 6.11 finding (BothFlagsOrderUnknown),
// or both flags fell at the same instant; side is then meaningless.
func (c Clock) FirstFlag(at time.Time) (side Side, ok bool, orderUnknown bool) {
	w, b := c.Flag(White, at), c.Flag(Black, at)
	wc, bc := w.Fallen && !w.OrderUnknown, b.Fallen && !b.OrderUnknown
	switch {
	case wc && bc:
		switch {
		case w.At.IsZero() || b.At.IsZero() || w.At.Equal(b.At):
			return White, true, true
		case b.At.Before(w.At):
			return Black, true, false
		}
		return White, true, false
	case wc:
		return White, true, false
	case bc:
		return Black, true, false
	case w.Fallen || b.Fallen:
		return White, true, true
	}
	return White, false, false
}

// --- operations ------------------------------------------------------------

// check reports why an operation for side at instant at is impossible on
// any clock: a side that does not exist, or an instant before the last
// operation. The reason is a clause to follow "clock: cannot <op>: ".
func (c *Clock) check(side Side, at time.Time) error {
	if !side.valid() {
		return refuse(CodeNotASideNumber, side)
	}
	if at.Before(c.last) {
		return refuse(CodeRunsBack,
			at.Format(time.RFC3339Nano), c.last.Format(time.RFC3339Nano))
	}
	return nil
}

// live reports why the clock cannot run: not started, or stopped.
func (c *Clock) live() error {
	switch c.state {
	case notStarted:
		return refuse(CodeNotStarted)
	case stopped:
		return refuse(CodeStoppedAtEnd)
	}
	return nil
}

// settle records the flag of the running side if its time ran out by at.
func (c *Clock) settle(at time.Time) {
	if c.state != running || !c.ctl[c.turn].timed() || c.side[c.turn].flag.Fallen {
		return
	}
	if t := c.flagInstant(); !at.Before(t) {
		c.side[c.turn].flag = c.flagRecord(c.turn, t)
	}
}

// openTurn starts side's turn (a fresh delay) with its clock running from at.
func (c *Clock) openTurn(side Side, at time.Time) {
	c.turnOpen, c.turn = true, side
	c.segStart, c.turnPrev = at, 0
	c.turnR0 = c.side[side].remaining
	c.turnDelay, c.turnMeth = 0, MethodNone
	if p := c.ctl[side].PeriodAt(c.side[side].period); p.Method.isDelay() && c.ctl[side].timed() {
		c.turnDelay, c.turnMeth = p.PerMove, p.Method
	}
	c.state = running
}

// closeTurn charges the open turn at instant at and stores the main time it
// leaves (0 if the flag has fallen). It completes no move.
func (c *Clock) closeTurn(at time.Time) *sideState {
	s := &c.side[c.turn]
	t := c.elapsed(at)
	s.used += c.charged(t)
	s.ran += t
	s.remaining = c.turnR0 - c.charged(t)
	if s.flag.Fallen || s.remaining < 0 || !c.ctl[c.turn].timed() {
		s.remaining = 0
	}
	c.turnOpen, c.turnPrev, c.turnR0, c.turnDelay, c.turnMeth = false, 0, 0, 0, MethodNone
	c.segStart = time.Time{}
	return s
}

// Start starts White's clock at instant at (Article 6.5).
func (c Clock) Start(at time.Time) (Clock, error) { return c.StartSide(White, at) }

// StartSide starts side's clock at instant at: Start for a game from a
// position with side to move.
func (c Clock) StartSide(side Side, at time.Time) (Clock, error) {
	if c.state != notStarted {
		return c, refuse(CodeAlreadyStarted)
	}
	if err := c.check(side, at); err != nil {
		return c, refuse(CodeCannotStart, err)
	}
	c.openTurn(side, at)
	c.last = at
	return c, nil
}

// Press is side pressing its clock at instant at (Article 6.7): side's move is
// complete and the opponent's clock starts. side's clock must be the one
// running. Unless side's flag has fallen (a press at the exact instant the
// time runs out is late), the press credits the Fischer increment of the
// period the move was made in and, when the move completes a period, the next
// period's Duration. After a flag fall nothing is credited, but the move still
// counts, the period counter still advances and the clocks still switch. The
// one exception is a flag of an Article 6.11 finding (Flag.OrderUnknown):
// the game goes on under the control, so the move that completes the period
// credits the next period's Duration (no increment) and the flag goes.
func (c Clock) Press(side Side, at time.Time) (Clock, error) {
	err := c.check(side, at)
	if err == nil {
		err = c.live()
	}
	if err == nil && c.state == paused {
		err = refuse(CodePaused)
	}
	if err == nil && c.turn != side {
		err = refuse(CodeRunning, c.turn.word())
	}
	if err != nil {
		return c, refuse(CodeCannotPress, side.word(), err)
	}
	c.settle(at)
	s := c.closeTurn(at)
	ctl := &c.ctl[side]
	p := ctl.PeriodAt(s.period)
	s.moves++
	next := s.period
	if mt := ctl.MovesThrough(s.period); mt > 0 && s.moves >= mt {
		next++
	}
	switch {
	case !s.flag.Fallen && ctl.timed():
		if p.Method == Fischer {
			s.remaining += p.PerMove
		}
		if next != s.period {
			s.remaining += ctl.PeriodAt(next).Duration
		}
	case s.flag.OrderUnknown && next != s.period && ctl.timed():
		s.remaining += ctl.PeriodAt(next).Duration
		if s.remaining > 0 {
			s.flag = Flag{}
		}
	}
	s.period = next
	c.openTurn(side.Other(), at)
	c.last = at
	return c, nil
}

// Pause stops the running clock at instant at (Article 6.12). The turn stays
// open: the time already used and the unused rest of a delay are kept.
func (c Clock) Pause(at time.Time) (Clock, error) {
	err := c.check(White, at)
	if err == nil {
		err = c.live()
	}
	if err == nil && c.state != running {
		err = refuse(CodeNoneRunning)
	}
	if err != nil {
		return c, refuse(CodeCannotPause, err)
	}
	c.settle(at)
	c.turnPrev = c.elapsed(at)
	c.segStart = time.Time{}
	c.state = paused
	c.last = at
	return c, nil
}

// Resume starts side's clock at instant at after a pause (Article 6.12c). If
// side is the player whose turn was paused, the turn continues with the rest
// of its delay; otherwise that turn ends without completing a move and side's
// turn begins afresh.
func (c Clock) Resume(side Side, at time.Time) (Clock, error) {
	err := c.check(side, at)
	if err == nil {
		err = c.live()
	}
	if err == nil && c.state == running {
		err = refuse(CodeRunningPauseFirst, c.turn.word())
	}
	if err != nil {
		return c, refuse(CodeCannotResume, side.word(), err)
	}
	if c.turnOpen && c.turn == side {
		c.segStart = at
		c.state = running
	} else {
		if c.turnOpen {
			c.closeTurn(at)
		}
		c.openTurn(side, at)
	}
	c.last = at
	return c, nil
}

// Stop ends the game's timing at instant at: whichever clock runs stops for
// good, without completing a move. Afterwards only reads and corrections are
// allowed. A clock may be stopped before it was started (a game that never
// began).
func (c Clock) Stop(at time.Time) (Clock, error) {
	err := c.check(White, at)
	if err == nil && c.state == stopped {
		err = refuse(CodeAlreadyStopped)
	}
	if err != nil {
		return c, refuse(CodeCannotStop, err)
	}
	c.settle(at)
	if c.turnOpen {
		c.closeTurn(at)
	}
	c.state = stopped
	c.last = at
	return c, nil
}

// setMain sets side's main time at instant at to d (after check and settle), keeping the
// delay already consumed in an open turn consumed, and updates the credit and
// the flag.
func (c *Clock) setMain(side Side, d time.Duration, at time.Time) {
	s := &c.side[side]
	s.credit += d - c.Remaining(side, at)
	if c.turnOpen && c.turn == side {
		c.turnR0 = d + c.charged(c.elapsed(at))
	} else {
		s.remaining = d
	}
	if d > 0 && s.flag.Fallen {
		s.flag = Flag{}
	}
	c.last = at
}

// SetRemaining sets side's main time to d at instant at (an arbiter's
// correction, Articles 6.10 and 6.13). It is allowed at any time, also while
// side's clock runs and after Stop. A positive d clears side's flag; the
// clock knows nothing of claims, so do not correct a claimed flag away.
func (c Clock) SetRemaining(side Side, d time.Duration, at time.Time) (Clock, error) {
	if err := c.check(side, at); err != nil {
		return c, refuse(CodeCannotSetTime, err)
	}
	if !c.ctl[side].timed() {
		return c, refuse(CodeSetUntimed, side.word(), side.word())
	}
	if d < 0 {
		return c, refuse(CodeNegativeTime, side.word(), d)
	}
	c.settle(at)
	c.setMain(side, d, at)
	return c, nil
}

// AddTime adds d (which may be negative) to side's main time at instant at:
// a bonus, or an arbiter's adjustment. The result must not be negative. A
// positive result clears side's flag.
func (c Clock) AddTime(side Side, d time.Duration, at time.Time) (Clock, error) {
	if err := c.check(side, at); err != nil {
		return c, refuse(CodeCannotAdd, err)
	}
	if !c.ctl[side].timed() {
		return c, refuse(CodeAddUntimed, side.word(), side.word())
	}
	r := c.Remaining(side, at)
	if r+d < 0 {
		return c, refuse(CodeTakeTooMuch, -d, side.word(), r)
	}
	c.settle(at)
	c.setMain(side, r+d, at)
	return c, nil
}

// SetMoves corrects side's completed-move counter at instant at; the period
// becomes PeriodFor(moves). Period time is not credited again: set the time
// separately. A delay already running in an open turn is unchanged.
func (c Clock) SetMoves(side Side, moves int, at time.Time) (Clock, error) {
	if err := c.check(side, at); err != nil {
		return c, refuse(CodeCannotSetMoves, err)
	}
	if moves < 0 {
		return c, refuse(CodeNegativeMoves, side.word(), moves)
	}
	c.settle(at)
	c.side[side].moves = moves
	c.side[side].period = c.ctl[side].PeriodFor(moves)
	c.last = at
	return c, nil
}

// SetPeriod corrects side's current period (0-based) at instant at, without
// changing its time or move counter.
func (c Clock) SetPeriod(side Side, period int, at time.Time) (Clock, error) {
	if err := c.check(side, at); err != nil {
		return c, refuse(CodeCannotSetPeriod, err)
	}
	ctl := c.ctl[side]
	n := len(ctl.Periods)
	repeats := n > 0 && ctl.Periods[n-1].Moves > 0
	switch {
	case period < 0:
		return c, refuse(CodePeriodNegative, side.word(), period)
	case !repeats && period > 0 && period >= n:
		return c, refuse(CodePeriodRange, side.word(), period, side.word(), max(n-1, 0))
	}
	c.settle(at)
	c.side[side].period = period
	c.last = at
	return c, nil
}

// BothFlagsOrderUnknown records at instant at that both flags have fallen and
// it cannot be established which fell first (Article 6.11). Both flags are
// marked OrderUnknown (never to be claimed); a flag that had fallen keeps
// its instant. A side whose flag had not yet fallen on this clock is marked
// fallen with an unknown instant and its time set to 0. The clocks keep
// running: the game continues, and the move that completes a side's period
// credits its next period (Press).
func (c Clock) BothFlagsOrderUnknown(at time.Time) (Clock, error) {
	if err := c.check(White, at); err != nil {
		return c, refuse(CodeCannotBothFlags, err)
	}
	if c.state == notStarted {
		return c, refuse(CodeBothFlagsNotStarted)
	}
	c.settle(at)
	for _, side := range [2]Side{White, Black} {
		s := &c.side[side]
		if s.flag.Fallen {
			s.flag.OrderUnknown = true
			continue
		}
		rec := c.flagRecord(side, time.Time{})
		if c.ctl[side].timed() {
			c.setMain(side, 0, at)
		}
		rec.OrderUnknown = true
		s.flag = rec
	}
	c.last = at
	return c, nil
}
