package match

// Position resets: rule 10 (an operator's error) and Article 6.13 (an
// irregularity).
//
// Ply N (1-based) was the mistaken move. The position immediately before
// ply N is restored; plies N and later stay in the record as struck out;
// each side's move counter becomes m_err, the moves it had completed before
// ply N, and its clock is set by one of four methods:
//
//	record        remaining = Allotment(m_err) + bonuses − used_N
//	              used_N: the time the side had used at the instant ply N
//	              was completed, from the record. The credit ply N's own
//	              press earned (e.g. the hour at move 40) is not kept: the
//	              move will be made again. Ply N's own thinking time is
//	              charged to its side: rule 10's "proper times" are those
//	              of the position immediately before the mistake, and both
//	              mistakes it names (relaying Kasparov's move, making Deep
//	              Blue's on the board) come after that move was found.
//	proportional  used' = used × m_made / m_disc (rule 10), where used is
//	              the thinking time at discovery, m_disc the moves
//	              completed at discovery and m_made the moves "made ... up
//	              to the time the error was made": m_err, and ply N too
//	              for the human when ply N is his move (relayed wrongly
//	              after he made it); remaining = Allotment(m_err) +
//	              bonuses − used'. Unchanged when m_disc is 0. Refused when
//	              negative for either side, showing the figure.
//	keep          the readings and periods stay as they are
//	set           the readings the arbiter gives
//
// Allotment(m) is the time the control has credited after m moves (clock.
// Control.Allotment); "bonuses" are every bonus and arbiter addition given
// before the correction (earlier position resets excluded). The computed
// readings are stored in the event, so a replay never recomputes them.
// After the reset the clocks stand still; 'resume' starts the clock of the
// side to move in the restored position. With cause operator-error the
// human then receives the 5-minute recovery bonus (rule 10) unless waived;
// an irregularity (6.13) gives none.

import (
	"fmt"
	"slices"
	"time"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/store"
)

// Correction methods and causes.
const (
	MethodRecord       = "record"
	MethodProportional = "proportional"
	MethodKeep         = "keep"
	MethodSet          = "set"

	CauseOperatorError = "operator-error"
	CauseIrregularity  = "irregularity"
)

// MethodEffect is what a correction's method does to the clocks, in the
// English words a face's dictionary translates ("clocks kept"); an unknown
// method is returned as it is.
func MethodEffect(method string) string {
	switch method {
	case MethodRecord:
		return "clocks from the record"
	case MethodProportional:
		return "clocks proportional (rule 10)"
	case MethodKeep:
		return "clocks kept"
	case MethodSet:
		return "clocks set by the arbiter"
	}
	return method
}

// CorrectionMethods lists the methods in the order the dialog shows them.
var CorrectionMethods = []string{MethodRecord, MethodProportional, MethodKeep, MethodSet}

// ClockSetting is what a correction sets on one side's clock.
type ClockSetting struct {
	Remaining time.Duration
	Moves     int // completed moves
	Period    int // 1-based
}

// CorrectionOutcome is the result of one method.
type CorrectionOutcome struct {
	Method   string
	Sides    [2]ClockSetting // indexed by clock.Side
	Possible bool
	Why      *phrase.Error    // when not possible: one sentence with the figure
	Working  [2]*phrase.Error // how each side's reading was obtained
}

// CorrectionOptions is everything the arbiter weighs before a position
// reset: the restored position, the figures of both sides and the four
// outcomes side by side.
type CorrectionOptions struct {
	Ply      int
	Mistake  string   // the mistaken move, e.g. "31. Nf3"
	Struck   []string // labels of the plies struck out
	FEN      string   // the restored position
	ToMove   clock.Side
	MovesErr [2]int // m_err: moves completed before ply N
	MovesNow [2]int // m_disc: moves completed at discovery
	// MovesMade is rule 10's "number of moves made by that player up to
	// the time the error was made", the proportional method's numerator:
	// MovesErr, and ply N itself for the human when ply N is his move (the
	// operator relayed it wrongly after he had made it on the board).
	MovesMade  [2]int
	UsedErr    [2]time.Duration // used when ply N was completed
	UsedNow    [2]time.Duration // used at discovery
	Bonuses    [2]time.Duration // bonuses and arbiter additions in force
	Readings   [2]time.Duration // the clocks now
	Human      string           // who would receive the rule-10 bonus ("" without a computer)
	HumanSide  clock.Side
	Outcomes   []CorrectionOutcome // record, proportional, keep, set (set shows the current readings, to be edited)
	AtInstant  time.Time
	GameNumber int
}

