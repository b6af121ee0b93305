package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/match"
)

// quits counts the console's ends (closeNow's quit of the app).
func (h *harness) quits() *int {
	n := 0
	h.c.cfg.quit = func() { n++ }
	return &n
}

// Ctrl+Q and Enter quit whenever nothing unsaved stands in the way. The
// move field keeps its own focus behind an open dialog: with the engine's
// move offered in it and a note open under the question (gui-check, the
// German Engine dialog closed with a held Escape), Enter went to nothing
// and three tries of Ctrl+Q and Enter left the console running.
func TestCtrlQAndEnterQuitWhateverTheMoveFieldHoldsBehindADialog(t *testing.T) {
	for _, tc := range []struct {
		name  string
		under func(h *harness) // what stands open when Ctrl+Q comes
	}{
		{"with nothing open", func(*harness) {}},
		{"with a note open under the question", func(h *harness) { h.c.info("Not done", "a refusal") }},
		{"with the Engine dialog open under the question", func(h *harness) { h.c.do(actEngine) }},
		{"with a refused call open under the question, after a held Escape closed the Engine dialog", func(h *harness) {
			h.c.do(actEngine)
			h.key(fyne.KeyEscape)
			h.c.heldKey = "" // as before the fix: the repeat reached the call key
			h.repeat(fyne.KeyEscape)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, match.RoleOperator, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			h.humanMoves("e4")
			h.engineMoveFor("c7c5", "cp 25") // offered in the move field
			h.c.win.Canvas().Focus(h.c.moveEntry)
			if h.c.moveEntry.Text == "" {
				t.Fatal("the engine's move is not offered in the move field")
			}
			quits := h.quits()
			tc.under(h)
			h.c.do(actQuit) // Ctrl+Q: the main menu's shortcut, taken even over a dialog
			h.key(fyne.KeyReturn)
			if *quits != 1 {
				t.Fatalf("Ctrl+Q and Enter did not quit (the dialog on top: %q)", topDialogTexts(h.c))
			}
		})
	}
	t.Run("Enter in the move field still enters the move typed there", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		h.newMatch("acm1996", "")
		h.c.do(actStartGame)
		quits := h.quits()
		h.c.info("a note", "Enter closes it")
		h.c.dialogs[0].Hide()
		h.typeMove("e4")
		if h.ply() != 1 || *quits != 0 {
			t.Fatalf("ply %d after typing e4 and Enter, %d quits", h.ply(), *quits)
		}
	})
}

// A key the driver repeats while it is held acts once: the Escape that
// closed a dialog calls nobody however long it is held (a call is an
// event of the record), and a held call key calls once; a fresh press
// (the driver's key down, or the key seen released) acts again.
func TestAHeldEscapeThatClosedADialogCallsNobody(t *testing.T) {
	calls := func(h *harness) int {
		n := 0
		for _, e := range h.events() {
			if e.Kind == "pause" {
				n++
			}
		}
		return n
	}
	t.Run("the repeats of the Escape that closed a dialog call nobody", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		h.newMatch("acm1996", "")
		h.c.do(actStartGame)
		h.c.do(actShortcuts)
		h.c.keyDown(&fyne.KeyEvent{Name: fyne.KeyEscape})
		h.repeat(fyne.KeyEscape) // the press: closes the dialog
		for i := 0; i < 5; i++ {
			h.repeat(fyne.KeyEscape) // the driver's repeats while it is held
		}
		if n := calls(h); n != 0 || len(h.c.dialogs) != 0 {
			t.Fatalf("%d calls recorded, %d dialogs open (%q)", n, len(h.c.dialogs), topDialogTexts(h.c))
		}
		h.c.keyUp(&fyne.KeyEvent{Name: fyne.KeyEscape})
		h.repeat(fyne.KeyEscape) // pressed anew (its key down not seen: the release was)
		if n := calls(h); n != 1 {
			t.Fatalf("a fresh Escape after the release recorded %d calls, want 1", n)
		}
	})
	t.Run("the repeats of the Escape that closed a dialog close no dialog opened after it", func(t *testing.T) {
		h := newHarness(t, match.RoleOperator, "")
		h.newMatch("acm1996", "")
		h.c.do(actStartGame)
		h.humanMoves("e4") // a clock runs: Ctrl+Q asks first
		quits := h.quits()
		h.c.do(actShortcuts)
		h.c.keyDown(&fyne.KeyEvent{Name: fyne.KeyEscape})
		h.repeat(fyne.KeyEscape) // the press: closes the dialog
		h.c.do(actQuit)          // Ctrl+Q while Escape is still held
		for i := 0; i < 3; i++ {
			h.repeat(fyne.KeyEscape) // the driver's repeats while it is held
		}
		if len(h.c.dialogs) != 1 {
			t.Fatalf("%d dialogs open after the held Escape's repeats (%q), want the quit question", len(h.c.dialogs), topDialogTexts(h.c))
		}
		h.key(fyne.KeyReturn)
		if *quits != 1 {
			t.Fatalf("Ctrl+Q and Enter did not quit after a held Escape (the dialog on top: %q)", topDialogTexts(h.c))
		}
	})
	t.Run("Escape in a dialog's text field: its repeats call nobody", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		h.newMatch("acm1996", "")
		h.c.do(actStartGame)
		h.c.do(actIncident)
		f, ok := h.c.win.Canvas().Focused().(*formEntry)
		if !ok {
			t.Fatalf("no text field has the focus: %T", h.c.win.Canvas().Focused())
		}
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		h.repeat(fyne.KeyEscape)
		if n := calls(h); n != 0 || len(h.c.dialogs) != 0 {
			t.Fatalf("%d calls recorded, %d dialogs open (%q)", n, len(h.c.dialogs), topDialogTexts(h.c))
		}
	})
	t.Run("the call key pressed anew after a call calls again", func(t *testing.T) {
		h := newHarness(t, match.RoleArbiter, "")
		h.newMatch("acm1996", "")
		h.c.do(actStartGame)
		h.key(fyne.KeyEscape)
		if n := calls(h); n != 1 || len(h.c.dialogs) != 0 {
			t.Fatalf("%d calls recorded, %d dialogs open (%q)", n, len(h.c.dialogs), topDialogTexts(h.c))
		}
		h.c.do(actResume)
		h.c.keyDown(&fyne.KeyEvent{Name: fyne.KeyEscape})
		h.repeat(fyne.KeyEscape) // pressed anew: its key down seen, not its release
		if n := calls(h); n != 2 {
			t.Fatalf("a fresh press recorded %d calls in all, want 2", n)
		}
	})
}

