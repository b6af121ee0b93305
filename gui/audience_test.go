package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

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
	a := newAudience(fa.NewWindow("audience"), [2]clockFeed{feed(clock.White), feed(clock.Black)}, audienceEvents{
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
	t.Run("closing it is told once", func(t *testing.T) {
		a.win.Close()
		if closed != 1 {
			t.Errorf("the close was told %d times", closed)
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
				for _, sg := range a.list.Segments {
					ts := sg.(*widget.TextSegment)
					texts = append(texts, strings.TrimSpace(ts.Text))
					if ts.Style.TextStyle.Bold {
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
