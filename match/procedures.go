package match

// The arbiter's procedures of the match regulations (rules 1–20) and of
// FIDE Article 6: the incident kinds with their guards and automatic
// effects, forfeits (6.6), claims, and amendments of the record.
//
// "The human" is the player who is not the computer; "the human's turn"
// means the human's clock is running or, with the clocks stopped, the human
// is to move (a press awaiting its move counts as the move made). Work on
// or about the computer (rules 4, 6, 12, 13) is refused during the human's
// turn, with a sentence that cites the rule.
//
// docs/rules.md maps every rule to its command and test.

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/scoresheet"
	"arbiter/store"
)

// RecoveryBonus is the time the human receives after in-hall maintenance
// (rule 13) or an operator error (rule 10).
const RecoveryBonus = 5 * time.Minute

var (
	rolesComputer = []Role{RoleOperator, RoleArbiter}
	rolesArbiter  = []Role{RoleArbiter}
)

// incidentKinds are the kinds of incident, with who may log each, its rule,
// guard, effects and output (IncidentKinds lists them).
var incidentKinds = map[string]incidentKind{
	"note": {rule: "", roles: anyone, matchLevel: true},
	IncidentMaintenance: {rule: "rule 13", roles: rolesComputer,
		options: []string{"in-hall", "remote"}, guard: all(hallOrRemote, notHumansTurn("rule 13", "work on the computer")),
		fill: fillWhere, effects: hallBonus},
	"replacement": {rule: "rule 13", roles: rolesComputer,
		options: []string{"in-hall", "remote"}, guard: all(hallOrRemote, notHumansTurn("rule 13", "replacing the computer's hardware or software")),
		fill: fillWhere, effects: hallBonus},
	IncidentTechnicalFault: {rule: "rules 6, 7, 12", roles: rolesComputer,
		guard: computerMatch("rules 6, 7, 12"),
		fill:  fillEffect(effectFaultRuns)},
	"power-failure": {rule: "rule 7", roles: rolesArbiter, effects: stopForPower},
	"operator-communication": {rule: "rule 6", roles: rolesComputer,
		guard: notHumansTurn("rule 6", "the operator's communication with others")},
	IncidentSetup: {rule: "rule 12", roles: rolesComputer,
		guard: notHumansTurn("rule 12", "setting up the position in the computer"),
		fill:  fillSetup},
	IncidentOperatorReplaced: {rule: "rule 4", roles: rolesComputer, matchLevel: true,
		options: []string{"name"}, guard: all(needName, notHumansTurn("rule 4", "replacing the operator"))},
	"time-info": {rule: "rule 11", roles: rolesComputer,
		guard: computersTurn, fill: fillReadings},
	"clock-replaced": {rule: "rule 2, 6.10", roles: rolesArbiter, matchLevel: true,
		fill: fillEffect(effectClockReplaced)},
	"conduct":               {rule: "rule 5, 6.7c", roles: rolesArbiter, matchLevel: true},
	IncidentRuling:          {rule: "rule 16", roles: rolesArbiter, matchLevel: true},
	IncidentArbiterReplaced: {rule: "rule 17", roles: rolesArbiter, matchLevel: true, options: []string{"name"}, guard: needName},
	IncidentAppeal:          {rule: "rule 19", roles: anyone, matchLevel: true, options: []string{"refers"}, guard: appealGuard},
	IncidentAppealDecision:  {rule: "rule 19", roles: rolesArbiter, matchLevel: true, options: []string{"refers", "result"}, guard: decisionGuard},
	"irregularity":          {rule: "rule 20", roles: rolesArbiter, matchLevel: true},
}

type guardFunc = func(t *tx, g *Game, args IncidentArgs) error

func all(gs ...guardFunc) guardFunc {
	return func(t *tx, g *Game, args IncidentArgs) error {
		for _, f := range gs {
			if err := f(t, g, args); err != nil {
				return err
			}
		}
		return nil
	}
}

