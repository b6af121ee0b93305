package report_test

import (
	"strings"
	"testing"

	"arbiter/report"
)

// The PDF lists each player's arrival at the board (Article 6.6, 'arrive')
// in the game's incident log, with the instant he arrived in the match's
// time zone, in English and in German.
func TestThePDFListsArrivals(t *testing.T) {
	db := playScript(t, `0:00:00 match new --title "T" --player "Anna Schmidt" --player "Deep Blue" --computer "Deep Blue" --operator "Op" --arbiter "Carl Meyer" --white "Anna Schmidt" --tz Europe/Berlin --games 2
0:00:01 game schedule --start 2024-05-01T13:05:00Z
0:00:02 arrive --player "Deep Blue"
0:05:00 game start
0:20:00 arrive --player "Anna Schmidt" --at 2024-05-01T13:17:30Z
0:21:00 move e4
`)
	st, head := loadState(t, db)
	for _, tc := range []struct{ lang, kind, black, white string }{
		{"en", "arrival", "Deep Blue (Black) arrived at the board at 15:00:02 CEST", "Anna Schmidt (White) arrived at the board at 15:17:30 CEST"},
		{"de", "Ankunft", "Deep Blue (Schwarz) ist um 15:00:02 CEST am Brett eingetroffen", "Anna Schmidt (Weiß) ist um 15:17:30 CEST am Brett eingetroffen"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			g := st.Game(1)
			var said []string
			for _, in := range g.Incidents {
				if in.Kind == "arrival" {
					text, _ := report.IncidentCells(st.Match, g, in, tc.lang)
					said = append(said, text)
				}
			}
			if len(said) != 2 || said[0] != tc.black || said[1] != tc.white {
				t.Errorf("the %s incident log says %q, want %q and %q", tc.lang, said, tc.black, tc.white)
			}
			text := strings.Join(strings.Fields(strings.Join(pageTexts(t, writePDF(t, st, head, report.PDFOptions{Lang: tc.lang})), "\n")), " ")
			for _, w := range []string{tc.kind, "15:00:02", "15:17:30"} {
				if !strings.Contains(text, w) {
					t.Errorf("the %s PDF lacks %q:\n%s", tc.lang, w, text)
				}
			}
		})
	}
}
