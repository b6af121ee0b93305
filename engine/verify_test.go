package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
	"arbiter/match"
)

// TestEveryTranscriptProblemHasItsWordsInBothDictionaries: a transcript
// that does not hold what its engine.move events attest is said as a code
// (TranscriptReport.Why), worded by the shared dictionary — in English
// exactly as Problem says it, in German with the same arguments — and each
// kind is made by a transcript below, whose German keeps no English.
func TestEveryTranscriptProblemHasItsWordsInBothDictionaries(t *testing.T) {
	en, de := assets.Dictionary("en"), assets.Dictionary("de")
	phrase.CheckTable(t, en, de, transcriptProblems)

	lines := []string{"> uci\n", "< uciok\n", "> go movetime 1000\n", "< bestmove e2e4\n"}
	whole := strings.Join(lines, "")
	// attested is what an engine.move event attests of the first n lines.
	attested := func(n int, withLines bool) Attested {
		b := []byte(strings.Join(lines[:n], ""))
		sum := sha256.Sum256(b)
		a := Attested{Seq: 7, Game: 1, EngineTranscript: match.EngineTranscript{File: TranscriptName(1, ""), Lines: n, Bytes: int64(len(b)), SHA256: hex.EncodeToString(sum[:])}}
		if withLines {
			for _, l := range lines[:n] {
				a.LineHashes = append(a.LineHashes, LineHash([]byte(strings.TrimSuffix(l, "\n"))))
			}
		}
		return a
	}
	for _, tc := range []struct {
		name   string
		file   string
		move   Attested
		code   match.Code
		german string
	}{
		{"a transcript cut short", strings.Join(lines[:2], ""), attested(4, true), CodeTranscriptCutShort,
			"das Protokoll PATH hat 2 Zeilen, aber das Ereignis 7 (engine.move) bestätigt 4 davon: es wurde gekürzt"},
		{"a line changed", strings.Replace(whole, "e2e4", "d2d4", 1), attested(4, true), CodeTranscriptLineDiffers,
			`Zeile 4 des Protokolls PATH weicht von dem ab, was das Ereignis 7 (engine.move) bestätigt ("< bestmove d2d4")`},
		{"lines changed where the event keeps no line hashes", strings.Replace(whole, "e2e4", "d2d4", 1), attested(4, false), CodeTranscriptDiffers,
			"das Protokoll PATH weicht von dem ab, was das Ereignis 7 (engine.move) bestätigt, in den Zeilen 1 bis 4 (ihr SHA-256 ist nicht der aufgezeichnete)"},
	} {
		t.Run(tc.name+" is said in German", func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "match.db")
			path := filepath.Join(Dir(db), TranscriptName(1, ""))
			if err := os.MkdirAll(Dir(db), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := CheckTranscripts(db, []Attested{tc.move})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Why == nil {
				t.Fatalf("the transcript holds: %+v", rep)
			}
			if rep.Why.Code != string(tc.code) || rep.Why.Error() != rep.Problem {
				t.Errorf("code %q, English %q; want %q, Problem %q", rep.Why.Code, rep.Why.Error(), tc.code, rep.Problem)
			}
			if got, want := de.Say(rep.Why), strings.ReplaceAll(tc.german, "PATH", path); got != want {
				t.Errorf("German %q,\n want %q", got, want)
			}
		})
	}
}
