package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/match"
)

// gameLabelOf is the games row's label of game n (its text starts "Gn ",
// "Pn " in German).
func gameLabelOf(t *testing.T, c *console, n int) *gameLabel {
	t.Helper()
	prefix := strings.SplitN(tr("G%d %s–%s", n, "", ""), " ", 2)[0] + " "
	for _, o := range c.gamesBox.Objects {
		if l, ok := o.(*gameLabel); ok && strings.HasPrefix(l.text.Text, prefix) {
			return l
		}
	}
	t.Fatalf("the games row has no label of game %d: %v", n, gamesRowTexts(c.gamesBox))
	return nil
}

// twoGames is a console on a match whose game 1 (1. e4 e5, a ruling, then
// White resigns: 0-1) is over and whose game 2 (1. d4) runs.
func twoGames(t *testing.T) *harness {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	for _, mv := range []string{"e4", "e5"} {
		h.ft.advance(7 * time.Second)
		h.typeMove(mv)
	}
	h.ft.advance(5 * time.Second)
	for _, cmd := range []match.Command{
		match.LogIncident{Incident: match.IncidentRuling, IncidentArgs: match.IncidentArgs{Text: "the touched knight need not move"}},
		match.Resign{Side: clock.White},
	} {
		if _, err := h.core.Do(h.ctx, h.c.cmdAs(h.c.arbiter()), cmd); err != nil {
			t.Fatal(err)
		}
	}
	h.c.refresh()
	h.ft.advance(time.Minute)
	h.c.do(actStartGame)
	h.ft.advance(4 * time.Second)
	h.typeMove("d4")
	if g := h.game(); g.Number != 2 || g.Sheet.Ply() != 1 {
		t.Fatalf("game %d at ply %d, want game 2 at ply 1", g.Number, g.Sheet.Ply())
	}
	return h
}

