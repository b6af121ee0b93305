package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/report"
)

const flagScript = `0:00:00 match new --title "T" --player "Anna Schmidt" --player "Deep Blue" --computer "Deep Blue" --operator "Op" --arbiter "Carl Meyer" --white "Anna Schmidt" --tz Europe/Berlin --games 2 --tc 60
0:00:01 game start
0:00:10 move e4
0:00:20 --as operator move e5
0:01:20 --as operator flag white
`

// playScript plays a script into a new record and returns its path.
func playScript(t *testing.T, script string) string {
	t.Helper()
	return playScriptAt(t, script, "2024-05-01T13:00:00Z")
}

// playScriptAt plays a script into a new record, its 0:00:00 at the
// instant at (RFC 3339), and returns the record's path.
func playScriptAt(t *testing.T, script, at string) string {
	t.Helper()
	dir := t.TempDir()
	sp := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "r.db")
	runCLI(t, "--db", db, "--at", at, "play", sp)
	return db
}

// The German PDF says the 6.9 verdict and its proof in German (issue 14),
// from the phrase the record keeps, in the words of the console; the
// English PDF keeps the record's English sentence.
func TestThePDFSaysTheFlagVerdictInItsLanguage(t *testing.T) {
	db := playScript(t, flagScript)
	st, head := loadState(t, db)
	tests := []struct {
		lang       string
		want, lack []string
	}{
		{"de", []string{"kann noch mattsetzen", "hat die verlangten Züge nicht rechtzeitig gespielt"}, []string{"can still checkmate", "did not complete"}},
		{"en", []string{"can still checkmate"}, []string{"kann noch mattsetzen"}},
	}
	for _, tc := range tests {
		t.Run(tc.lang+": the verdict is said in the report's language", func(t *testing.T) {
			text := strings.Join(strings.Fields(strings.Join(pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: tc.lang})), "\n")), " ")
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the %s PDF lacks %q:\n%s", tc.lang, w, text)
				}
			}
			for _, w := range tc.lack {
				if strings.Contains(text, w) {
					t.Errorf("the %s PDF says %q", tc.lang, w)
				}
			}
		})
	}
}

// recordedScript writes every kind of text the core puts into the incident
// log (a suspension is written by the console alone: match's tests).
const recordedScript = `0:00:00 match new --title "T" --player "Anna Schmidt" --player "Deep Blue" --computer "Deep Blue" --operator "Op" --arbiter "Carl Meyer" --white "Anna Schmidt" --tz Europe/Berlin --games 2
0:00:01 game start
0:00:10 move e4
0:00:20 --as operator move e5
0:00:30 move Nf3
0:00:40 --as operator move Nc6
0:01:00 correct --ply 4 --method keep --reason "the operator relayed Nc6"
0:01:10 resume
0:01:20 --as operator move Nf6
0:01:30 pause --cause power-failure --reason "stopped by the arbiter"
0:01:40 resume
0:01:50 adjust white +5m --moves 3 --reason "the clock was behind"
0:01:55 adjust black =1:00:00 --period 1 --reason "the clock was ahead"
0:02:00 draw offer
0:02:10 draw decline
0:02:20 amend --ply 1 d4 --reason "the operator misread"
0:02:30 move Bf4
0:02:40 --as operator incident maintenance --in-hall --text "a node board is replaced"
0:02:50 resign white
`

