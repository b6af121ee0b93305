package report

// The cover page: the match, its players, dates, controls and result, and the record's seal.

import (
	"fmt"
	"strings"
	"time"

	"arbiter/match"
	"arbiter/scoresheet"
)

func (r *renderer) cover(games []*match.Game, head string) {
	f, t, m := r.f, r.t, r.st.Match
	f.AddPage()
	f.SetY(24)
	r.font(9, true)
	f.SetTextColor(90, 90, 90)
	f.CellFormat(r.cw, 5, strings.ToUpper(t.s("Match report")), "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	r.font(20, true)
	for _, l := range f.SplitText(m.Title, r.cw) {
		f.CellFormat(r.cw, 9, l, "", 1, "L", false, 0, "")
	}
	r.font(13, false)
	f.CellFormat(r.cw, 7, m.Players[0]+" – "+m.Players[1], "", 1, "L", false, 0, "")
	f.Ln(4)
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.6)
	f.Line(r.margin, f.GetY(), r.margin+r.cw, f.GetY())
	f.Ln(5)
	if !r.seal.Protected {
		// An unprotected match says so before anything else (issue 16).
		r.font(10, true)
		f.SetTextColor(150, 30, 30)
		f.SetDrawColor(150, 30, 30)
		f.SetLineWidth(0.4)
		f.SetX(r.margin)
		f.CellFormat(r.cw, 8, t.s("Unprotected match: no arbiter credential; events are unsigned"), "1", 1, "C", false, 0, "")
		f.SetTextColor(0, 0, 0)
		f.Ln(4)
	}

	const lw = 38
	if m.Site != "" {
		r.kv(t.s("Site"), m.Site, lw)
	}
	r.kv(t.s("Dates"), r.dates(games), lw)
	r.kv(t.s("Time zone"), t.zoneFull(firstStart(games)), lw)
	var ps []string
	for _, p := range m.Players {
		s := p
		if p == m.Computer {
			s += " (" + t.s("computer")
			if len(m.Operators) > 0 {
				s += "; " + t.s("operators") + ": " + strings.Join(m.Operators, ", ")
			}
			s += ")"
		}
		ps = append(ps, s)
	}
	r.kv(t.s("Players"), strings.Join(ps, "\n"), lw)
	r.kv(t.s("Arbiter"), dash(m.Arbiter), lw)
	r.kv(t.s("Appeals board"), dash(strings.Join(m.Appeals, ", ")), lw)
	r.kv(t.s("Time control"), r.controls(), lw)
	r.kvOneLine(t.s("Arbiter's key"), r.keyText(""), lw)
	for _, l := range r.anchorLines() {
		label, value, _ := strings.Cut(l, ": ")
		r.kvOneLine(label, value, lw)
	}
	f.Ln(5)

	r.standings()
	f.Ln(5)
	sc := r.st.Score()
	r.kv(t.s("Score"), m.Players[0]+" "+points(sc[m.Players[0]])+", "+m.Players[1]+" "+points(sc[m.Players[1]]), lw)
	r.font(12, true)
	r.ensure(8)
	f.SetX(r.margin)
	f.SetTextColor(40, 60, 110)
	res := t.matchResult(r.st)
	f.CellFormat(r.cw, 8, strings.ToUpper(res[:1])+res[1:], "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	if head != "" {
		f.Ln(4)
		r.font(7.5, false)
		f.SetTextColor(90, 90, 90)
		r.para(t.s("Fingerprint of the record")+": "+head+"  ("+t.s("Appendix")+")", 7.5, false)
		f.SetTextColor(0, 0, 0)
	}
}

// standings is the cover's table of the games: each game's date, players,
// result, termination and moves, or that it is not played yet or in
// progress.
func (r *renderer) standings() {
	t := r.t
	r.heading(t.s("Standings"), 12)
	rows := [][]string{}
	for _, g := range r.st.Games {
		date, moves := "—", "—"
		if !g.Started.IsZero() {
			date = t.date(g.Started)
		} else if !g.Scheduled.IsZero() {
			date = t.date(g.Scheduled)
		}
		if g.Sheet != nil {
			moves = fmt.Sprint(moveCount(g.Sheet))
		}
		res, term := g.Result, t.term(string(g.Termination))
		switch {
		case g.Sheet == nil && !g.Over():
			res, term = "", t.s("not played yet")
			if g.State == match.Postponed {
				term = string(g.State)
			}
		case !g.Over():
			res, term = "*", t.s("in progress")
		}
		rows = append(rows, []string{fmt.Sprint(g.Number), date, g.White, g.Black, res, term, moves})
	}
	r.table([]col{{14, "C", false}, {24, "L", false}, {36, "L", false}, {36, "L", false}, {18, "C", false}, {0, "L", false}, {14, "R", false}},
		[]string{t.s("Game"), t.s("Date"), t.s("White"), t.s("Black"), t.s("Result"), t.s("Termination"), t.s("Moves")}, rows, 9)
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func (r *renderer) dates(games []*match.Game) string {
	var first, last time.Time
	for _, g := range games {
		if !g.Started.IsZero() && (first.IsZero() || g.Started.Before(first)) {
			first = g.Started
		}
		end := g.Ended
		if end.IsZero() {
			end = g.Started
		}
		if end.After(last) {
			last = end
		}
	}
	if first.IsZero() {
		return "—"
	}
	if r.t.date(first) == r.t.date(last) {
		return r.t.date(first)
	}
	return r.t.date(first) + " – " + r.t.date(last)
}

// controls describes the time control, per player when they differ.
func (r *renderer) controls() string {
	m := r.st.Match
	a, b := m.Controls[m.Players[0]], m.Controls[m.Players[1]]
	if a.String() == b.String() {
		return r.t.controlWords(a) + " (" + a.String() + ")"
	}
	return m.Players[0] + ": " + r.t.controlWords(a) + "\n" + m.Players[1] + ": " + r.t.controlWords(b)
}

func moveCount(s *scoresheet.Sheet) int {
	es := s.Entries()
	if len(es) == 0 {
		return 0
	}
	return es[len(es)-1].Number
}