// An arbiter answering an appeal about game 1 while game 2 runs reads game
// 1 at the console: a click on its label in the games row shows its board
// at its final position, its scoresheet, its incident log and its clocks as
// they stood at its end, under a banner saying it is a view; every action
// that writes is disabled or refused while it is shown, nothing is written
// by viewing, and a click on the current game's label or the banner's
// button shows the current game again.
func TestAFinishedGameIsShownByAClickOnItsLabel(t *testing.T) {
	h := twoGames(t)
	c := h.c
	g1 := h.core.State().Game(1)
	seq := h.core.State().Seq
	test.Tap(gameLabelOf(t, c, 1))

	t.Run("the banner says game 1 is viewed, finished 0-1, with the way back to game 2", func(t *testing.T) {
		if !c.viewBar.obj.Visible() {
			t.Fatal("no banner")
		}
		if want := "Game 1 (finished 0-1) — view only: nothing is recorded."; c.viewBar.text.Text != want {
			t.Errorf("the banner says %q, want %q", c.viewBar.text.Text, want)
		}
		if c.viewBar.back.Text != "Back to game 2" {
			t.Errorf("the banner's button says %q, want %q", c.viewBar.back.Text, "Back to game 2")
		}
	})
	t.Run("the scoresheet is game 1's", func(t *testing.T) {
		if c.sheetHead.Text != "Scoresheet (game 1)" {
			t.Errorf("the scoresheet's head says %q", c.sheetHead.Text)
		}
		rows := strings.Join(c.sheet.shown, "\n")
		if !strings.Contains(rows, "e4") || !strings.Contains(rows, "e5") || strings.Contains(rows, "d4") {
			t.Errorf("the scoresheet shows\n%s\nwant game 1's 1. e4 e5", rows)
		}
	})
	t.Run("the incident log is game 1's, with its ruling and its result", func(t *testing.T) {
		if c.logHead.Text != "Incidents (game 1)" {
			t.Errorf("the log's head says %q", c.logHead.Text)
		}
		log := strings.Join(c.lastLog, "\n")
		for _, want := range []string{"the touched knight need not move", "0-1"} {
			if !strings.Contains(log, want) {
				t.Errorf("the log does not say %q:\n%s", want, log)
			}
		}
	})
	t.Run("the board stands at game 1's final position and takes no move", func(t *testing.T) {
		if c.board.g == nil || c.board.g.Number != 1 || c.board.pos.String() != g1.Sheet.Position().String() {
			t.Fatalf("the board shows %v, want game 1's final position", c.board.pos)
		}
		h.tap("g1")
		if c.board.selected >= 0 {
			t.Error("a click selected a piece on the viewed game's board")
		}
	})
	t.Run("the clocks are game 1's as they stood at its end", func(t *testing.T) {
		for slot, cv := range c.clocks {
			side := c.sideAt(slot)
			want, _ := g1.Clock.Display(side, h.ft.Now(), clock.DisplayOptions{})
			if cv.time.Text != want || !strings.Contains(cv.name.Text, g1.Name(side)) {
				t.Errorf("clock %d shows %q %q, want game 1's %q %q", slot, cv.name.Text, cv.time.Text, g1.Name(side), want)
			}
			if cv.frame.StrokeColor == colRunning {
				t.Errorf("clock %d is framed as running", slot)
			}
		}
	})
	t.Run("the label of game 1 is marked as the one shown", func(t *testing.T) {
		if l := gameLabelOf(t, c, 1); l.text.Color != viewingColor() || !l.text.TextStyle.Bold {
			t.Errorf("%q is not marked: %v, bold %v", l.text.Text, l.text.Color, l.text.TextStyle.Bold)
		}
	})

	refusal := "Game 1 is shown, not game 2: nothing is recorded from this view."
	for _, id := range []actionID{actPressLeft, actPressRight, actCallArbiter, actPause, actDrawOffer, actIncident} {
		t.Run("the "+string(id)+" button is disabled with the viewing sentence", func(t *testing.T) {
			if b := c.buttons[id]; !b.Disabled() || !strings.HasPrefix(b.why, refusal) {
				t.Errorf("disabled %v, tip %q; want it disabled with %q", b.Disabled(), b.why, refusal)
			}
		})
	}
	for _, act := range []struct {
		name string
		do   func()
	}{
		{"a move typed", func() { h.typeMove("Nf6") }},
		{"a click on a clock", func() { c.pressSlot(0); c.pressSlot(1) }},
		{"the arbiter's stop", func() { h.key(c.keyStop) }},
		{"Log incident… from the menu", func() { c.do(actIncident) }},
		{"Offer draw from the menu", func() { c.do(actDrawOffer) }},
		{"Adjust clock… from the menu", func() { c.do(actAdjust) }},
	} {
		t.Run(act.name+" is refused and records nothing", func(t *testing.T) {
			act.do()
			said := refusalShown(c) + c.moveErr.Text
			for _, d := range append([]fyne.CanvasObject(nil), c.win.Canvas().Overlays().List()...) {
				c.win.Canvas().Overlays().Remove(d)
			}
			c.dialogs, c.onEnter = nil, nil
			c.setMoveError("")
			c.moveEntry.SetText("")
			if !strings.Contains(said, refusal) {
				t.Errorf("the console says %q, want %q", said, refusal)
			}
			if got := h.core.State().Seq; got != seq {
				t.Errorf("the record holds %d events, had %d", got, seq)
			}
		})
	}
	t.Run("viewing writes nothing and the current game runs on", func(t *testing.T) {
		st := h.core.State()
		if st.Seq != seq {
			t.Errorf("the record holds %d events, had %d", st.Seq, seq)
		}
		if s, ok := st.CurrentGame().Clock.Running(); !ok || s != clock.Black {
			t.Errorf("game 2's running clock: %v %v, want Black's", s, ok)
		}
	})

	t.Run("a move and a stop recorded elsewhere leave the view on game 1 and update the games row", func(t *testing.T) {
		other := h.otherApp(t)
		h.ft.advance(3 * time.Second)
		for _, cmd := range []match.Command{match.Move{Input: "Nf6"}, match.Pause{Reason: "lights"}} {
			if _, err := other.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, cmd); err != nil {
				t.Fatal(err)
			}
			if err := h.core.Refresh(h.ctx); err != nil {
				t.Fatal(err)
			}
		}
		if h.game().Sheet.Ply() != 2 {
			t.Fatalf("game 2 is at ply %d, want 2", h.game().Sheet.Ply())
		}
		if c.sheetHead.Text != "Scoresheet (game 1)" || strings.Contains(strings.Join(c.sheet.shown, " "), "Nf6") || c.board.g.Number != 1 || !c.viewBar.obj.Visible() {
			t.Errorf("the view left game 1: %q, board of game %d, banner shown %v", c.sheetHead.Text, c.board.g.Number, c.viewBar.obj.Visible())
		}
		if l := gameLabelOf(t, c, 2); !strings.Contains(l.text.Text, "paused") {
			t.Errorf("the games row says %q for game 2, want it paused", l.text.Text)
		}
	})

	back := func(t *testing.T) {
		t.Helper()
		if c.viewBar.obj.Visible() {
			t.Error("the banner is still shown")
		}
		if c.sheetHead.Text != "Scoresheet (game 2)" || !strings.Contains(strings.Join(c.sheet.shown, " "), "Nf6") {
			t.Errorf("the scoresheet is %q: %v, want game 2's", c.sheetHead.Text, c.sheet.shown)
		}
		if c.board.g.Number != 2 || c.board.locked {
			t.Errorf("the board shows game %d (locked %v), want game 2's taking moves", c.board.g.Number, c.board.locked)
		}
		if b := c.buttons[actResume]; b.Disabled() {
			t.Errorf("Resume is disabled: %q", b.why)
		}
	}
	t.Run("a click on game 2's label shows game 2 again", func(t *testing.T) {
		test.Tap(gameLabelOf(t, c, 2))
		back(t)
	})
	t.Run("the banner's button shows game 2 again", func(t *testing.T) {
		test.Tap(gameLabelOf(t, c, 1))
		if !c.viewBar.obj.Visible() {
			t.Fatal("a second click on game 1 shows no banner")
		}
		test.Tap(c.viewBar.back)
		back(t)
	})
	t.Run("back on game 2, a move is recorded again", func(t *testing.T) {
		c.do(actResume)
		h.ft.advance(2 * time.Second)
		h.typeMove("c4")
		if h.game().Sheet.Ply() != 3 {
			t.Errorf("game 2 is at ply %d after c4, want 3 (%q)", h.game().Sheet.Ply(), c.moveErr.Text)
		}
	})
}

