package gui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
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
