package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"arbiter/clock"
	"arbiter/match"
)

// The audience window on its own, as fyne-io/calculator tests its widget:
// it shows what it is given and passes on what is typed in it, with no
// console behind it.
func TestTheAudienceWindowShowsWhatItIsGivenAndTellsWhatIsTyped(t *testing.T) {
	fa := test.NewTempApp(t)
	at := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	feed := func(side clock.Side) clockFeed {
		return clockFeed{
			side:      func() clock.Side { return side },
			state:     match.NewState,
			game:      func() *match.Game { return nil },
			now:       func() time.Time { return at },
			after:     func(time.Duration, func()) func() { return func() {} },
			timeOfDay: func(t time.Time) string { return t.Format("15:04") },
			relayout:  func() {},
		}
	}
	var keys []fyne.KeyName
	var runes []rune
	var actions []actionID
	closed := 0
	win := &recordingWindow{Window: fa.NewWindow("audience")}
	a := newAudience(win, [2]clockFeed{feed(clock.White), feed(clock.Black)}, audienceEvents{
		onKey:      func(ev *fyne.KeyEvent) { keys = append(keys, ev.Name) },
		onRune:     func(r rune) { runes = append(runes, r) },
		onShortcut: func(id actionID) { actions = append(actions, id) },
		onClosed:   func() { closed++ },
	})
	a.win.Show()

	t.Run("it shows the title and the last move it is given", func(t *testing.T) {
		a.show(audienceShows{title: "ACM Chess Challenge — Game 1", lastMove: "Last move: 1. e4"})
		if a.title.Text != "ACM Chess Challenge — Game 1" || a.moves.Text != "Last move: 1. e4" {
			t.Errorf("shows %q / %q", a.title.Text, a.moves.Text)
		}
		a.show(audienceShows{title: "ACM Chess Challenge — Game 1", lastMove: "Last move: 37. Rxf7   1-0"})
		if a.moves.Text != "Last move: 37. Rxf7   1-0" {
			t.Errorf("after the second show it shows %q", a.moves.Text)
		}
	})
	t.Run("it opens full screen", func(t *testing.T) {
		if !a.win.FullScreen() {
			t.Error("not full screen")
		}
	})
	t.Run("a key, a character and a shortcut typed in it are told, not handled", func(t *testing.T) {
		cv := a.win.Canvas()
		cv.(interface{ OnTypedKey() func(*fyne.KeyEvent) }).OnTypedKey()(&fyne.KeyEvent{Name: defaultKeyLeft})
		test.TypeOnCanvas(cv, "e4")
		cv.(fyne.Shortcutable).TypedShortcut(shortcuts[actPressLeft])
		if len(keys) != 1 || keys[0] != defaultKeyLeft {
			t.Errorf("keys told: %v", keys)
		}
		if string(runes) != "e4" {
			t.Errorf("characters told: %q", string(runes))
		}
		if len(actions) != 1 || actions[0] != actPressLeft {
			t.Errorf("shortcuts told: %v", actions)
		}
	})
	t.Run("its own close is told once and closes nothing", func(t *testing.T) {
		if win.intercept == nil {
			t.Fatal("the window's own close is not intercepted: Fyne would close the window")
		}
		win.intercept() // the window manager's close
		if closed != 1 || win.closes != 0 {
			t.Errorf("the close was told %d times, the window closed %d times; want 1 and 0", closed, win.closes)
		}
	})
}

