package report

import (
	"regexp"
	"strings"

	"arbiter/match"
)

// germanText translates the incident texts and effects that package match
// writes itself ("White's clock runs again", "Deep Blue resigned", "position
// before ply 4 restored, …") for the German PDF. Free text that people
// typed is printed as recorded; so is any part no rule below knows.
func (t tr) text(s string) string {
	if !t.de || s == "" {
		return s
	}
	for _, r := range germanTexts {
		if m := r.re.FindStringSubmatch(s); m != nil {
			return r.f(t, m)
		}
	}
	return t.s(s)
}

type textRule struct {
	re *regexp.Regexp
	f  func(t tr, m []string) string
}

func colourDE(s string) string {
	switch strings.ToLower(s) {
	case "white":
		return "Weiß"
	case "black":
		return "Schwarz"
	}
	return s
}

// clocksDE translates "White 1:59:41 (period 1, 2 moves), Black …".
var clocksDE = strings.NewReplacer("clocks stopped", "Uhren angehalten", "White ", "Weiß ", "Black ", "Schwarz ",
	"period ", "Periode ", " moves)", " Züge)", " move)", " Zug)")

var germanTexts []textRule

func init() { germanTexts = germanTextRules() } // the result rule translates its reason with text

func germanTextRules() []textRule {
	return []textRule{
		{regexp.MustCompile(`^(1-0|0-1|1/2-1/2) \(([^)]+)\)(?:: (.*))?$`), func(t tr, m []string) string {
			s := m[1] + " (" + t.term(m[2]) + ")"
			if m[3] != "" {
				s += ": " + t.text(m[3])
			}
			return s
		}},
		{regexp.MustCompile(`^(White|Black)'s clock runs again$`), func(t tr, m []string) string {
			return "die Uhr von " + colourDE(m[1]) + " läuft wieder"
		}},
		{regexp.MustCompile(`^(.+) resigned$`), func(t tr, m []string) string { return m[1] + " hat aufgegeben" }},
		{regexp.MustCompile(`^(.+) offers a draw$`), func(t tr, m []string) string { return m[1] + " bietet Remis an" }},
		{regexp.MustCompile(`^(.+) declines the draw offer$`), func(t tr, m []string) string { return m[1] + " lehnt das Remisangebot ab" }},
		{regexp.MustCompile(`^(.+) accepts the draw offer$`), func(t tr, m []string) string { return m[1] + " nimmt das Remisangebot an" }},
		{regexp.MustCompile(`^position before ply (\d+) restored, (\d+) ply\(s\) struck out \((\w+)\): (.*)$`), func(t tr, m []string) string {
			return "Stellung vor Halbzug " + m[1] + " wiederhergestellt, " + m[2] + " Halbzug/Halbzüge gestrichen (" + methodDE(m[3]) + "): " + m[4]
		}},
		{regexp.MustCompile(`^clocks stopped; (.*)$`), func(t tr, m []string) string { return "Uhren angehalten; " + clocksDE.Replace(m[1]) }},
		{regexp.MustCompile(`^recovery bonus after the operator's error$`), func(t tr, m []string) string {
			return "Zeitgutschrift nach dem Fehler des Operators"
		}},
		{regexp.MustCompile(`^recovery bonus for maintenance in the playing hall$`), func(t tr, m []string) string {
			return "Zeitgutschrift für Wartung im Spielsaal"
		}},
		{regexp.MustCompile(`^(white|black) flag fallen(.*)$`), func(t tr, m []string) string {
			return "Fallblättchen von " + colourDE(m[1]) + " gefallen" + m[2]
		}},
		{regexp.MustCompile(`^both flags fallen, order unknown: the game continues(.*)$`), func(t tr, m []string) string {
			return "beide Fallblättchen gefallen, Reihenfolge unbekannt: die Partie geht weiter" + m[1]
		}},
		{regexp.MustCompile(`^ply (\d+): (\S+) entered, (\S+) played; record amended: (.*)$`), func(t tr, m []string) string {
			return "Halbzug " + m[1] + ": " + m[2] + " eingegeben, " + m[3] + " gespielt; Protokoll berichtigt: " + m[4]
		}},
	}
}

// IncidentLine is an incident in one line in English or German ("de"), as
// the broadcast's spectator page shows it: "19:43 EST · Arbiter: pause
// (6.12a) noise in the hall" / "19:43 EST · Schiedsrichter: Unterbrechung
// (6.12a) noise in the hall". Free text stays as recorded.
func IncidentLine(m *match.Match, in match.Incident, lang string) string {
	t := tr{de: lang == "de", m: m}
	role := string(in.Role)
	if role == "" {
		role = "system"
	}
	who := t.word(role)
	if t.de {
		who = strings.ToUpper(who[:1]) + who[1:]
	} else {
		who = strings.ToUpper(role[:1]) + role[1:]
	}
	s := in.At.In(m.Location()).Format("15:04") + " " + m.ZoneName(in.At) + " · " + who + ": " + t.word(in.Kind)
	if in.Rule != "" {
		s += " (" + t.rule(in.Rule) + ")"
	}
	if in.Text != "" {
		s += " " + t.reasoned(in.Text, in.Why)
	}
	return s
}
