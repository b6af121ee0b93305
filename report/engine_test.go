package report_test

import (
	"strings"
	"testing"
	"time"

	"arbiter/report"
)

// The incident log of the PDF lists the computer's equipment's faults and
// restarts (the bridge's technical-fault and setup incidents, docs/engine.md)
// and a move of the computer entered as not its engine's, with both clocks,
// in English and German.
func TestThePDFsIncidentLogListsTheEnginesFaultsAndRestarts(t *testing.T) {
	start := time.Date(2024, 5, 1, 13, 0, 0, 0, time.UTC)
	db := t.TempDir() + "/engine.db"
	sha := strings.Repeat("ab", 32)
	playLive(t, db, start, `0:00:00 match new --title "ACM Chess Challenge" --player "Garry Kasparov" --player "Deep Blue" --computer "Deep Blue" --operator "Feng-hsiung Hsu" --white "Garry Kasparov"
0:00:01 game start
0:01:00 move e4
0:01:10 --as operator incident technical-fault --text "The engine Stockfish 15.1 (process 4186) exited with status 3; the computer's clock keeps running (rule 7). The bridge restarts it and sets up the position (rule 12)."
0:01:11 --as operator incident setup --text "The engine Stockfish 15.1 was restarted after a technical fault (restart 1 of 3 in game 1)."
0:01:20 --as operator engine move --game 1 --ply 2 --fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" --uci c7c5 --received 2024-05-01T13:01:20Z --eval "cp 20" --transcript game-1.log --lines 30 --bytes 1200 --sha256 `+sha+`
0:01:30 --as operator move e5 --not-engine --reason "the operator misread the screen"`)
	st, head := loadState(t, db)
	for lang, wants := range map[string][]string{
		"en": {"technical fault", "exited with status 3", "setup", "restarted after a technical fault", "not-engine", "Deep Blue's move 1…e5 entered, not the engine's move 1…c5: the operator misread the screen"},
		"de": {"technische Störung", "exited with status 3", "Stellungseingabe", "restarted after a technical fault", "nicht der Zug der Engine", "Deep Blue: Zug 1…e5 erfasst, nicht der Zug der Engine 1…c5: the operator misread the screen"},
	} {
		text := pdfText(t, writePDF(t, st, head, report.PDFOptions{Lang: lang}))
		for _, want := range wants {
			if !inOrder(text, strings.Fields(want)) {
				t.Errorf("%s: the PDF does not say %q:\n%s", lang, want, text)
			}
		}
	}
}

// inOrder reports whether the words stand in text in this order (a table's
// cells wrap their text, so other words may stand between them).
func inOrder(text string, words []string) bool {
	for _, w := range words {
		i := strings.Index(text, w)
		if i < 0 {
			return false
		}
		text = text[i+len(w):]
	}
	return true
}
