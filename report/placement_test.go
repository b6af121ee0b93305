package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/report"
	"arbiter/scoresheet"
)

// pauseBeforeCorrectionScript: the arbiter stops the clocks after the
// operator's slip 2... Nc6 (a minute before its replacement 2... Nf6 is
// played), the position is corrected (rule 10) and play goes on. An
// incident before the first move and a pause after the replacement frame it.
const pauseBeforeCorrectionScript = `0:00:00 match new --title "T" --player "Anna Schmidt" --player "Deep Blue" --computer "Deep Blue" --operator "Op" --arbiter "Carl Meyer" --white "Anna Schmidt" --tz Europe/Berlin --games 2
0:00:01 game start
0:00:05 incident note --text "the board was turned round"
0:00:10 move e4
0:00:20 --as operator move e5
0:00:30 move Nf3
0:00:40 --as operator move Nc6
0:00:45 pause --reason "the operator relayed the wrong knight"
0:01:00 correct --ply 4 --method record --reason "Deep Blue played Nf6"
0:01:10 resume
0:01:20 --as operator move Nf6
0:01:30 pause --reason "noise in the hall"
0:01:40 resume
0:01:50 move Bc4
`

func pauseBeforeCorrection(t *testing.T) (db string) {
	t.Helper()
	dir := t.TempDir()
	sp := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(sp, []byte(pauseBeforeCorrectionScript), 0o644); err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(dir, "c.db")
	runCLI(t, "--db", db, "--at", "2024-05-01T13:00:00Z", "play", sp)
	return db
}

// The pause that opened a rule 10 correction after the struck 2... Nc6
// happened before 2... Nf6 was played: the PGN puts it after 2... Nc6 (in
// the variation of the struck moves), never in the comment of 2... Nf6.
func TestIncidentsPlacedByInstantInPGN(t *testing.T) {
	db := pauseBeforeCorrection(t)
	st, _ := loadState(t, db)
	games := report.MatchPGN(st, 1)
	if len(games) != 1 || len(games[0].Moves) != 5 {
		t.Fatalf("MatchPGN: %d games; want one of 5 moves", len(games))
	}
	g := games[0]
	mv := g.Moves
	const pause = "[%evt pause 6.12a 2024-05-01T13:00:45.000Z arbiter]"
	tests := []struct {
		name, text, want string
		present          bool
	}{
		{"the pause after the struck move is not in the comment of the move that replaced it", mv[3].Comment, pause, false},
		{"the pause after the struck move is not in the comment of the move before it", mv[2].Comment, pause, false},
		{"a pause after the replacement is in the replacement's comment", mv[3].Comment, "[%evt pause 6.12a 2024-05-01T13:01:30.000Z arbiter]", true},
		{"the correction is after the last move standing when it was made", mv[2].Comment, "[%evt correct r10 2024-05-01T13:01:00.000Z arbiter]", true},
		{"an incident before the first move is in the comment before it", g.Intro, "[%evt note - 2024-05-01T13:00:05.000Z arbiter]", true},
		{"an incident before the first move is not after it", mv[0].Comment, "board was turned round", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.text, tc.want) != tc.present {
				t.Errorf("present=%v wanted for %q in %q", tc.present, tc.want, tc.text)
			}
		})
	}
	t.Run("the pause after the struck move follows it in the variation, before the note that strikes it", func(t *testing.T) {
		if len(mv[3].Variations) != 1 || mv[3].Variations[0][0].SAN != "Nc6" {
			t.Fatalf("variations after 2... Nf6: %+v", mv[3].Variations)
		}
		c := mv[3].Variations[0][0].Comment
		i, j := strings.Index(c, pause), strings.Index(c, "struck out")
		if i < 0 || j < i {
			t.Errorf("the struck move's comment is %q: want the pause, then the struck-out note", c)
		}
	})
	t.Run("the export reads back and passes pgn-extract and chess.js", func(t *testing.T) {
		out := runCLI(t, "--db", db, "export", "pgn")
		rgs, err := scoresheet.ReadPGN(strings.NewReader(out))
		if err != nil || len(rgs) != 1 {
			t.Fatalf("ReadPGN: %d games, %v", len(rgs), err)
		}
		if !strings.Contains(rgs[0].Intro, "board was turned round") {
			t.Errorf("the intro reads back as %q", rgs[0].Intro)
		}
		p := filepath.Join(t.TempDir(), "c.pgn")
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		pgncheck(t, p)
	})
}

// The PDF's incident log says after which move each incident happened: the
// pause after the struck 2... Nc6 is "After 2… ♘c6 (struck out)", never
// "After 2… ♘f6", the move played a minute later; rows stand by instant.
func TestIncidentsPlacedByInstantInPDF(t *testing.T) {
	st, head := loadState(t, pauseBeforeCorrection(t))
	tests := []struct{ lang, at, after string }{
		{"en", "15:00:45.000", "2… ♘c6 (struck out)"},
		{"de", "15:00:45.000", "2… Sc6 (gestrichen)"},
		{"en", "15:01:30.000", "2… ♘f6"},
		{"en", "15:00:05.000", "start"},
	}
	for _, tc := range tests {
		t.Run(tc.lang+": the incident at "+tc.at+" is after "+tc.after, func(t *testing.T) {
			pages := pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: tc.lang}))
			if got := incidentBlock(pages[1], tc.at); !cellText(got, tc.after) && !strings.Contains(got, tc.after) {
				t.Errorf("the incident at %s reads %q: it does not say it came after %q", tc.at, got, tc.after)
			}
		})
	}
	t.Run("the incident log stands in the order things happened", func(t *testing.T) {
		pages := pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: "en"}))
		last := -1
		for _, at := range []string{"15:00:05.000", "15:00:45.000", "15:01:00.000", "15:01:10.000", "15:01:30.000"} {
			i := strings.Index(pages[1], " "+at+" ")
			if i < 0 {
				t.Fatalf("no incident at %s in the log", at)
			}
			if i < last {
				t.Errorf("the incident at %s stands before an earlier one", at)
			}
			last = i
		}
	})
}

// incidentBlock is a row of the PDF's incident log as pdftotext lays it
// out: the line that starts with the record's event number ("#14") and the
// time at, and the lines its cells wrap onto.
func incidentBlock(page, at string) string {
	var block []string
	in := false
	for _, l := range strings.Split(page, "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && strings.HasPrefix(f[0], "#") {
			f = f[1:]
		}
		starts := len(f) > 0 && len(f[0]) == 12 && f[0][2] == ':' && f[0][5] == ':' && f[0][8] == '.'
		switch {
		case starts && f[0] == at:
			in = true
		case starts || strings.TrimSpace(l) == "":
			in = false
		}
		if in {
			block = append(block, l)
		}
	}
	return strings.Join(block, "\n")
}
