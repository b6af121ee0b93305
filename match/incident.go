package match

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"arbiter/clock"
	"arbiter/scoresheet"
)

// IncidentArgs are the arguments of "incident KIND".
type IncidentArgs struct {
	Text   string
	Name   string // operator-replaced, arbiter-replaced
	InHall bool   // maintenance: in the playing hall (else remote)
	Remote bool
	Result string // appeal-decision may change a result
	Refers int64  // appeal: the ruling it contests; appeal-decision: the appeal it closes
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
	// output is text printed for the user (e.g. a setup card).
	output func(t *tx, g *Game) string
	// matchLevel incidents may be logged between games.
	matchLevel bool
}

var anyone = []Role{RoleArbiter, RoleOperator, RoleWhite, RoleBlack}

var incidentKinds = map[string]incidentKind{
	"note": {rule: "", roles: anyone, matchLevel: true},
}

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

// Incident logs an incident of the given kind in the current game (or, for
// match-level kinds between games, in the match). It returns text for the
// user, such as a setup card.
func (a *App) Incident(ctx context.Context, c Cmd, kind string, args IncidentArgs) (string, error) {
	var out string
	err := a.do(ctx, c, func(t *tx) error {
		k, ok := incidentKinds[kind]
		if !ok {
			return refuse("%q is not an incident kind: use one of %v", kind, IncidentKinds())
		}
		if err := t.require("incident "+kind, k.roles...); err != nil {
			return err
		}
		if strings.TrimSpace(args.Text) == "" {
			return refuse("incident %s needs --text: describe what happened", kind)
		}
		if err := checkText("the incident text", args.Text, true); err != nil {
			return err
		}
		if err := checkText("the name", args.Name, false); err != nil {
			return err
		}
		if _, err := t.match(); err != nil {
			return err
		}
		g := t.st.CurrentGame()
		if (g == nil || !g.Live()) && !k.matchLevel {
			return refuse("incident %s needs a game in progress", kind)
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
		if k.output != nil {
			out = k.output(t, t.st.Game(g.Number))
		}
		return nil
	})
	return out, err
}

// FlagVerdict is the outcome of a fallen flag.
type FlagVerdict struct {
	Side    clock.Side
	Verdict scoresheet.Verdict // CannotMate (draw), MatePossible (loss), Undetermined (arbiter decides)
	Result  string             // "" when the arbiter must decide or the game continues
	Reason  string
}

// Flag records that side's flag has fallen, observed by the arbiter or claimed
// by a player (Article 6.8), and applies Article 6.9. With both and
// orderUnknown, Article 6.11: the game continues.
func (a *App) Flag(ctx context.Context, c Cmd, which string, orderUnknown bool) (FlagVerdict, error) {
	var v FlagVerdict
	err := a.do(ctx, c, func(t *tx) error {
		if err := t.require("flag", RoleArbiter, RoleOperator, RoleWhite, RoleBlack); err != nil {
			return err
		}
		g, err := t.live()
		if err != nil {
			return err
		}
		at := t.cmd.At
		if which == "both" {
			if !orderUnknown {
				return refuse("'flag both' records Article 6.11: add --order-unknown, or name the side whose flag fell first")
			}
			if err := t.require("flag both", RoleArbiter); err != nil {
				return err
			}
			// Article 6.11 is about two fallen flags: it cannot stop a clock
			// that still shows time
			for _, s := range []clock.Side{clock.White, clock.Black} {
				if !g.Clock.Flag(s, at).Fallen {
					return refuse("%s's flag has not fallen (%s remain): Article 6.11 applies only when both flags have fallen", colour(s), FormatDuration(g.Clock.Remaining(s, at)))
				}
			}
			return t.emit(g.Number, KindFlag, FlagPayload{Side: "both", OrderUnknown: true})
		}
		if orderUnknown {
			return refuse("--order-unknown goes with 'flag both'")
		}
		side, err := clock.ParseSide(which)
		if err != nil {
			return refuse("flag needs white, black or both, not %q", which)
		}
		f := g.Clock.Flag(side, at)
		if !f.Fallen {
			return refuse("%s's flag has not fallen: %s remain", colour(side), FormatDuration(g.Clock.Remaining(side, at)))
		}
		v = FlagVerdict{Side: side}
		opp := side.Other()
		// Article 6.3: the moves completed are counted from the scoresheet,
		// not from the clock's counter.
		if done := sheetMoves(g, side); f.Required > 0 && done >= f.Required {
			v.Reason = fmt.Sprintf("%s had completed %d moves, the %d required, when the flag fell (6.3): no loss on time", Colour(side), done, f.Required)
			return t.emit(g.Number, KindFlag, FlagPayload{Side: side.String(), Verdict: "required moves completed", Reason: v.Reason})
		}
		mv := flagMateVerdict(g.Sheet, opp)
		v.Verdict = mv.Verdict
		switch mv.Verdict {
		case scoresheet.CannotMate:
			v.Result = "1/2-1/2"
			v.Reason = fmt.Sprintf("%s's flag fell, but %s cannot checkmate by any series of legal moves (6.9): %s", Colour(side), Colour(opp), mv.Reason)
		case scoresheet.MatePossible:
			v.Result = "0-1"
			if side == clock.Black {
				v.Result = "1-0"
			}
			v.Reason = fmt.Sprintf("%s did not complete the required moves in time (6.9): %s", Colour(side), mv.Reason)
		default:
			v.Reason = fmt.Sprintf("%s's flag fell; whether %s can still checkmate is undetermined (%s): the arbiter decides with 'result'", Colour(side), Colour(opp), mv.Reason)
		}
		if err := t.emit(g.Number, KindFlag, FlagPayload{Side: side.String(), Verdict: mv.Verdict.String(), Reason: v.Reason}); err != nil {
			return err
		}
		if v.Result == "" {
			return nil
		}
		return t.emit(g.Number, KindGameEnd, EndPayload{Result: v.Result, Termination: string(scoresheet.TermTimeForfeit), Reason: v.Reason})
	})
	return v, err
}
