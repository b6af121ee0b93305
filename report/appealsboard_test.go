package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/report"
)

// appealScript is a game an appeals board reads: instants with
// milliseconds, a clock set again (6.10), an operator's error corrected
// (rule 10) with its recovery bonus, and a note the next day.
const appealScript = `0:00:00 match new --title "T" --player "Anna" --player "Comp" --computer "Comp" --operator "Op" --white "Anna" --tz UTC --games 2
0:00:01 game start
0:00:05.250 move e4
0:00:09.500 --as operator move e5
0:00:12.125 move Nf3
0:00:20.067 adjust black =1:59:00 --reason "the reserve clock"
0:00:30.000 --as operator move Nf6
0:00:33.000 move Nxe5
0:00:40.000 correct --ply 4 --method keep --reason "the operator made Nf6; the computer chose Nc6"
0:00:50.000 resume
0:00:55.000 --as operator move Nc6
0:01:00.000 pause --reason "adjourned"
2024-05-02T09:30:00.250Z incident note --text "the appeals board met"
`

// The PGN's [%evt] commands and the PDF's incident log say each
// incident's instant to the millisecond, as the record keeps it, and the
// PDF names the day of an incident that is not the day the game started.
// Before, both cut the instant to the second (two adjustments 1.384 s
// apart read 23:42:45 and 23:42:46) and the PDF's log said "09:30:00" for
// a note made the next morning, as if before the game began.
func TestTheOutputsSayEachIncidentsInstantToTheMillisecond(t *testing.T) {
	db := playScriptAt(t, appealScript, "2024-05-01T13:00:00Z")
	st, _ := loadState(t, db)
	g := st.Game(1)
	pgn := strings.Join(strings.Fields(runCLI(t, "--db", db, "export", "pgn")), " ")
	for _, tc := range []struct{ name, want string }{
		{"the adjustment's command has its milliseconds", "[%evt adjust 6.10 2024-05-01T13:00:20.067Z arbiter]"},
		{"a whole second keeps its three digits", "[%evt resume 6.12c 2024-05-01T13:00:50.000Z arbiter]"},
		{"the next day's note has its milliseconds", "[%evt note - 2024-05-02T09:30:00.250Z arbiter]"},
	} {
		t.Run("PGN: "+tc.name, func(t *testing.T) {
			if !strings.Contains(pgn, tc.want) {
				t.Errorf("the PGN lacks %q:\n%s", tc.want, pgn)
			}
		})
	}
	for _, lang := range []string{"en", "de"} {
		rows := report.IncidentRows(st, g, lang)
		times := map[string]string{} // kind → the time cell of its first row
		for _, row := range rows {
			if _, ok := times[row[5]]; !ok {
				times[row[5]] = row[0]
			}
		}
		adjust, note, day := "adjust", "note", "2024-05-02"
		if lang == "de" {
			adjust, note, day = "Uhrkorrektur", "Notiz", "02.05.2024"
		}
		t.Run(lang+": the incident log says the adjustment's time to the millisecond", func(t *testing.T) {
			if got := times[adjust]; got != "13:00:20.067" {
				t.Errorf("the adjustment's time is %q, want 13:00:20.067 (rows %q)", got, rows)
			}
		})
		t.Run(lang+": the incident log names the day of an incident after the game's day", func(t *testing.T) {
			if got := times[note]; got != day+" 09:30:00.250" {
				t.Errorf("the next day's note's time is %q, want %q (rows %q)", got, day+" 09:30:00.250", rows)
			}
		})
	}
}

