package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/report"
)

// flagInPhiladelphiaScript: a 10-minute game in Philadelphia (EST in
// February); White's flag falls at 15:10:01 EST (20:10:01 UTC) and the
// arbiter records it a little later.
const flagInPhiladelphiaScript = `0:00:00 match new --title "T" --player "Garry Kasparov" --player "Deep Blue" --computer "Deep Blue" --arbiter "Mike Valvo" --white "Garry Kasparov" --tz America/New_York --games 2 --tc 600
0:00:01 game start
0:10:05 flag white
`

// The 6.9 verdict's sentence says the instant the flag fell in the
// match's zone, to the millisecond, wherever a person reads it (the
// incident log in the PDF, which the result names); the PGN's structured commands
// and tags keep UTC as the standard has them.
func TestTheFlagVerdictSaysLocalTime(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(sp, []byte(flagInPhiladelphiaScript), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "f.db")
	runCLI(t, "--db", db, "--at", "1996-02-10T20:00:00Z", "play", sp)
	st, head := loadState(t, db)
	g := st.Game(1)
	const local = "15:10:01.000 EST"
	t.Run("the verdict's reason says the local instant", func(t *testing.T) {
		if !strings.Contains(g.Reason, "fell at "+local) || strings.Contains(g.Reason, "UTC") {
			t.Errorf("reason %q", g.Reason)
		}
	})
	t.Run("every incident's text says the local instant", func(t *testing.T) {
		for _, in := range g.Incidents {
			if strings.Contains(in.Text, "UTC") {
				t.Errorf("the %s incident says %q", in.Kind, in.Text)
			}
		}
	})
	for _, lang := range []string{"en", "de"} {
		t.Run(lang+": the PDF says the local instant and no UTC one", func(t *testing.T) {
			text := strings.Join(strings.Fields(strings.Join(pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: lang})), " ")), " ")
			// the incident log says it (the Result line names the
			// verdict, #3); its column may break the line before EST
			if !strings.Contains(text, "15:10:01.000") || !strings.Contains(text, "(EST)") {
				t.Errorf("the PDF lacks %q:\n%s", local, text)
			}
			if strings.Contains(text, "20:10:01") {
				t.Errorf("the PDF says the UTC instant 20:10:01:\n%s", text)
			}
		})
	}
	t.Run("the PGN's flag command keeps UTC", func(t *testing.T) {
		out := runCLI(t, "--db", db, "export", "pgn")
		if !strings.Contains(out, "[%evt flag 6.8/6.9 1996-02-10T20:10:01.000Z") || !strings.Contains(out, `[UTCTime "20:00:01"]`) {
			t.Errorf("the PGN:\n%s", out)
		}
	})
}
