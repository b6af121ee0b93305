package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"arbiter/clock"
	"arbiter/match"
)

// The arbiter records a player's arrival at the board from the Game menu
// (Article 6.6, 'arrive'), at the time of day he saw it in the match's
// zone; the incident log shows it, and the player is then not defaulted.
func TestTheArbiterRecordsAnArrivalFromTheGameMenu(t *testing.T) {
	h := rolesGame(t, match.RoleArbiter)
	h.ft.advance(20 * time.Minute)
	h.c.do(actArrive)
	texts := topDialogTexts(h.c)
	if !strings.Contains(texts, "Game 1") {
		t.Fatalf("the dialog says %q", texts)
	}
	r := topRadio(t, h.c)
	if r.Selected != "Garry Kasparov (White)" || len(r.Options) != 2 {
		t.Errorf("the players offered %q, chosen %q", r.Options, r.Selected)
	}
	when := topEntries(t, h.c)[0]
	if want := h.ft.Now().Format("15:04:05"); when.Text != want { // the match's zone is UTC here
		t.Errorf("the time offered is %q, want now (%s)", when.Text, want)
	}
	seen := h.ft.Now().Add(-12 * time.Minute).Truncate(time.Second)
	when.SetText(seen.Format("15:04:05"))
	h.c.win.Canvas().Focus(when)
	h.key(fyne.KeyReturn)
	e, ok := h.last(match.KindArrive)
	if !ok {
		t.Fatalf("no arrival recorded: %q", topDialogTexts(h.c))
	}
	if e.Role != "arbiter" {
		t.Errorf("the arrival is recorded by %s", e.Role)
	}
	if got := h.game().Arrived[clock.White]; !got.Equal(seen) {
		t.Errorf("Kasparov arrived at %v, want %v", got, seen)
	}
	if last := h.c.lastLog[len(h.c.lastLog)-1]; !strings.Contains(last, "Garry Kasparov (White) arrived at the board at "+seen.Format("15:04:05")) {
		t.Errorf("the incident log ends with %q", last)
	}
	t.Run("a time to come is refused in the dialog, which stays open", func(t *testing.T) {
		h.c.do(actArrive)
		topRadio(t, h.c).SetSelected("Deep Blue (Black)")
		when := topEntries(t, h.c)[0]
		when.SetText(h.ft.Now().Add(time.Hour).Format("15:04:05"))
		h.c.win.Canvas().Focus(when)
		h.key(fyne.KeyReturn)
		if got := topDialogTexts(h.c); !strings.Contains(got, "has not yet come") {
			t.Errorf("the dialog says %q", got)
		}
		h.key(fyne.KeyEscape)
	})
	t.Run("in German", func(t *testing.T) {
		inGerman(t)
		h.c.refresh()
		if last := h.c.lastLog[len(h.c.lastLog)-1]; !strings.Contains(last, "Garry Kasparov (Weiß) ist um "+seen.Format("15:04:05")+" UTC am Brett eingetroffen") {
			t.Errorf("the German log ends with %q", last)
		}
	})
}

// A draw offer by the rules of the time in the console (issue 27): White
// offers on his own clock, before his move (Game → White offers a draw),
// and Black answers at once; before, the offer could not be answered until
// White had moved.
func TestADrawOfferIsAnsweredAtOnceInTheConsole(t *testing.T) {
	h := rolesGame(t, match.RoleArbiter)
	h.c.win.Canvas().(fyne.Shortcutable).TypedShortcut(shortcuts[actOfferWhite])
	if g := h.game(); g.Offer == nil || g.Offer.By != clock.White {
		t.Fatalf("no offer by White: %+v (%q)", g.Offer, refusalShown(h.c))
	}
	if !strings.Contains(h.c.notice.Text, "White offers a draw") {
		t.Errorf("the notice says %q", h.c.notice.Text)
	}
	h.c.do(actDrawDecline)
	if e, _ := h.last(match.KindDrawDecline); e.Role != "arbiter" {
		t.Fatalf("the decline was not recorded: %q", refusalShown(h.c))
	}
	h.c.do(actOfferWhite)
	h.c.do(actDrawAccept)
	h.key(fyne.KeyReturn) // the question: accept?
	if g := h.game(); g.Result != "1/2-1/2" || g.Termination != "agreement" {
		t.Fatalf("after the acceptance: %s %s (%q)", g.Result, g.Termination, refusalShown(h.c))
	}
	if g := h.game(); g.Sheet.Ply() != 0 {
		t.Errorf("the game ended after %d plies, want before White's first move", g.Sheet.Ply())
	}
}
