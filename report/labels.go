package report

import (
	"fmt"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/match"
)

// german holds the German form of every English label the PDF prints.
var german = map[string]string{
	"Match report":              "Wettkampfbericht",
	"Site":                      "Ort",
	"Dates":                     "Daten",
	"Players":                   "Spieler",
	"computer":                  "Computer",
	"operators":                 "Operatoren",
	"operator":                  "Operator",
	"Arbiter":                   "Schiedsrichter",
	"Appeals board":             "Schiedsgericht",
	"Time control":              "Bedenkzeit",
	"Standings":                 "Ergebnisse",
	"Game":                      "Partie",
	"Date":                      "Datum",
	"White":                     "Weiß",
	"Black":                     "Schwarz",
	"Result":                    "Ergebnis",
	"Termination":               "Beendigung",
	"Moves":                     "Züge",
	"Score":                     "Punktestand",
	"Match result":              "Wettkampfergebnis",
	"Started":                   "Beginn",
	"Ended":                     "Ende",
	"in progress":               "läuft",
	"not played yet":            "noch nicht gespielt",
	"Scoresheet":                "Partieformular",
	"No.":                       "Nr.",
	"clock":                     "Uhr",
	"used":                      "verbr.",
	"Remaining time":            "Restbedenkzeit",
	"move":                      "Zug",
	"control at move %d":        "Zeitkontrolle nach Zug %d",
	"%s's control at move %d":   "Zeitkontrolle %s nach Zug %d",
	"Incident log":              "Vorkommnisse",
	"Time (%s)":                 "Zeit (%s)",
	"After":                     "Nach",
	"Actor":                     "Wer",
	"Kind":                      "Art",
	"Text":                      "Text",
	"Rule":                      "Regel",
	"Effect":                    "Wirkung",
	"start":                     "Beginn",
	"No incidents were logged.": "Keine Vorkommnisse.",
	"No moves were recorded.":   "Keine Züge aufgezeichnet.",
	"Signatures":                "Unterschriften",
	"Time zone":                 "Zeitzone",
	"Signatures for game %d":    "Unterschriften zu Partie %d",
	"Chain head of the game":    "Kettenkopf der Partie",
	"event %d":                  "Ereignis %d",
	"signed":                    "signiert",
	"not signed yet":            "noch nicht signiert",
	"Unprotected match: no arbiter credential; events are unsigned": "Ungeschützter Wettkampf: kein Schiedsrichter-Zugang; die Ereignisse sind nicht signiert",
	"Arbiter's key":         "Schlüssel des Schiedsrichters",
	"no head to sign":       "kein Kettenkopf zu signieren",
	"signed by the arbiter": "vom Schiedsrichter signiert",
	"signed by the arbiter (signature not checked)":               "vom Schiedsrichter signiert (Signatur nicht geprüft)",
	"not signed: the match has no arbiter key":                    "nicht signiert: der Wettkampf hat keinen Schlüssel des Schiedsrichters",
	"not signed: the game ended without the arbiter's credential": "nicht signiert: die Partie endete ohne den Zugang des Schiedsrichters",
	"Head signature":                            "Signatur des Kettenkopfs",
	"none (unprotected match)":                  "keiner (ungeschützter Wettkampf)",
	"none (a PIN without signatures)":           "keiner (eine PIN ohne Signaturen)",
	"Clock adjustments and bonuses":             "Uhrkorrekturen und Zeitgutschriften",
	"No clock was adjusted and no bonus given.": "Keine Uhr wurde korrigiert, keine Zeitgutschrift gegeben.",
	"struck out":                                "gestrichen",
	"Struck out":                                "Gestrichen",
	"replaced by":                               "ersetzt durch",
	"Appendix":                                  "Anhang",
	"Rulings, appeals and corrections":          "Entscheidungen, Einsprüche und Korrekturen",
	"No rulings, appeals or corrections were recorded.": "Es wurden keine Entscheidungen, Einsprüche oder Korrekturen aufgezeichnet.",
	"Fingerprint of the record":                         "Fingerabdruck des Protokolls",
	"page %d of %s":                                     "Seite %d von %s",
	"times of day in %s":                                "Uhrzeiten in %s",
	"draw offer":                                        "Remisangebot",
	"(=) draw offered with the move":                    "(=) Remisangebot mit dem Zug",
	"Reason":                                            "Begründung",
	"Events in the record":                              "Ereignisse im Protokoll",
	"not given":                                         "nicht angegeben",
	"fingerprint explanation": "Dieser Fingerabdruck ist der Kopf der Hash-Kette des Protokolls zum Zeitpunkt des Exports; " +
		"jedes Ereignis ist mit SHA-256 an seinen Vorgänger gebunden. Um zu prüfen, dass das Protokoll diesen Bericht " +
		"noch enthält und seither nicht verändert wurde, auf dem Rechner der Partie ausführen:",
	"verify explanation": "Der Befehl meldet Erfolg und gibt den aktuellen Kopf aus, wenn die Kette unversehrt ist und " +
		"diesen Fingerabdruck enthält; andernfalls nennt er das erste Ereignis, das nicht passt.",
	"the match is drawn %s–%s":           "der Wettkampf endet unentschieden %s–%s",
	"%s wins the match %s–%s":            "%s gewinnt den Wettkampf %s–%s",
	"%s %s – %s %s after %d of %d games": "%s %s – %s %s nach %d von %d Partien",
	"%d moves in %s":                     "%d Züge in %s",
	"%s for the rest of the game":        "%s für den Rest der Partie",
	", then ":                            ", dann ",
	"+%s per move":                       "+%s pro Zug",
	"%s delay per move":                  "%s Verzögerung pro Zug",
	"repeating":                          "wiederholt",
	"Game %d":                            "Partie %d",
	"operator for %s":                    "Operator für %s",
	"Time chart: remaining time after each move; dashed lines mark the time controls.": "Zeitverlauf: Restbedenkzeit nach jedem Zug; gestrichelte Linien markieren die Zeitkontrollen.",
}

