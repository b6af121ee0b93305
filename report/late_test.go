package report_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/report"
)

// On a protected match an event recorded more than 5 s after the instant
// it claims (the arbiter's credential records such instants: a recovery, a
// replay) is marked in the game's incident log, with the instant it claims
// and the instant it was received, in English and German; a match played
// as it happens has no such line.
func TestThePDFsIncidentLogMarksEventsRecordedLate(t *testing.T) {
	start := time.Date(2024, 5, 1, 13, 0, 0, 0, time.UTC)
	live := filepath.Join(t.TempDir(), "live.db")
	playLive(t, live, start, sealScript(true, true))
	st, head := loadState(t, live)
	if len(st.Late) != 0 {
		t.Fatalf("a match played as it happens has %d events recorded late", len(st.Late))
	}
	if text := pdfText(t, writePDF(t, st, head, report.PDFOptions{})); strings.Contains(text, "Recorded late") {
		t.Fatal("the report of a match played as it happens marks events recorded late")
	}

	replayed := filepath.Join(t.TempDir(), "replayed.db")
	// the same script played a month later in one go: every line with the
	// arbiter's credential (the operator's moves too)
	script := strings.ReplaceAll(sealScript(true, true), ` --as operator --secret "Hsu's passphrase 1996"`, ` --as operator --pin "Mike Valvo's passphrase"`)
	runCLI(t, "--db", replayed, "--at", start.Format(time.RFC3339), "play", writeFile(t, script))
	st, head = loadState(t, replayed)
	if len(st.Late) == 0 {
		t.Fatal("a replay a month later records nothing late")
	}
	for lang, want := range map[string]*regexp.Regexp{
		"en": regexp.MustCompile(`Recorded late[\s\S]*events \d+–\d+ \(\d+\) at 2024-05-01 13:00:0\d`),
		"de": regexp.MustCompile(`Nachträglich aufgezeichnet[\s\S]*Ereignisse \d+–\d+ \(\d+\) von`),
	} {
		text := pdfText(t, writePDF(t, st, head, report.PDFOptions{Lang: lang}))
		if !want.MatchString(text) {
			t.Errorf("%s: the incident log does not mark the events recorded late (%s):\n%s", lang, want, text)
		}
	}
}

// writeFile writes text to a new file and returns its path.
func writeFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
