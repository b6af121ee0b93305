package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// chooseLanguage picks option i (0 System, 1 English, 2 Deutsch) in View →
// Language… and confirms it.
func (h *harness) chooseLanguage(i int) {
	h.t.Helper()
	h.c.do(actLanguage)
	var sel *widget.Select
	var ok *widget.Button
	for _, o := range test.LaidOutObjects(h.c.win.Canvas().Overlays().Top()) {
		switch w := o.(type) {
		case *widget.Select:
			sel = w
		case *widget.Button:
			ok = w // the last button is OK
		}
	}
	if sel == nil || ok == nil {
		h.t.Fatal("the language dialog has no choice")
	}
	sel.SetSelectedIndex(i)
	test.Tap(ok)
}

// Switching the language applies at once, without a restart: the console's
// own texts, the menus, the record's labels in the log (issue 14).
func TestTheLanguageSwitchesAtOnce(t *testing.T) {
	// registered before t.Setenv's cleanups, so it runs after them: the
	// localizer is reloaded for the restored variables
	t.Cleanup(func() { _ = loadTranslations() })
	for _, k := range languageVars {
		t.Setenv(k, "en_US.UTF-8")
	}
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.typeMove("Nf3")
	h.c.win.Canvas().Unfocus()
	h.key(defaultKeyStop)
	h.key(fyne.KeyReturn) // the cause: other, as offered
	if _, err := h.core.Incident(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleOperator}}, "technical-fault", match.IncidentArgs{Text: "the relay froze"}); err != nil {
		t.Fatal(err)
	}
	h.c.refresh()
	h.c.moveEntry.SetText("e5")

	h.chooseLanguage(2)
	t.Run("the console's texts are German at once", func(t *testing.T) {
		if got := h.c.buttons[actStartGame].Text; got != lang.L("Start game") || got == "Start game" {
			t.Errorf("the Start game button reads %q", got)
		}
		if got := h.c.win.MainMenu().Items[0].Label; got != "Wettkampf" && got == "Match" {
			t.Errorf("the first menu reads %q", got)
		}
		if !strings.Contains(h.c.notice.Text, "angehalten") {
			t.Errorf("notice %q", h.c.notice.Text)
		}
	})
	t.Run("the log shows the record's roles, kinds and texts in German", func(t *testing.T) {
		log := strings.Join(h.c.lastLog, "\n")
		for _, want := range []string{"Schiedsrichter Mike Valvo · Uhren angehalten (6.12a)", "vom Schiedsrichter angehalten", "Operator Feng-hsiung Hsu · technische Störung"} {
			if !strings.Contains(log, want) {
				t.Errorf("the log lacks %q:\n%s", want, log)
			}
		}
	})
	t.Run("the scoresheet has German piece letters; the typed move stays", func(t *testing.T) {
		if !strings.Contains(strings.Join(h.c.lastSheet, "\n"), "Sf3") {
			t.Errorf("scoresheet %q", h.c.lastSheet)
		}
		if h.c.moveEntry.Text != "e5" {
			t.Errorf("the move field lost %q: %q", "e5", h.c.moveEntry.Text)
		}
	})
	t.Run("the clocks still tick after the switch", func(t *testing.T) {
		h.c.do(actResume)
		h.ft.advance(3 * time.Second)
		if got := h.c.clocks[1].time.Text; got != "1:59:57" {
			t.Errorf("Black's clock shows %q", got)
		}
	})
	h.chooseLanguage(1)
	if got := h.c.buttons[actStartGame].Text; got != "Start game" {
		t.Errorf("back in English the button reads %q", got)
	}
}

// The texts the core writes into the log with a colour, a name or figures
// in them are shown in the console's language.
func TestIncidentTextsAreShownInGerman(t *testing.T) {
	inGerman(t)
	for _, tc := range []struct{ in, want string }{
		{"White's clock runs again", "Die Uhr von Weiß läuft wieder"},
		{"Garry Kasparov offers a draw", "Garry Kasparov bietet Remis an"},
		{"white +0:05:00", "Weiß +0:05:00"},
		{"recovery bonus after the operator's error", "Erholungszeit nach dem Fehler des Operators"},
		{"position before ply 6 restored, 1 ply(s) struck out (keep): the operator relayed Bc5",
			"Stellung vor Halbzug 6 wiederhergestellt, 1 Halbzug/Halbzüge gestrichen (Uhren belassen): the operator relayed Bc5"},
		{"clocks stopped; White 1:59:43.157 (period 1, 3 moves), Black 1:59:47.049 (period 1, 2 moves)",
			"Uhren angehalten; Weiß 1:59:43.157 (Periode 1, Züge: 3), Schwarz 1:59:47.049 (Periode 1, Züge: 2)"},
		{"the relay froze", "the relay froze"}, // the arbiter's own words stay
	} {
		if got := incidentText(tc.in); got != tc.want {
			t.Errorf("incidentText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
