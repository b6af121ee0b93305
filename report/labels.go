package report

import (
	"fmt"
	"strings"
	"time"

	"arbiter/assets"
	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/match"
)

// word is a kind or role of the record in the report's language, by its
// name ("technical fault", "technische Störung"), never its identifier
// ("technical-fault"): the shared dictionary's entry in either language.
func (t tr) word(s string) string { return t.s(s) }

// rule is a rule reference in the report's language: "rule 10" → "Regel 10";
// an article of the Laws ("6.12b") is a number in every language.
func (t tr) rule(s string) string {
	if n, ok := strings.CutPrefix(s, "rules "); ok {
		return t.f("rules %s", n)
	}
	if n, ok := strings.CutPrefix(s, "rule "); ok {
		return t.f("rule %s", n)
	}
	return s
}

// san is a move in the report's notation: figurines in English (♘f3),
// the language's piece letters otherwise (German: Sf3, Lb5, Tc1, Dd8, Kg1;
// the dictionary's "NBRQK").
func (t tr) san(san string) string {
	if !t.de {
		return Figurine(san)
	}
	var pairs []string
	for i, r := range []rune(t.s("NBRQK")) {
		pairs = append(pairs, string("NBRQK"[i]), string(r))
	}
	return strings.NewReplacer(pairs...).Replace(san)
}

// tr is the report's words in one language (the shared dictionary,
// assets.Dictionary) and the match's time zone.
type tr struct {
	d  phrase.Dictionary
	de bool         // the German report: piece letters, recorded phrases said in the dictionary's words
	m  *match.Match // for the time zone; nil: UTC
}

// newTr is the report's words in language lang ("en" or "de").
func newTr(lang string, m *match.Match) tr {
	return tr{d: assets.Dictionary(lang), de: lang == "de", m: m}
}

// s is a label, kind or termination of the PDF in the report's language:
// the shared dictionary's (assets/translations), where the PDF's own word,
// when it differs from the console's, is under the context "report"
// ("report|Reason").
func (t tr) s(en string) string { return t.d.In("report", en) }

func (t tr) f(en string, a ...any) string { return fmt.Sprintf(t.s(en), a...) }

// term is a game's termination in the report's language.
func (t tr) term(s string) string { return t.s(s) }

func (t tr) date(d time.Time) string {
	if d.IsZero() {
		return "—"
	}
	return d.In(t.m.Location()).Format(t.s("2006-01-02")) // the date's layout in the report's language
}

// dateTime is a day and time of day in the match's zone, the zone named:
// "1996-02-14 19:43 EST".
func (t tr) dateTime(d time.Time) string {
	if d.IsZero() {
		return "—"
	}
	return t.date(d) + " " + d.In(t.m.Location()).Format("15:04") + " " + t.m.ZoneName(d)
}

// millis is a time of day in the match's zone to the millisecond, as the
// record keeps it and `status` says it: "18:42:46.451".
func (t tr) millis(d time.Time) string { return d.In(t.m.Location()).Format("15:04:05.000") }

// instant is the time of day of an incident of game g to the millisecond,
// led by its date when that is not the day the game started ("1996-02-12
// 10:30:00.250" for an appeal decided the next day). Before, the incident
// log cut it to the second and never named the day, so a decision taken
// the next morning read as if made before the game began
// (TestTheOutputsSayEachIncidentsInstantToTheMillisecond).
func (t tr) instant(g *match.Game, d time.Time) string {
	if g != nil && !g.Started.IsZero() && t.date(d) != t.date(g.Started) {
		return t.date(d) + " " + t.millis(d)
	}
	return t.millis(d)
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

// matchResult is the match result in one phrase: who won or that it is
// drawn as match.Standing says it, else both scores after the games played.
func (t tr) matchResult(st *match.State) string {
	s := st.Standing()
	if s.Winner >= 0 || s.Drawn {
		if t.de {
			return t.d.Say(s.Phrase())
		}
		return s.Phrase().Error()
	}
	return t.f("%s %s – %s %s after %d of %d games", s.Players[0], points(s.Points[0]), s.Players[1], points(s.Points[1]), s.Played, s.Planned)
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

// span writes a duration as "2 h", "30 min", "1 h 30 min", "30 s", the units
// in the report's language.
func (t tr) span(d time.Duration) string {
	return clock.FormatSpan(d, t.s("h"), t.s("min"), t.s("s"))
}