// germanKind is the German name of each incident kind and actor role the
// record stores in English.
var germanKind = map[string]string{
	"note": "Notiz", "pause": "Unterbrechung", "call": "Ruf", "resume": "Fortsetzung", "adjust": "Uhrkorrektur",
	"correct": "Stellungskorrektur", "amend": "Berichtigung", "flag": "Fallblättchen", "claim": "Reklamation",
	"result": "Ergebnis", "recovery": "Wiederanlauf", "postponed": "verschoben", "technical-fault": "technische Störung",
	"power-failure": "Stromausfall", "maintenance": "Wartung", "replacement": "Austausch",
	"operator-communication": "Kommunikation des Operators", "setup": "Stellungseingabe",
	"operator-replaced": "Operatorwechsel", "time-info": "Zeitauskunft", "clock-replaced": "Uhrentausch",
	"conduct": "Verhalten", "ruling": "Entscheidung", "arbiter-replaced": "Schiedsrichterwechsel",
	"appeal": "Einspruch", "appeal-decision": "Einspruchsentscheid", "irregularity": "Regelwidrigkeit",
	"forfeit": "kampflos", "penalty": "Strafe", "takeback": "Rücknahme",
	"arbiter": "Schiedsrichter", "operator": "Operator", "white": "Weiß", "black": "Schwarz", "system": "System",
	"draw offer": "Remisangebot", "draw decline": "Remis abgelehnt", "draw accept": "Remis angenommen",
	"the computer's clock keeps running (rule 7)": "die Uhr des Computers läuft weiter (Regel 7)",
	"clocks stopped": "Uhren angehalten", "clocks untouched": "Uhren unverändert", "clock started": "Uhr gestartet",
}

// word is a kind, role or effect of the record in the report's language.
func (t tr) word(s string) string {
	if t.de {
		if v, ok := germanKind[s]; ok {
			return v
		}
		// Effects of clock corrections: "white +0:05:00".
		for _, side := range []string{"white ", "black "} {
			if strings.HasPrefix(s, side) {
				return germanKind[strings.TrimSpace(side)] + " " + s[len(side):]
			}
		}
	}
	return s
}

// rule is a rule reference in the report's language: "rule 10" → "Regel 10".
func (t tr) rule(s string) string {
	if t.de {
		s = strings.NewReplacer("rules ", "Regeln ", "rule ", "Regel ").Replace(s)
	}
	return s
}

// san is a move in the report's notation: figurines in English (♘f3),
// German piece letters in German (Sf3, Lb5, Tc1, Dd8, Kg1).
func (t tr) san(san string) string {
	if t.de {
		return strings.NewReplacer("N", "S", "B", "L", "R", "T", "Q", "D").Replace(san)
	}
	return Figurine(san)
}

var germanTerm = map[string]string{
	"checkmate":        "Matt",
	"stalemate":        "Patt",
	"resignation":      "Aufgabe",
	"agreement":        "Remis durch Vereinbarung",
	"time forfeit":     "Zeitüberschreitung",
	"dead position":    "tote Stellung",
	"arbiter decision": "Schiedsrichterentscheid",
	"forfeit":          "kampflos",
	"repetition":       "Stellungswiederholung",
	"fifty moves":      "50-Züge-Regel",
}