// An adjustment or a correction is said with both clocks before and after
// it, exact to the millisecond, in the PGN and in the PDF's table of clock
// adjustments: an appeal against a clock set again is judged by what the
// clock showed before. Before, only the clocks after it were said, cut to
// the second ("Black set to 1:00:20; W 1:27:32 B 1:00:20").
func TestTheOutputsSayTheClocksBeforeAndAfterAnAdjustment(t *testing.T) {
	db := playScriptAt(t, appealScript, "2024-05-01T13:00:00Z")
	st, _ := loadState(t, db)
	g := st.Game(1)
	pgn := strings.Join(strings.Fields(runCLI(t, "--db", db, "export", "pgn")), " ")
	for _, tc := range []struct{ name, want string }{
		{"the clock set again", "(Black set to 1:59:00); W 1:59:53.125 B 1:59:47.808 before, W 1:59:53.125 B 1:59:00 after"},
		{"the correction", "W 1:59:50.125 B 1:58:43.067 before, W 1:59:50.125 B 1:58:43.067 after"},
		{"the recovery bonus", "(White +0:05:00); W 1:59:50.125 B 1:58:43.067 before, W 2:04:50.125 B 1:58:43.067 after"},
		{"a pause says the clocks once", "(clocks stopped); W 2:04:45.125 B 1:58:38.067;"},
	} {
		t.Run("PGN: "+tc.name, func(t *testing.T) {
			if !strings.Contains(pgn, tc.want) {
				t.Errorf("the PGN lacks %q:\n%s", tc.want, pgn)
			}
		})
	}
	rows := report.AdjustmentRows(st, g, "en")
	want := [][2]string{
		{"1:59:53.125 / 1:59:47.808", "1:59:53.125 / 1:59:00"},
		{"1:59:50.125 / 1:58:43.067", "1:59:50.125 / 1:58:43.067"},
		{"1:59:50.125 / 1:58:43.067", "2:04:50.125 / 1:58:43.067"},
	}
	if len(rows) != len(want) {
		t.Fatalf("the table of adjustments has %d rows, want %d: %q", len(rows), len(want), rows)
	}
	for i, w := range want {
		t.Run("PDF: "+rows[i][3]+" "+rows[i][0]+" says both clocks before and after it", func(t *testing.T) {
			if got := [2]string{rows[i][7], rows[i][8]}; got != w {
				t.Errorf("row %q: before/after %q, want %q", rows[i], got, w)
			}
		})
	}
}

// The German report says a 6.9 verdict's helpmate line with the German
// piece letters, as its scoresheet and every move it names: it said
// "2.Qh5" beside a scoresheet of "Dh5". The English keeps the record's
// words.
func TestTheGermanReportSaysAHelpmateLineWithGermanPieceLetters(t *testing.T) {
	st, _ := loadState(t, playScriptAt(t, blackFlagsScript, "1996-02-10T20:00:00Z"))
	g := st.Game(1)
	for _, tc := range []struct{ lang, want, lack string }{
		{"de", "z. B. 1…Sc6 2.Dh5", "2.Qh5"},
		{"en", "e.g. 1…Nc6 2.Qh5", "2.Dh5"},
	} {
		t.Run(tc.lang+": the flag's verdict says the line as the report says moves", func(t *testing.T) {
			found := false
			for _, in := range g.Incidents {
				if text, _ := report.IncidentCells(st.Match, g, in, tc.lang); strings.Contains(text, "1…") {
					found = true
					if !strings.Contains(text, tc.want) || strings.Contains(text, tc.lack) {
						t.Errorf("the flag's text %q: want %q, not %q", text, tc.want, tc.lack)
					}
				}
			}
			if !found {
				t.Fatalf("no incident says the helpmate line: %+v", g.Incidents)
			}
		})
	}
}

// A move struck out by a correction keeps, in the PGN's variation, its
// [%clk] and [%emt] as they stood when it was made, as every move of the
// main line does: the board reads when the wrong move was made and what
// it cost. Before, the struck moves had no clock at all.
func TestAStruckMoveKeepsItsClockInTheVariation(t *testing.T) {
	db := playScriptAt(t, appealScript, "2024-05-01T13:00:00Z")
	pgn := strings.Join(strings.Fields(runCLI(t, "--db", db, "export", "pgn")), " ")
	for _, want := range []string{"(2... Nf6 {[%clk 1:58:50] [%emt 0:00:17]} 3. Nxe5 {[%clk 1:59:50] [%emt 0:00:03]"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("the variation lacks %q:\n%s", want, pgn)
		}
	}
	p := filepath.Join(t.TempDir(), "s.pgn")
	if err := os.WriteFile(p, []byte(runCLI(t, "--db", db, "export", "pgn")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("pgn-extract and chess.js read it", func(t *testing.T) { pgncheck(t, p) })
}
