package report

import "arbiter/match"

// IncidentCells are the Text and Effect cells of an incident's row in the
// PDF's incident log, in lang ("de" or English).
func IncidentCells(m *match.Match, g *match.Game, in match.Incident, lang string) (text, effect string) {
	r := &renderer{t: newTr(lang, m)}
	row := r.incidentRow(g, in, false)
	return row[6], row[8]
}
