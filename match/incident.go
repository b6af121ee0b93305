package match

import (
	"sort"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/scoresheet"
)

// IncidentArgs are what an incident says beyond its kind.
type IncidentArgs struct {
	Text   string `json:"text"`
	Name   string `json:"name,omitempty"`    // operator-replaced, arbiter-replaced
	InHall bool   `json:"in_hall,omitempty"` // maintenance: in the playing hall (else remote)
	Remote bool   `json:"remote,omitempty"`
	Result string `json:"result,omitempty"` // appeal-decision may change a result
	Refers int64  `json:"refers,omitempty"` // appeal: the ruling it contests; appeal-decision: the appeal it closes
}

// LogIncident logs an incident of the kind Incident ('incident KIND') in
// the current game (or, for match-level kinds between games, in the
// match), with the kind's guard and effects (procedures.go).
type LogIncident struct {
	Incident string `json:"incident"` // one of IncidentKinds
	IncidentArgs
}

func (LogIncident) Kind() string { return "incident" }

// Validate checks the kind and the texts.
func (l LogIncident) Validate() error {
	if _, err := kindOf(l.Incident); err != nil {
		return err
	}
	return l.checkTexts()
}

// kindOf is the incident kind named, or the refusal of a name that is none.
func kindOf(name string) (incidentKind, error) {
	k, ok := incidentKinds[name]
	if !ok {
		return k, refuseAs(CodeNotAnIncidentKind, name, strings.Join(IncidentKinds(), ", ")) // a list as a face writes it, not Go's [a b]
	}
	return k, nil
}

func (l LogIncident) checkTexts() error {
	if strings.TrimSpace(l.Text) == "" {
		return refuseAs(CodeIncidentNeedsText, l.Incident)
	}
	if err := checkText("the incident text", l.Text, true); err != nil {
		return err
	}
	return checkText("the name", l.Name, false)
}

// incidentKind describes one kind of incident: who may log it, the rule it
// belongs to, and its guard and effects.
type incidentKind struct {
	rule  string
	roles []Role
	// options are what the kind takes beyond its text: "name" (a
	// replacement's new person), "in-hall" and "remote" (where work on the
	// computer is done), "refers" (the event an appeal concerns), "result"
	// (an appeal decision's new result). Any other is refused.
	options []string
	// guard refuses the incident (e.g. during the human's turn).
	guard func(t *tx, g *Game, args IncidentArgs) error
	// effects emits further events after the incident (e.g. a bonus).
	effects func(t *tx, g *Game, args IncidentArgs) error
	// fill completes the incident's payload (effect text, readings) before
	// it is written; g may be nil between games.
	fill func(t *tx, g *Game, args IncidentArgs, p *IncidentPayload)
	// matchLevel incidents may be logged between games.
	matchLevel bool
}

var anyone = []Role{RoleArbiter, RoleOperator, RoleWhite, RoleBlack}