// The audience display keeps showing the current game while the console
// shows another.
func TestViewingAGameLeavesTheAudienceDisplayOnTheCurrentOne(t *testing.T) {
	h := twoGames(t)
	h.c.do(actAudience)
	if h.c.audience == nil {
		t.Fatal("no audience display")
	}
	test.Tap(gameLabelOf(t, h.c, 1))
	if g := h.c.audience.board.g; g == nil || g.Number != 2 {
		t.Errorf("the audience display's board shows %v, want game 2", g)
	}
	if !strings.Contains(h.c.audience.clocks[0].name.Text+h.c.audience.clocks[1].name.Text, "Deep Blue — White") {
		t.Errorf("the audience's clocks are %q and %q, want game 2's (Deep Blue White)", h.c.audience.clocks[0].name.Text, h.c.audience.clocks[1].name.Text)
	}
}

// The German console says the view and its refusal in German.
func TestTheGermanConsoleSaysTheViewOfAnotherGameInGerman(t *testing.T) {
	inGerman(t)
	h := twoGames(t)
	c := h.c
	test.Tap(gameLabelOf(t, c, 1))
	for _, tc := range []struct{ name, got, want string }{
		{"the banner", c.viewBar.text.Text, "Partie 1 (beendet 0-1) — nur Ansicht, keine Aufzeichnung."},
		{"its button", c.viewBar.back.Text, "Zurück zu Partie 2"},
		{"the scoresheet's head", c.sheetHead.Text, "Partieformular (Partie 1)"},
		{"the label shown", gameLabelOf(t, c, 1).text.Text, "P1 GK–DB 0-1"},
		{"a press's tip", c.buttons[actPressLeft].why, "Partie 1 wird angezeigt, nicht Partie 2: aus dieser Ansicht wird nichts aufgezeichnet."},
		{"the notice", c.notice.Text, "Partie 1, wie die Aufzeichnung sie enthält; Partie 2 läuft derweil weiter."},
	} {
		t.Run(tc.name+" is German", func(t *testing.T) {
			if !strings.HasPrefix(tc.got, tc.want) {
				t.Errorf("%s says %q, want %q", tc.name, tc.got, tc.want)
			}
		})
	}
}

// The players' keys belong to the game played: a clock key or the call key
// pressed while the arbiter reads another game shows the current game again
// and is recorded there at its instant, as it would be with the current game
// shown (a press refused because the arbiter was reading game 1 would cost
// the player his time). The arbiter's own actions stay refused (above).
func TestAPlayersKeyWhileAnotherGameIsShownGoesToTheGamePlayed(t *testing.T) {
	for _, row := range []struct {
		name string
		key  func(c *console) fyne.KeyName
		kind string
	}{
		{"the running clock's key presses it", func(c *console) fyne.KeyName {
			if c.sideAt(0) == clock.Black {
				return c.keyLeft
			}
			return c.keyRight
		}, match.KindPress},
		{"the call key calls the arbiter", func(c *console) fyne.KeyName { return c.keyCall }, match.KindPause},
	} {
		t.Run(row.name, func(t *testing.T) {
			h := twoGames(t)
			c := h.c
			test.Tap(gameLabelOf(t, c, 1))
			if c.viewedGame(h.core.State()) == nil {
				t.Fatal("game 1 is not shown after a click on its label")
			}
			seq := h.core.State().Seq
			h.ft.advance(3 * time.Second)
			h.key(row.key(c))
			if c.viewedGame(h.core.State()) != nil || c.viewBar.obj.Visible() {
				t.Errorf("game %d is still shown after a player's key", c.viewing)
			}
			st := h.core.State()
			if st.Seq != seq+1 {
				t.Fatalf("the record holds %d events, had %d: want the key's one", st.Seq, seq)
			}
			evs := h.events()
			if last := evs[len(evs)-1]; last.Kind != row.kind || last.Game != 2 {
				t.Errorf("the last event is %s of game %d, want %s of game 2", last.Kind, last.Game, row.kind)
			}
		})
	}
}