// flags refuses the options a kind does not take.
func flags(allowed ...string) guardFunc {
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	return func(t *tx, g *Game, a IncidentArgs) error {
		given := map[string]bool{"name": a.Name != "", "in-hall": a.InHall, "remote": a.Remote, "result": a.Result != "", "refers": a.Refers != 0}
		for _, f := range []string{"name", "in-hall", "remote", "result", "refers"} {
			if given[f] && !ok[f] {
				return refuseAs(CodeIncidentTakesNo, f)
			}
		}
		return nil
	}
}

func hallOrRemote(t *tx, g *Game, a IncidentArgs) error {
	if a.InHall == a.Remote {
		return refuseAs(CodeSayWhere)
	}
	return nil
}

func needName(t *tx, g *Game, a IncidentArgs) error {
	if strings.TrimSpace(a.Name) == "" {
		return refuseAs(CodeNeedName)
	}
	return nil
}

func computerMatch(rule phrase.Word) guardFunc {
	return func(t *tx, g *Game, a IncidentArgs) error {
		if t.st.Match.Computer == "" {
			return refuseAs(CodeNoComputer, rule)
		}
		return nil
	}
}

// notHumansTurn refuses work about the computer during the human's turn.
func notHumansTurn(rule, what phrase.Word) guardFunc {
	return func(t *tx, g *Game, a IncidentArgs) error {
		if err := computerMatch(rule)(t, g, a); err != nil {
			return err
		}
		if HumansTurn(t.st.Match, g) {
			h := t.st.Match.Human()
			return refuseAs(CodeHumansTurn, rule, what, h, h)
		}
		return nil
	}
}

func computersTurn(t *tx, g *Game, a IncidentArgs) error {
	m := t.st.Match
	if err := computerMatch("rule 11")(t, g, a); err != nil {
		return err
	}
	if cs, ok := g.Side(m.Computer); !ok || turnOf(g) != cs {
		return refuseAs(CodeTimeInfoOnComputersTurn, m.Computer, m.Computer)
	}
	return nil
}

// turnOf is the side whose turn it is: the running clock, else the side to
// move (after a press awaiting its move, the opponent of the presser).
func turnOf(g *Game) clock.Side {
	if s, ok := g.Clock.Running(); ok {
		return s
	}
	if g.Pressed != nil {
		return g.Pressed.Other()
	}
	return g.ToMove()
}

// HumansTurn reports whether it is the human's turn in game g: the human's
// clock runs or, with the clocks stopped, the human is to move. It is false
// between games and in matches without a computer.
func HumansTurn(m *Match, g *Game) bool {
	if m == nil || g == nil || !g.Live() || m.Computer == "" {
		return false
	}
	hs, ok := g.Side(m.Human())
	return ok && turnOf(g) == hs
}

func fillWhere(t *tx, g *Game, a IncidentArgs, p *IncidentPayload) {
	if a.InHall {
		p.Extra = map[string]string{"where": "in-hall"}
		p.Effect = fmt.Sprintf(effectHallFormat, t.st.Match.Human(), clock.FormatReading(RecoveryBonus))
	} else {
		p.Extra = map[string]string{"where": "remote"}
		p.Effect = effectRemote
	}
}

func fillEffect(effect string) func(t *tx, g *Game, a IncidentArgs, p *IncidentPayload) {
	return func(t *tx, g *Game, a IncidentArgs, p *IncidentPayload) { p.Effect = effect }
}

// Readings are both clock readings at an instant, as recorded by time-info
// and setup incidents.
type Readings struct {
	White string `json:"white"`
	Black string `json:"black"`
}

func readingsAt(g *Game, at time.Time) Readings {
	return Readings{White: clock.FormatReading(g.Clock.Remaining(clock.White, at)), Black: clock.FormatReading(g.Clock.Remaining(clock.Black, at))}
}

