package match

import (
	"strings"

	"arbiter/internal/phrase"
	"arbiter/scoresheet"
	"arbiter/store"
)

// The texts of the incident log that the core writes itself are kept as
// phrases beside their English (Incident.Said, Incident.EffectSaid), so that
// each face says them in its language with its dictionary. Most are composed
// during replay from the payload's fields (a resumption, a draw offer, a
// result, a flag, a correction, an amendment, an adjustment's effect), so
// every record gets them, old ones too. The few the record stores as
// English (the recovery bonuses' reasons, a suspension, a resignation) are
// stored as a phrase too in events written since (the payload's "why",
// docs/events.md); for older events storedPhrase knows their exact words.

// The texts the core stores in English.
const (
	bonusOperatorError = "recovery bonus after the operator's error"
	bonusHall          = "recovery bonus for maintenance in the playing hall"
	suspendedFormat    = "the computer was suspended for %s; the running clock counted that time: the arbiter decides whether to correct it"
	resignedFormat     = "%s resigned"
)

// The effects the core stores in English with an incident of a kind that
// has one (procedures.go). The record kept them as English alone, so the
// German console and PDF said "in the playing hall: … receives the 0:05:00
// recovery bonus" in English beside the rest in German; effectPhrase says
// them from these words, for every record.
const (
	effectHallFormat    = "in the playing hall: %s receives the %s recovery bonus"
	effectRemote        = "from the control room: no bonus"
	effectFaultRuns     = "the computer's clock keeps running (rule 7)"
	effectToldFormat    = "told: White %s, Black %s"
	effectClockReplaced = "the new clock is set by a clock adjustment (6.10)"
	effectSetupCard     = "setup card printed"
)

// effectPhrase is the phrase of an incident's recorded effect when it is
// one of the core's own (effectHallFormat and the rest), in the same
// English; nil for any other.
func effectPhrase(effect string, g *Game) *phrase.Error {
	switch effect {
	case effectRemote, effectFaultRuns, effectClockReplaced, effectSetupCard:
		return &phrase.Error{Format: effect}
	}
	if rest, ok := strings.CutPrefix(effect, "in the playing hall: "); ok {
		if head, ok := strings.CutSuffix(rest, " recovery bonus"); ok {
			if i := strings.LastIndex(head, " receives the "); i > 0 && g != nil {
				name, d := head[:i], head[i+len(" receives the "):]
				if (name == g.White || name == g.Black) && d != "" && !strings.Contains(d, " ") {
					return phrase.Errorf(effectHallFormat, name, d)
				}
			}
		}
	}
	if rest, ok := strings.CutPrefix(effect, "told: White "); ok {
		if w, b, ok := strings.Cut(rest, ", Black "); ok && w != "" && b != "" && !strings.ContainsAny(w+b, " ,") {
			return phrase.Errorf(effectToldFormat, w, b)
		}
	}
	return nil
}

// said is an incident whose text and effect the core composes as phrases:
// its Text and Effect are their English.
func (s *State) said(g *Game, e store.Event, kind, rule string, text, effect *phrase.Error) Incident {
	inc := s.incident(g, e, kind, english(text), rule, english(effect))
	inc.Said, inc.EffectSaid = text, effect
	return inc
}

func english(p *phrase.Error) string {
	if p == nil {
		return ""
	}
	return p.Error()
}

// sameText is p when its English is text, else nil: a phrase never says
// anything but what the record says.
func sameText(text string, p *phrase.Error) *phrase.Error {
	if p == nil || p.Error() != text {
		return nil
	}
	return p
}

// storedPhrase is the phrase of a text that an event written before
// phrases were stored ("why") holds in English, when it is one of the
// core's own (a recovery bonus, a suspension, a player of g resigning);
// nil for any other text, such as the words a person typed.
func storedPhrase(text string, g *Game) *phrase.Error {
	switch text {
	case bonusOperatorError, bonusHall:
		return &phrase.Error{Format: text}
	}
	if head, ok := strings.CutSuffix(text, " resigned"); ok && g != nil && (head == g.White || head == g.Black) {
		return phrase.Errorf(resignedFormat, head)
	}
	prefix, suffix, _ := strings.Cut(suspendedFormat, "%s")
	if rest, ok := strings.CutPrefix(text, prefix); ok {
		if d, ok := strings.CutSuffix(rest, suffix); ok && d != "" && !strings.ContainsAny(d, " ;") {
			return phrase.Errorf(suspendedFormat, d)
		}
	}
	return nil
}

// recordedPhrase is the phrase of a text the record stores in English: the
// event's own (why) when it has one, else storedPhrase's.
func recordedPhrase(text string, why *phrase.Error, g *Game) *phrase.Error {
	if p := sameText(text, why); p != nil {
		return p
	}
	return storedPhrase(text, g)
}

// reasonArg is a recorded reason as the argument of a phrase: its phrase
// when it has one, else a word a dictionary may know whole (a reason the
// console offers), else the text as recorded (the dictionary has no words
// a person typed).
func reasonArg(text string, why *phrase.Error, g *Game) any {
	if p := recordedPhrase(text, why, g); p != nil {
		return p
	}
	return phrase.Word(text)
}

// methodWord is a correction's method: written as the record names it
// ("keep"), said as what it does to the clocks ("clocks kept").
type methodWord string

func (m methodWord) Word() phrase.Word { return phrase.Word(MethodEffect(string(m))) }

// causeWord is a pause's cause, written and said as the console names it
// ("technical fault", "power failure (rule 7)"). The record's English (the
// PGN, the English PDF) said the payload's code ("cause: fault.",
// "cause: unplayable.") where the English console and the German report
// said the words.
type causeWord string

func (c causeWord) String() string { return string(c.Word()) }

func (c causeWord) Word() phrase.Word {
	switch string(c) {
	case CauseFault:
		return "technical fault"
	case CausePowerFailure:
		return "power failure (rule 7)"
	case CauseUnplayable:
		return "the game cannot be played"
	case CauseCorrection:
		return "position correction (rule 10 / 6.13)"
	}
	return phrase.Word(strings.ReplaceAll(string(c), "-", " "))
}

// helpmateMoves is p with the helpmate line of a 6.9 verdict
// (scoresheet.HelpmateFormat, at any depth) as moves (phrase.Move), so
// that a face says it with its own piece letters: the German report said
// "74.Ba6 … 78.f8=Q+" beside a scoresheet of "74. La6"
// (report.TestTheGermanReportSaysAHelpmateLineWithGermanPieceLetters).
// The record stores the line as a plain string; its English is the same.
func helpmateMoves(p *phrase.Error) *phrase.Error {
	if p == nil {
		return nil
	}
	q := *p
	q.Args = append([]any(nil), p.Args...)
	for i, a := range q.Args {
		switch x := a.(type) {
		case *phrase.Error:
			q.Args[i] = helpmateMoves(x)
		case string:
			if q.Format == scoresheet.HelpmateFormat && i == 1 {
				q.Args[i] = phrase.Move(x)
			}
		}
	}
	return &q
}