// The current game's flag falls while the arbiter reads another game: the
// clocks shown are the other game's, so the notice says it (6.8), at the
// instant the running clock reaches zero (derived from the clock: a timer
// armed for it, not a sample), naming the game, and how to record it.
func TestTheCurrentGamesFlagFallingIsSaidWhileAnotherGameIsShown(t *testing.T) {
	h := twoGames(t)
	c := h.c
	test.Tap(gameLabelOf(t, c, 1))
	g := h.game()
	side, ok := g.Clock.Running()
	if !ok {
		t.Fatal("game 2's clock does not run")
	}
	at, ok := g.Clock.FlagAt(side)
	if !ok {
		t.Fatal("no flag instant for game 2's running clock")
	}
	fell := "Game 2: ⚑ " + translate(match.Colour(side)) + "'s flag has fallen"
	h.ft.advance(at.Sub(h.ft.Now()) - time.Millisecond)
	if strings.Contains(c.notice.Text, "flag has fallen") {
		t.Fatalf("a millisecond before the flag falls the notice says %q", c.notice.Text)
	}
	h.ft.advance(time.Millisecond)
	if !strings.Contains(c.notice.Text, fell) {
		t.Errorf("at the flag's instant the notice says %q; want it to say %q", c.notice.Text, fell)
	}
	if c.viewedGame(h.core.State()) == nil {
		t.Error("the flag took the console off game 1: it only says it")
	}
}

// The banner of the view of another game is one line at 1280×800, in
// English and German, and showing it leaves the board where it was: the
// banner stands over the clocks, not in the header (a header grown by a
// wrapped banner no longer fitted above the board, which then moved up
// beside it).
func TestTheViewBannerIsOneLineAndLeavesTheBoardWhereItWas(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		t.Run(language, func(t *testing.T) {
			if language == "de" {
				inGerman(t)
			}
			h := twoGames(t)
			c := h.c
			settle := func() {
				c.win.Resize(fyne.NewSize(1280, 800-menuHeight()))
				for range 3 {
					c.refresh()
					c.win.Content().Refresh()
				}
			}
			settle()
			at := func() fyne.Position { return fyne.CurrentApp().Driver().AbsolutePositionForObject(c.board) }
			pos, side := at(), c.board.side(c.board.Size())
			test.Tap(gameLabelOf(t, c, 1))
			settle()
			t.Run("the banner's text is on one line", func(t *testing.T) {
				one := widget.NewLabelWithStyle("M", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}).MinSize().Height
				if got := c.viewBar.text.MinSize().Height; !c.viewBar.obj.Visible() || got > one+0.5 {
					t.Errorf("the banner %q takes %.0f px, one line is %.0f px", c.viewBar.text.Text, got, one)
				}
				// the longest it says: game 10, drawn
				g := *h.core.State().Game(1)
				g.Number, g.Result = 10, "1/2-1/2"
				c.viewBar.set(&g, 11)
				defer c.viewBar.set(h.core.State().Game(1), 2)
				room := c.viewBar.text.Size().Width - 2*theme.InnerPadding()
				if need := fyne.MeasureText(c.viewBar.text.Text, theme.TextSize(), c.viewBar.text.TextStyle).Width; need > room {
					t.Errorf("the banner %q needs %.0f px, it has %.0f", c.viewBar.text.Text, need, room)
				}
			})
			t.Run("the board neither moves nor shrinks", func(t *testing.T) {
				if got := at(); got != pos {
					t.Errorf("the board stands at %v, was at %v before the banner", got, pos)
				}
				if got := c.board.side(c.board.Size()); got != side {
					t.Errorf("the board's side is %.0f, was %.0f", got, side)
				}
				if c.layout.side {
					t.Error("the header no longer fits above the board")
				}
			})
		})
	}
}
