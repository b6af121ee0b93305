package gui

import (
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