// Outcome returns the outcome of a method.
func (o CorrectionOptions) Outcome(method string) (CorrectionOutcome, bool) {
	for _, oc := range o.Outcomes {
		if oc.Method == method {
			return oc, true
		}
	}
	return CorrectionOutcome{}, false
}

// CorrectionPreview computes, without writing anything, what resetting the
// game in progress to the position before ply would do by each method at
// instant at. The GUI shows the four outcomes side by side.
func CorrectionPreview(st *State, ply int, at time.Time) (CorrectionOptions, error) {
	g := st.CurrentGame()
	if st.Match == nil || g == nil || !g.Live() {
		return CorrectionOptions{}, refuseAs(CodeNoGameToReset)
	}
	return correctionOptions(st.Match, g, ply, at)
}

func correctionOptions(m *Match, g *Game, ply int, at time.Time) (CorrectionOptions, error) {
	var o CorrectionOptions
	if g.Pressed != nil {
		return o, refuseAs(CodePressedRecordFirst, colour(*g.Pressed))
	}
	entries := g.Sheet.Entries()
	if len(entries) == 0 {
		return o, refuseAs(CodeNoMovesYet, g.Number) // not "choose a ply from 1 to 0"
	}
	if ply < 1 || ply > len(entries) {
		return o, refuseAs(CodeNoSuchPly, ply, g.Number, len(entries), len(entries))
	}
	o = CorrectionOptions{Ply: ply, Mistake: entries[ply-1].Label(), AtInstant: at, GameNumber: g.Number}
	for _, e := range entries[ply-1:] {
		o.Struck = append(o.Struck, e.Label())
	}
	probe := g.Sheet.Clone()
	if _, err := probe.TakeBack(ply); err != nil {
		return o, refuseAs(CodeCannotTakeBack, err)
	}
	o.FEN = probe.FEN()
	o.ToMove = sideOfColor(probe.ToMove())
	for i, e := range entries {
		s := sideOfColor(e.Color)
		o.MovesNow[s]++
		o.UsedNow[s] += e.Used
		if i < ply-1 {
			o.MovesErr[s]++
		}
		if i < ply {
			o.UsedErr[s] += e.Used
		}
	}
	for _, s := range []clock.Side{clock.White, clock.Black} {
		// a game from a position counts the moves made before it
		o.MovesNow[s] += g.startMoves[s]
		o.MovesErr[s] += g.startMoves[s]
		// The turn in progress at discovery (the mover's time since its
		// last completed move).
		o.UsedNow[s] += g.Clock.Used(s, at) - g.usedMark[s]
		o.Bonuses[s] = g.Clock.Credit(s) - g.corrCredit[s]
		o.Readings[s] = g.Clock.Remaining(s, at)
	}
	if m.Computer != "" {
		if hs, ok := g.Side(m.Human()); ok {
			o.Human, o.HumanSide = m.Human(), hs
		}
	}
	o.MovesMade = o.MovesErr
	if o.Human != "" && sideOfColor(entries[ply-1].Color) == o.HumanSide {
		o.MovesMade[o.HumanSide]++
	}
	o.Outcomes = []CorrectionOutcome{o.record(g), o.proportional(g), o.keep(g), o.set(g, o.Readings)}
	return o, nil
}