func fillReadings(t *tx, g *Game, a IncidentArgs, p *IncidentPayload) {
	r := readingsAt(g, t.cmd.At)
	p.Extra = r
	p.Effect = fmt.Sprintf(effectToldFormat, r.White, r.Black)
}

// setupRecord is what a setup incident stores: everything the program needs
// to be restarted.
type setupRecord struct {
	FEN      string   `json:"fen"`
	Readings Readings `json:"clocks"`
	Moves    [2]int   `json:"moves"`
	Periods  [2]int   `json:"periods"`
}

func fillSetup(t *tx, g *Game, a IncidentArgs, p *IncidentPayload) {
	p.Extra = setupRecord{FEN: g.Sheet.FEN(), Readings: readingsAt(g, t.cmd.At),
		Moves:   [2]int{g.Clock.Moves(clock.White), g.Clock.Moves(clock.Black)},
		Periods: [2]int{g.Clock.Period(clock.White) + 1, g.Clock.Period(clock.Black) + 1}}
	p.Effect = effectSetupCard
}

// SetupCard is what the operator needs to set up the game in the computer
// (rule 12): the position, both clocks with their move counters and
// periods, castling and en-passant rights, and the positions that count for
// repetition.
func SetupCard(g *Game, m *Match, at time.Time, tr func(string) string) string {
	if tr == nil {
		tr = func(s string) string { return s }
	}
	f := func(format string, a ...any) string { return fmt.Sprintf(tr(format), a...) }
	colour := func(s clock.Side) string { return tr(Colour(s)) }
	var b strings.Builder
	b.WriteString(f("SETUP CARD — game %d, %s (White) vs %s (Black), at %s", g.Number, g.White, g.Black, at.UTC().Format(time.RFC3339)) + "\n")
	type line struct{ label, value string }
	lines := []line{
		{tr("FEN:"), g.Sheet.FEN()},
		{tr("to move:"), f("%s (ply %d played)", colour(g.ToMove()), g.Sheet.Ply())},
	}
	for _, s := range []clock.Side{clock.White, clock.Black} {
		c := g.Clock
		ctl := c.Control(s)
		toCtl := tr("all remaining moves")
		if n, ok := c.MovesToControl(s); ok {
			toCtl = f("%d moves to the control at move %d", n, ctl.MovesThrough(c.Period(s)))
		}
		lines = append(lines, line{colour(s) + ":", f("%s, %d moves completed, period %d (%s), control %s",
			clock.FormatReading(c.Remaining(s, at)), c.Moves(s), c.Period(s)+1, toCtl, ctl.String())})
	}
	running := tr("none (clocks stopped)")
	if s, ok := g.Clock.Running(); ok {
		running = colour(s)
	}
	lines = append(lines, line{tr("running:"), running}, line{tr("castling:"), g.Sheet.CastlingRights()},
		line{tr("en passant:"), g.Sheet.EnPassant()},
		line{tr("halfmoves:"), f("%d since the last capture or pawn move", g.Sheet.Position().HalfMoveClock())})
	width := 11 // the labels' column, as wide as the longest label (English: "en passant:")
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(l.label))
	}
	for _, l := range lines {
		fmt.Fprintf(&b, "%s%s %s\n", l.label, strings.Repeat(" ", width-utf8.RuneCountInString(l.label)), l.value)
	}
	b.WriteString(tr("positions that count for repetition:") + "\n")
	for _, p := range g.Sheet.RepetitionPositions() {
		fmt.Fprintf(&b, "  %d× %s — %s\n", p.Count, p.Key, strings.Join(p.Where, ", "))
	}
	return b.String()
}

// hallBonus gives the human the recovery bonus for in-hall work (rule 13).
func hallBonus(t *tx, g *Game, a IncidentArgs) error {
	if !a.InHall {
		return nil
	}
	hs, ok := g.Side(t.st.Match.Human())
	if !ok {
		return nil
	}
	return t.adjust(t.st.Game(g.Number), hs, Adjustment{D: RecoveryBonus}, phrase.Errorf(bonusHall), "rule 13")
}

