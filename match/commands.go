package match

import (
	"context"
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

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/scoresheet"
)

// MaxText bounds every free text (names, reasons, incident texts).
const MaxText = 4000

func checkText(what phrase.Word, s string, required bool) error {
	switch {
	case required && strings.TrimSpace(s) == "":
		return refuse("%s is empty: say it in a few words", what)
	case !utf8.ValidString(s):
		return refuse("%s is not valid UTF-8 text: retype it", what)
	case len(s) > MaxText:
		return refuse("%s is %d bytes long: keep it under %d", what, len(s), MaxText)
	case strings.ContainsAny(s, "\x00"):
		return refuse("%s contains a NUL character: retype it", what)
	}
	return nil
}

// MatchSpec is what "match new" needs.
type MatchSpec struct {
	Title     string
	Site      string
	Arbiter   string
	Players   [2]string
	Computer  string // one of Players, or ""
	Operators []string
	Appeals   []string
	Games     int               // default 6
	Control   string            // preset or PGN TimeControl for both players; default acm1996
	Controls  map[string]string // per player overrides
	White     string            // game 1 White: a player's name, or "lots" (the app draws), or "" (lots)
	PIN       string
	// ForfeitAfter is how late a player may arrive (Article 6.6); 0 = one hour.
	ForfeitAfter time.Duration
	// TimeZone is the IANA name of the zone the match is played in
	// (e.g. America/New_York); "" is UTC. The record keeps UTC instants.
	TimeZone string
	// ArbiterKey is the arbiter's credential as a key file, instead of PIN
	// (a passphrase); with neither the match is unprotected (credential.go).
	ArbiterKey ed25519.PrivateKey
}

// NewMatch creates the match. A database holds exactly one match.
func (a *App) NewMatch(ctx context.Context, c Cmd, spec MatchSpec) error {
	cred, key, err := spec.credential()
	if err != nil {
		return err
	}
	return a.do(ctx, c, func(t *tx) error {
		if t.st.Match != nil {
			return refuseAs(CodeMatchExists, t.st.Match.Title)
		}
		if c.Role != RoleArbiter {
			return forbid("match new must be given by the arbiter")
		}
		p, err := spec.payload()
		if err != nil {
			return err
		}
		if cred != nil {
			p.Credential = cred
			t.signWith("arbiter", key, true)
		}
		return t.emit(0, KindMatchNew, p)
	})
}

func (spec MatchSpec) payload() (MatchNewPayload, error) {
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
		return p, refuse("both players are called %q: give two different names", spec.Players[0])
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
	if games < 1 || games > 100 {
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
			return p, refuse("time control for %s: %v", name, err)
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
		return p, refuse("the forfeit time cannot be negative")
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
		return nil, refuse("there is no game %d: the match has games 1 to %d", n, m.GamesPlanned)
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

// ScheduleGame sets the scheduled start of game n (0 = the next game).
func (a *App) ScheduleGame(ctx context.Context, c Cmd, n int, start time.Time) error {
	return a.do(ctx, c, func(t *tx) error {
		if err := t.require("game schedule", RoleArbiter); err != nil {
			return err
		}
		g, err := t.pick(n)
		if err != nil {
			return err
		}
		if g.State != Scheduled && g.State != Postponed {
			return refuse("game %d is %s: only a game not yet started can be scheduled", g.Number, g.State)
		}
		return t.emit(g.Number, KindGameSchedule, GamePayload{Game: g.Number, Start: start.UTC().Format(time.RFC3339Nano)})
	})
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
		return nil, refuse("every game of the match has been played")
	}
	return g, nil
}

// StartGame starts game n (0 = the next one): White's clock starts at the
// command's instant (Article 6.5), present or not.
func (a *App) StartGame(ctx context.Context, c Cmd, n int) error {
	return a.StartGameFrom(ctx, c, n, StartPosition{})
}

// StartPosition is where a game starts: the standard position when FEN is
// "", else the FEN with its side to move. The FEN's move number sets both
// move counters and so each side's period; each clock is as given, else the
// control's time for that period.
type StartPosition struct {
	FEN          string
	White, Black *time.Duration
}

// StartGameFrom starts game n (0 = the next one) from a position: the clock
// of the side to move starts at the command's instant.
func (a *App) StartGameFrom(ctx context.Context, c Cmd, n int, from StartPosition) error {
	return a.do(ctx, c, func(t *tx) error {
		if err := t.require("game start", RoleArbiter); err != nil {
			return err
		}
		if cur := t.st.CurrentGame(); cur != nil && cur.Live() {
			return refuse("game %d is still in progress: finish it (result, resign, draw) before starting another", cur.Number)
		}
		g, err := t.pick(n)
		if err != nil {
			return err
		}
		if g.State != Scheduled && g.State != Postponed {
			return refuse("game %d is %s and cannot be started", g.Number, g.State)
		}
		p := GamePayload{Game: g.Number, White: g.White, Black: g.Black}
		if err := from.fill(&p); err != nil {
			return err
		}
		return t.emit(g.Number, KindGameStart, p)
	})
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
		return refuse("%v", err)
	}
	if f := strings.Fields(pos.String()); len(f) == 6 {
		if n, err := strconv.Atoi(f[5]); err != nil || n < 1 || n > maxStartMove {
			return refuse("the FEN's move number %s is not one a game can reach: give a move number from 1 to %d", f[5], maxStartMove)
		}
	}
	if term, _ := scoresheet.OutcomeOf(pos); term != scoresheet.TermNone {
		return refuse("the game cannot start from this position: it is already over (%s)", term)
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
			return refuse("%s's clock cannot start at %s: give a time between 0:00:00 and 24:00:00", x.who, clock.FormatReading(*x.d))
		}
		ns := int64(*x.d)
		*x.ns = &ns
	}
	return nil
}

