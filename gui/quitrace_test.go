package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/match"
)

// countingApp is a Fyne app that counts its own Quit and its driver's.
type countingApp struct {
	fyne.App
	appQuits int
	drv      *countingDriver
}

func (a *countingApp) Quit()               { a.appQuits++ }
func (a *countingApp) Driver() fyne.Driver { return a.drv }

type countingDriver struct {
	fyne.Driver
	quits int
}

func (d *countingDriver) Quit() { d.quits++ }

// The console quits through Fyne's driver, which ends GLFW with the
// windows open, and closes no window itself: Fyne 2.7.1's App.Quit and
// Window.Close leave a closing window in GLFW's next poll, where a pointer
// move that changes the cursor's shape calls SetInputMode on its nil view
// (the crash at quit; gui-check's quit race reproduces it).
func TestTheConsoleQuitsThroughTheDriverAndClosesNoWindow(t *testing.T) {
	t.Run("the console's quit ends the driver's loop, not the app's Quit that closes each window", func(t *testing.T) {
		fa := test.NewTempApp(t)
		ca := &countingApp{App: fa, drv: &countingDriver{Driver: fa.Driver()}}
		quitApp(ca)()
		if ca.drv.quits != 1 || ca.appQuits != 0 {
			t.Fatalf("quit: driver's Quit %d times, the app's Quit %d times; want 1 and 0", ca.drv.quits, ca.appQuits)
		}
	})
	t.Run("quitting with the audience display open leaves its window to the driver's end", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		quits := h.quits()
		h.c.do(actAudience)
		if h.c.audience == nil {
			t.Fatal("the audience display did not open")
		}
		aud := h.c.audience.win
		h.c.closeNow()
		if *quits != 1 {
			t.Fatalf("the app was quit %d times, want 1", *quits)
		}
		if h.c.audience == nil {
			t.Fatal("the audience display's window was closed (its OnClosed ran) before the driver's end")
		}
		open := false
		for _, w := range h.c.fa.Driver().AllWindows() {
			open = open || w == aud
		}
		if !open {
			t.Fatal("the audience display's window is no longer the driver's: it was closed")
		}
	})
}

// windowsApp is a Fyne app whose new windows record what is done to them.
type windowsApp struct {
	fyne.App
	made []*recordingWindow
}

func (a *windowsApp) NewWindow(title string) fyne.Window {
	w := &recordingWindow{Window: a.App.NewWindow(title)}
	a.made = append(a.made, w)
	return w
}

// recordingWindow counts its Close, Hide and Show and keeps its close
// intercept, to play the window's own close (the window manager's).
type recordingWindow struct {
	fyne.Window
	closes, hides, shows int
	hiddenFullScreen     int // hidden while full screen: GLFW leaves such a window shown
	intercept            func()
}

func (w *recordingWindow) Close() { w.closes++; w.Window.Close() }
func (w *recordingWindow) Hide() {
	w.hides++
	if w.Window.FullScreen() {
		w.hiddenFullScreen++
	}
	w.Window.Hide()
}
func (w *recordingWindow) Show()                      { w.shows++; w.Window.Show() }
func (w *recordingWindow) SetCloseIntercept(f func()) { w.intercept = f; w.Window.SetCloseIntercept(f) }

// The audience display's close closes no window, as the console's quit
// does not: its own close (the window manager's) and Ctrl+Shift+A hide it,
// its clocks stop ticking, and it opens again in the same window. Fyne
// 2.7.1's Window.Close leaves the closing window, its view nil, to the
// driver's next poll of GLFW's events, where the first pointer move over
// it sets the cursor on that nil view (the crash at quit of gui-check part
// 8, which Window.Close of the audience display could meet as well).
func TestTheAudienceDisplaysCloseHidesItsWindowAndClosesNone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		close func(t *testing.T, h *harness, w *recordingWindow)
	}{
		{"its own close (the window manager's)", func(t *testing.T, _ *harness, w *recordingWindow) {
			if w.intercept == nil {
				t.Fatal("the audience window's own close is not intercepted: Fyne closes the window")
			}
			w.intercept()
		}},
		{"Ctrl+Shift+A in the console", func(_ *testing.T, h *harness, _ *recordingWindow) { h.c.do(actAudience) }},
	} {
		t.Run(tc.name+" hides the window, closes none, and it opens again in the same window", func(t *testing.T) {
			h := newHarness(t, match.RoleArbiter, "")
			wa := &windowsApp{App: h.c.fa}
			h.c.fa = wa
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			h.typeMove("e4")
			h.c.do(actAudience)
			if h.c.audience == nil || len(wa.made) != 1 {
				t.Fatalf("the audience display did not open in a new window (%d windows made)", len(wa.made))
			}
			w := wa.made[0]
			ticking := h.ft.pending()
			tc.close(t, h, w)
			if h.c.audience != nil {
				t.Fatal("the audience display is still open")
			}
			if w.closes != 0 || w.hides != 1 {
				t.Errorf("the window was closed %d times and hidden %d times; want 0 and 1", w.closes, w.hides)
			}
			if w.hiddenFullScreen != 0 {
				t.Error("the window was hidden full screen, which GLFW does not do: it stays on the screen")
			}
			if h.ft.pending() >= ticking {
				t.Errorf("%d timers armed after the close, %d before: its clocks tick on", h.ft.pending(), ticking)
			}
			h.c.do(actAudience)
			if h.c.audience == nil || len(wa.made) != 1 || h.c.audience.win != fyne.Window(w) || w.shows != 2 {
				t.Fatalf("opened again: %d windows made, shown %d times; want the same window shown again", len(wa.made), w.shows)
			}
			if !w.FullScreen() {
				t.Error("opened again, the display is not full screen")
			}
			if got := h.c.audience.title.Text; !strings.Contains(got, "Game 1") {
				t.Errorf("the display opened again shows the title %q", got)
			}
		})
	}
	t.Run("the language switch lays the display out again in its open window", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		wa := &windowsApp{App: h.c.fa}
		h.c.fa = wa
		h.newMatch("acm1996", "")
		h.c.do(actStartGame)
		h.c.do(actAudience)
		h.c.relocalize()
		if h.c.audience == nil || len(wa.made) != 1 {
			t.Fatalf("after the switch: audience open %v, %d windows made; want the one window open", h.c.audience != nil, len(wa.made))
		}
		if w := wa.made[0]; w.closes != 0 || w.hides != 0 {
			t.Errorf("the switch closed the window %d times and hid it %d times", w.closes, w.hides)
		}
	})
}
