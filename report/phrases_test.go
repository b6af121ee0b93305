package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/report"
)

const flagScript = `0:00:00 match new --title "T" --player "Anna Schmidt" --player "Deep Blue" --computer "Deep Blue" --operator "Op" --arbiter "Carl Meyer" --white "Anna Schmidt" --tz Europe/Berlin --games 2 --tc 60
0:00:01 game start
0:00:10 move e4
0:00:20 --as operator move e5
0:01:20 --as operator flag white
`

// The German PDF says the 6.9 verdict and its proof in German (issue 14),
// from the phrase the record keeps, in the words of the console; the
// English PDF keeps the record's English sentence.
func TestThePDFSaysTheFlagVerdictInItsLanguage(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(sp, []byte(flagScript), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "f.db")
	runCLI(t, "--db", db, "--at", "2024-05-01T13:00:00Z", "play", sp)
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