// stopForPower stops the clocks: the one fault that may (rule 7).
func stopForPower(t *tx, g *Game, a IncidentArgs) error {
	g = t.st.Game(g.Number)
	running, ok := g.Clock.Running()
	if !ok {
		return nil
	}
	return t.emit(g.Number, KindPause, SidePayload{Side: running.String(), Reason: "power failure (rule 7): the game cannot be played", Cause: CausePowerFailure})
}

// findIncident finds the incident logged by event seq in any game.
func (s *State) findIncident(seq int64) (*Game, *Incident) {
	for _, g := range s.Games {
		for i := range g.Incidents {
			if g.Incidents[i].Seq == seq {
				return g, &g.Incidents[i]
			}
		}
	}
	return nil, nil
}

// decided reports whether an appeal has been decided.
func (s *State) decided(appeal int64) bool {
	for _, g := range s.Games {
		for _, inc := range g.Incidents {
			if inc.Kind == "appeal-decision" && inc.Refers == appeal {
				return true
			}
		}
	}
	return false
}

// ruling finds the decision an appeal may contest: an incident the arbiter
// logged, or a flag event and the game end it caused (the verdict of
// Article 6.9 is the arbiter's decision, whoever claimed the flag). A game
// end is known by the flag event just before it, in the same transaction.
func (s *State) ruling(seq int64) (*Game, *Incident) {
	g, inc := s.findIncident(seq)
	switch {
	case inc == nil:
		return nil, nil
	case inc.Role == RoleArbiter || inc.Kind == "flag":
		return g, inc
	}
	if pg, prev := s.findIncident(seq - 1); prev != nil && pg == g && prev.Kind == "flag" && g.Termination == scoresheet.TermTimeForfeit {
		return g, inc
	}
	return nil, nil
}

func appealGuard(t *tx, g *Game, a IncidentArgs) error {
	if a.Refers == 0 {
		return refuseAs(CodeAppealNeedsRefers)
	}
	_, inc := t.st.ruling(a.Refers)
	if inc == nil {
		return refuseAs(CodeNotARuling, a.Refers)
	}
	return nil
}

func decisionGuard(t *tx, g *Game, a IncidentArgs) error {
	if a.Refers == 0 {
		return refuseAs(CodeAppealDecisionNeedsRefers)
	}
	ag, inc := t.st.findIncident(a.Refers)
	if inc == nil || inc.Kind != "appeal" {
		return refuseAs(CodeNotAnAppeal, a.Refers)
	}
	if t.st.decided(a.Refers) {
		return refuseAs(CodeAppealDecided, a.Refers)
	}
	if a.Result == "" {
		return nil
	}
	if err := ValidResult(a.Result); err != nil {
		return err
	}
	rg := appealedGame(t.st, ag, inc)
	if !rg.Over() {
		return refuseAs(CodeAppealGameInProgress, rg.Number)
	}
	return nil
}

// appealedGame is the game an appeal concerns: the game of the decision it
// contests.
func appealedGame(s *State, ag *Game, appeal *Incident) *Game {
	if rg, _ := s.ruling(appeal.Refers); rg != nil {
		return rg
	}
	return ag
}

// keepRefers notes in the incident log what an appeal or decision refers to.
func keepRefers(s *State, g *Game, e store.Event, p IncidentPayload) error {
	g.Incidents[len(g.Incidents)-1].Refers = p.Refers
	return nil
}

// applyAppealDecision notes the appeal it closes and changes a game's result
// when the appeals board says so.
func applyAppealDecision(s *State, g *Game, e store.Event, p IncidentPayload) error {
	keepRefers(s, g, e, p)
	if p.Result == "" {
		return nil
	}
	ag, appeal := s.findIncident(p.Refers)
	if appeal == nil {
		return fmt.Errorf("appeal decision refers to event %d, which is not in the log", p.Refers)
	}
	rg := appealedGame(s, ag, appeal)
	rg.Result = p.Result
	rg.Reason, rg.Why = "result changed by the appeals board (rule 19): "+p.Text, nil
	return nil
}

