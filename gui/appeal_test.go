package gui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// An appeal is the player's (rule 19): the arbiter who enters it at his
// console chooses who appeals, and the record holds the appeal as that
// player's, never as the arbiter's own (an appeals board reading "arbiter
// Mike Valvo · appeal against #13" sees the arbiter contest his own
// ruling); an appeal with nobody chosen is refused and logs nothing. The
// event number the appeal contests, typed last, is submitted with Enter as
// every other field of the dialog; in English and German.
func TestTheArbiterLogsAnAppealAsThePlayersAndEnterSubmitsIt(t *testing.T) {
	for _, tc := range []struct{ lang, kind, white, refusal string }{
		{"en", "appeal", "Garry Kasparov (White)", "say who appeals: choose the player"},
		{"de", "Einspruch", "Garry Kasparov (Weiß)", "sagen Sie, wer Einspruch einlegt: wählen Sie den Spieler"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if tc.lang == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, secret)
			h.newMatch("acm1996", secret)
			h.c.do(actStartGame)
			h.ft.advance(3 * time.Second)
			h.typeMove("e4")
			res, err := h.core.Do(h.ctx, h.c.cmdAs(h.c.arbiter()), match.LogIncident{Incident: match.IncidentRuling, IncidentArgs: match.IncidentArgs{Text: "the clocks run on"}})
			if err != nil {
				t.Fatal(err)
			}
			ruling := res.Events[len(res.Events)-1].Seq
			h.ft.advance(5 * time.Second)
			// the arbiter's console, started with his PIN on the match
			c := h.consoleOnFile(t, secret)
			c.win.Resize(fyne.NewSize(1280, 800))
			c.refresh()

			c.win.Canvas().Unfocus()
			c.do(actIncident)
			top := c.win.Canvas().Overlays().Top()
			find := func() (kinds *widget.Select, by *widget.RadioGroup, refers *formEntry, asArb *widget.Check) {
				for _, o := range test.LaidOutObjects(top) {
					switch w := o.(type) {
					case *widget.Select:
						if len(w.Options) > 5 {
							kinds = w
						}
					case *widget.RadioGroup:
						by = w
					case *formEntry:
						if w.PlaceHolder == translate("number of the event it concerns (#N in the log)") {
							refers = w
						}
					case *widget.Check:
						asArb = w
					}
				}
				return
			}
			kinds, _, _, _ := find()
			kinds.SetSelected(tc.kind)
			test.Type(c.win.Canvas().Focused().(*formEntry), "the noise cost me time")
			_, by, refers, asArb := find()
			if by == nil || refers == nil {
				t.Fatalf("the appeal asks for no appellant (%v) or no event number (%v)", by != nil, refers != nil)
			}
			n := len(c.game().Incidents)
			enter := func() {
				c.win.Canvas().Focus(refers)
				refers.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			}
			test.Type(refers, fmt.Sprintf("#%d", ruling))

			t.Run("the arbiter's tick is not offered: the appellant acts", func(t *testing.T) {
				if asArb != nil && asArb.Visible() {
					t.Errorf("the dialog offers %q for an appeal", asArb.Text)
				}
			})
			t.Run("an appeal with nobody chosen is refused and logs nothing", func(t *testing.T) {
				enter()
				if got := len(c.game().Incidents); got != n {
					t.Fatalf("an appeal by nobody was logged")
				}
				if got := topDialogTexts(c); !strings.Contains(got, capitalFirst(tc.refusal)) {
					t.Errorf("the dialog says\n%s\nwant %q", got, tc.refusal)
				}
			})
			by.SetSelected(tc.white)
			t.Run("Enter in the event's number logs the appeal", func(t *testing.T) {
				enter()
				if got := len(c.game().Incidents); got != n+1 {
					t.Fatalf("Enter in the event number logged %d incidents, want 1 (dialog: %q)", got-n, topDialogTexts(c))
				}
			})
			t.Run("the record holds the appeal as the player's", func(t *testing.T) {
				in := c.game().Incidents[len(c.game().Incidents)-1]
				if in.Kind != match.IncidentAppeal || in.Role != match.RoleWhite || in.Actor != "Garry Kasparov" || in.Refers != ruling {
					t.Errorf("the record holds %s by %s %q against #%d, want an appeal by white Garry Kasparov against #%d", in.Kind, in.Role, in.Actor, in.Refers, ruling)
				}
			})
			t.Run("the incident log names the player as the appellant", func(t *testing.T) {
				c.refresh()
				rows := logShown(c)
				last := rows[len(rows)-1]
				if !strings.Contains(last, "Garry Kasparov · "+tc.kind) || strings.Contains(last, "Mike Valvo") {
					t.Errorf("the log's appeal reads %q", last)
				}
			})
		})
	}
}