// The German PDF says every kind of text the core writes into the incident
// log in German, from the phrase the core keeps beside the English, in the
// PDF's words; the English PDF prints the record's English.
func TestTheGermanPDFSaysEveryRecordedTextInGerman(t *testing.T) {
	db := playScript(t, recordedScript)
	st, _ := loadState(t, db)
	g := st.Game(1)
	for _, tc := range []struct{ name, kind, text, effect string }{
		{"a correction and the clocks it sets", match.IncidentCorrect,
			"Stellung vor 2... Sc6 (Halbzug 4) wiederhergestellt, 1 Halbzug gestrichen (Uhren belassen): the operator relayed Nc6", "Uhren angehalten; Weiß 1:59:21 (Periode 1, Züge: 2), Schwarz 1:59:40 (Periode 1, Züge: 1)"},
		{"the rule-10 bonus", match.IncidentAdjust, "Erholungszeit nach dem Fehler des Operators", "Weiß +0:05:00"},
		{"a resumption", "resume", "die Uhr von Schwarz läuft wieder", "Uhr gestartet"},
		{"a pause's cause", "pause", "Ursache: Stromausfall (Regel 7). vom Schiedsrichter angehalten", "Uhren angehalten"},
		{"an addition with a move counter", match.IncidentAdjust, "the clock was behind", "Weiß +0:05:00, Zugzähler 3"},
		{"a setting with a period", match.IncidentAdjust, "the clock was ahead", "Schwarz gestellt auf 1:00:00, Periode 1"},
		{"a draw offer", "draw offer", "Deep Blue bietet Remis an", ""},
		{"a declined draw offer", "draw decline", "Anna Schmidt lehnt das Remisangebot ab", ""},
		{"an amendment", match.IncidentAmend, "Halbzug 1: e4 eingegeben, d4 gespielt; Protokoll berichtigt: the operator misread", "Uhren unverändert"},
		{"the rule-13 bonus", match.IncidentAdjust, "Erholungszeit für Wartung im Spielsaal", "Weiß +0:05:00"},
		{"a resignation's result", match.IncidentResult, "0-1 (Aufgabe): Anna Schmidt hat aufgegeben", "Uhren angehalten"},
	} {
		t.Run(tc.name+" is said in German", func(t *testing.T) {
			var seen []string
			for _, in := range g.Incidents {
				text, effect := report.IncidentCells(st.Match, g, in, "de")
				if in.Kind == tc.kind && text == tc.text && effect == tc.effect {
					if en, _ := report.IncidentCells(st.Match, g, in, "en"); en != in.Text {
						t.Errorf("the English PDF says %q, the record %q", en, in.Text)
					}
					return
				}
				seen = append(seen, text+" | "+effect)
			}
			t.Errorf("no %s row says %q | %q:\n%s", tc.kind, tc.text, tc.effect, strings.Join(seen, "\n"))
		})
	}
	t.Run("every format and word of these phrases has its German with the same verbs", func(t *testing.T) {
		de, err := phrase.LoadDictionary(assets.Translations, "translations/de.json")
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		var walk func(p *phrase.Error)
		walk = func(p *phrase.Error) {
			if p == nil {
				return
			}
			keys = append(keys, p.Format)
			for _, a := range p.Args {
				switch x := a.(type) {
				case *phrase.Error:
					walk(x)
				case phrase.Word:
					keys = append(keys, string(x))
				case interface{ Word() phrase.Word }:
					keys = append(keys, string(x.Word()))
				}
			}
		}
		for _, in := range g.Incidents {
			walk(in.Said)
			walk(in.EffectSaid)
		}
		if len(keys) < 30 {
			t.Fatalf("only %d keys: the walk is broken", len(keys))
		}
		for _, context := range []string{"", "report"} { // the console's words, the PDF's
			phrase.CheckDictionary(t, de, context, keys)
		}
	})
}

// effectsScript logs each incident kind whose effect the core writes, on the
// computer's turn where its rule asks for it.
const effectsScript = `0:00:00 match new --title "T" --player "Anna Schmidt" --player "Deep Blue" --computer "Deep Blue" --operator "Op" --arbiter "Carl Meyer" --white "Anna Schmidt" --tz Europe/Berlin --games 2
0:00:01 game start
0:00:10 move e4
0:00:12 --as operator incident maintenance --in-hall --text "a node board is replaced"
0:00:14 --as operator incident replacement --remote --text "new software from the control room"
0:00:16 --as operator incident time-info --text "the operator tells Deep Blue the clocks"
0:00:18 --as operator incident setup --text "the position is set up in Deep Blue again"
0:00:20 --as operator incident technical-fault --text "Deep Blue does not answer"
0:00:22 incident clock-replaced --text "the clock's display failed"
`

// Rules 2, 7, 11, 12 and 13: the effect the core writes with an incident
// (the in-hall bonus, no bonus from the control room, the clocks told, the
// setup card, the computer's clock running on, the new clock set) is said in
// German in the German PDF and console, from the phrase kept beside the
// record's English; the English PDF prints the record's English. The German
// PDF and console said them in English ("in the playing hall: Anna Schmidt
// receives the 0:05:00 recovery bonus").
func TestTheGermanPDFSaysTheEffectOfEveryIncidentKindInGerman(t *testing.T) {
	db := playScript(t, effectsScript)
	st, _ := loadState(t, db)
	g := st.Game(1)
	for _, tc := range []struct{ rule, kind, effect string }{
		{"rule 13 maintenance in the playing hall gives the human the bonus", match.IncidentMaintenance, "im Spielsaal: Anna Schmidt erhält 0:05:00 Erholungszeit"},
		{"rule 13 a replacement from the control room gives none", "replacement", "vom Kontrollraum: keine Erholungszeit"},
		{"rule 11 the clocks told to the computer", "time-info", "mitgeteilt: Weiß 2:04:51, Schwarz 1:59:54"},
		{"rule 12 the setup card", match.IncidentSetup, "Aufbaukarte gedruckt"},
		{"rule 7 the computer's clock runs on during a fault", match.IncidentTechnicalFault, "die Uhr des Computers läuft weiter (Regel 7)"},
		{"rule 2 a replaced clock is set by an adjustment", "clock-replaced", "die neue Uhr wird mit einer Uhrkorrektur gestellt (6.10)"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			var seen []string
			for _, in := range g.Incidents {
				if in.Kind != tc.kind {
					continue
				}
				_, effect := report.IncidentCells(st.Match, g, in, "de")
				if effect == tc.effect {
					if _, en := report.IncidentCells(st.Match, g, in, "en"); en != in.Effect {
						t.Errorf("the English PDF says %q, the record %q", en, in.Effect)
					}
					return
				}
				seen = append(seen, effect)
			}
			t.Errorf("no %s row's effect says %q in German: %q", tc.kind, tc.effect, seen)
		})
	}
}