// sheetMoves is how many moves side has completed on the scoresheet.
func sheetMoves(g *Game, side clock.Side) int {
	if g.Sheet == nil {
		return 0
	}
	n := 0
	for _, e := range g.Sheet.Entries() {
		if sideOfColor(e.Color) == side {
			n++
		}
	}
	return n
}

// --- forfeit (Article 6.6) ---------------------------------------------------

// Forfeit defaults Side, absent from the board ('forfeit'), in the game in
// progress or, before it starts, in the next scheduled game (Article 6.6).
// It is allowed once the player is absent more than Match.ForfeitAfter
// after the scheduled start (the game's start when none was scheduled) and
// has not moved. The opponent wins; the colours of later games stay as
// drawn (rule 3).
type Forfeit struct {
	Side   clock.Side `json:"side"`
	Reason string     `json:"reason"`
}

func (Forfeit) Kind() string { return "forfeit" }

// Validate checks the reason.
func (f Forfeit) Validate() error {
	if err := checkText("the reason", f.Reason, true); err != nil {
		return refuseAs(CodeForfeitNeedsReason)
	}
	return nil
}

func (f Forfeit) run(t *tx, _ *Result) error {
	side, reason := f.Side, f.Reason
	if err := t.require("forfeit", RoleArbiter); err != nil {
		return err
	}
	if err := f.Validate(); err != nil {
		return err
	}
	m, err := t.match()
	if err != nil {
		return err
	}
	g := t.st.CurrentGame()
	if g == nil || !g.Live() {
		g = t.st.nextGame()
		if g == nil {
			return refuseAs(CodeNoGameToForfeit)
		}
		if g.Scheduled.IsZero() {
			return refuseAs(CodeForfeitNoStart, g.Number, clock.FormatReading(m.ForfeitAfter))
		}
	}
	base, what := g.Scheduled, phrase.Word("the scheduled start")
	if base.IsZero() {
		base, what = g.Started, "the start of the game"
	}
	if n := sheetMoves(g, side); n > 0 {
		return refuseAs(CodePlayerHasMoved, g.Name(side), colour(side), n, g.Number)
	}
	deadline := base.Add(m.ForfeitAfter)
	if err := t.arrivedInTime(g, side, deadline, clock.FormatReading(m.ForfeitAfter), what, base); err != nil {
		return err
	}
	if !t.cmd.At.After(deadline) {
		return refuseAs(CodeForfeitTooEarly,
			g.Name(side), clock.FormatReading(m.ForfeitAfter), what, base.UTC().Format(time.RFC3339), deadline.UTC().Format(time.RFC3339), waitFor(deadline.Sub(t.cmd.At)))
	}
	result := "0-1"
	if side == clock.Black {
		result = "1-0"
	}
	return t.emit(g.Number, KindGameEnd, EndPayload{Result: result, Termination: string(scoresheet.TermForfeit),
		Reason: fmt.Sprintf("%s did not arrive within %s of %s (6.6): %s", g.Name(side), clock.FormatReading(m.ForfeitAfter), what, reason)})
}

// --- claims -------------------------------------------------------------------

// ClaimPayload records a claim of a draw and the ruling on it.
type ClaimPayload struct {
	Kind   string `json:"kind"` // repetition | fifty-moves
	Side   string `json:"side"`
	Move   string `json:"move,omitempty"` // intended move written, not played
	Valid  bool   `json:"valid"`
	Ruling string `json:"ruling"`
	// Why is Ruling as a phrase, for a console to say it in its language
	// (absent in records written before issue 25's phase B).
	Why *phrase.Error `json:"why,omitempty"`
}

