package report

// The appendix: the rulings and corrections of the whole match, and how to check the record.

import (
	"fmt"
	"strings"
	"time"

	"arbiter/match"
	"arbiter/scoresheet"
)

// ruledKinds are the incident kinds the appendix lists: decisions of the
// arbiter and of the appeals board, corrections of clocks and record.
var ruledKinds = map[string]bool{
	match.IncidentRuling: true, match.IncidentAppeal: true, match.IncidentAppealDecision: true,
	match.IncidentAdjust: true, match.IncidentCorrect: true, match.IncidentAmend: true,
	match.IncidentTakeback: true, match.IncidentFlag: true, match.IncidentRecovery: true,
	match.IncidentTechnicalFault: true, match.IncidentMaintenance: true,
	match.IncidentOperatorReplaced: true, match.IncidentArbiterReplaced: true,
	match.IncidentPenalty: true, match.IncidentForfeit: true, match.IncidentPostponed: true,
}

func (r *renderer) appendix(games []*match.Game, head string) {
	f, t := r.f, r.t
	f.AddPage()
	r.heading(t.s("Appendix"), 16)
	f.Ln(2)
	r.heading(t.s("Rulings, appeals and corrections"), 11)
	rows := r.appendixRows(games)
	if len(rows) == 0 {
		r.para(t.s("No rulings, appeals or corrections were recorded."), 9, false)
	} else {
		r.table([]col{{11, "C", false}, {7, "R", false}, {25, "L", false}, {17, "L", false}, {26, "L", false}, {20, "L", true}, {0, "L", false}, {14, "L", false}, {26, "L", false}},
			[]string{t.s("Game"), "#", t.f("Time (%s)", t.zoneLabel(r.allIncidentTimes(games)...)), t.s("After"), t.s("Actor"), t.s("Kind"), t.s("Text"), t.s("Rule"), t.s("Effect")}, rows, 7)
	}
	f.Ln(8)
	r.ensure(50)
	r.heading(t.s("Fingerprint of the record"), 11)
	r.para(t.s("This fingerprint is the head of the record's hash chain when the report was made; every event is bound to "+
		"the one before it with SHA-256. To check that the record still contains this report and has not been altered "+
		"since, run on the match computer:"), 9, false)
	f.Ln(3)
	hexHead := head
	if hexHead == "" {
		hexHead = t.s("not given")
	}
	r.font(10.5, true)
	f.SetFillColor(240, 242, 246)
	f.SetX(r.margin)
	f.CellFormat(r.cw, 8, hexHead, "", 1, "C", true, 0, "")
	f.Ln(3)
	cmd := "arbiter verify --head " + head
	if head == "" {
		cmd = "arbiter verify --head HEX"
	}
	r.font(8.5, false)
	f.SetX(r.margin)
	f.CellFormat(r.cw, 6, cmd, "", 1, "C", false, 0, "")
	if anchors := anchorFlags(r.seal); anchors != "" {
		// the arbiter's first key and the match id, which tell this record
		// from a re-keyed one and from another match (docs/store.md)
		line := "arbiter verify" + anchors
		for size := 8.5; size > 5 && f.GetStringWidth(line) > r.cw; size -= 0.5 {
			r.font(size, false)
		}
		f.SetX(r.margin)
		f.CellFormat(r.cw, 6, line, "", 1, "C", false, 0, "")
		r.font(8.5, false)
	}
	f.Ln(3)
	r.para(t.s("The command succeeds and prints the current head if the chain is intact and contains this fingerprint; "+
		"otherwise it names the first event that does not match."), 9, false)
	f.Ln(2)
	r.para(fmt.Sprintf("%s: %d", t.s("Events in the record"), r.st.Seq), 9, false)
}

// appendixRows are the rows of the appendix's table of rulings, appeals
// and corrections: game, event, time, after, actor, kind, text, rule,
// effect. A flag's row says where its verdict stands (the game's incident
// log says it once), where it said "the verdict on the flag, #N" with N
// its own number, which its # column shows beside it: a row naming itself.
func (r *renderer) appendixRows(games []*match.Game) [][]string {
	rows := [][]string{}
	for _, g := range games {
		for _, in := range g.ByInstant() {
			if !ruled(g, in) {
				continue
			}
			row := r.incidentRow(g, in, true)
			if in.Kind == match.IncidentFlag && in.Seq != 0 {
				row[5] = r.t.f("the verdict on the flag is in the incident log of game %d", g.Number)
			}
			rows = append(rows, append([]string{row[0], eventNumber(in)}, row[1:]...))
		}
	}
	return rows
}

func ruled(g *match.Game, in match.Incident) bool {
	if ruledKinds[in.Kind] || strings.HasPrefix(in.Kind, match.IncidentClaim) {
		return true
	}
	return in.Kind == match.IncidentResult && g.Termination == scoresheet.TermArbiter
}

func incidentTimes(ins []match.Incident) []time.Time {
	var ts []time.Time
	for _, in := range ins {
		ts = append(ts, in.At)
	}
	return ts
}

func (r *renderer) allIncidentTimes(games []*match.Game) []time.Time {
	var ts []time.Time
	for _, g := range games {
		ts = append(ts, incidentTimes(g.Incidents)...)
	}
	return ts
}

func firstStart(games []*match.Game) time.Time {
	for _, g := range games {
		if !g.Started.IsZero() {
			return g.Started
		}
	}
	return time.Time{}
}

// anchorFlags are the verify flags that check the record against the
// arbiter's first key and the match id, as the report prints them ("" for
// a record with neither).
func anchorFlags(s match.Seal) string {
	out := ""
	if k := s.FirstKey(); k != "" {
		out += " --key " + k
	}
	if s.MatchID != "" {
		out += " --match " + s.MatchID
	}
	return out
}