// The audience display (Article 6.14) draws the running clock at least as
// large as the idle one, also in time trouble when it shows tenths; it
// shows the game's moves with the last one marked, and the score (issue
// 27).
func TestTheAudienceDisplayShowsTheRunningClockTheMovesAndTheScore(t *testing.T) {
	for _, language := range []string{"en", "de"} {
		t.Run(language, func(t *testing.T) {
			if language == "de" {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("60", "") // one minute sudden death
			h.c.do(actStartGame)
			for _, mv := range []string{"e4", "e5", "Nf3"} {
				h.ft.advance(time.Second)
				h.typeMove(mv)
			}
			h.c.do(actAudience)
			a := h.c.audience
			if a == nil {
				t.Fatal("no audience window")
			}
			a.win.Resize(fyne.NewSize(1920, 1080))
			h.ft.advance(51 * time.Second) // Black's minute runs into its last ten seconds
			for range 3 {
				a.win.Content().Refresh()
			}
			running, idle := a.clocks[1], a.clocks[0] // White stands left
			t.Run("the running clock shows tenths and is drawn at least as large as the idle one", func(t *testing.T) {
				if !strings.Contains(running.time.Text, ".") {
					t.Fatalf("the running clock shows %q: no tenths", running.time.Text)
				}
				if running.time.TextSize < idle.time.TextSize {
					t.Errorf("the running clock's digits are %.1f px, the idle one's %.1f px", running.time.TextSize, idle.time.TextSize)
				}
				if w, have := fyne.MeasureText(running.time.Text, running.time.TextSize, running.time.TextStyle).Width, running.obj.Size().Width; w > have {
					t.Errorf("the running clock's reading needs %.0f px; the clock is %.0f px wide", w, have)
				}
			})
			t.Run("the moves are listed, the last one marked", func(t *testing.T) {
				var texts []string
				last := ""
				for _, o := range a.list.Objects {
					ts := o.(*canvas.Text)
					texts = append(texts, strings.TrimSpace(ts.Text))
					if ts.TextStyle.Bold {
						last += strings.TrimSpace(ts.Text)
					}
				}
				knight := "2. Nf3"
				if language == "de" {
					knight = "2. Sf3"
				}
				if got := strings.Join(texts, " "); got != "1. e4 e5 "+knight {
					t.Errorf("the move list is %q", got)
				}
				if last != knight {
					t.Errorf("the marked move is %q, want %q", last, knight)
				}
			})
			t.Run("the score is shown", func(t *testing.T) {
				want := "Score: Garry Kasparov 0 – Deep Blue 0"
				if language == "de" {
					want = "Stand: Garry Kasparov 0 – Deep Blue 0"
				}
				if a.score.Text != want {
					t.Errorf("the score line is %q, want %q", a.score.Text, want)
				}
			})
		})
	}
}

// The audience display's move list wraps between moves, never inside one:
// every move stands whole, its number with it, inside the list's width,
// and the newest row is in view, at every width of the projector's window.
// A RichText of a segment per move (before) broke a move that began with
// less than a character's room left on its line into a character a line
// ("7" / "." / "h" / "3"; seen at 1920×1080 after 13 moves) and a move
// whose room ended at its space into number and move.
func TestTheAudienceDisplaysMoveListWrapsBetweenMovesOnly(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	for _, mv := range strings.Fields("e4 c5 c3 d5 exd5 Qxd5 d4 Nf6 Nf3 Bg4 Be2 e6 h3 Bh5 O-O Nc6 Be3 cxd4 cxd4 Bb4 a3 Ba5 Nc3 Qd6 Nb5 Qe7") {
		h.ft.advance(2 * time.Second)
		h.typeMove(mv)
	}
	h.c.do(actAudience)
	a := h.c.audience
	var want []string
	for _, m := range h.c.audienceShows().moves {
		want = append(want, m.text)
	}
	for w := float32(1280); w <= 1920; w += 8 {
		a.win.Resize(fyne.NewSize(w, 1080*w/1920))
		h.ui.run()
		var shown []string
		room := a.scroll.Size().Width
		for _, o := range test.LaidOutObjects(a.scroll.Content) {
			tx, ok := o.(*canvas.Text)
			if !ok || !tx.Visible() || strings.TrimSpace(tx.Text) == "" {
				continue
			}
			shown = append(shown, strings.TrimSpace(tx.Text))
			at := fyne.CurrentApp().Driver().AbsolutePositionForObject(tx).X - fyne.CurrentApp().Driver().AbsolutePositionForObject(a.scroll).X
			if end := at + fyne.MeasureText(strings.TrimSpace(tx.Text), tx.TextSize, tx.TextStyle).Width; end > room+0.5 {
				t.Errorf("at a width of %.0f the move %q ends at %.0f, outside the list's %.0f", w, tx.Text, end, room)
			}
		}
		if strings.Join(shown, "|") != strings.Join(want, "|") {
			t.Fatalf("at a width of %.0f the list shows %q, want each move whole: %q", w, shown, want)
		}
		if over := a.scroll.Content.Size().Height - a.scroll.Size().Height; over > 0 && a.scroll.Offset.Y < over-0.5 {
			t.Errorf("at a width of %.0f the list is scrolled to %.0f of %.0f: its last row is not in view", w, a.scroll.Offset.Y, over)
		}
	}
}