// ClaimResult is the ruling on a claim (Result.Ruling).
type ClaimResult struct {
	Valid  bool
	Ruling string        // one sentence, in English
	Why    *phrase.Error // the same as a phrase (nil: a claim recorded before it was kept)
}

// The draws a player may claim (Claim.Draw).
const (
	ClaimRepetition = "repetition"
	ClaimFiftyMoves = "fifty-moves"
)

// Claim judges a claim of a draw ('claim repetition', 'claim fifty-moves')
// by repetition or by the fifty-move rule, made by the side having the move
// (the role's side; for the arbiter, the side to move), now or with an
// intended move. A valid claim draws the game; an invalid one is logged and
// the game continues. The claim is judged from the record, never from a
// display (6.14). Result.Ruling is the ruling.
type Claim struct {
	Draw string `json:"draw"`           // repetition | fifty-moves
	Move string `json:"move,omitempty"` // the intended move, written, not played
}

func (Claim) Kind() string { return "claim" }

// Validate checks the intended move's text and the kind of draw.
func (cl Claim) Validate() error {
	if err := cl.checkMove(); err != nil {
		return err
	}
	_, err := cl.term()
	return err
}

func (cl Claim) checkMove() error { return checkText("the intended move", cl.Move, false) }

// term is the game's end a valid claim of its kind makes.
func (cl Claim) term() (scoresheet.Termination, error) {
	switch cl.Draw {
	case ClaimRepetition:
		return scoresheet.TermRepetition, nil
	case ClaimFiftyMoves:
		return scoresheet.TermFiftyMoves, nil
	}
	return scoresheet.TermNone, refuseAs(CodeNotAClaim, cl.Draw)
}

// run checks Validate's two parts apart: the intended move's text before
// the game, the kind of draw once the claimant is known to have the move.
func (cl Claim) run(t *tx, _ *Result) error {
	kind, intended := cl.Draw, cl.Move
	var res ClaimResult
	if err := t.require("claim", RoleArbiter, RoleOperator, RoleWhite, RoleBlack); err != nil {
		return err
	}
	if err := cl.checkMove(); err != nil {
		return err
	}
	g, err := t.live()
	if err != nil {
		return err
	}
	side := g.ToMove()
	if s, ok, err := t.roleSide(g); err != nil {
		return err
	} else if ok && s != side {
		return forbidAs(CodeClaimNotYourMove, colour(side))
	}
	term, err := cl.term()
	if err != nil {
		return err
	}
	if term == scoresheet.TermRepetition {
		res.Valid, res.Why = g.Sheet.ClaimRepetition(intended)
	} else {
		res.Valid, res.Why = g.Sheet.ClaimFiftyMoves(intended)
	}
	if !res.Valid {
		res.Why = phrase.Errorf("%v The game continues.", res.Why)
	}
	res.Ruling = res.Why.Error()
	if err := t.emit(g.Number, KindClaim, ClaimPayload{Kind: kind, Side: side.String(), Move: intended, Valid: res.Valid, Ruling: res.Ruling, Why: res.Why}); err != nil {
		return err
	}
	if !res.Valid {
		return nil
	}
	return t.emit(g.Number, KindGameEnd, EndPayload{Result: "1/2-1/2", Termination: string(term), Reason: res.Ruling, Why: res.Why})
}

func applyClaim(s *State, g *Game, e store.Event) error {
	var p ClaimPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	side, err := sideOf(p.Side)
	if err != nil {
		return err
	}
	rule := "9.2"
	if p.Kind == "fifty-moves" {
		rule = "9.3"
	}
	text := fmt.Sprintf("%s claims a draw by %s", g.Name(side), strings.ReplaceAll(p.Kind, "-", " "))
	if p.Move != "" {
		text += " with the intended move " + p.Move
	}
	g.Incidents = append(g.Incidents, s.incident(g, e, IncidentClaim, text+": "+p.Ruling, rule, ""))
	return nil
}

// --- amendments ---------------------------------------------------------------

