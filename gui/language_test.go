package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
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
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleOperator}}, match.LogIncident{Incident: "technical-fault", IncidentArgs: match.IncidentArgs{Text: "the relay froze"}}); err != nil {
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
		if !strings.Contains(strings.Join(h.c.sheet.shown, "\n"), "Sf3") {
			t.Errorf("scoresheet %q", h.c.sheet.shown)
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

// Every kind of text the core writes into the incident log is said in the
// console's language from the phrase it keeps beside the English (no
// rewriting of the English): one row per text, the record made by the
// core's commands.
func TestTheGermanConsoleSaysEveryRecordedTextInGerman(t *testing.T) {
	inGerman(t)
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	at := h.ft.Now()
	cmd := func(s int, role match.Role) match.Cmd {
		return match.Cmd{At: at.Add(time.Duration(s) * time.Second), Actor: match.Actor{Role: role}}
	}
	arb, op := match.RoleArbiter, match.RoleOperator
	ok := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	move := func(s int, role match.Role, mv string) {
		t.Helper()
		_, err := h.core.Do(h.ctx, cmd(s, role), match.Move{Input: mv})
		ok(err)
	}
	three, one := 3, 1
	ok(errOf(h.core.Do(h.ctx, cmd(1, arb), match.GameStart{Game: 1})))
	move(10, arb, "e4")
	move(20, op, "e5")
	move(30, arb, "Nf3")
	move(40, op, "Nc6")
	move(50, arb, "Bb5")
	_, err := h.core.Do(h.ctx, cmd(60, arb), match.Correct{Ply: 4, Method: match.MethodKeep, Reason: "the operator relayed Nc6"})
	ok(err)
	ok(errOf(h.core.Do(h.ctx, cmd(70, arb), match.Resume{})))
	move(80, op, "Nf6")
	ok(errOf(h.core.Do(h.ctx, cmd(90, arb), match.Pause{Reason: "stopped by the arbiter", Cause: match.CausePowerFailure})))
	ok(errOf(h.core.Do(h.ctx, cmd(100, arb), match.Resume{})))
	ok(errOf(h.core.Do(h.ctx, cmd(110, arb), match.Adjust{Side: clock.White, Adjustment: match.Adjustment{D: 5 * time.Minute, Moves: &three}, Reason: "the clock was behind"})))
	ok(errOf(h.core.Do(h.ctx, cmd(115, arb), match.Adjust{Side: clock.Black, Adjustment: match.Adjustment{Set: true, D: time.Hour, Period: &one}, Reason: "the clock was ahead"})))
	ok(errOf(h.core.Do(h.ctx, cmd(120, arb), match.DrawOffer{})))
	ok(errOf(h.core.Do(h.ctx, cmd(130, arb), match.DrawDecline{})))
	ok(errOf(h.core.Do(h.ctx, cmd(140, arb), match.Amend{Ply: 1, Input: "d4", Reason: "the operator misread"})))
	move(145, arb, "Bf4")
	_, err = h.core.Do(h.ctx, cmd(150, op), match.LogIncident{Incident: match.IncidentMaintenance, IncidentArgs: match.IncidentArgs{InHall: true, Text: "a node board is replaced"}})
	ok(err)
	ok(h.core.LogSuspend(h.ctx, at.Add(160*time.Second), 3*time.Second))
	ok(errOf(h.core.Do(h.ctx, cmd(170, arb), match.Resign{Side: clock.White})))

	g := h.core.State().Game(1)
	rows := logRows(h.core.State().Match, g)
	for _, tc := range []struct{ name, kind, want string }{
		{"a correction and the clocks it sets", match.IncidentCorrect,
			"Stellung vor 2... Sc6 (Halbzug 4) wiederhergestellt, 2 Halbzüge gestrichen (Uhren belassen): the operator relayed Nc6 [Uhren angehalten; Weiß "},
		{"the rule-10 bonus and its effect", match.IncidentAdjust, "Erholungszeit nach dem Fehler des Operators [Weiß +0:05:00]"},
		{"a resumption", "resume", "Die Uhr von Weiß läuft wieder [Uhr gestartet]"},
		{"a pause's cause", "pause", "Ursache: Stromausfall (Regel 7). vom Schiedsrichter angehalten [Uhren angehalten]"},
		{"an addition with a move counter", match.IncidentAdjust, "the clock was behind [Weiß +0:05:00, Zugzähler 3]"},
		{"a setting with a period", match.IncidentAdjust, "the clock was ahead [Schwarz gestellt auf 1:00:00, Periode 1]"},
		{"a draw offer", "draw offer", "Deep Blue bietet Remis an"},
		{"a declined draw offer", "draw decline", "Garry Kasparov lehnt das Remisangebot ab"},
		{"an amendment", match.IncidentAmend, "Halbzug 1: e4 eingegeben, d4 gespielt; Protokoll berichtigt: the operator misread [Uhren unverändert]"},
		{"the rule-13 bonus", match.IncidentAdjust, "Erholungszeit für Wartung im Spielsaal [Weiß +0:05:00]"},
		{"a suspension", "suspend", "der Rechner war 3s lang im Ruhezustand"},
		{"a resignation's result", match.IncidentResult, "0-1 (Aufgabe): Garry Kasparov hat aufgegeben [Uhren angehalten]"},
	} {
		t.Run(tc.name+" is said in German", func(t *testing.T) {
			for i, in := range g.Incidents {
				if in.Kind == tc.kind && strings.Contains(rows[i], tc.want) {
					return
				}
			}
			t.Errorf("no %s row says %q:\n%s", tc.kind, tc.want, strings.Join(rows, "\n"))
		})
	}
}