func (o *CorrectionOptions) base(g *Game, method string) CorrectionOutcome {
	oc := CorrectionOutcome{Method: method, Possible: true}
	for _, s := range []clock.Side{clock.White, clock.Black} {
		ctl := g.Clock.Control(s)
		oc.Sides[s] = ClockSetting{Moves: o.MovesErr[s], Period: ctl.PeriodFor(o.MovesErr[s]) + 1}
	}
	return oc
}

// refuseNegative marks an outcome impossible when a side would get negative time.
func (oc *CorrectionOutcome) refuseNegative(what phrase.Word) {
	for _, s := range []clock.Side{clock.White, clock.Black} {
		if r := oc.Sides[s].Remaining; r < 0 && oc.Possible {
			oc.Possible = false
			oc.Why = phrase.Errorf("%s gives %s %s (%s): choose another method", what, colour(s), clock.FormatReading(r), oc.Working[s])
		}
	}
}

func (o *CorrectionOptions) record(g *Game) CorrectionOutcome {
	oc := o.base(g, MethodRecord)
	for _, s := range []clock.Side{clock.White, clock.Black} {
		allot := g.allotment(s, o.MovesErr[s])
		r := allot + o.Bonuses[s] - o.UsedErr[s]
		oc.Sides[s].Remaining = r
		oc.Working[s] = phrase.Errorf("allotment after %d moves %s + bonuses %s − used to ply %d %s = %s",
			o.MovesErr[s], clock.FormatReading(allot), clock.FormatReading(o.Bonuses[s]), o.Ply, clock.FormatReading(o.UsedErr[s]), clock.FormatReading(r))
	}
	oc.refuseNegative("the record")
	return oc
}

func (o *CorrectionOptions) proportional(g *Game) CorrectionOutcome {
	oc := o.base(g, MethodProportional)
	for _, s := range []clock.Side{clock.White, clock.Black} {
		if o.MovesNow[s] == g.startMoves[s] {
			oc.Sides[s].Remaining = o.Readings[s]
			oc.Sides[s].Period = g.Clock.Period(s) + 1
			oc.Working[s] = phrase.Errorf("no move completed at discovery: unchanged at %s", clock.FormatReading(o.Readings[s]))
			continue
		}
		// the proportion is of the moves made in this game (a game from a
		// position has used no time on the moves before it)
		errIn, nowIn := o.MovesMade[s]-g.startMoves[s], o.MovesNow[s]-g.startMoves[s]
		used := time.Duration(int64(o.UsedNow[s]) * int64(errIn) / int64(nowIn))
		allot := g.allotment(s, o.MovesErr[s])
		r := allot + o.Bonuses[s] - used
		oc.Sides[s].Remaining = r
		oc.Working[s] = phrase.Errorf("used %s × %d/%d = %s; allotment after %d moves %s + bonuses %s − %s = %s",
			clock.FormatReading(o.UsedNow[s]), errIn, nowIn, clock.FormatReading(used),
			o.MovesErr[s], clock.FormatReading(allot), clock.FormatReading(o.Bonuses[s]), clock.FormatReading(used), clock.FormatReading(r))
	}
	oc.refuseNegative("the proportional method (rule 10)")
	return oc
}

// allotment is all the time side's clock was credited automatically after
// moves moves: the control's Allotment, and for a game from a position the
// clock it started with plus what the control credited since.
func (g *Game) allotment(s clock.Side, moves int) time.Duration {
	ctl := g.Clock.Control(s)
	if g.startMoves == [2]int{} && g.startClock == [2]time.Duration{} {
		return ctl.Allotment(moves)
	}
	return g.startClock[s] + ctl.Allotment(moves) - ctl.Allotment(g.startMoves[s])
}

func (o *CorrectionOptions) keep(g *Game) CorrectionOutcome {
	oc := o.base(g, MethodKeep)
	for _, s := range []clock.Side{clock.White, clock.Black} {
		oc.Sides[s].Remaining = o.Readings[s]
		// The time of a period already begun stays credited: so does the period.
		oc.Sides[s].Period = g.Clock.Period(s) + 1
		oc.Working[s] = phrase.Errorf("unchanged at %s, period %d", clock.FormatReading(o.Readings[s]), oc.Sides[s].Period)
	}
	return oc
}

