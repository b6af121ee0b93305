package report_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The appendix's row of a flag says where the verdict stands, the game's
// incident log, and does not name itself: it said "the verdict on the
// flag, #4" in the row whose # column is #4. The rows of both languages
// are compared with testdata/appendix-flag.golden (-update rewrites it).
func TestTheAppendixsFlagRowDoesNotNameItself(t *testing.T) {
	st, _ := loadState(t, playScriptAt(t, blackFlagsScript, "1996-02-10T20:00:00Z"))
	var got strings.Builder
	for _, lang := range []string{"en", "de"} {
		rows := report.AppendixRows(st, lang)
		flagged := 0
		for _, row := range rows {
			got.WriteString(lang + ": " + strings.Join(row, " | ") + "\n")
			if row[5] != "flag" && row[5] != "Fallblättchen" {
				continue
			}
			flagged++
			t.Run(lang+": the flag's row does not name its own event", func(t *testing.T) {
				if text := row[6]; strings.Contains(text, row[1]) {
					t.Errorf("the flag's row %s says %q: it names itself", row[1], text)
				}
			})
		}
		if flagged != 1 {
			t.Fatalf("%s: the appendix has %d rows of a flag, want 1:\n%s", lang, flagged, got.String())
		}
	}
	golden := filepath.Join("testdata", "appendix-flag.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./report/ -run TestTheAppendixsFlagRowDoesNotNameItself -update writes it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("the appendix's rows:\n%s\nwant (%s):\n%s", got.String(), golden, want)
	}
}
