package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"arbiter/match"
)

// The 6.9 verdict on a fallen flag, the analyser's proof included, is said
// in the German console's words: in the verdict's note and in the incident
// log, read back from the record's code (issue 14).
func TestTheFlagVerdictIsSaidInGerman(t *testing.T) {
	cases := []struct {
		name, fen string
		want      []string
	}{
		{"6.9: the opponent can still mate, the flag loses", "",
			[]string{"Das Fallblättchen von Weiß fiel um", "hat die verlangten Züge nicht rechtzeitig gespielt (6.9)", "Schwarz kann noch mattsetzen, z. B."}},
		{"6.9: the opponent has only the king, the game is drawn", "8/8/4k3/8/8/4K3/4P3/8 w - - 0 60",
			[]string{"aber Schwarz kann mit keiner Folge regelgemäßer Züge mattsetzen (6.9): Schwarz hat nur noch den König"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inGerman(t)
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("60", "")
			if _, err := h.core.Do(h.ctx, h.c.cmdAs(h.c.arbiter()), match.GameStart{StartPosition: match.StartPosition{FEN: tc.fen}}); err != nil {
				t.Fatal(err)
			}
			h.ft.advance(61 * time.Second)
			h.c.win.Canvas().Unfocus()
			h.c.do(actFlagWhite)
			h.key(fyne.KeyReturn)
			note := topDialogTexts(h.c)
			log := strings.Join(logRows(h.c.state().Match, h.game()), "\n")
			for _, w := range tc.want {
				if !strings.Contains(note, w) {
					t.Errorf("the verdict's note lacks %q:\n%s", w, note)
				}
				// the note says the verdict as a sentence; the log as a clause
				// of the flag's entry, which may begin lowercase
				if !strings.Contains(strings.ToLower(log), strings.ToLower(w)) {
					t.Errorf("the incident log lacks %q:\n%s", w, log)
				}
			}
			for _, english := range []string{"flag fell", "checkmate", "only the king", "required"} {
				if strings.Contains(note+log, english) {
					t.Errorf("English %q is left:\n%s\n%s", english, note, log)
				}
			}
			// the flag's entry is the verdict, said once (before, "Fallblättchen
			// von Weiß um … gefallen; kann mattsetzen (das Fallblättchen …)")
			if !strings.Contains(log, "Das Fallblättchen von Weiß fiel um") || strings.Count(log, "Fallblättchen von Weiß") != 1 {
				t.Errorf("the log's head is not German:\n%s", log)
			}
		})
	}
}

// The 6.9 verdict's sentence says when the flag fell in the match's zone,
// to the millisecond, in the verdict's note and in the incident log: a
// match in Philadelphia reads EST, never UTC.
func TestTheFlagVerdictSaysTheLocalInstant(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	spec := defaultSpec()
	spec.White, spec.Control, spec.TimeZone = "Garry Kasparov", "60", "America/New_York"
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
		t.Fatal(err)
	}
	h.c.do(actStartGame)
	start := h.ft.Now()
	h.ft.advance(61 * time.Second)
	h.c.win.Canvas().Unfocus()
	h.c.do(actFlagWhite)
	h.key(fyne.KeyReturn)
	fell := start.Add(60 * time.Second)
	want := "fell at " + fell.In(h.c.state().Match.Location()).Format("15:04:05.000") + " EST"
	note := topDialogTexts(h.c)
	log := strings.Join(logShown(h.c), "\n")
	for _, tc := range []struct{ where, text string }{{"the verdict's note", note}, {"the incident log", log}} {
		t.Run(tc.where+" says the local instant", func(t *testing.T) {
			if !strings.Contains(tc.text, want) || strings.Contains(tc.text, "UTC") {
				t.Errorf("%s says:\n%s\nwant %q and no UTC", tc.where, tc.text, want)
			}
		})
	}
}