// tr is the label set of one language and the match's time zone.
type tr struct {
	de bool
	m  *match.Match // for the time zone; nil: UTC
}

func (t tr) s(en string) string {
	if t.de {
		if v, ok := german[en]; ok {
			return v
		}
	}
	return en
}

func (t tr) f(en string, a ...any) string { return fmt.Sprintf(t.s(en), a...) }

func (t tr) term(s string) string {
	if t.de {
		if v, ok := germanTerm[s]; ok {
			return v
		}
	}
	return s
}

func (t tr) date(d time.Time) string {
	if d.IsZero() {
		return "—"
	}
	d = d.In(t.m.Location())
	if t.de {
		return d.Format("02.01.2006")
	}
	return d.Format("2006-01-02")
}

// dateTime is a day and time of day in the match's zone, the zone named:
// "1996-02-14 19:43 EST".
func (t tr) dateTime(d time.Time) string {
	if d.IsZero() {
		return "—"
	}
	return t.date(d) + " " + d.In(t.m.Location()).Format("15:04") + " " + t.m.ZoneName(d)
}

// clockTime is a time of day in the match's zone: "19:43:05".
func (t tr) clockTime(d time.Time) string { return d.In(t.m.Location()).Format("15:04:05") }

// zoneLabel names the match's zone for a column head: "EST", or the IANA
// name where abbreviations differ across the given instants (EST/EDT).
func (t tr) zoneLabel(at ...time.Time) string {
	name := ""
	for _, d := range at {
		if d.IsZero() {
			continue
		}
		z := t.m.ZoneName(d)
		if name != "" && z != name {
			return t.m.Location().String()
		}
		name = z
	}
	if name == "" {
		return t.m.ZoneName(time.Time{})
	}
	return name
}

// zoneFull names the zone in words for notes: "America/New_York (EST)".
func (t tr) zoneFull(d time.Time) string {
	if t.m == nil || t.m.TimeZone == "" {
		return "UTC"
	}
	if z := t.m.ZoneName(d); z != t.m.TimeZone {
		return t.m.TimeZone + " (" + z + ")"
	}
	return t.m.TimeZone
}

func (t tr) colour(s clock.Side) string {
	if s == clock.Black {
		return t.s("Black")
	}
	return t.s("White")
}

// points writes a score with ½ (German uses the same sign).
func points(p float64) string { return match.Points(p) }

// matchResult is the match result in one phrase.
func (t tr) matchResult(st *match.State) string {
	m := st.Match
	sc := st.Score()
	a, b := m.Players[0], m.Players[1]
	over := 0
	for _, g := range st.Games {
		if g.Over() {
			over++
		}
	}
	half := float64(m.GamesPlanned) / 2
	switch {
	case sc[a] > half:
		return t.f("%s wins the match %s–%s", a, points(sc[a]), points(sc[b]))
	case sc[b] > half:
		return t.f("%s wins the match %s–%s", b, points(sc[b]), points(sc[a]))
	case over == m.GamesPlanned && sc[a] == sc[b]:
		return t.f("the match is drawn %s–%s", points(sc[a]), points(sc[b]))
	}
	return t.f("%s %s – %s %s after %d of %d games", a, points(sc[a]), b, points(sc[b]), over, m.GamesPlanned)
}

// controlWords says a time control in words: "40 moves in 2 h, then 20 moves
// in 1 h, then 30 min for the rest of the game".
func (t tr) controlWords(c clock.Control) string {
	if c.Mode != clock.Timed || len(c.Periods) == 0 {
		return c.Readable()
	}
	var parts []string
	for i, p := range c.Periods {
		var s string
		if p.Moves > 0 {
			s = t.f("%d moves in %s", p.Moves, t.span(p.Duration))
		} else {
			s = t.f("%s for the rest of the game", t.span(p.Duration))
		}
		switch p.Method {
		case clock.Fischer:
			s += " " + t.f("+%s per move", t.span(p.PerMove))
		case clock.Bronstein, clock.SimpleDelay:
			s += " " + t.f("%s delay per move", t.span(p.PerMove))
		}
		if i == len(c.Periods)-1 && p.Moves > 0 {
			s += " (" + t.s("repeating") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, t.s(", then "))
}

// span writes a duration as "2 h", "30 min", "1 h 30 min", "30 s".
func (t tr) span(d time.Duration) string {
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	hu, mu := "h", "min"
	if t.de {
		hu, mu = "Std.", "Min."
	}
	var parts []string
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", h, hu))
	}
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", m, mu))
	}
	if s > 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%d s", s))
	}
	return strings.Join(parts, " ")
}