func (o *CorrectionOptions) set(g *Game, r [2]time.Duration) CorrectionOutcome {
	oc := o.base(g, MethodSet)
	for _, s := range []clock.Side{clock.White, clock.Black} {
		oc.Sides[s].Remaining = r[s]
		oc.Working[s] = phrase.Errorf("set by the arbiter to %s", clock.FormatReading(r[s]))
	}
	return oc
}

// Correct resets the game in progress to the position before Ply ('correct';
// rule 10, Article 6.13) and sets the clocks by Method (see the file
// comment). The clocks are left stopped. Result.Correction tells the
// figures.
type Correct struct {
	Ply    int           `json:"ply"`
	Method string        `json:"method"`             // record | proportional | keep | set
	White  time.Duration `json:"white_ns,omitempty"` // the readings for set
	Black  time.Duration `json:"black_ns,omitempty"`
	Cause  string        `json:"cause,omitempty"` // operator-error (default) | irregularity
	// NoBonus waives the rule-10 recovery bonus.
	NoBonus bool   `json:"no_bonus,omitempty"`
	Reason  string `json:"reason"`
}

func (Correct) Kind() string { return "correct" }

// Validate checks the reason, the cause, the method and its readings.
func (args Correct) Validate() error {
	if err := checkText("the reason", args.Reason, true); err != nil {
		return refuseAs(CodeCorrectNeedsReason)
	}
	if _, err := args.rule(); err != nil {
		return err
	}
	if !slices.Contains(CorrectionMethods, args.Method) {
		return refuseAs(CodeNotAMethod, args.Method)
	}
	if args.Method != MethodSet && (args.White != 0 || args.Black != 0) {
		return refuseAs(CodeReadingsGoWithSet)
	}
	if args.Method == MethodSet && (args.White <= 0 || args.Black <= 0) {
		return refuseAs(CodeSetNeedsReadings)
	}
	return nil
}

// cause is the cause given, operator-error when none is.
func (args Correct) cause() string {
	if args.Cause == "" {
		return CauseOperatorError
	}
	return args.Cause
}

// rule is the rule the correction's cause invokes.
func (args Correct) rule() (string, error) {
	switch args.cause() {
	case CauseOperatorError:
		return "rule 10", nil
	case CauseIrregularity:
		return "6.13", nil
	}
	return "", refuseAs(CodeNotACorrectionCause, args.Cause)
}

// CorrectResult tells what a correction did.
type CorrectResult struct {
	Options   CorrectionOptions
	Outcome   CorrectionOutcome
	Bonus     time.Duration // given to BonusTo, who has BonusSide
	BonusTo   string
	BonusSide clock.Side
}

// CorrectSide is one side's setting in a correct event.
type CorrectSide struct {
	RemainingNS int64 `json:"remaining_ns"`
	Moves       int   `json:"moves"`
	Period      int   `json:"period"` // 1-based
}

// CorrectPayload is a position reset with the clock settings computed when
// the command was given.
type CorrectPayload struct {
	Ply    int         `json:"ply"`
	Method string      `json:"method"`
	Cause  string      `json:"cause"`
	Reason string      `json:"reason"`
	White  CorrectSide `json:"white"`
	Black  CorrectSide `json:"black"`
	Struck []string    `json:"struck"`
}

