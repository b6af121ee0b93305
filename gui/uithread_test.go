package gui

import (
	"bytes"
	"go/ast"
	"go/token"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"
)

// uiThread is the UI thread of a test's consoles (config.ui). Fyne's test
// driver runs fyne.Do at once on the goroutine that calls it: the sender
// of a station's console then refreshed the widgets on its own goroutine
// while the test pressed a key on the test's (go test -race counted ~200
// reports, and a RichText's refresh now and then panicked). As on the
// real driver's UI thread, a function given from any other goroutine (the
// sender, the engine bridge's, a station's) waits in a queue here and runs
// on the test's goroutine, in order, one at a time with the test's own
// actions, when the test waits for it (until, harness.sent). One given on
// a test's goroutine (a timer the test fires, a commit the test makes)
// runs at once, as the test driver runs it: it is serialised already.
type uiThread struct {
	mu sync.Mutex
	q  []func()
	// wake is signalled when a function is queued.
	wake chan struct{}
}

func newUIThread() *uiThread { return &uiThread{wake: make(chan struct{}, 1)} }

// do is the consoles' ui.
func (u *uiThread) do(f func()) {
	if onTestGoroutine() {
		f()
		return
	}
	u.mu.Lock()
	u.q = append(u.q, f)
	u.mu.Unlock()
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

// run runs what waits, in order, on the caller's goroutine (the test's),
// and what those queue meanwhile.
func (u *uiThread) run() {
	for {
		u.mu.Lock()
		if len(u.q) == 0 {
			u.mu.Unlock()
			return
		}
		f := u.q[0]
		u.q = u.q[1:]
		u.mu.Unlock()
		f()
	}
}

// uiWait bounds a wait for the consoles' background work (a station's
// authority answering, a bridge ending): a test that waits longer fails.
const uiWait = 60 * time.Second

// until runs the queue as it fills until done is closed or ok reports
// true (either may be nil), and runs what is queued then; it fails the
// test after uiWait, saying it waited for what.
func (u *uiThread) until(t testing.TB, what string, done <-chan struct{}, ok func() bool) {
	t.Helper()
	deadline := time.After(uiWait)
	for {
		u.run()
		if ok != nil && ok() {
			return
		}
		select {
		case <-done:
			u.run()
			return
		case <-u.wake:
		case <-deadline:
			t.Fatalf("waited %s for %s", uiWait, what)
		}
	}
}

// sent waits until every command console c sent has been answered, the
// answers shown (c's sender gives them to the UI thread).
func (h *harness) sent(c *console) {
	h.t.Helper()
	done := make(chan struct{})
	go func() {
		c.sending.Wait()
		close(done)
	}()
	h.ui.until(h.t, "the console's commands to be answered", done, nil)
}

// wait waits until every command the harness's console sent has been
// answered, the answers shown.
func (h *harness) wait() {
	h.t.Helper()
	h.sent(h.c)
}

// onTestGoroutine reports whether the caller runs on a test's goroutine
// (a test function or a subtest, under testing.tRunner), not on one the
// console or a package under it started.
func onTestGoroutine() bool {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return bytes.Contains(buf[:n], []byte("\ntesting.tRunner("))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestTheConsoleReachesItsWidgetsFromOtherGoroutinesOnlyThroughItsUI: code
// off the UI thread (the sender, the engine bridge, the heartbeat and poll,
// a timer) reaches the widgets through the console's ui, which tests
// serialise with their own actions (uiThread); a fyne.Do of its own would
// run at once on its goroutine under Fyne's test driver, racing the test
// (a RichText's refresh panicked so). In the console's own files fyne.Do is
// named only as the default of that ui: newConsole's, and the clock feed's
// (onUI) for a feed built without one.
func TestTheConsoleReachesItsWidgetsFromOtherGoroutinesOnlyThroughItsUI(t *testing.T) {
	allowed := map[string]bool{"newConsole": true, "onUI": true}
	var found []string
	consoleFuncs(t, func(fs *token.FileSet, fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Do" && sel.Sel.Name != "DoAndWait") {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fyne" {
				found = append(found, fd.Name.Name)
				if !allowed[fd.Name.Name] {
					t.Errorf("%s: %s calls fyne.%s: give it to the console's ui (c.ui), which tests serialise", fs.Position(sel.Pos()), fd.Name.Name, sel.Sel.Name)
				}
			}
			return true
		})
	})
	sort.Strings(found)
	if len(found) < 2 {
		t.Fatalf("only %v found: the check reads nothing", found)
	}
}

// A function given to the test's ui from a goroutine of the console's
// waits until the test runs the UI's queue, and runs there, on the
// test's goroutine; one given on the test's goroutine runs at once.
func TestTheTestsUIThreadRunsBackgroundUpdatesOnTheTestsGoroutine(t *testing.T) {
	u := newUIThread()
	ran := 0
	u.do(func() { ran++ })
	if ran != 1 {
		t.Fatalf("given on the test's goroutine it ran %d times, want at once", ran)
	}
	given := make(chan struct{})
	go func() {
		u.do(func() { ran++ })
		close(given)
	}()
	<-given
	if ran != 1 {
		t.Fatal("given on another goroutine it ran there, at once")
	}
	u.until(t, "the update given", nil, func() bool { return ran == 2 })
}