// IncidentKinds lists the incident kinds, sorted.
func IncidentKinds() []string {
	var ks []string
	for k := range incidentKinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// IncidentRule is the rule an incident kind belongs to.
func IncidentRule(kind string) string { return incidentKinds[kind].rule }

// IncidentOptions lists what an incident kind takes beyond its text: any of
// "name", "in-hall", "remote", "refers" and "result" (see IncidentArgs).
func IncidentOptions(kind string) []string {
	return append([]string(nil), incidentKinds[kind].options...)
}

func (l LogIncident) run(t *tx, _ *Result) error {
	// Validate's checks, in two steps: who may log it depends on its kind
	kind, args := l.Incident, l.IncidentArgs
	k, err := kindOf(kind)
	if err != nil {
		return err
	}
	if err := t.require("incident "+kind, k.roles...); err != nil {
		return err
	}
	if err := l.checkTexts(); err != nil {
		return err
	}
	if _, err := t.match(); err != nil {
		return err
	}
	g := t.st.CurrentGame()
	if (g == nil || !g.Live()) && !k.matchLevel {
		return refuseAs(CodeIncidentNeedsGame, kind)
	}
	if err := flags(k.options...)(t, g, args); err != nil {
		return err
	}
	// Guards and fills see g == nil before the first game.
	if k.guard != nil {
		if err := k.guard(t, g, args); err != nil {
			return err
		}
	}
	p := IncidentPayload{Kind: kind, Text: args.Text, Rule: k.rule, Name: args.Name, Result: args.Result, Refers: args.Refers}
	if k.fill != nil {
		k.fill(t, g, args, &p)
	}
	if g == nil {
		return t.emit(0, KindIncident, p)
	}
	if err := t.emit(g.Number, KindIncident, p); err != nil {
		return err
	}
	if k.effects != nil {
		if err := k.effects(t, g, args); err != nil {
			return err
		}
	}
	return nil
}

// FlagVerdict is the outcome of a fallen flag.
type FlagVerdict struct {
	Side    clock.Side
	Verdict scoresheet.Verdict // CannotMate (draw), MatePossible (loss), Undetermined (arbiter decides)
	Result  string             // "" when the arbiter must decide or the game continues
	Reason  string
	FellAt  time.Time // the instant Side's flag fell (zero for "both")
	// Why is Reason as a code (its English format) and arguments, the 6.9
	// analyser's proof among them, for a face to say in its language.
	Why *phrase.Error
}

// movesBefore is how many moves side had completed before instant at: the
// moves of the start position, the side's moves on the scoresheet completed
// (pressed) before at, and a press before at still waiting for its move. A
// move completed at the very instant is not counted: a press at the flag
// instant is late.
func movesBefore(g *Game, side clock.Side, at time.Time) int {
	n := g.startMoves[side]
	if g.Sheet != nil {
		for _, e := range g.Sheet.Entries() {
			if sideOfColor(e.Color) == side && e.At.Before(at) {
				n++
			}
		}
	}
	if g.Pressed != nil && *g.Pressed == side && g.PressedAt.Before(at) {
		n++
	}
	return n
}

// requiredDone reports whether side had completed the moves its control
// required when its flag fell (Article 6.3), counted from the scoresheet at
// the flag instant, not from the clock's counter and not at the claim.
func requiredDone(g *Game, side clock.Side, f clock.Flag) (done int, ok bool) {
	if f.At.IsZero() {
		return f.Moves, f.RequiredDone()
	}
	done = movesBefore(g, side, f.At)
	return done, f.Required > 0 && done >= f.Required
}

// Flag records that a side's flag has fallen ('flag'), observed by the
// arbiter or claimed by a player (Article 6.8), and applies Articles 6.3 and
// 6.9: whether the required moves were completed is judged at the instant
// the flag fell; with both flags down in a known order the first flag
// decides. With Side "both" and OrderUnknown, Article 6.11: the game
// continues, and those flags can never be claimed. Result.Verdict is the
// ruling.
type Flag struct {
	Side         string `json:"side"` // white, black or both
	OrderUnknown bool   `json:"order_unknown,omitempty"`
}

func (Flag) Kind() string { return "flag" }

// Validate checks the side and that Article 6.11 goes with both flags.
func (f Flag) Validate() error {
	if f.Side == "both" {
		if !f.OrderUnknown {
			return refuseAs(CodeFlagBothNeedsOrder)
		}
		return nil
	}
	if f.OrderUnknown {
		return refuseAs(CodeOrderUnknownGoesWithBoth)
	}
	if _, err := clock.ParseSide(f.Side); err != nil {
		return refuseAs(CodeNotAFlag, f.Side)
	}
	return nil
}

func (cmd Flag) run(t *tx, _ *Result) error {
	g, err := t.liveFor("flag", RoleArbiter, RoleOperator, RoleWhite, RoleBlack)
	if err != nil {
		return err
	}
	if err := cmd.Validate(); err != nil {
		return err
	}
	if cmd.Side == "both" {
		return t.bothFlags(g)
	}
	claimed, _ := clock.ParseSide(cmd.Side) // Validate parsed it
	side, f, err := t.decidingFlag(g, claimed)
	if err != nil {
		return err
	}
	p, end := judgeFlag(t.st.Match, g, side, f, claimed)
	if err := t.emit(g.Number, KindFlag, p); err != nil {
		return err
	}
	if end == nil {
		return nil
	}
	return t.emit(g.Number, KindGameEnd, *end)
}

// bothFlags records Article 6.11: both flags have fallen and which fell
// first is not established. It cannot stop a clock that still shows time.
func (t *tx) bothFlags(g *Game) error {
	if err := t.require("flag both", RoleArbiter); err != nil {
		return err
	}
	at := t.cmd.At
	var fl [2]clock.Flag
	for _, s := range []clock.Side{clock.White, clock.Black} {
		fl[s] = g.Clock.Flag(s, at)
		if !fl[s].Fallen {
			return refuseAs(CodeBothFlagsNotFallen, colour(s), clock.FormatReading(g.Clock.Remaining(s, at)))
		}
	}
	if fl[clock.White].OrderUnknown && fl[clock.Black].OrderUnknown {
		return refuseAs(CodeBothFlagsRecorded)
	}
	return t.emit(g.Number, KindFlag, FlagPayload{Side: "both", OrderUnknown: true,
		WhiteFellAt: rfc(fl[clock.White].At), BlackFellAt: rfc(fl[clock.Black].At)})
}

// decidingFlag is the flag a claim of the claimed side's flag is judged on
// (Article 6.8): the claimed one, unless the other fell first and its side
// had not completed the required moves, which then decides — and which its
// own side cannot claim away.
func (t *tx) decidingFlag(g *Game, claimed clock.Side) (clock.Side, clock.Flag, error) {
	at, side := t.cmd.At, claimed
	f := g.Clock.Flag(side, at)
	if !f.Fallen {
		return side, f, refuseAs(CodeFlagNotFallen, colour(side), clock.FormatReading(g.Clock.Remaining(side, at)))
	}
	if f.OrderUnknown {
		return side, f, refuseAs(CodeFlagOrderUnknown, colour(side))
	}
	of := g.Clock.Flag(side.Other(), at)
	if !of.Fallen || of.OrderUnknown {
		return side, f, nil
	}
	switch {
	case of.At.IsZero() || f.At.IsZero() || of.At.Equal(f.At):
		return side, f, refuseAs(CodeSameInstant, t.st.Match.Instant(f.At))
	case of.At.Before(f.At):
		first := side.Other()
		if _, done := requiredDone(g, first, of); done {
			return side, f, nil // the first flag loses nothing (6.3): the claimed one is judged
		}
		if rs, ok, _ := t.roleSide(g); ok && rs == first {
			return side, f, refuseAs(CodeOwnFlagFirst, colour(first), t.st.Match.Instant(of.At), colour(side), t.st.Match.Instant(f.At), colour(first), colour(side))
		}
		return first, of, nil
	}
	return side, f, nil
}

// judgeFlag is the verdict on side's fallen flag f, claimed as claimed's:
// Article 6.3 counts the moves completed from the scoresheet, not from the
// clock's counter, at the instant the flag fell; a player who had not
// completed them loses unless the opponent cannot checkmate by any series
// of legal moves (6.9), and the arbiter decides when that is undetermined.
// It returns the flag event's payload and the game's end, if it ends. Its
// sentences say the instant the flag fell in m's zone.
func judgeFlag(m *Match, g *Game, side clock.Side, f clock.Flag, claimed clock.Side) (FlagPayload, *EndPayload) {
	payload := FlagPayload{Side: side.String(), FellAt: rfc(f.At)}
	if claimed != side {
		payload.Claimed = claimed.String()
	}
	// said is the verdict's sentence: the 6.8 note when the first flag
	// decides, then why
	said := func(verdict string, why *phrase.Error) {
		if claimed != side {
			// why names the instant the flag fell: said once (before,
			// "…fell first, at 15:01:30.000 EST, and decides (6.8).
			// White's flag fell at 15:01:30.000 EST …")
			why = phrase.Errorf("%s's flag was claimed, but %s's fell first and decides (6.8). %s", colour(claimed), colour(side), why)
		}
		payload.Verdict, payload.Reason, payload.Why = verdict, why.Error(), why
	}
	done, ok := requiredDone(g, side, f)
	if ok {
		said("required moves completed", phrase.Errorf("%s had completed %d moves, the %d required, when the flag fell at %s (6.3): no loss on time", colour(side), done, f.Required, m.Instant(f.At)))
		return payload, nil
	}
	short := phrase.Errorf("%s's flag fell at %s with %d of the %d moves required completed", colour(side), m.Instant(f.At), done, f.Required)
	if f.Required == 0 {
		short = phrase.Errorf("%s's flag fell at %s in the period for all remaining moves", colour(side), m.Instant(f.At))
	}
	opp := side.Other()
	mv := flagMateVerdict(g.Sheet, opp)
	proof := mv.Why
	if proof == nil {
		proof = phrase.Errorf("%s", mv.Reason)
	}
	result := ""
	switch mv.Verdict {
	case scoresheet.CannotMate:
		result = "1/2-1/2"
		said(mv.Verdict.String(), phrase.Errorf("%s, but %s cannot checkmate by any series of legal moves (6.9): %s", short, colour(opp), proof))
	case scoresheet.MatePossible:
		result = "0-1"
		if side == clock.Black {
			result = "1-0"
		}
		said(mv.Verdict.String(), phrase.Errorf("%s: %s did not complete the required moves in time (6.9): %s", short, colour(side), proof))
	default:
		said(mv.Verdict.String(), phrase.Errorf("%s; whether %s can still checkmate is undetermined (%s): the arbiter decides the result", short, colour(opp), proof))
	}
	if result == "" {
		return payload, nil
	}
	return payload, &EndPayload{Result: result, Termination: string(scoresheet.TermTimeForfeit), Reason: payload.Reason, Why: payload.Why}
}

// rfc writes an instant for an event payload ("" for the zero time).
func rfc(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
