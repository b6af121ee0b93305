package store

import (
	"strings"
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
)

// TestEveryChainProblemHasItsWordsInBothDictionaries: each problem Verify
// can report is a code (VerifyReport.Why), worded by the shared dictionary —
// in English exactly as Problem says it, in German with the same arguments
// — and each is made by one of the broken records below, whose German has
// no English format left in it.
func TestEveryChainProblemHasItsWordsInBothDictionaries(t *testing.T) {
	en, de := assets.Dictionary("en"), assets.Dictionary("de")
	phrase.CheckTable(t, en, de, problems)

	db, _ := newTestDB(t)
	evs := appendEvents(t, db, 10)
	// changed is a copy of the record with change applied to it.
	changed := func(change func(evs []Event) []Event) []Event {
		return change(append([]Event(nil), evs...))
	}
	// renumbered gives events their seq moved by delta, their hash left as it was.
	renumbered := func(evs []Event, delta int64) []Event {
		for i := range evs {
			evs[i].Seq += delta
		}
		return evs
	}
	// rehashed gives events their seq moved by delta and their hashes made
	// anew, each still naming the predecessor it had.
	rehashed := func(evs []Event, delta int64) []Event {
		for i := range evs {
			evs[i].Seq += delta
			evs[i].Hash = EventHash(evs[i])
		}
		return evs
	}
	forged := func(seq int64, prev string) Event {
		e := testEvent(99)
		e.At, e.Seq, e.Prev = evs[0].At, seq, prev
		e.Hash = EventHash(e)
		return e
	}
	tests := []struct {
		name     string
		evs      []Event
		wantHead string
		code     Code
		german   string
	}{
		{"an edited event is said as edited", changed(func(evs []Event) []Event {
			evs[6].Payload = []byte(`{"ply":99,"san":"e4"}`)
			return evs
		}), "", CodeEdited, "Ereignis 7 (move) wurde verändert (Hash stimmt nicht)"},
		{"an event without a kind is named by its number", changed(func(evs []Event) []Event {
			evs[6].Kind = ""
			return evs
		}), "", CodeEdited, "Ereignis 7 wurde verändert (Hash stimmt nicht)"},
		{"a deleted event is said as missing", changed(func(evs []Event) []Event {
			return append(evs[:4], evs[5:]...)
		}), "", CodeMissingGoesOn, "Ereignis 5 fehlt (die Aufzeichnung geht mit Ereignis 6 (move) weiter)"},
		{"a deleted event with the rest renumbered is said as missing", changed(func(evs []Event) []Event {
			return append(evs[:4], renumbered(evs[5:], -1)...)
		}), "", CodeMissingRenumbered, "Ereignis 5 fehlt (spätere Ereignisse wurden neu nummeriert; Ereignis 5 (move) wurde als Ereignis 6 aufgezeichnet)"},
		{"several deleted events with the rest renumbered are said as missing", changed(func(evs []Event) []Event {
			return append(evs[:4], renumbered(evs[6:], -2)...)
		}), "", CodeManyMissing, "Ereignisse 5 bis 6 fehlen (spätere Ereignisse wurden neu nummeriert; Ereignis 5 (move) wurde als Ereignis 7 aufgezeichnet)"},
		{"two swapped events are said as out of order", changed(func(evs []Event) []Event {
			evs[4], evs[8] = evs[8], evs[4]
			evs[4].Seq, evs[8].Seq = 5, 9
			return evs
		}), "", CodeOutOfOrder, "Ereignis 5 (move) steht an falscher Stelle (es wurde als Ereignis 9 aufgezeichnet)"},
		{"a forged event with the rest renumbered is said as inserted", changed(func(evs []Event) []Event {
			return append(append(evs[:3:3], forged(4, evs[2].Hash)), renumbered(evs[3:], 1)...)
		}), "", CodeInsertedMoved, "Ereignis 4 (move) wurde eingefügt (das ursprüngliche Ereignis 4 steht jetzt an Stelle 5)"},
		{"a forged event with the rest renumbered and re-hashed is said as inserted", changed(func(evs []Event) []Event {
			return append(append(evs[:3:3], forged(4, evs[2].Hash)), rehashed(evs[3:], 1)...)
		}), "", CodeInsertedBefore, "Ereignis 4 (move) wurde eingefügt (Ereignis 5 nennt Ereignis 3 als seinen Vorgänger)"},
		{"a forged first event with the rest re-hashed is said as inserted", changed(func(evs []Event) []Event {
			return append([]Event{forged(1, GenesisPrev)}, rehashed(evs, 1)...)
		}), "", CodeInsertedAsFirst, "Ereignis 1 (move) wurde eingefügt (Ereignis 2 gibt sich als erstes Ereignis aus)"},
		{"a first event linked to another and re-hashed does not start the chain", changed(func(evs []Event) []Event {
			evs[0].Prev = evs[9].Hash
			evs[0].Hash = EventHash(evs[0])
			return evs
		}), "", CodeNotFirst, "Ereignis 1 (move) beginnt die Kette nicht (sein Vorgänger-Hash besteht nicht aus 64 Nullen)"},
		{"an event edited and re-hashed is said as such", changed(func(evs []Event) []Event {
			evs[5].Payload = []byte(`{"ply":99,"san":"e4"}`)
			evs[5].Hash = EventHash(evs[5])
			return evs
		}), "", CodeRehashed, "Ereignis 6 (move) wurde verändert und neu gehasht (Ereignis 7 verzeichnet für es einen anderen Hash)"},
		{"a copied event is said as a copy", changed(func(evs []Event) []Event {
			c := evs[9]
			c.Seq = 11
			return append(evs, c)
		}), "", CodeCopy, "Ereignis 11 (move) ist eine Kopie von Ereignis 10"},
		{"a head not in the chain is said as such", evs[:8], evs[9].Hash, CodeHeadNotInChain,
			"der Kopf " + evs[9].Hash[:12] + "… steht nicht in der Kette"},
	}
	made := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := VerifyEvents(tt.evs, tt.wantHead)
			if r.OK || r.Why == nil {
				t.Fatalf("VerifyEvents = %+v; want the record broken", r)
			}
			if r.Why.Code != string(tt.code) {
				t.Errorf("code %q (%s), want %q", r.Why.Code, r.Problem, tt.code)
			}
			if r.Why.Error() != r.Problem {
				t.Errorf("the phrase's English %q is not Problem %q", r.Why.Error(), r.Problem)
			}
			german := de.Say(r.Why)
			if german != tt.german {
				t.Errorf("German %q, want %q", german, tt.german)
			}
			if en.Say(r.Why) != r.Problem {
				t.Errorf("the English dictionary says %q, Problem %q", en.Say(r.Why), r.Problem)
			}
			if strings.Contains(german, "%") || strings.Contains(german, "event") {
				t.Errorf("German %q keeps an English format", german)
			}
			codesIn(r.Why, made)
		})
	}
	for _, c := range ProblemCodes() {
		if !made[string(c)] {
			t.Errorf("no broken record above is said with %s", c)
		}
	}
}

// codesIn adds the codes of p and of the phrases among its arguments.
func codesIn(p *phrase.Error, codes map[string]bool) {
	codes[p.Code] = true
	for _, a := range p.Args {
		if q, ok := a.(*phrase.Error); ok {
			codesIn(q, codes)
		}
	}
}
