package cli

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"arbiter/clock"
	"arbiter/match"
)

// The arbiter's procedures (docs/rules.md): position resets, amendments,
// claims and forfeits.
func init() {
	boolFlags = append(boolFlags, "preview")
	register(&command{name: "correct", writes: true, roles: rolesArbiter,
		usage:   "correct --ply N --method record|proportional|keep|set [--white H:MM:SS[.fff] --black H:MM:SS[.fff]] [--cause operator-error|irregularity] [--no-bonus] --reason R | correct --ply N --preview",
		summary: "Restore the position before ply N and set the clocks (rule 10, 6.13); --preview shows the four methods side by side.", parse: parseCorrectCommand, told: toldCorrect})
	register(&command{name: "amend", writes: true, roles: rolesArbiter, usage: "amend --ply N MOVE --reason R",
		summary: "Replace a wrongly entered move whose board move was right; later moves must stay legal; clocks untouched.", parse: parseAmend, told: toldAmend})
	register(&command{name: "claim repetition", writes: true, roles: rolesAnyone + " (operator only for the computer)", usage: "claim repetition [--move M]",
		summary: "Claim a draw by threefold repetition, now or with an intended move; an invalid claim is logged and play continues.",
		parse:   func(r *runner, a *args) (match.Command, error) { return parseClaim(a, match.ClaimRepetition) }, told: toldClaim})
	register(&command{name: "claim fifty-moves", writes: true, roles: rolesAnyone + " (operator only for the computer)", usage: "claim fifty-moves [--move M]",
		summary: "Claim a draw under the fifty-move rule, now or with an intended move; an invalid claim is logged and play continues.",
		parse:   func(r *runner, a *args) (match.Command, error) { return parseClaim(a, match.ClaimFiftyMoves) }, told: toldClaim})
	register(&command{name: "forfeit", writes: true, roles: rolesArbiter, usage: "forfeit white|black --reason R",
		summary: "Default an absent player more than the forfeit time after the scheduled start (6.6); colours of later games are unchanged (rule 3).", parse: parseForfeit, told: toldLoss("forfeit of")})
	register(&command{name: "arrive", writes: true, roles: rolesArbiter, usage: "arrive --player NAME [--at INSTANT]",
		summary: "Record that a player arrived at the board (6.6), now or at --at; a player who arrived within the forfeit time is not defaulted.", parse: parseArrive, told: toldArrive})
}

// parseCorrect reads the arguments of "correct".
func parseCorrect(a *args) (ca match.Correct, preview bool, err error) {
	preview = a.bool("preview")
	v, ok := a.take("ply")
	if !ok {
		return ca, preview, fmt.Errorf("correct needs --ply N, the mistaken move's ply (1 = White's first move)")
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return ca, preview, fmt.Errorf("--ply %q is not a ply: give a whole number from 1", v)
	}
	ca.Ply = n
	ca.Method, _ = a.take("method")
	ca.Cause, _ = a.take("cause")
	ca.Reason, _ = a.take("reason")
	ca.NoBonus = a.bool("no-bonus")
	for _, f := range []struct {
		name string
		to   *time.Duration
	}{{"white", &ca.White}, {"black", &ca.Black}} {
		s, ok := a.take(f.name)
		if !ok {
			continue
		}
		d, err := match.ParseClockReading(s)
		if err != nil {
			return ca, preview, fmt.Errorf("--%s: %v", f.name, err)
		}
		*f.to = d
	}
	if err := a.done("correct", 0); err != nil {
		return ca, preview, err
	}
	if !preview && ca.Method == "" {
		return ca, preview, fmt.Errorf("correct needs --method record, proportional, keep or set (see them side by side with --preview)")
	}
	return ca, preview, nil
}

