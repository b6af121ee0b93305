package match

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/scoresheet"
)

// MaxText bounds every free text (names, reasons, incident texts).
const MaxText = 4000

func checkText(what phrase.Word, s string, required bool) error {
	switch {
	case required && strings.TrimSpace(s) == "":
		return refuseAs(CodeTextEmpty, what)
	case !utf8.ValidString(s):
		return refuseAs(CodeTextInvalid, what)
	case len(s) > MaxText:
		return refuseAs(CodeTextTooLong, what, len(s), MaxText)
	case strings.ContainsAny(s, "\x00"):
		return refuseAs(CodeTextNUL, what)
	}
	return nil
}

// maxGames is the most games a match may have.
const maxGames = 100

// MatchNew creates the match ('match new'). A database holds exactly one
// match.
type MatchNew struct {
	Title     string    `json:"title"`
	Site      string    `json:"site,omitempty"`
	Arbiter   string    `json:"arbiter,omitempty"`
	Players   [2]string `json:"players"`
	Computer  string    `json:"computer,omitempty"` // one of Players, or ""
	Operators []string  `json:"operators,omitempty"`
	Appeals   []string  `json:"appeals,omitempty"`
	Games     int       `json:"games,omitempty"`   // default 6
	Control   string    `json:"control,omitempty"` // preset or PGN TimeControl for both players; default acm1996
	// Controls are per player overrides of Control, by the player's name.
	Controls map[string]string `json:"controls,omitempty"`
	White    string            `json:"white,omitempty"` // game 1 White: a player's name, or "lots" (the app draws), or "" (lots)
	// ForfeitAfter is how late a player may arrive (Article 6.6); 0 = one hour.
	ForfeitAfter time.Duration `json:"forfeit_after_ns,omitempty"`
	// TimeZone is the IANA name of the zone the match is played in
	// (e.g. America/New_York); "" is UTC. The record keeps UTC instants.
	TimeZone string `json:"time_zone,omitempty"`
	// PIN (a passphrase) or ArbiterKey (a key file's key) is the arbiter's
	// credential; with neither the match is unprotected (credential.go).
	// Neither is ever encoded.
	PIN        string             `json:"-"`
	ArbiterKey ed25519.PrivateKey `json:"-"`
}

func (MatchNew) Kind() string { return "match.new" }

// Validate checks the match's fields and its credential's form.
func (m MatchNew) Validate() error {
	if m.PIN != "" && m.ArbiterKey != nil {
		return refuseAs(CodePINOrKeyNotBoth)
	}
	_, err := m.payload()
	return err
}

// prepare makes the arbiter's credential before the transaction.
func (m MatchNew) prepare(*State, Cmd) (func(t *tx, res *Result) error, error) {
	cred, key, err := m.credential()
	if err != nil {
		return nil, err
	}
	return func(t *tx, _ *Result) error {
		if t.st.Match != nil {
			return refuseAs(CodeMatchExists, t.st.Match.Title)
		}
		if t.cmd.Role != RoleArbiter {
			return forbidAs(CodeMatchNewNeedsArbiter)
		}
		p, err := m.payload()
		if err != nil {
			return err
		}
		if cred != nil {
			p.Credential = cred
			t.signWith("arbiter", key, true)
		}
		return t.emit(0, KindMatchNew, p)
	}, nil
}

func (m MatchNew) run(t *tx, res *Result) error {
	f, err := m.prepare(t.st, t.cmd)
	if err != nil {
		return err
	}
	return f(t, res)
}

