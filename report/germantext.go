package report

import (
	"arbiter/internal/phrase"
	"arbiter/match"
)

// IncidentLine is an incident in one line in English or German ("de"), as
// the broadcast's spectator page shows it: "19:43 EST · Arbiter: pause
// (6.12a) noise in the hall" / "19:43 EST · Schiedsrichter: Unterbrechung
// (6.12a) noise in the hall". Free text stays as recorded.
func IncidentLine(m *match.Match, in match.Incident, lang string) string {
	t := newTr(lang, m)
	role := string(in.Role)
	if role == "" {
		role = "system"
	}
	who := phrase.CapitalFirst(t.word(role))
	s := in.At.In(m.Location()).Format("15:04") + " " + m.ZoneName(in.At) + " · " + who + ": " + t.word(in.Kind)
	if in.Rule != "" {
		s += " (" + t.rule(in.Rule) + ")"
	}
	if in.Text != "" {
		s += " " + t.said(in.Text, in.Said)
	}
	return s
}
