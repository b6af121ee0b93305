package report

import (
	"time"

	"arbiter/clock"
	"arbiter/match"
)

// IncidentCells are the Text and Effect cells of an incident's row in the
// PDF's incident log, in lang ("de" or English).
func IncidentCells(m *match.Match, g *match.Game, in match.Incident, lang string) (text, effect string) {
	r := &renderer{t: newTr(lang, m)}
	row := r.incidentRow(g, in, false)
	return row[6], row[8]
}

// ChartPoint is a point of the time chart: the move and the clock reading.
type ChartPoint struct {
	Move      float64
	Remaining time.Duration
}

// ChartData is what the time chart of g plots: each side's points (White's,
// Black's) and which sides' lines a flag ended at zero.
func ChartData(g *match.Game) (series [2][]ChartPoint, flags [2]bool) {
	es := g.Sheet.Entries()
	if len(es) == 0 {
		return series, flags
	}
	pts, _ := chartSeries(es, []clock.Control{g.Clock.Control(clock.White), g.Clock.Control(clock.Black)})
	flags = chartFlags(g, es, &pts)
	for s := range pts {
		for _, p := range pts[s] {
			series[s] = append(series[s], ChartPoint{p.x, p.y})
		}
	}
	return series, flags
}

// AppendixRows are the rows of the appendix's table of rulings, appeals
// and corrections of st's games, in lang.
func AppendixRows(st *match.State, lang string) [][]string {
	r := &renderer{t: newTr(lang, st.Match), st: st}
	return r.appendixRows(st.Games)
}

// IncidentRows are the rows of game g's incident log in the PDF (time,
// after, White, Black, actor, kind, text, rule, effect), in lang.
func IncidentRows(st *match.State, g *match.Game, lang string) [][]string {
	r := &renderer{t: newTr(lang, st.Match), st: st}
	var rows [][]string
	for _, in := range g.ByInstant() {
		rows = append(rows, r.incidentRow(g, in, false))
	}
	return rows
}

// AdjustmentRows are the rows of game g's table of clock adjustments and
// bonuses in the PDF, in lang.
func AdjustmentRows(st *match.State, g *match.Game, lang string) [][]string {
	r := &renderer{t: newTr(lang, st.Match), st: st}
	return r.adjustmentRows(g)
}