func (spec MatchNew) payload() (MatchNewPayload, error) {
	var p MatchNewPayload
	for what, s := range map[phrase.Word]string{"the title": spec.Title, "the site": spec.Site, "the arbiter's name": spec.Arbiter} {
		if err := checkText(what, s, what == "the title"); err != nil {
			return p, err
		}
	}
	for _, name := range spec.Players {
		if err := checkText("a player's name", name, true); err != nil {
			return p, refuseAs(CodeNeedTwoPlayers)
		}
	}
	if spec.Players[0] == spec.Players[1] {
		return p, refuseAs(CodeSamePlayerNames, spec.Players[0])
	}
	if spec.Computer != "" && spec.Computer != spec.Players[0] && spec.Computer != spec.Players[1] {
		return p, refuseAs(CodeComputerNotAPlayer, spec.Computer, spec.Players[0], spec.Players[1])
	}
	if spec.Computer == "" && len(spec.Operators) > 0 {
		return p, refuseAs(CodeOperatorsNeedComputer)
	}
	for _, o := range append(append([]string{}, spec.Operators...), spec.Appeals...) {
		if err := checkText("a name", o, true); err != nil {
			return p, err
		}
	}
	games := spec.Games
	if games == 0 {
		games = 6
	}
	if games < 1 || games > maxGames {
		return p, refuseAs(CodeGamesOutOfRange, games)
	}
	// a control for someone who is not a player is refused first: its
	// spec would otherwise be judged for nobody
	for _, name := range slices.Sorted(maps.Keys(spec.Controls)) {
		switch {
		case strings.TrimSpace(name) == "":
			return p, refuseAs(CodeControlNeedsName)
		case name != spec.Players[0] && name != spec.Players[1]:
			return p, refuseAs(CodeControlNotAPlayer, name, spec.Players[0], spec.Players[1])
		}
	}
	tcSpec := spec.Control
	if tcSpec == "" {
		tcSpec = "acm1996"
	}
	controls := map[string]string{}
	for _, name := range spec.Players {
		s := tcSpec
		if o, ok := spec.Controls[name]; ok {
			s = o
		}
		tc, err := clock.ParseSpec(s)
		if err != nil {
			return p, refuseAs(CodeBadTimeControl, name, err)
		}
		if tc.Mode != clock.Timed {
			return p, refuseAs(CodeUntimedControl, s)
		}
		controls[name] = tc.String()
	}
	id, err := NewMatchID()
	if err != nil {
		return p, err
	}
	p = MatchNewPayload{ID: id, Title: spec.Title, Site: spec.Site, Arbiter: spec.Arbiter, Players: spec.Players,
		Computer: spec.Computer, Operators: spec.Operators, Appeals: spec.Appeals, Games: games, Controls: controls}
	if err := checkTimeZone(spec.TimeZone); err != nil {
		return p, err
	}
	p.TimeZone = spec.TimeZone
	if spec.ForfeitAfter < 0 {
		return p, refuseAs(CodeNegativeForfeitTime)
	}
	p.ForfeitAfter = int64(time.Hour / time.Millisecond)
	if spec.ForfeitAfter > 0 {
		p.ForfeitAfter = int64(spec.ForfeitAfter / time.Millisecond)
	}
	switch spec.White {
	case "", "lots":
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return p, fmt.Errorf("match: draw lots: %w", err)
		}
		p.Lots, p.LotsDraw = "app", hex.EncodeToString(b[:])
		p.Game1White = spec.Players[b[0]&1]
	case spec.Players[0], spec.Players[1]:
		p.Lots, p.Game1White = "physical", spec.White
	default:
		return p, refuseAs(CodeWhiteNotAPlayer, spec.White)
	}
	return p, nil
}

// MatchIDDigits is the length of a match id in hexadecimal digits.
const MatchIDDigits = 32