// PostponeGame postpones game n (0 = the next one). Colours stay with the
// game's number (rule 3).
func (a *App) PostponeGame(ctx context.Context, c Cmd, n int, reason string) error {
	return a.do(ctx, c, func(t *tx) error {
		if err := t.require("game postpone", RoleArbiter); err != nil {
			return err
		}
		if err := checkText("the reason", reason, true); err != nil {
			return err
		}
		g, err := t.pick(n)
		if err != nil {
			return err
		}
		if g.State != Scheduled {
			return refuse("game %d is %s: only a game not yet started can be postponed", g.Number, g.State)
		}
		return t.emit(g.Number, KindGamePostpone, GamePayload{Game: g.Number, Reason: reason})
	})
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
			return 0, false, forbid("this match has no computer player, so there is no operator")
		}
		return s, true, nil
	}
	return 0, false, nil
}

// MoveResult tells what a move did.
type MoveResult struct {
	SAN    string
	Ply    int
	Ended  bool
	Result string
}

// Move records the move of the side to move and presses its clock at the
// command's instant (Article 6.7). With pressed, the move is the one for a
// press already recorded. A move that ends the game stops the clocks.
func (a *App) Move(ctx context.Context, c Cmd, input string, pressed bool) (MoveResult, error) {
	var res MoveResult
	err := a.doClock(ctx, c, func(t *tx) error {
		if err := t.require("move", RoleArbiter, RoleOperator, RoleWhite, RoleBlack); err != nil {
			return err
		}
		g, err := t.live()
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
		if pressed && g.Pressed == nil {
			return refuseAs(CodeNoPressWaiting)
		}
		if !pressed && g.Pressed != nil {
			return refuseAs(CodePressedBeforeMove, colour(*g.Pressed), input)
		}
		if !pressed {
			if running, ok := g.Clock.Running(); !ok {
				return refuseAs(CodeClocksStopped, g.pauseText())
			} else if running != mover {
				return refuse("%s's clock is running but %s is to move: correct the clocks first", colour(running), colour(mover))
			}
		}
		if err := checkText("the move", input, true); err != nil {
			return err
		}
		mv, err := g.Sheet.ParseMove(input)
		if err != nil {
			return refuse("%v", err)
		}
		// Whether the move ends the game decides whether it presses the clock.
		pos := g.Sheet.Position()
		term, result := scoresheet.OutcomeOf(pos.Update(mv))
		san, uci := chess.AlgebraicNotation{}.Encode(pos, mv), chess.UCINotation{}.Encode(pos, mv)
		press := !pressed && term == scoresheet.TermNone
		p := MovePayload{SAN: san, UCI: uci, Press: press, Input: input}
		if press {
			p.PressStamp = pressStamp(t.cmd.Stamp)
		}
		if err := t.emit(g.Number, KindMove, p); err != nil {
			return err
		}
		res = MoveResult{SAN: san, Ply: g.Sheet.Ply() + 1}
		if term != scoresheet.TermNone {
			res.Ended, res.Result = true, result
			return t.emit(g.Number, KindGameEnd, EndPayload{Result: result, Termination: string(term), Reason: endReason(term)})
		}
		return nil
	})
	return res, err
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
			return forbid("the operator acts only for the computer (%s), not for %s: %s refused", t.st.Match.Computer, g.Name(side), what)
		}
		return forbid("%s cannot %s for %s", t.cmd.Role, what, colour(side))
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
	return phrase.Word("paused")
}