func (args Correct) run(t *tx, out *Result) error {
	var res CorrectResult
	if err := t.require("correct", RoleArbiter); err != nil {
		return err
	}
	if err := args.Validate(); err != nil {
		return err
	}
	cause := args.cause()
	rule, _ := args.rule()
	g, err := t.live()
	if err != nil {
		return err
	}
	opts, err := correctionOptions(t.st.Match, g, args.Ply, t.cmd.At)
	if err != nil {
		return err
	}
	oc, _ := opts.Outcome(args.Method)
	if args.Method == MethodSet {
		oc = opts.set(g, [2]time.Duration{args.White, args.Black})
	}
	if !oc.Possible {
		return refuseAs(CodeMethodImpossible, oc.Why)
	}
	res.Options, res.Outcome = opts, oc
	out.Correction = &res
	side := func(s clock.Side) CorrectSide {
		x := oc.Sides[s]
		return CorrectSide{RemainingNS: int64(x.Remaining), Moves: x.Moves, Period: x.Period}
	}
	p := CorrectPayload{Ply: args.Ply, Method: args.Method, Cause: cause, Reason: args.Reason,
		White: side(clock.White), Black: side(clock.Black), Struck: opts.Struck}
	if err := t.emit(g.Number, KindCorrect, p); err != nil {
		return err
	}
	if cause != CauseOperatorError || args.NoBonus || opts.Human == "" {
		return nil
	}
	res.Bonus, res.BonusTo, res.BonusSide = RecoveryBonus, opts.Human, opts.HumanSide
	return t.adjust(t.st.Game(g.Number), opts.HumanSide, Adjustment{D: RecoveryBonus}, phrase.Errorf(bonusOperatorError), rule)
}

func applyCorrect(s *State, g *Game, e store.Event) error {
	var p CorrectPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	if g.Sheet == nil || !g.Clock.Started() {
		return fmt.Errorf("game %d has not started", g.Number)
	}
	before := g.clocksAt(e.At)
	c := g.Clock
	var err error
	if _, ok := c.Running(); ok {
		if c, err = c.Pause(e.At); err != nil {
			return err
		}
	}
	if _, err := g.Sheet.TakeBack(p.Ply); err != nil {
		return err
	}
	for _, x := range []struct {
		side clock.Side
		set  CorrectSide
	}{{clock.White, p.White}, {clock.Black, p.Black}} {
		before := c.Credit(x.side)
		if c, err = c.SetMoves(x.side, x.set.Moves, e.At); err != nil {
			return err
		}
		if c, err = c.SetPeriod(x.side, x.set.Period-1, e.At); err != nil {
			return err
		}
		if c, err = c.SetRemaining(x.side, time.Duration(x.set.RemainingNS), e.At); err != nil {
			return err
		}
		g.corrCredit[x.side] += c.Credit(x.side) - before
	}
	g.Clock = c
	g.markUsed(e.At)
	g.State = Paused
	g.Offer, g.OfferNext, g.Pressed = nil, nil, nil
	rule := "rule 10"
	if p.Cause == CauseIrregularity {
		rule = "6.13"
	}
	g.Paused = PauseInfo{Reason: "position reset (" + rule + "): the arbiter resumes", By: Role(e.Role), ToMove: g.ToMove()}
	var text *phrase.Error
	if len(p.Struck) > 0 {
		// the mistaken move by its label, as the console's confirmation and
		// the command line say it, beside its ply
		format := "position before %s (ply %d) restored, %d plies struck out (%s): %s"
		if len(p.Struck) == 1 {
			format = "position before %s (ply %d) restored, %d ply struck out (%s): %s"
		}
		text = phrase.Errorf(format, phrase.Move(p.Struck[0]), p.Ply, len(p.Struck), methodWord(p.Method), p.Reason)
	} else {
		format := "position before ply %d restored, %d plies struck out (%s): %s"
		text = phrase.Errorf(format, p.Ply, len(p.Struck), methodWord(p.Method), p.Reason)
	}
	effect := phrase.Errorf("clocks stopped; White %s (period %d, %d moves), Black %s (period %d, %d moves)",
		clock.FormatReading(time.Duration(p.White.RemainingNS)), p.White.Period, p.White.Moves,
		clock.FormatReading(time.Duration(p.Black.RemainingNS)), p.Black.Period, p.Black.Moves)
	inc := s.said(g, e, IncidentCorrect, rule, text, effect)
	inc.Before = &before
	g.Incidents = append(g.Incidents, inc)
	return nil
}
