package report

// The incident log of a game and its table of clock adjustments.

import (
	"fmt"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/match"
)

func (r *renderer) incidents(g *match.Game) {
	f, t := r.f, r.t
	r.ensure(30)
	r.heading(t.s("Incident log"), 11)
	defer r.recordedLate(g)
	if len(g.Incidents) == 0 {
		r.para(t.s("No incidents were logged."), 9, false)
		f.Ln(3)
		return
	}
	rows := [][]string{}
	for _, in := range g.ByInstant() {
		rows = append(rows, append([]string{eventNumber(in)}, r.incidentRow(g, in, false)...))
	}
	r.table([]col{{7, "R", false}, {19, "L", false}, {14, "L", false}, {17.5, "R", false}, {17.5, "R", false}, {20, "L", false}, {17, "L", true}, {0, "L", false}, {13, "L", false}, {20, "L", false}},
		[]string{"#", t.f("Time (%s)", t.zoneLabel(incidentTimes(g.Incidents)...)), t.s("After"), t.s("White"), t.s("Black"), t.s("Actor"), t.s("Kind"), t.s("Text"), t.s("Rule"), t.s("Effect")}, rows, 7)
	f.Ln(2)
}

// recordedLate lists, under a game's incident log, the events of the game
// a protected match recorded late (match.LateEvent: given with the
// arbiter's credential more than 5 s after the instant they claim), each
// run of consecutive ones in one line with both instants.
func (r *renderer) recordedLate(g *match.Game) {
	var runs [][]match.LateEvent
	for _, l := range r.st.Late {
		if l.In != g.Number {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1][len(runs[n-1])-1].Seq+1 == l.Seq {
			runs[n-1] = append(runs[n-1], l)
			continue
		}
		runs = append(runs, []match.LateEvent{l})
	}
	if len(runs) == 0 {
		return
	}
	t := r.t
	r.para(t.s("Recorded late (the arbiter's credential; each event keeps the instant it claims and the instant it was received):"), 9, true)
	for _, run := range runs {
		a, b := run[0], run[len(run)-1]
		when := func(x time.Time) string { return t.date(x) + " " + t.clockTime(x) }
		if len(run) == 1 {
			r.para(t.f("event %d (%s) at %s, received %s", a.Seq, a.Kind, when(a.At), when(a.Received)), 8, false)
			continue
		}
		r.para(t.f("events %d–%d (%d) at %s to %s, received %s to %s", a.Seq, b.Seq, len(run), when(a.At), when(b.At), when(a.Received), when(b.Received)), 8, false)
	}
	r.f.Ln(2)
}

func (r *renderer) incidentRow(g *match.Game, in match.Incident, withGame bool) []string {
	// the move it followed when it happened, struck out since or not
	after := r.t.s("start")
	if e := g.Follows(in); e != nil {
		after = e.NumberMark() + " " + r.t.san(e.SAN)
		if e.Struck {
			after += " (" + r.t.s("struck out") + ")"
		}
	}
	actor := r.t.word(string(in.Role))
	if in.Actor != "" {
		actor += ": " + in.Actor
	}
	text := r.t.said(in.Text, in.Said)
	if ref := r.refers(in); ref != "" {
		text = strings.TrimSuffix(ref+": "+text, ": ")
	}
	row := []string{r.t.instant(g, in.At), after, clock.FormatReading(max(in.WhiteClock, 0)), clock.FormatReading(max(in.BlackClock, 0)), actor, r.t.word(in.Kind), text, r.t.rule(in.Rule), r.t.said(in.Effect, in.EffectSaid)}
	if withGame {
		row = append([]string{fmt.Sprint(g.Number), r.t.date(in.At) + " " + in.At.In(r.t.m.Location()).Format("15:04")}, row[1:]...)
		row = append(row[:3], row[5:]...) // no clock readings in the appendix
	}
	return row
}

// flagVerdict names the flag incident whose verdict g ended on, "the
// verdict on the flag, #4", as the result's incident and the PGN's comment
// name it, so that the game's Result line and the appendix do not say the
// verdict again (the incident log says it once); "" when g did not end on
// a flag's verdict.
func (t tr) flagVerdict(g *match.Game) string {
	if g.Reason == "" {
		return ""
	}
	for i := len(g.Incidents) - 1; i >= 0; i-- {
		if in := g.Incidents[i]; in.Kind == match.IncidentFlag && in.Text == g.Reason && in.Seq != 0 {
			return t.f("the verdict on the flag, #%d", in.Seq)
		}
	}
	return ""
}

// eventNumber is the record's event that logged in, as the console's
// incident log and 'incident appeal --refers' name it: "#14".
func eventNumber(in match.Incident) string {
	if in.Seq == 0 {
		return ""
	}
	return fmt.Sprintf("#%d", in.Seq)
}

// refers is what an appeal contests ("against #14", the arbiter's decision
// logged as event 14) or which appeal a decision closes ("on appeal #15"),
// so that the appeals board can match them; "" for other incidents.
func (r *renderer) refers(in match.Incident) string {
	switch {
	case in.Refers == 0:
		return ""
	case in.Kind == match.IncidentAppeal:
		return r.t.f("against #%d", in.Refers)
	case in.Kind == match.IncidentAppealDecision:
		return r.t.f("on appeal #%d", in.Refers)
	}
	return ""
}

// adjustments lists every clock adjustment of the game — the rule 10 and
// rule 13 bonuses, the arbiter's corrections, position resets that set the
// clocks — each led by its record event ("#14", as the incident log names
// it and an appeal cites it), with the clock readings after it.
func (r *renderer) adjustments(g *match.Game) {
	f, t := r.f, r.t
	rows := r.adjustmentRows(g)
	r.ensure(18)
	r.heading(t.s("Clock adjustments and bonuses"), 11)
	if len(rows) == 0 {
		r.para(t.s("No clock was adjusted and no bonus given."), 9, false)
		f.Ln(3)
		return
	}
	r.table([]col{{7, "R", false}, {14.5, "L", false}, {16, "L", false}, {17, "L", true}, {13, "L", false}, {30, "L", false}, {0, "L", false}, {22, "R", false}, {22, "R", false}},
		[]string{"#", t.f("Time (%s)", t.zoneLabel(incidentTimes(g.Incidents)...)), t.s("After"), t.s("Kind"), t.s("Rule"), t.s("Effect"), t.s("Reason"),
			t.s("Before: White / Black"), t.s("After: White / Black")}, rows, 7)
	f.Ln(2)
}

// adjustmentRows are the rows of the table of clock adjustments and
// bonuses: event, time, after, kind, rule, effect, reason, both clocks
// before it and both after it.
func (r *renderer) adjustmentRows(g *match.Game) [][]string {
	var rows [][]string
	for _, in := range g.ByInstant() {
		if in.Kind != match.IncidentAdjust && in.Kind != match.IncidentCorrect {
			continue
		}
		row := r.incidentRow(g, in, false)
		// The event (as the incident log and an appeal cite it), time,
		// after, kind, rule, effect, text, both clocks before and after.
		before := ""
		if in.Before != nil {
			before = clock.FormatReading(max(in.Before[0], 0)) + " / " + clock.FormatReading(max(in.Before[1], 0))
		}
		rows = append(rows, []string{eventNumber(in), row[0], row[1], row[5], row[7], row[8], row[6], before, row[2] + " / " + row[3]})
	}
	return rows
}