// Press presses the running clock before its move is recorded (the move
// follows with Move(..., pressed=true)).
func (a *App) Press(ctx context.Context, c Cmd) error {
	return a.doClock(ctx, c, func(t *tx) error {
		if err := t.require("press", RoleArbiter, RoleOperator, RoleWhite, RoleBlack); err != nil {
			return err
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		if err := t.clockBound(g); err != nil {
			return err
		}
		running, ok := g.Clock.Running()
		if !ok {
			return refuse("no clock is running (%s): nothing to press", g.pauseText())
		}
		if g.Pressed != nil {
			return refuseAs(CodeAlreadyPressed, colour(*g.Pressed))
		}
		if err := t.mayActFor(g, running, "press the clock"); err != nil {
			return err
		}
		return t.emit(g.Number, KindPress, SidePayload{Side: running.String(), PressStamp: pressStamp(t.cmd.Stamp)})
	})
}

// The causes of a pause (PauseArgs.Cause).
const (
	CauseFault        = "fault"         // a technical fault: never on the computer's turn (rule 7)
	CausePowerFailure = "power-failure" // rule 7's exception: the clocks may stop
	CauseUnplayable   = "unplayable"    // the game cannot be played for another reason
	CauseOther        = "other"         // the default
)

// PauseCauses lists the causes a pause may give, in the order the console
// offers them.
func PauseCauses() []string {
	return []string{CauseFault, CausePowerFailure, CauseUnplayable, CauseOther}
}

// PauseArgs are the arguments of "pause".
type PauseArgs struct {
	Reason string
	Call   bool   // a player stops both clocks to call the arbiter (6.12b)
	Cause  string // fault|power-failure|unplayable|other; "" = other
}

// Pause stops the running clock (Article 6.12) for cause "other". With call,
// a player stops both clocks to call the arbiter (6.12b).
func (a *App) Pause(ctx context.Context, c Cmd, reason string, call bool) error {
	return a.PauseFor(ctx, c, PauseArgs{Reason: reason, Call: call})
}

// PauseFor stops the running clock (Article 6.12) and records why. The
// arbiter may stop the clocks on the computer's turn too (6.12a), but not for
// a technical fault: the computer's clock keeps running then (rule 7).
func (a *App) PauseFor(ctx context.Context, c Cmd, args PauseArgs) error {
	reason, call, cause := args.Reason, args.Call, args.Cause
	if cause == "" {
		cause = CauseOther
	}
	return a.do(ctx, c, func(t *tx) error {
		if err := checkText("the reason", reason, false); err != nil {
			return err
		}
		if !slices.Contains(PauseCauses(), cause) {
			return refuseAs(CodeNotAPauseCause, cause)
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		running, ok := g.Clock.Running()
		if !ok {
			return refuse("the clocks are already stopped (%s)", g.pauseText())
		}
		switch c.Role {
		case RoleArbiter:
			if err := t.require("pause", RoleArbiter); err != nil {
				return err
			}
		case RoleWhite, RoleBlack:
			if !call {
				return forbidAs(CodePlayerPausesOnlyToCall)
			}
		case RoleOperator:
			if s, _ := g.Side(t.st.Match.Computer); s == running {
				return forbid("rule 7: the computer's clock must keep running on its turn; only the arbiter can stop it")
			}
			if !call {
				return forbidAs(CodeOperatorPausesOnlyToCall)
			}
		default:
			return forbidAs(CodePauseNeedsArbiter)
		}
		if cs, ok := g.Side(t.st.Match.Computer); ok && cs == running && cause == CauseFault {
			return refuseAs(CodeNoPauseForFault)
		}
		return t.emit(g.Number, KindPause, SidePayload{Side: running.String(), Reason: reason, Call: call, Cause: cause})
	})
}

// Resume starts the clock of the side to move (the arbiter decides when the
// game restarts, 6.12c).
func (a *App) Resume(ctx context.Context, c Cmd) error {
	return a.do(ctx, c, func(t *tx) error {
		if err := t.require("resume", RoleArbiter); err != nil {
			return err
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		if _, ok := g.Clock.Running(); ok {
			return refuse("a clock is already running")
		}
		side := g.ToMove()
		if g.Pressed != nil {
			side = g.Pressed.Other()
		}
		return t.emit(g.Number, KindResume, SidePayload{Side: side.String()})
	})
}

// Adjustment is an arbiter's clock correction.
type Adjustment struct {
	Set    bool // set the remaining time to D, else add D (signed)
	D      time.Duration
	Moves  *int // reset the move counter
	Period *int // 1-based period
}

// Adjust corrects one side's clock (Article 6.10, 6.13; rule 2 when a physical
// clock is kept in step). Allowed while the clock runs.
func (a *App) Adjust(ctx context.Context, c Cmd, side clock.Side, adj Adjustment, reason string) error {
	return a.do(ctx, c, func(t *tx) error {
		if err := t.require("adjust", RoleArbiter); err != nil {
			return err
		}
		if err := checkText("the reason", reason, true); err != nil {
			return refuseAs(CodeAdjustNeedsReason)
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		return t.adjust(g, side, adj, reason, "")
	})
}

// adjust corrects side's clock for reason: the arbiter's words (a string),
// or the core's own (a phrase, also stored as the payload's why).
func (t *tx) adjust(g *Game, side clock.Side, adj Adjustment, reason any, rule string) error {
	if adj.D > 24*time.Hour || adj.D < -24*time.Hour {
		return refuse("a correction of %s is absurd: no clock holds more than 24 hours", clock.FormatReading(adj.D))
	}
	if adj.Moves != nil && (*adj.Moves < 0 || *adj.Moves > 1000) {
		return refuse("the move counter must be between 0 and 1000, not %d", *adj.Moves)
	}
	if adj.Period != nil && (*adj.Period < 1 || *adj.Period > 100) {
		return refuse("the period counts from 1, not %d", *adj.Period)
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
		if adj.D < 0 {
			return refuse("a clock cannot be set to a negative time")
		}
	}
	p.MS = int64(adj.D / time.Millisecond)
	p.NS = int64(adj.D % time.Millisecond)
	if _, _, err := adjustClock(g.Clock, side, p, t.cmd.At); err != nil {
		return refuse("%s's clock cannot be corrected that way: %v", colour(side), err)
	}
	return t.emit(g.Number, KindAdjust, p)
}

// DrawOffer records a draw offer by side (nil: the side of the player who
// gives it, else Game.Offerer). The offer lapses when the opponent moves or
// declines.
func (a *App) DrawOffer(ctx context.Context, c Cmd, side *clock.Side) error {
	return a.do(ctx, c, func(t *tx) error {
		if err := t.require("draw offer", RoleArbiter, RoleOperator, RoleWhite, RoleBlack); err != nil {
			return err
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		s := g.Offerer()
		if side != nil {
			s = *side
		} else if rs, ok, _ := t.roleSide(g); ok {
			s = rs
		}
		if err := t.mayActFor(g, s, "offer a draw"); err != nil {
			return err
		}
		if g.Offer != nil {
			return refuse("%s's draw offer is still open: it must be accepted or declined first", colour(g.Offer.By))
		}
		return t.emit(g.Number, KindDrawOffer, SidePayload{Side: s.String()})
	})
}

// DrawAnswer accepts or declines the pending offer on behalf of the opponent
// of the side that offered.
func (a *App) DrawAnswer(ctx context.Context, c Cmd, accept bool) error {
	return a.do(ctx, c, func(t *tx) error {
		verb := "draw decline"
		if accept {
			verb = "draw accept"
		}
		if err := t.require(verb, RoleArbiter, RoleOperator, RoleWhite, RoleBlack); err != nil {
			return err
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		if g.Offer == nil || g.OfferNext != nil {
			return refuse("there is no draw offer to answer")
		}
		answering := g.Offer.By.Other()
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
	})
}

// Resign ends the game: side resigns.
func (a *App) Resign(ctx context.Context, c Cmd, side clock.Side) error {
	return a.do(ctx, c, func(t *tx) error {
		if err := t.require("resign", RoleArbiter, RoleOperator, RoleWhite, RoleBlack); err != nil {
			return err
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		if err := t.mayActFor(g, side, "resign"); err != nil {
			return err
		}
		result := "0-1"
		if side == clock.Black {
			result = "1-0"
		}
		return t.emit(g.Number, KindGameEnd, EndPayload{Result: result, Termination: string(scoresheet.TermResignation), Reason: g.Name(side) + " resigned", Why: phrase.Errorf(resignedFormat, g.Name(side))})
	})
}

// ValidResult checks a game result.
func ValidResult(r string) error {
	switch r {
	case "1-0", "0-1", "1/2-1/2":
		return nil
	}
	return refuse("%q is not a result: write 1-0, 0-1 or 1/2-1/2", r)
}

// Result ends the game in progress by the arbiter's decision.
func (a *App) Result(ctx context.Context, c Cmd, result, reason string) error {
	return a.do(ctx, c, func(t *tx) error {
		if err := t.require("result", RoleArbiter); err != nil {
			return err
		}
		if err := ValidResult(result); err != nil {
			return err
		}
		if err := checkText("the reason", reason, true); err != nil {
			return refuseAs(CodeResultNeedsReason)
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		return t.emit(g.Number, KindGameEnd, EndPayload{Result: result, Termination: string(scoresheet.TermArbiter), Reason: reason})
	})
}