// NewMatchID draws a match's id: 16 random bytes (crypto/rand), in hex.
func NewMatchID() (string, error) {
	var b [MatchIDDigits / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("match: draw the match id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

func (t *tx) game(n int) (*Game, error) {
	m, err := t.match()
	if err != nil {
		return nil, err
	}
	g := t.st.Game(n)
	if g == nil {
		return nil, refuseAs(CodeNoSuchGame, n, m.GamesPlanned)
	}
	return g, nil
}

// nextGame is the game "game start" starts: the lowest-numbered scheduled
// game, else the lowest postponed one.
func (s *State) nextGame() *Game {
	for _, g := range s.Games {
		if g.State == Scheduled {
			return g
		}
	}
	for _, g := range s.Games {
		if g.State == Postponed {
			return g
		}
	}
	return nil
}

// GameSchedule sets the scheduled start of a game ('game schedule').
type GameSchedule struct {
	Game  int       `json:"game,omitempty"` // 0: the next game
	Start time.Time `json:"start"`
}

func (GameSchedule) Kind() string { return "game.schedule" }

// Validate checks the game number and that a start is given.
func (s GameSchedule) Validate() error {
	if s.Start.IsZero() {
		return refuseAs(CodeNoScheduledStart)
	}
	return checkGameNumber(s.Game)
}

func (s GameSchedule) run(t *tx, _ *Result) error {
	g, err := t.pickAsArbiter("game schedule", s, s.Game)
	if err != nil {
		return err
	}
	if g.State != Scheduled && g.State != Postponed {
		return refuseAs(CodeCannotSchedule, g.Number, g.State)
	}
	return t.emit(g.Number, KindGameSchedule, GamePayload{Game: g.Number, Start: s.Start.UTC().Format(time.RFC3339Nano)})
}

// pickAsArbiter is the game n (0: the next one) a command of the arbiter's
// about a game not yet started is about, once the command's fields are
// checked.
func (t *tx) pickAsArbiter(command string, c Command, n int) (*Game, error) {
	if err := t.require(command, RoleArbiter); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return t.pick(n)
}

// checkGameNumber refuses a game number no match has (0: the next game).
func checkGameNumber(n int) error {
	if n < 0 || n > maxGames {
		return refuseAs(CodeGameNumberOutOfRange, n, maxGames)
	}
	return nil
}

func (t *tx) pick(n int) (*Game, error) {
	if n != 0 {
		return t.game(n)
	}
	if _, err := t.match(); err != nil {
		return nil, err
	}
	g := t.st.nextGame()
	if g == nil {
		return nil, refuseAs(CodeAllGamesPlayed)
	}
	return g, nil
}

// StartPosition is where a game starts: the standard position when FEN is
// "", else the FEN with its side to move. The FEN's move number sets both
// move counters and so each side's period; each clock is as given, else the
// control's time for that period.
type StartPosition struct {
	FEN   string         `json:"fen,omitempty"`
	White *time.Duration `json:"white_ns,omitempty"`
	Black *time.Duration `json:"black_ns,omitempty"`
}

// GameStart starts a game ('game start'): the next one (the lowest-numbered
// scheduled game, else the lowest postponed one) or game Game, from the
// standard position or a given one. The clock of the side to move starts
// at the command's instant (Article 6.5), present or not.
type GameStart struct {
	Game int `json:"game,omitempty"` // 0: the next game
	StartPosition
}

func (GameStart) Kind() string { return "game.start" }

// Validate checks the game number and the start position.
func (s GameStart) Validate() error {
	if err := checkGameNumber(s.Game); err != nil {
		return err
	}
	var p GamePayload
	return s.StartPosition.fill(&p)
}

func (s GameStart) run(t *tx, _ *Result) error {
	if err := t.require("game start", RoleArbiter); err != nil {
		return err
	}
	if err := checkGameNumber(s.Game); err != nil {
		return err
	}
	if cur := t.st.CurrentGame(); cur != nil && cur.Live() {
		return refuseAs(CodeGameInProgress, cur.Number)
	}
	g, err := t.pick(s.Game)
	if err != nil {
		return err
	}
	if g.State != Scheduled && g.State != Postponed {
		return refuseAs(CodeCannotStart, g.Number, g.State)
	}
	p := GamePayload{Game: g.Number, White: g.White, Black: g.Black}
	if err := s.StartPosition.fill(&p); err != nil {
		return err
	}
	return t.emit(g.Number, KindGameStart, p)
}

// maxStartMove bounds the move number of a start position (the longest
// possible game is under 6,000 moves).
const maxStartMove = 6000

// fill checks the start position and writes it into a game.start payload.
func (from StartPosition) fill(p *GamePayload) error {
	if strings.TrimSpace(from.FEN) == "" {
		if from.White != nil || from.Black != nil {
			return refuseAs(CodeClocksNeedPosition)
		}
		return nil
	}
	if err := checkText("the FEN", from.FEN, true); err != nil {
		return err
	}
	pos, err := scoresheet.ParseFEN(from.FEN)
	if err != nil {
		return refuseAs(CodeNotAPosition, err)
	}
	if f := strings.Fields(pos.String()); len(f) == 6 {
		if n, err := strconv.Atoi(f[5]); err != nil || n < 1 || n > maxStartMove {
			return refuseAs(CodeFENMoveNumber, f[5], maxStartMove)
		}
	}
	if term, _ := scoresheet.OutcomeOf(pos); term != scoresheet.TermNone {
		return refuseAs(CodePositionOver, term)
	}
	p.FEN = pos.String()
	for _, x := range []struct {
		d   *time.Duration
		ns  **int64
		who phrase.Word
	}{{from.White, &p.WhiteNS, "White"}, {from.Black, &p.BlackNS, "Black"}} {
		if x.d == nil {
			continue
		}
		if *x.d < 0 || *x.d > 24*time.Hour {
			return refuseAs(CodeStartClockOutOfRange, x.who, clock.FormatReading(*x.d))
		}
		ns := int64(*x.d)
		*x.ns = &ns
	}
	return nil
}

// GamePostpone postpones a game not yet started ('game postpone'). Colours
// stay with the game's number (rule 3).
type GamePostpone struct {
	Game   int    `json:"game,omitempty"` // 0: the next game
	Reason string `json:"reason"`
}

func (GamePostpone) Kind() string { return "game.postpone" }

// Validate checks the game number and the reason.
func (p GamePostpone) Validate() error {
	if err := checkText("the reason", p.Reason, true); err != nil {
		return err
	}
	return checkGameNumber(p.Game)
}

func (p GamePostpone) run(t *tx, _ *Result) error {
	g, err := t.pickAsArbiter("game postpone", p, p.Game)
	if err != nil {
		return err
	}
	if g.State != Scheduled {
		return refuseAs(CodeCannotPostpone, g.Number, g.State)
	}
	return t.emit(g.Number, KindGamePostpone, GamePayload{Game: g.Number, Reason: p.Reason})
}

// roleSide is the side a player role moves for, or the computer's side for
// the operator. ok is false for the arbiter (who may act for either side).
func (t *tx) roleSide(g *Game) (clock.Side, bool, error) {
	switch t.cmd.Role {
	case RoleWhite:
		return clock.White, true, nil
	case RoleBlack:
		return clock.Black, true, nil
	case RoleOperator:
		m := t.st.Match
		s, ok := g.Side(m.Computer)
		if !ok {
			return 0, false, forbidAs(CodeNoOperator)
		}
		return s, true, nil
	}
	return 0, false, nil
}

// MoveResult tells what a move did (Result.Moved).
type MoveResult struct {
	SAN    string
	Ended  bool
	Result string
}

// Move records the move of the side to move and presses its clock at the
// command's instant (Article 6.7; 'move'). With Pressed, the move is the
// one for a press already recorded. A move that ends the game stops the
// clocks.
//
// A move of the computer must be the move its engine chose for the
// position when the record has one (engine.move, engine.go), unless
// NotEngine marks it as not the engine's, with Reason: an incident says so.
type Move struct {
	Input   string `json:"input"` // SAN, UCI or long algebraic, as entered
	Pressed bool   `json:"pressed,omitempty"`
	// NotEngine: the computer's move is not the one its engine chose
	// (rules 9 and 10), for Reason.
	NotEngine bool   `json:"not_engine,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

func (Move) Kind() string { return "move" }

// Validate checks that a move is given, and that NotEngine and its reason
// come together.
func (m Move) Validate() error {
	if err := checkText("the move", m.Input, true); err != nil {
		return err
	}
	if m.NotEngine != (m.Reason != "") {
		return refuseAs(CodeNotEngineNeedsReason)
	}
	return checkText("the reason", m.Reason, m.NotEngine)
}

func (m Move) run(t *tx, _ *Result) error {
	g, err := t.liveFor("move", RoleArbiter, RoleOperator, RoleWhite, RoleBlack)
	if err != nil {
		return err
	}
	if err := t.clockBound(g); err != nil {
		return err
	}
	mover := g.ToMove()
	if err := t.mayActFor(g, mover, "move"); err != nil {
		return err
	}
	if m.Pressed && g.Pressed == nil {
		return refuseAs(CodeNoPressWaiting)
	}
	if !m.Pressed && g.Pressed != nil {
		return refuseAs(CodePressedBeforeMove, colour(*g.Pressed), m.Input)
	}
	if !m.Pressed {
		if running, ok := g.Clock.Running(); !ok {
			return refuseAs(CodeClocksStopped, g.pauseText())
		} else if running != mover {
			return refuseAs(CodeWrongClockRunning, colour(running), colour(mover))
		}
	}
	if err := m.Validate(); err != nil {
		return err
	}
	// worked out once: the move event's Play records it as tried here
	mv, err := g.Sheet.Try(m.Input)
	if err != nil {
		return refuseAs(CodeMoveNotLegal, err)
	}
	notEngine, err := m.checkEngine(t, g, mover, mv)
	if err != nil {
		return err
	}
	// Whether the move ends the game decides whether it presses the clock.
	term, result := mv.Term, mv.Result
	press := !m.Pressed && term == scoresheet.TermNone
	p := MovePayload{SAN: mv.SAN, UCI: mv.UCI, Press: press, Input: m.Input}
	if press {
		p.PressStamp = pressStamp(t.cmd.Stamp)
	}
	if err := t.emit(g.Number, KindMove, p); err != nil {
		return err
	}
	if notEngine != nil {
		if err := t.emit(g.Number, KindIncident, notEngine); err != nil {
			return err
		}
	}
	if term != scoresheet.TermNone {
		return t.emit(g.Number, KindGameEnd, EndPayload{Result: result, Termination: string(term), Reason: endReason(term)})
	}
	return nil
}

func endReason(term scoresheet.Termination) string {
	if term == scoresheet.TermDeadPosition {
		return "neither side can checkmate by any series of legal moves"
	}
	return ""
}

// mayActFor refuses a player acting for the other side, and the operator
// acting for the human.
func (t *tx) mayActFor(g *Game, side clock.Side, what phrase.Word) error {
	s, restricted, err := t.roleSide(g)
	if err != nil {
		return err
	}
	if restricted && s != side {
		if t.cmd.Role == RoleOperator {
			return forbidAs(CodeOperatorOnlyForComputer, t.who(), t.st.Match.Computer, t.st.whoPlays(g, side), what)
		}
		return forbidAs(CodeNotYourSide, t.who(), what, t.st.whoPlays(g, side))
	}
	return nil
}

func (g *Game) pauseText() any {
	if g.Paused.Call {
		return phrase.Word("a player called the arbiter")
	}
	if g.Paused.Reason != "" {
		return g.Paused.Reason
	}
	if c := g.Paused.Cause; c != "" && c != CauseOther {
		return causeWord(c) // a correction's pause gives no reason of its own
	}
	return phrase.Word("paused")
}

// Press presses the running clock before its move is recorded ('press'; the
// move follows as Move{Pressed: true}).
type Press struct{}

func (Press) Kind() string { return "press" }

// Validate has nothing to check.
func (Press) Validate() error { return nil }

func (Press) run(t *tx, _ *Result) error {
	g, err := t.liveFor("press", RoleArbiter, RoleOperator, RoleWhite, RoleBlack)
	if err != nil {
		return err
	}
	if err := t.clockBound(g); err != nil {
		return err
	}
	running, ok := g.Clock.Running()
	if !ok {
		return refuseAs(CodeNothingToPress, g.pauseText())
	}
	if g.Pressed != nil {
		return refuseAs(CodeAlreadyPressed, colour(*g.Pressed))
	}
	if err := t.mayActFor(g, running, "press the clock"); err != nil {
		return err
	}
	return t.emit(g.Number, KindPress, SidePayload{Side: running.String(), PressStamp: pressStamp(t.cmd.Stamp)})
}

// The causes of a pause (Pause.Cause).
const (
	CauseFault        = "fault"         // a technical fault: never on the computer's turn (rule 7)
	CausePowerFailure = "power-failure" // rule 7's exception: the clocks may stop
	CauseUnplayable   = "unplayable"    // the game cannot be played for another reason
	// CauseCorrection: the arbiter stops the clocks to correct the position
	// (an operator's error, rule 10; an illegal move or pieces displaced,
	// 6.13); the console's correction dialog gives it. Records made before
	// it gave "unplayable" with the reason "position correction (rule 10 /
	// 6.13)" and are read as they were written.
	CauseCorrection = "correction"
	CauseOther      = "other" // the default
)

// PauseCauses lists the causes a pause may give, in the order the console
// offers them in its pause dialog (correction is given by the correction
// dialog, which the pause dialog does not replace).
func PauseCauses() []string {
	return []string{CauseFault, CausePowerFailure, CauseUnplayable, CauseCorrection, CauseOther}
}

// Pause stops the running clock (Article 6.12; 'pause') and records why.
// With Call, a player stops both clocks to call the arbiter (6.12b). The
// arbiter may stop the clocks on the computer's turn too (6.12a), but not
// for a technical fault: the computer's clock keeps running then (rule 7).
type Pause struct {
	Cause  string `json:"cause,omitempty"` // fault|power-failure|unplayable|correction|other; "" = other
	Reason string `json:"reason,omitempty"`
	Call   bool   `json:"call,omitempty"`
}

func (Pause) Kind() string { return "pause" }

// Validate checks the reason and the cause.
func (p Pause) Validate() error {
	if err := checkText("the reason", p.Reason, false); err != nil {
		return err
	}
	if !slices.Contains(PauseCauses(), p.cause()) {
		return refuseAs(CodeNotAPauseCause, p.cause())
	}
	return nil
}

func (p Pause) cause() string {
	if p.Cause == "" {
		return CauseOther
	}
	return p.Cause
}

func (p Pause) run(t *tx, _ *Result) error {
	if err := p.Validate(); err != nil {
		return err
	}
	g, err := t.live()
	if err != nil {
		return err
	}
	running, ok := g.Clock.Running()
	if !ok {
		return refuseAs(CodeAlreadyStopped, g.pauseText())
	}
	switch t.cmd.Role {
	case RoleArbiter:
		if err := t.require("pause", RoleArbiter); err != nil {
			return err
		}
	case RoleWhite, RoleBlack:
		if !p.Call {
			return forbidAs(CodePlayerPausesOnlyToCall)
		}
	case RoleOperator:
		if s, _ := g.Side(t.st.Match.Computer); s == running {
			return forbidAs(CodeComputersClockRuns)
		}
		if !p.Call {
			return forbidAs(CodeOperatorPausesOnlyToCall)
		}
	default:
		return forbidAs(CodePauseNeedsArbiter)
	}
	if cs, ok := g.Side(t.st.Match.Computer); ok && cs == running && p.cause() == CauseFault {
		return refuseAs(CodeNoPauseForFault)
	}
	return t.emit(g.Number, KindPause, SidePayload{Side: running.String(), Reason: p.Reason, Call: p.Call, Cause: p.cause()})
}

// Resume starts the clock of the side to move ('resume'; the arbiter decides
// when the game restarts, 6.12c).
type Resume struct{}

func (Resume) Kind() string { return "resume" }

// Validate has nothing to check.
func (Resume) Validate() error { return nil }

func (Resume) run(t *tx, _ *Result) error {
	g, err := t.liveFor("resume", RoleArbiter)
	if err != nil {
		return err
	}
	if _, ok := g.Clock.Running(); ok {
		return refuseAs(CodeClockRunning)
	}
	side := g.ToMove()
	if g.Pressed != nil {
		side = g.Pressed.Other()
	}
	return t.emit(g.Number, KindResume, SidePayload{Side: side.String()})
}

// Adjustment is an arbiter's clock correction.
type Adjustment struct {
	Set    bool          `json:"set,omitempty"` // set the remaining time to D, else add D (signed)
	D      time.Duration `json:"ns"`
	Moves  *int          `json:"moves,omitempty"`  // reset the move counter
	Period *int          `json:"period,omitempty"` // 1-based period
}

// check refuses a correction no clock can take.
func (adj Adjustment) check() error {
	if adj.D > 24*time.Hour || adj.D < -24*time.Hour {
		return refuseAs(CodeCorrectionTooLarge, clock.FormatReading(adj.D))
	}
	if adj.Moves != nil && (*adj.Moves < 0 || *adj.Moves > 1000) {
		return refuseAs(CodeMoveCounterOutOfRange, *adj.Moves)
	}
	if adj.Period != nil && (*adj.Period < 1 || *adj.Period > 100) {
		return refuseAs(CodePeriodOutOfRange, *adj.Period)
	}
	if adj.Set && adj.D < 0 {
		return refuseAs(CodeNegativeClock)
	}
	return nil
}

// Adjust corrects one side's clock ('adjust'; Article 6.10, 6.13; rule 2
// when a physical clock is kept in step). Allowed while the clock runs.
type Adjust struct {
	Side clock.Side `json:"side"`
	Adjustment
	Reason string `json:"reason"`
}

func (Adjust) Kind() string { return "adjust" }

// Validate checks the reason and the correction.
func (a Adjust) Validate() error {
	if err := a.checkReason(); err != nil {
		return err
	}
	return a.Adjustment.check()
}

func (a Adjust) checkReason() error {
	if err := checkText("the reason", a.Reason, true); err != nil {
		return refuseAs(CodeAdjustNeedsReason)
	}
	return nil
}

// run checks Validate's two parts apart: the reason before the game, the
// correction (t.adjust) on the game in progress.
func (a Adjust) run(t *tx, _ *Result) error {
	if err := t.require("adjust", RoleArbiter); err != nil {
		return err
	}
	if err := a.checkReason(); err != nil {
		return err
	}
	g, err := t.live()
	if err != nil {
		return err
	}
	return t.adjust(g, a.Side, a.Adjustment, a.Reason, "")
}

// adjust corrects side's clock for reason: the arbiter's words (a string),
// or the core's own (a phrase, also stored as the payload's why).
func (t *tx) adjust(g *Game, side clock.Side, adj Adjustment, reason any, rule string) error {
	if err := adj.check(); err != nil {
		return err
	}
	p := AdjustPayload{Side: side.String(), Op: "add", Moves: adj.Moves, Period: adj.Period, Rule: rule}
	switch r := reason.(type) {
	case *phrase.Error:
		p.Reason, p.Why = r.Error(), r
	case string:
		p.Reason = r
	}
	if adj.Set {
		p.Op = "set"
	}
	p.MS = int64(adj.D / time.Millisecond)
	p.NS = int64(adj.D % time.Millisecond)
	if _, _, err := adjustClock(g.Clock, side, p, t.cmd.At); err != nil {
		return refuseAs(CodeCannotCorrectClock, colour(side), err)
	}
	return t.emit(g.Number, KindAdjust, p)
}

// DrawOffer records a draw offer ('draw offer') by Side (nil: the side of
// the player who gives it, else Game.Offerer), on either clock: before the
// offerer's move or after it. It stands until the opponent accepts it,
// declines it or completes a move after it; the opponent may answer at
// once.
type DrawOffer struct {
	Side *clock.Side `json:"side,omitempty"`
}

func (DrawOffer) Kind() string { return "draw.offer" }

// Validate has nothing to check.
func (DrawOffer) Validate() error { return nil }

func (d DrawOffer) run(t *tx, _ *Result) error {
	g, err := t.liveFor("draw offer", RoleArbiter, RoleOperator, RoleWhite, RoleBlack)
	if err != nil {
		return err
	}
	s := g.Offerer()
	if d.Side != nil {
		s = *d.Side
	} else if rs, ok, _ := t.roleSide(g); ok {
		s = rs
	}
	if err := t.mayActFor(g, s, "offer a draw"); err != nil {
		return err
	}
	if g.Offer != nil {
		return refuseAs(CodeOfferOpen, colour(g.Offer.By))
	}
	return t.emit(g.Number, KindDrawOffer, SidePayload{Side: s.String()})
}

// DrawAccept accepts the pending offer on behalf of the opponent of the
// side that offered ('draw accept'): the game is drawn by agreement.
type DrawAccept struct{}

func (DrawAccept) Kind() string { return "draw.accept" }

// Validate has nothing to check.
func (DrawAccept) Validate() error { return nil }

func (DrawAccept) run(t *tx, _ *Result) error { return t.answerDraw(true) }

// DrawDecline declines the pending offer on behalf of the opponent of the
// side that offered ('draw decline').
type DrawDecline struct{}

func (DrawDecline) Kind() string { return "draw.decline" }

// Validate has nothing to check.
func (DrawDecline) Validate() error { return nil }

func (DrawDecline) run(t *tx, _ *Result) error { return t.answerDraw(false) }

// answerDraw accepts or declines the pending offer.
func (t *tx) answerDraw(accept bool) error {
	verb := "draw decline"
	if accept {
		verb = "draw accept"
	}
	g, err := t.liveFor(verb, RoleArbiter, RoleOperator, RoleWhite, RoleBlack)
	if err != nil {
		return err
	}
	if g.Offer == nil {
		return refuseAs(CodeNoDrawOffer)
	}
	// the opponent answers at once, on either clock
	answering := g.Offer.By.Other()
	if s, restricted, err := t.roleSide(g); err == nil && restricted && s == g.Offer.By {
		if accept {
			return forbidAs(CodeOwnOfferAccept, t.st.whoPlays(g, answering))
		}
		return forbidAs(CodeOwnOfferDecline, t.st.whoPlays(g, answering))
	}
	if err := t.mayActFor(g, answering, phrase.Word(strings.TrimPrefix(verb, "draw ")+" the draw")); err != nil {
		return err
	}
	kind := KindDrawDecline
	if accept {
		kind = KindDrawAccept
	}
	if err := t.emit(g.Number, kind, SidePayload{Side: answering.String()}); err != nil {
		return err
	}
	if accept {
		return t.emit(g.Number, KindGameEnd, EndPayload{Result: "1/2-1/2", Termination: string(scoresheet.TermAgreement)})
	}
	return nil
}

// Resign ends the game ('resign'): Side resigns.
type Resign struct {
	Side clock.Side `json:"side"`
}

func (Resign) Kind() string { return "resign" }

// Validate has nothing to check.
func (Resign) Validate() error { return nil }

func (r Resign) run(t *tx, _ *Result) error {
	g, err := t.liveFor("resign", RoleArbiter, RoleOperator, RoleWhite, RoleBlack)
	if err != nil {
		return err
	}
	if err := t.mayActFor(g, r.Side, "resign"); err != nil {
		return err
	}
	result := "0-1"
	if r.Side == clock.Black {
		result = "1-0"
	}
	return t.emit(g.Number, KindGameEnd, EndPayload{Result: result, Termination: string(scoresheet.TermResignation), Reason: g.Name(r.Side) + " resigned", Why: phrase.Errorf(resignedFormat, g.Name(r.Side))})
}

// ValidResult checks a game result.
func ValidResult(r string) error {
	switch r {
	case "1-0", "0-1", "1/2-1/2":
		return nil
	}
	return refuseAs(CodeNotAResult, r)
}

// Decide ends the game in progress by the arbiter's decision (the command
// line's 'result').
type Decide struct {
	Result string `json:"result"` // 1-0, 0-1 or 1/2-1/2
	Reason string `json:"reason"`
}

func (Decide) Kind() string { return "result" }

// Validate checks the result and the reason.
func (d Decide) Validate() error {
	if err := ValidResult(d.Result); err != nil {
		return err
	}
	if err := checkText("the reason", d.Reason, true); err != nil {
		return refuseAs(CodeResultNeedsReason)
	}
	return nil
}

func (d Decide) run(t *tx, _ *Result) error {
	if err := t.require("result", RoleArbiter); err != nil {
		return err
	}
	if err := d.Validate(); err != nil {
		return err
	}
	g, err := t.live()
	if err != nil {
		return err
	}
	return t.emit(g.Number, KindGameEnd, EndPayload{Result: d.Result, Termination: string(scoresheet.TermArbiter), Reason: d.Reason})
}