// Ctrl+C in the terminal of 'make run' (SIGINT) or a SIGTERM closes the
// console as its window's close does (main cancels Run's context; Run's
// closeWhenDone): the app quits without the question a running clock
// asks, and the heartbeat says the console closed, so that its next start
// says it was closed, not gone (crashed or killed). Before, the process
// died with the signal and the next start logged a crash.
func TestASignalClosesTheConsoleAsItsWindowsCloseDoes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		signal bool // the context is done (a signal came)
		want   string
	}{
		{"a signal closes it and its next start says it was closed", true, "the console was closed for"},
		{"without one it runs on, and a start after its end says it was gone", false, "the console was gone (crashed or killed) for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			h.humanMoves("e4")
			if err := h.core.Beat(h.ctx, h.ft.Now()); err != nil {
				t.Fatal(err)
			}
			quits := h.quits()
			done, stop := make(chan struct{}), make(chan struct{})
			ended := make(chan struct{})
			go func() {
				h.c.closeWhenDone(done, stop)
				close(ended)
			}()
			if tc.signal {
				close(done)
			} else {
				close(stop)
			}
			<-ended
			h.ui.run() // what the signal queued on the UI thread
			if want := map[bool]int{true: 1, false: 0}[tc.signal]; *quits != want {
				t.Fatalf("the console quit %d times, want %d (the dialog on top: %q)", *quits, want, topDialogTexts(h.c))
			}
			note, err := h.core.CheckRecovery(h.ctx, h.ft.Now().Add(time.Minute), false)
			if err != nil || note == nil || !strings.Contains(note.Error(), tc.want) {
				t.Errorf("the next start says %v (%v), want %q", note, err, tc.want)
			}
		})
	}
}

// The console leaves Fyne no stop hook to queue to the UI thread as the
// app stops (takeStopHook): Fyne 2.7.1 queues it while the thread drains
// its queue for the last time, and a hook queued late left the process
// running with its window gone (gui-check's quit flake). The hook, the
// preferences' last save, runs once Run has returned.
func TestFyneIsLeftNoStopHookToQueueAndTheConsoleRunsItAfterRun(t *testing.T) {
	fa := test.NewTempApp(t)
	// the test app's lifecycle is of the type app.NewWithID's is
	l, ok := fa.Lifecycle().(interface {
		OnStopped() func()
		SetOnStoppedHookExecuted(func())
	})
	if !ok {
		t.Fatalf("Fyne's lifecycle %T has no stop hook to take: takeStopHook takes nothing, and the quit may hang again", fa.Lifecycle())
	}
	saved := 0
	l.SetOnStoppedHookExecuted(func() { saved++ }) // as app.NewWithID sets it
	run := takeStopHook(fa)
	t.Run("Fyne has no hook to queue as the app stops", func(t *testing.T) {
		if l.OnStopped() != nil {
			t.Fatal("the lifecycle still has a stop hook, which Fyne queues as the app stops")
		}
	})
	t.Run("the hook taken runs once when the console runs it after Run", func(t *testing.T) {
		run()
		if saved != 1 {
			t.Fatalf("Fyne's stop hook ran %d times, want 1", saved)
		}
	})
}
