package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// logShown is the text of the incident log's labels as the console shows
// them, one entry a row (head and text joined by a newline).
func logShown(c *console) []string {
	var rows []string
	for _, o := range c.logBox.Objects {
		var parts []string
		for _, l := range test.LaidOutObjects(o) {
			if l, ok := l.(*widget.Label); ok {
				parts = append(parts, l.Text)
			}
		}
		rows = append(rows, strings.Join(parts, "\n"))
	}
	return rows
}

// The console's incident log places an incident by when it happened: the
// arbiter's stop after the struck 2… Nc6 says it came after 2… Nc6
// (struck out), not after 2… Nf6 played in its place a minute later; the
// rows stand in the order things happened; the clocks are W and S in German.
func TestTheIncidentLogPlacesIncidentsByInstant(t *testing.T) {
	for _, tc := range []struct {
		lang, stop, after, clocks string
	}{
		{"en", "after 2… Nc6 (struck out)", "after 2… Nf6", "W 1:59:36 · B 1:59:40"},
		{"de", "nach 2… Sc6 (gestrichen)", "nach 2… Sf6", "W 1:59:36 · S 1:59:40"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if tc.lang == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			at := h.ft.Now()
			cmd := func(s int, role match.Role) match.Cmd {
				return match.Cmd{At: at.Add(time.Duration(s) * time.Second), Actor: match.Actor{Role: role}}
			}
			ok := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			do := func(c match.Cmd, command match.Command) {
				t.Helper()
				_, err := h.core.Do(h.ctx, c, command)
				ok(err)
			}
			move := func(s int, role match.Role, mv string) {
				t.Helper()
				_, err := h.core.Do(h.ctx, cmd(s, role), match.Move{Input: mv})
				ok(err)
			}
			do(cmd(1, match.RoleArbiter), match.GameStart{Game: 1})
			move(10, match.RoleArbiter, "e4")
			move(20, match.RoleOperator, "e5")
			move(30, match.RoleArbiter, "Nf3")
			move(40, match.RoleOperator, "Nc6")
			do(cmd(45, match.RoleArbiter), match.Pause{Reason: "the operator relayed the wrong knight"})
			do(cmd(60, match.RoleArbiter), match.Correct{Ply: 4, Method: match.MethodRecord, Reason: "Deep Blue played Nf6"})
			do(cmd(70, match.RoleArbiter), match.Resume{})
			move(80, match.RoleOperator, "Nf6")
			do(cmd(90, match.RoleArbiter), match.Pause{Reason: "noise in the hall"})
			h.ft.now = at.Add(95 * time.Second)
			h.c.refresh()

			rows := logShown(h.c)
			row := func(text string) string {
				for _, r := range rows {
					if strings.Contains(r, text) {
						return r
					}
				}
				t.Fatalf("no log row holds %q:\n%s", text, strings.Join(rows, "\n\n"))
				return ""
			}
			stop, noise := row("the operator relayed the wrong knight"), row("noise in the hall")
			t.Run("the stop after the struck move says so", func(t *testing.T) {
				if !strings.Contains(stop, tc.stop) {
					t.Errorf("the row %q does not say %q", stop, tc.stop)
				}
			})
			t.Run("the stop after the struck move is not said to follow its replacement", func(t *testing.T) {
				if strings.Contains(stop, tc.after) {
					t.Errorf("the row %q says %q", stop, tc.after)
				}
			})
			t.Run("a stop after the replacement follows the replacement", func(t *testing.T) {
				if !strings.Contains(noise, tc.after) {
					t.Errorf("the row %q does not say %q", noise, tc.after)
				}
			})
			t.Run("the move it followed is written as the PDF's incident log writes it (2… Nf6, not 2... Nf6)", func(t *testing.T) {
				if strings.Contains(noise, "...") {
					t.Errorf("the row %q writes a Black move's number with three dots", noise)
				}
			})
			t.Run("the clocks are named by the language's letters", func(t *testing.T) {
				if !strings.Contains(stop, tc.clocks) {
					t.Errorf("the row %q lacks %q", stop, tc.clocks)
				}
			})
			t.Run("the rows stand in the order things happened", func(t *testing.T) {
				if strings.Index(strings.Join(rows, "\n"), "wrong knight") > strings.Index(strings.Join(rows, "\n"), "noise in the hall") {
					t.Error("the later stop stands first")
				}
			})
		})
	}
}

// Incident kinds are shown by their names in both languages, never by the
// record's identifiers: in the incident log and in the Log incident
// dialog's choice of kinds.
func TestIncidentKindsAreShownByTheirNames(t *testing.T) {
	for _, tc := range []struct{ lang, name string }{
		{"en", "technical fault"},
		{"de", "technische Störung"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if tc.lang == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			h.typeMove("e4")
			if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleOperator}}, match.LogIncident{Incident: match.IncidentTechnicalFault, IncidentArgs: match.IncidentArgs{Text: "the relay froze"}}); err != nil {
				t.Fatal(err)
			}
			h.c.refresh()
			log := strings.Join(logShown(h.c), "\n")
			t.Run("the log names the kind", func(t *testing.T) {
				if !strings.Contains(log, tc.name) || strings.Contains(log, "technical-fault") {
					t.Errorf("the log says:\n%s\nwant %q and no identifier", log, tc.name)
				}
			})
			t.Run("the Log incident dialog offers the kinds by name", func(t *testing.T) {
				h.c.win.Canvas().Unfocus()
				h.c.do(actIncident)
				var options []string
				for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
					if s, ok := o.(*widget.Select); ok && len(s.Options) > 5 {
						options = s.Options
					}
				}
				all := strings.Join(options, " | ")
				if !strings.Contains(all, tc.name) || strings.Contains(all, "-") {
					t.Errorf("the kinds offered: %s", all)
				}
				// the arbiter looks a kind up by its name, as in a
				// dictionary ("Entscheidung" before "Notiz")
				for i := 1; i < len(options); i++ {
					if a, b := options[i-1], options[i]; alphabetKey(a) > alphabetKey(b) {
						t.Errorf("the kinds are not in the order of their names: %q before %q in %s", a, b, all)
					}
				}
			})
			t.Run("a kind chosen, the text field has the focus, and a refusal for its empty text names the kind", func(t *testing.T) {
				var kinds *widget.Select
				for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
					if s, ok := o.(*widget.Select); ok && len(s.Options) > 5 {
						kinds = s
					}
				}
				h.c.win.Canvas().Unfocus() // the pointer chose it
				kinds.SetSelected(tc.name)
				if _, ok := h.c.win.Canvas().Focused().(*formEntry); !ok {
					t.Errorf("after the kind was chosen the focus is on %T, not the text field", h.c.win.Canvas().Focused())
				}
				test.Tap(topDialogButton(h, translate("Log")))
				got := shownDialogTexts(t, h.c)
				if !strings.Contains(got, "("+tc.name+")") || strings.Contains(got, "technical-fault") {
					t.Errorf("the refusal says %q, want the kind's name %q and no identifier", got, tc.name)
				}
			})
		})
	}
}