// AmendPayload replaces a wrongly entered move in the record.
type AmendPayload struct {
	Ply    int    `json:"ply"`
	Old    string `json:"old"`
	SAN    string `json:"san"`
	UCI    string `json:"uci"`
	Input  string `json:"input,omitempty"`
	Reason string `json:"reason"`
}

// Amend corrects a data-entry slip ('amend'): the board had the right move
// at Ply (1-based) but it was entered wrongly. The recorded move is
// replaced if every later move stays legal; the clocks are untouched.
type Amend struct {
	Ply    int    `json:"ply"`
	Input  string `json:"move"`
	Reason string `json:"reason"`
}

func (Amend) Kind() string { return "amend" }

// Validate checks the reason and that a move is given.
func (am Amend) Validate() error {
	if err := checkText("the reason", am.Reason, true); err != nil {
		return refuseAs(CodeAmendNeedsReason)
	}
	if err := checkText("the move", am.Input, true); err != nil {
		return refuseAs(CodeAmendNeedsMove)
	}
	return nil
}

func (am Amend) run(t *tx, _ *Result) error {
	ply, input, reason := am.Ply, am.Input, am.Reason
	if err := t.require("amend", RoleArbiter); err != nil {
		return err
	}
	if err := am.Validate(); err != nil {
		return err
	}
	if _, err := t.match(); err != nil {
		return err
	}
	g := t.st.CurrentGame()
	if g == nil || g.Sheet == nil {
		return refuseAs(CodeNoRecordToAmend)
	}
	probe := g.Sheet.Clone()
	if probe.Ply() == 0 {
		return refuseAs(CodeNoMovesYet, g.Number) // not "choose a ply from 1 to 0"
	}
	if ply < 1 || ply > probe.Ply() {
		return refuseAs(CodeNoPlyToAmend, ply, g.Number, probe.Ply(), probe.Ply())
	}
	old := *probe.Entries()[ply-1] // Amend rewrites the entry in place
	oldLabel := old.Label()
	beforeTerm, _ := probe.Outcome()
	if err := probe.Amend(ply, input); err != nil {
		return refuseAs(CodeCannotAmend, err)
	}
	ne := probe.Entries()[ply-1]
	if ne.UCI == old.UCI {
		return refuseAs(CodeNothingToAmend, ne.SAN, ply)
	}
	if term, _ := probe.Outcome(); term != beforeTerm {
		return refuseAs(CodeAmendChangesStanding, oldLabel, ne.SAN, term)
	}
	return t.emit(g.Number, KindAmend, AmendPayload{Ply: ply, Old: old.SAN, SAN: ne.SAN, UCI: ne.UCI, Input: input, Reason: reason})
}

func applyAmend(s *State, g *Game, e store.Event) error {
	var p AmendPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	if g.Sheet == nil {
		return fmt.Errorf("no record to amend")
	}
	if err := g.Sheet.Amend(p.Ply, p.UCI); err != nil {
		return err
	}
	text := phrase.Errorf("ply %d: %s entered, %s played; record amended: %s", p.Ply, p.Old, p.SAN, p.Reason)
	g.Incidents = append(g.Incidents, s.said(g, e, IncidentAmend, "rule 15", text, phrase.Errorf("clocks untouched")))
	return nil
}

// flagMateVerdict judges whether opp can still checkmate after the other
// side's flag fell (Article 6.9) with the helpmate analyser
// (scoresheet.CanMate, package unwinnable): MatePossible comes with a
// helpmate as its proof (in the reason, in SAN, and in Line as UCI),
// CannotMate with the reason no mate exists, Undetermined only at the node
// limit, and then the arbiter decides with 'result'. Material alone is never
// taken as a proof of mate.
func flagMateVerdict(sheet *scoresheet.Sheet, opp clock.Side) scoresheet.MateVerdict {
	return scoresheet.CanMate(sheet.Position(), colorOf(opp))
}
