package report_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/report"
)

// The appeals board matches an appeal with the decision it contests: the
// PDF's incident log and its appendix name each incident's record event
// ("#14", as the console's incident log and 'incident appeal --refers' do),
// an appeal the event it contests ("against #14") and a decision the appeal
// it closes ("on appeal #15"); the PGN's incident notes say the same, and
// stay valid PGN.
func TestTheReportsNameWhatAnAppealContests(t *testing.T) {
	start := time.Date(2024, 5, 1, 13, 0, 0, 0, time.UTC)
	db := filepath.Join(t.TempDir(), "appeal.db")
	playLive(t, db, start, `0:00:00 match new --title "Appeal test" --player "Ann Able" --player "Bob Baker" --white "Ann Able"
0:00:01 game start
0:00:10 move e4
0:00:20 incident ruling --text "the clock stays as it is"
0:00:30 move e5
0:01:00 resign black`)
	find := func(st *match.State, kind string) match.Incident {
		for _, g := range st.Games {
			for _, in := range g.Incidents {
				if in.Kind == kind {
					return in
				}
			}
		}
		t.Fatalf("no %s incident in the record", kind)
		return match.Incident{}
	}
	st, _ := loadState(t, db)
	ruling := find(st, match.IncidentRuling)
	playLive(t, db, start, fmt.Sprintf(`0:02:00 --as black incident appeal --refers %d --text "the ruling cost me time"`, ruling.Seq))
	st, _ = loadState(t, db)
	appeal := find(st, match.IncidentAppeal)
	playLive(t, db, start, fmt.Sprintf(`0:03:00 incident appeal-decision --refers %d --text "the ruling stands"`, appeal.Seq))
	st, head := loadState(t, db)
	decision := find(st, match.IncidentAppealDecision)

	for _, tc := range []struct{ lang, against, on string }{
		{"en", "against #%d", "on appeal #%d"},
		{"de", "gegen #%d", "zu Einspruch #%d"},
	} {
		text := pdfText(t, writePDF(t, st, head, report.PDFOptions{Lang: tc.lang}))
		for _, want := range []struct{ rule, words string }{
			{"the PDF names the ruling's event", fmt.Sprintf("#%d", ruling.Seq)},
			{"the PDF names the appeal's event and the ruling it contests", fmt.Sprintf("#%d %s", appeal.Seq, fmt.Sprintf(tc.against, ruling.Seq))},
			{"the PDF names the decision's event and the appeal it closes", fmt.Sprintf("#%d %s", decision.Seq, fmt.Sprintf(tc.on, appeal.Seq))},
		} {
			t.Run(tc.lang+": "+want.rule, func(t *testing.T) {
				if !inOrder(text, strings.Fields(want.words)) {
					t.Errorf("the PDF does not say %q:\n%s", want.words, text)
				}
			})
		}
	}

	var b bytes.Buffer
	if err := report.WritePGN(&b, st, 0); err != nil {
		t.Fatal(err)
	}
	pgn := b.String()
	for _, want := range []struct{ rule, words string }{
		{"the PGN names the ruling's event", fmt.Sprintf("#%d Arbiter: ruling (rule 16) the clock stays", ruling.Seq)},
		{"the PGN names the appeal's event and the ruling it contests", fmt.Sprintf("#%d Black: appeal (rule 19) against #%d: the ruling cost me time", appeal.Seq, ruling.Seq)},
		{"the PGN names the decision's event and the appeal it closes", fmt.Sprintf("#%d Arbiter: appeal-decision (rule 19) on appeal #%d: the ruling stands", decision.Seq, appeal.Seq)},
	} {
		t.Run(want.rule, func(t *testing.T) {
			if !strings.Contains(strings.Join(strings.Fields(pgn), " "), want.words) {
				t.Errorf("the PGN does not say %q:\n%s", want.words, pgn)
			}
		})
	}
	t.Run("the PGN with the numbers passes the validators", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "appeal.pgn")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		pgncheck(t, p)
	})
}

// The appeals board cites a clock adjustment by its record event, as it
// cites an incident: the PDF's table of clock adjustments leads each row
// with the event's number ("#14"), as the incident log does, in English
// and German.
func TestTheAdjustmentsTableNamesEachAdjustmentsEvent(t *testing.T) {
	start := time.Date(2024, 5, 1, 13, 0, 0, 0, time.UTC)
	db := filepath.Join(t.TempDir(), "adjust.db")
	playLive(t, db, start, `0:00:00 match new --title "Adjust test" --player "Ann Able" --player "Bob Baker" --white "Ann Able"
0:00:01 game start
0:00:10 move e4
0:00:20 adjust white +30s --reason "the clock was set wrong"
0:00:30 move e5
0:00:40 adjust black -10s --reason "a slip of the hand"
0:01:00 resign black`)
	st, head := loadState(t, db)
	var seqs []int64
	for _, in := range st.Games[0].Incidents {
		if in.Kind == match.IncidentAdjust {
			seqs = append(seqs, in.Seq)
		}
	}
	if len(seqs) != 2 {
		t.Fatalf("the record holds %d adjustments, want 2", len(seqs))
	}
	for _, tc := range []struct{ lang, heading string }{
		{"en", "Clock adjustments and bonuses"},
		{"de", "Uhrkorrekturen und Zeitgutschriften"},
	} {
		t.Run(tc.lang+": each adjustment's row leads with its event", func(t *testing.T) {
			text := pdfText(t, writePDF(t, st, head, report.PDFOptions{Lang: tc.lang}))
			_, table, ok := strings.Cut(text, tc.heading)
			if !ok {
				t.Fatalf("the PDF has no table %q:\n%s", tc.heading, text)
			}
			for _, seq := range seqs {
				n := fmt.Sprintf("#%d", seq)
				found := false
				for _, line := range strings.Split(table, "\n") {
					if f := strings.Fields(line); len(f) > 1 && f[0] == n && strings.Contains(f[1], ":") {
						found = true // "#14  13:00:20 …": the number, then the time
					}
				}
				if !found {
					t.Errorf("no row of the adjustments table starts with %s and its time:\n%s", n, table)
				}
			}
		})
	}
}