// parseCorrectCommand reads a correction; --preview prints the four methods
// side by side instead and gives no command.
func parseCorrectCommand(r *runner, a *args) (match.Command, error) {
	ca, preview, err := parseCorrect(a)
	if err != nil {
		return nil, err
	}
	if preview {
		if r.app == nil { // a station's record: the command is not sent, the preview reads the local record
			if err := r.openReplica(); err != nil {
				return nil, err
			}
		}
		opts, err := match.CorrectionPreview(r.app.State(), ca.Ply, r.g.At)
		if err != nil {
			return nil, err
		}
		r.out("%s", CorrectionTable(opts))
		return nil, nil
	}
	return ca, nil
}

// toldCorrect prints the restored position's figures: with the working of
// each reading when the command ran here, else (given at a station, run by
// the authority) the readings its correct event holds.
func toldCorrect(r *runner, out match.Result) {
	res, ok := out.Corrected()
	if r.inPlay || !ok {
		return
	}
	plies := "plies"
	if len(res.Options.Struck) == 1 {
		plies = "ply"
	}
	var p match.CorrectPayload
	e, _ := recordedEvent(out, match.KindCorrect, &p)
	r.out("correction of ply %d (position before %s restored, %d %s struck out) %s%s\n", res.Options.Ply, res.Options.Mistake, len(res.Options.Struck), plies, e.as(), r.after(out, e))
	for _, s := range []clock.Side{clock.White, clock.Black} {
		if out.Correction != nil {
			o := out.Correction.Outcome
			r.out("%s: %s, period %d, %s (%s)\n", match.Colour(s), clock.FormatReading(o.Sides[s].Remaining), o.Sides[s].Period, movesMade(o.Sides[s].Moves), o.Working[s])
			continue
		}
		x := p.White
		if s == clock.Black {
			x = p.Black
		}
		r.out("%s: %s, period %d, %s (%s)\n", match.Colour(s), clock.FormatReading(time.Duration(x.RemainingNS)), x.Period, movesMade(x.Moves), match.MethodEffect(p.Method))
	}
	if res.Bonus > 0 {
		to := res.BonusTo
		if to == "" && r.app != nil {
			if g := r.app.State().CurrentGame(); g != nil {
				to = g.Name(res.BonusSide)
			}
		}
		bonus := ""
		if b, ok := recordedEvent(out, match.KindAdjust, nil); ok {
			bonus = fmt.Sprintf(", recorded as event %d", b.seq)
		}
		r.out("%s receives the recovery bonus of %s (rule 10)%s\n", to, clock.FormatReading(res.Bonus), bonus)
	}
	if r.app != nil {
		if g := r.app.State().CurrentGame(); g != nil && g.Live() {
			r.out("the clocks are stopped: 'resume' starts %s's clock\n", match.Colour(g.ToMove()))
		}
	}
}

// movesMade counts a side's moves made: "1 move", "0 moves", "30 moves".
func movesMade(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}

// CorrectionTable renders the four outcomes of a position reset side by side.
func CorrectionTable(o match.CorrectionOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "reset to the position before %s (game %d); %s to move; struck out: %s\n", o.Mistake, o.GameNumber, match.Colour(o.ToMove), strings.Join(o.Struck, " "))
	fmt.Fprintf(&b, "FEN %s\n", o.FEN)
	for _, s := range []clock.Side{clock.White, clock.Black} {
		made := ""
		if o.MovesMade[s] != o.MovesErr[s] {
			made = fmt.Sprintf(" (%d made when it was relayed: rule 10's proportion)", o.MovesMade[s])
		}
		fmt.Fprintf(&b, "%s: moves %d at the error%s, %d now; used %s at the error, %s now; bonuses %s; clock now %s\n", match.Colour(s),
			o.MovesErr[s], made, o.MovesNow[s], clock.FormatReading(o.UsedErr[s]), clock.FormatReading(o.UsedNow[s]), clock.FormatReading(o.Bonuses[s]), clock.FormatReading(o.Readings[s]))
	}
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "method\tWhite\tBlack\tpossible")
	for _, oc := range o.Outcomes {
		possible := "yes"
		if !oc.Possible {
			possible = "no: " + oc.Why.Error()
		}
		if oc.Method == match.MethodSet {
			possible = "give --white and --black"
		}
		fmt.Fprintf(tw, "%s\t%s (period %d)\t%s (period %d)\t%s\n", oc.Method,
			clock.FormatReading(oc.Sides[clock.White].Remaining), oc.Sides[clock.White].Period,
			clock.FormatReading(oc.Sides[clock.Black].Remaining), oc.Sides[clock.Black].Period, possible)
	}
	tw.Flush()
	if o.Human != "" {
		fmt.Fprintf(&b, "after an operator error %s also receives %s (rule 10) unless --no-bonus\n", o.Human, clock.FormatReading(match.RecoveryBonus))
	}
	return b.String()
}

