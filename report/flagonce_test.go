package report_test

import (
	"strings"
	"testing"

	"arbiter/report"
)

// blackFlagsScript: Black's flag falls on his first move; White can still
// checkmate, so the helpmate line begins with a move of Black's.
const blackFlagsScript = `0:00:00 match new --title "T" --player "Anna" --player "Bert" --white "Anna" --tz UTC --games 2 --tc 600
0:00:01 game start
0:00:02 move e4
0:10:05 flag black
`

// The 6.9 verdict (who, when, the verdict, the helpmate line) is said once
// in the PGN's comment and once in the PDF's incident log: the result's
// incident and the PGN's end note name it rather than repeat it. Before,
// the comment said it three times and the incident log twice. The line
// numbers Black's first move "1…Nc6" as the command line and the reports do.
func TestAFlagVerdictIsSaidOnceWhereAPersonReadsIt(t *testing.T) {
	db := playScriptAt(t, blackFlagsScript, "1996-02-10T20:00:00Z")
	st, head := loadState(t, db)
	g := st.Game(1)
	verdict := "White can still checkmate, e.g. "
	if !strings.Contains(g.Reason, verdict) {
		t.Fatalf("the reason %q does not say the verdict", g.Reason)
	}
	pgn := runCLI(t, "--db", db, "export", "pgn")
	comment := strings.Join(strings.Fields(pgn), " ")
	t.Run("the PGN's comment says the verdict once", func(t *testing.T) {
		if n := strings.Count(comment, verdict); n != 1 {
			t.Errorf("the verdict is said %d times:\n%s", n, pgn)
		}
		if n := strings.Count(comment, "Black's flag fell at"); n != 1 {
			t.Errorf("the flag's instant is said %d times:\n%s", n, pgn)
		}
		for _, want := range []string{"result 1-0 (time forfeit): the verdict on the flag, #", "Game over: time forfeit}", "Black did not complete the required moves in time (6.9)"} {
			if !strings.Contains(comment, want) {
				t.Errorf("the PGN lacks %q:\n%s", want, pgn)
			}
		}
	})
	t.Run("the PGN's comment numbers the line's first move as the reports do", func(t *testing.T) {
		if !strings.Contains(comment, "e.g. 1…N") || strings.Contains(comment, "e.g. 1...") {
			t.Errorf("the line does not begin 1…:\n%s", pgn)
		}
		if !strings.Contains(comment, "1. e4 {") {
			t.Errorf("the movetext is not PGN's own:\n%s", pgn)
		}
	})
	for _, lang := range []string{"en", "de"} {
		t.Run(lang+": the PDF's incident log says the verdict once", func(t *testing.T) {
			text := strings.Join(strings.Fields(strings.Join(pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: lang})), " ")), " ")
			start, end := "Incident log", "Clock adjustments"
			word, first := "can still checkmate", "1…N"
			if lang == "de" {
				// the line in German piece letters, as the report says moves
				start, end, word, first = "Vorkommnisse", "Uhrkorrekturen", "kann noch mattsetzen", "1…S"
			}
			i := strings.Index(text, start)
			j := strings.Index(text, end)
			if i < 0 || j < i {
				t.Fatalf("no %q before %q in the PDF:\n%s", start, end, text)
			}
			if n := strings.Count(text[i:j], word); n != 1 {
				t.Errorf("the incident log says the verdict %d times:\n%s", n, text[i:j])
			}
			if !strings.Contains(text[i:j], first) {
				t.Errorf("the line does not begin 1…:\n%s", text[i:j])
			}
		})
		t.Run(lang+": the PDF's Result line and appendix name the verdict rather than say it", func(t *testing.T) {
			text := strings.Join(strings.Fields(strings.Join(pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: lang})), " ")), " ")
			word, result, named, appendix := "can still checkmate", "Result 1-0 (time forfeit) — the verdict on the flag, #", "the verdict on the flag is in the incident log of game 1", "Rulings, appeals and corrections"
			if lang == "de" {
				word, result, named, appendix = "kann noch mattsetzen", "Ergebnis 1-0 (Zeitüberschreitung) — das Urteil über das gefallene Fallblättchen, #", "das Urteil über das gefallene Fallblättchen steht in den Vorkommnissen der Partie 1", "Entscheidungen, Einsprüche und Korrekturen"
			}
			if n := strings.Count(text, word); n != 1 {
				t.Errorf("the PDF says the verdict %d times, want once (the incident log):\n%s", n, text)
			}
			if !strings.Contains(text, result) {
				t.Errorf("the Result line does not name the verdict (%q):\n%s", result, text)
			}
			k := strings.Index(text, appendix)
			// the Text column's line breaks before the Rule column's 6.8/6.9
			if k < 0 || !strings.Contains(strings.Replace(text[k:], " 6.8/6.9", "", 1), named) {
				t.Errorf("the appendix does not name the verdict (%q):\n%s", named, text)
			}
		})
	}
}
