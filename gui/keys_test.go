package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// The keyboard items of issue 14: Ctrl+A selects the move field, a refused
// move is selected so that the next replaces it, Escape closes a form
// dialog, the incident kind is chosen, not preset.
func TestTheMoveFieldAndDialogsAnswerTheKeyboard(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(time.Second)
	t.Run("a refused move is selected and the next move replaces it", func(t *testing.T) {
		h.typeMove("Ke2")
		if !h.c.moveEntry.selected {
			t.Fatal("the refused move is not selected")
		}
		test.Type(h.c.moveEntry, "e4")
		if h.c.moveEntry.Text != "e4" {
			t.Fatalf("the field holds %q, want the new move alone", h.c.moveEntry.Text)
		}
		h.key(fyne.KeyReturn)
		if h.ply() != 1 {
			t.Fatalf("e4 not recorded: %q", h.c.moveErr.Text)
		}
	})
	t.Run("Ctrl+A selects the move field", func(t *testing.T) {
		test.Type(h.c.moveEntry, "Nf6")
		h.c.moveEntry.TypedShortcut(&fyne.ShortcutSelectAll{})
		test.Type(h.c.moveEntry, "e5")
		if h.c.moveEntry.Text != "e5" {
			t.Errorf("after Ctrl+A and typing the field holds %q", h.c.moveEntry.Text)
		}
		h.c.moveEntry.SetText("")
	})
	t.Run("Escape closes Log incident, and nothing is logged", func(t *testing.T) {
		n := len(h.events())
		h.c.do(actIncident)
		if len(h.c.dialogs) != 1 {
			t.Fatal("Log incident did not open")
		}
		f, ok := h.c.win.Canvas().Focused().(*formEntry)
		if !ok {
			t.Fatalf("no text field has the focus: %T", h.c.win.Canvas().Focused())
		}
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if len(h.c.dialogs) != 0 {
			t.Error("Escape in the text field did not close the dialog")
		}
		if len(h.events()) != n {
			t.Error("closing the dialog wrote an event")
		}
	})
	t.Run("the incident kind is chosen, not preset", func(t *testing.T) {
		h.c.do(actIncident)
		for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
			if s, ok := o.(*widget.Select); ok && s.Options[0] == match.IncidentKinds()[0] && s.Selected != "" {
				t.Errorf("the kind is preset to %q", s.Selected)
			}
		}
		h.key(fyne.KeyEscape)
	})
	t.Run("the incident log scrolls to the newest entry", func(t *testing.T) {
		for i := 0; i < 12; i++ {
			if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, match.LogIncident{Incident: "note", IncidentArgs: match.IncidentArgs{Text: strings.Repeat("a long note that wraps ", 6)}}); err != nil {
				t.Fatal(err)
			}
		}
		h.c.refresh()
		s := h.c.logScr
		if want := s.Content.MinSize().Height - s.Size().Height; want <= 0 || s.Offset.Y < want-1 {
			t.Errorf("the log is scrolled to %.0f of %.0f", s.Offset.Y, want)
		}
	})
}

// The German console names the keys of a shortcut as the rest of its texts
// do, Strg+ and Umschalt+ (Strg+Umschalt+D in the notice of a draw offer),
// in the dialog of keys and shortcuts and in a flag's button; the English
// console says Ctrl+ and Shift+. Fyne draws the menus' own labels (Ctrl+ in
// every language: docs/console.md).
func TestTheKeysOfAShortcutAreNamedInTheConsolesLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, language string
		want, wantNot  []string
	}{
		{"English says Ctrl+ and Shift+", "en", []string{"Ctrl+Q ", "Ctrl+Shift+F "}, []string{"Strg+", "Umschalt+"}},
		{"German says Strg+ and Umschalt+", "de", []string{"Strg+Q ", "Strg+Umschalt+F "}, []string{"Ctrl+", "Shift+"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.language == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actShortcuts)
			got := topDialogTexts(h.c)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the dialog of keys and shortcuts lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("the dialog of keys and shortcuts says %q:\n%s", w, got)
				}
			}
		})
	}
}