func parseAmend(r *runner, a *args) (match.Command, error) {
	reason, _ := a.take("reason")
	ply, err := a.int("ply", 0)
	if err != nil {
		return nil, err
	}
	if err := a.done("amend", 1); err != nil {
		return nil, err
	}
	if ply < 1 {
		return nil, fmt.Errorf("amend needs --ply N, the ply entered wrongly (1 = White's first move)")
	}
	if len(a.pos) != 1 {
		return nil, fmt.Errorf("amend needs the right move, e.g. 'amend --ply 12 Nf3 --reason \"entered Nd2\"'")
	}
	return match.Amend{Ply: ply, Input: a.pos[0], Reason: reason}, nil
}

func parseClaim(a *args, kind string) (match.Command, error) {
	mv, _ := a.take("move")
	return match.Claim{Draw: kind, Move: mv}, a.done("claim "+kind, 0)
}

// toldClaim prints the ruling on the claim, then, as every writing
// command, the claim recorded and what follows.
func toldClaim(r *runner, res match.Result) {
	var p match.ClaimPayload
	e, ok := recordedEvent(res, match.KindClaim, &p)
	if !ok || r.inPlay {
		return
	}
	if c, ok := res.Ruling(); ok {
		r.out("%s\n", c.Ruling)
	}
	r.out("claim of %s by %s %s%s\n", p.Kind, r.sideWho(e.game, p.Side), e.as(), r.after(res, e))
}

func parseForfeit(r *runner, a *args) (match.Command, error) {
	reason, _ := a.take("reason")
	if err := a.done("forfeit", 1); err != nil {
		return nil, err
	}
	side, err := parseSideArg(a, "forfeit")
	if err != nil {
		return nil, err
	}
	return match.Forfeit{Side: side, Reason: reason}, nil
}

// parseArrive reads 'arrive --player NAME [--at INSTANT]': --at after the
// command is the instant of the arrival (it may lie before the record's
// last event), not the command's.
func parseArrive(r *runner, a *args) (match.Command, error) {
	var cmd match.Arrive
	cmd.Player, _ = a.take("player")
	if s, ok := a.take("at"); ok {
		t, err := parseTime(s)
		if err != nil {
			return nil, fmt.Errorf("arrive --at: %v", err)
		}
		cmd.At = &t
	}
	return cmd, a.done("arrive", 0)
}

// toldArrive says the arrival recorded, its instant in the match's time
// zone, as which event, and the clocks at the command's instant ("arrival
// of Black (Garry Kasparov) at the board at 15:46:00.000 EST (6.6) recorded
// as event 7 (game 1); White's clock runs (…)").
func toldArrive(r *runner, res match.Result) {
	p, at, ok := res.Arrived()
	if r.inPlay || !ok {
		return
	}
	e, ok := recordedEvent(res, match.KindArrive, nil)
	if !ok {
		return
	}
	r.out("arrival of %s at the board at %s (6.6) %s%s\n", r.sideWho(e.game, p.Side), r.app.State().Match.LocalTime(at, "15:04:05.000"), e.as(), r.after(res, e))
}
