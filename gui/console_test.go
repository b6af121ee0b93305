package gui

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/engine/fake"
	"arbiter/internal/kdf"
	"arbiter/match"
	"arbiter/store"
)

// update rewrites the markup goldens under testdata/: go test ./gui/ -update
var update = flag.Bool("update", false, "rewrite the markup goldens in testdata/")

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == fake.Arg { // the engine tests' fake engine
		os.Exit(fake.Main(os.Args[2:], os.Stdin, os.Stdout))
	}
	kdf.Current = kdf.Fast // credentials cheap to check; production cost: internal/kdf
	// time.Local is left as the machine has it: the console shows times of
	// day in the match's zone (match.Location, UTC for a match without
	// one), so no golden depends on the machine's zone (the package passes
	// under TZ=Pacific/Chatham); and setting it here raced with
	// nats-server's process sampler, started by its package's init before
	// TestMain, which reads it (go test -race)
	os.Setenv("LANG", "en_US.UTF-8")
	if path := os.Getenv(consoleChildEnv); path != "" {
		// off the main goroutine, where every test runs: there Fyne's test
		// driver runs fyne.Do at once on the caller, serialized with the
		// console as the real driver's UI thread is; called from the main
		// goroutine it runs the function on a new goroutine, concurrently
		// with the console's own layout (a data race, and now and then a
		// nil pointer in a layout under load)
		done := make(chan error)
		go func() { done <- consoleChild(path) }()
		if err := <-done; err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(1)
	}
	os.Exit(m.Run())
}

var t0 = time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)

// fakeTime is the console's time source and timer in tests: time moves only
// when the test advances it, and armed timers fire then, in order.
// now is written under mu (and read under it by Now): a broadcast's
// server reads the time on a goroutine of its own.
type fakeTime struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	due     time.Time
	f       func()
	stopped bool
}

func (ft *fakeTime) Now() time.Time {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return ft.now
}

func (ft *fakeTime) set(t time.Time) {
	ft.mu.Lock()
	ft.now = t
	ft.mu.Unlock()
}

func (ft *fakeTime) after(d time.Duration, f func()) func() {
	tm := &fakeTimer{due: ft.now.Add(d), f: f}
	ft.timers = append(ft.timers, tm)
	return func() { tm.stopped = true }
}

// pending counts the armed timers.
func (ft *fakeTime) pending() int {
	n := 0
	for _, tm := range ft.timers {
		if !tm.stopped {
			n++
		}
	}
	return n
}

// advance moves time forward by d, firing every timer due on the way.
func (ft *fakeTime) advance(d time.Duration) {
	end := ft.now.Add(d)
	for {
		var next *fakeTimer
		for _, tm := range ft.timers {
			if !tm.stopped && !tm.due.After(end) && (next == nil || tm.due.Before(next.due)) {
				next = tm
			}
		}
		if next == nil {
			break
		}
		next.stopped = true
		if next.due.After(ft.now) {
			ft.set(next.due)
		}
		next.f()
	}
	ft.set(end)
}

type harness struct {
	t    *testing.T
	c    *console
	ft   *fakeTime
	core *match.App
	ctx  context.Context
	// dbPath is the database file in t.TempDir().
	dbPath string
	// ui is the UI thread of the test's consoles.
	ui *uiThread
}

// newHarness opens a console on a fresh database in t.TempDir().
func newHarness(t *testing.T, role match.Role, pin string) *harness {
	t.Helper()
	ctx := context.Background()
	fa := test.NewTempApp(t)
	setupApp(fa)
	path := filepath.Join(t.TempDir(), "match.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	core, err := match.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	ft := &fakeTime{now: t0}
	ui := newUIThread()
	c := newConsole(ctx, fa, core, config{path: "/data/acm1996.db", role: role, pin: pin, now: ft.Now, after: ft.after, ui: ui.do})
	c.win.Resize(fyne.NewSize(1280, 800))
	// most tests type moves without a press: they run typing first; the
	// press-first default is tested with newPressFirstHarness
	c.movePresses = true
	c.refresh()
	return &harness{t: t, c: c, ft: ft, core: core, ctx: ctx, dbPath: path, ui: ui}
}

// newPressFirstHarness is a console with the settings of a fresh install:
// press first, the official clock (6.7a).
func newPressFirstHarness(t *testing.T, role match.Role) *harness {
	h := newHarness(t, role, "")
	h.c.loadSettings()
	h.c.refresh()
	return h
}

// newMatch creates the 1996 match with Kasparov White in game 1.
func (h *harness) newMatch(control, pin string) {
	h.t.Helper()
	spec := defaultSpec()
	spec.White = "Garry Kasparov"
	spec.Control = control
	spec.PIN = pin
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
		h.t.Fatal(err)
	}
}

// key presses a key as the driver does: down, typed (to the focused
// widget, else the canvas) and up.
func (h *harness) key(name fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: name}
	h.c.keyDown(ev)
	h.repeat(name)
	h.c.keyUp(ev)
}

// repeat sends a key as the driver repeats one held down: typed alone.
func (h *harness) repeat(name fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: name}
	cv := h.c.win.Canvas()
	if f := cv.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	cv.(interface{ OnTypedKey() func(*fyne.KeyEvent) }).OnTypedKey()(ev)
}

// tap clicks a square by name ("e2").
func (h *harness) tap(sq string) {
	test.TapAt(h.c.board, h.c.board.centre(chess.Square(squareIndex(sq))))
}

// typeMove types a move into the move field and presses Enter.
func (h *harness) typeMove(s string) {
	h.c.win.Canvas().Focus(h.c.moveEntry)
	test.Type(h.c.moveEntry, s)
	h.key(fyne.KeyReturn)
}

func (h *harness) game() *match.Game { return h.core.State().CurrentGame() }

func (h *harness) ply() int {
	if g := h.game(); g != nil && g.Sheet != nil {
		return g.Sheet.Ply()
	}
	return 0
}

func (h *harness) golden(name string) {
	h.t.Helper()
	if *update {
		if err := os.WriteFile(filepath.Join("testdata", name), []byte(test.RenderToMarkup(h.c.win.Canvas())), 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
	test.AssertRendersToMarkup(h.t, name, h.c.win.Canvas())
}

// refusalShown is the sentence of the newest "Not done" dialog the console
// shows ("" if none is open): what showError put on the screen.
func refusalShown(c *console) string {
	ov := c.win.Canvas().Overlays().List()
	for i := len(ov) - 1; i >= 0; i-- {
		texts := labelTexts(ov[i])
		if j := slices.Index(texts, lang.L("Not done")); j >= 0 {
			return strings.Join(slices.Delete(texts, j, j+1), "\n")
		}
	}
	return ""
}

// topDialogTexts collects the texts of the labels in the topmost overlay.
func topDialogTexts(c *console) string {
	top := c.win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var b strings.Builder
	for _, o := range test.LaidOutObjects(top) {
		switch w := o.(type) {
		case *widget.Label:
			b.WriteString(w.Text + "\n")
		case *widget.RichText:
			b.WriteString(w.String() + "\n")
		}
	}
	return b.String()
}

func TestFirstStartOffersThe1996Match(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	if got := h.c.where.Text; !strings.Contains(got, "/data/acm1996.db") {
		t.Errorf("the window shows %q, want the database path", got)
	}
	h.c.do(actNewMatch)
	// the title field has the focus; Enter accepts the defaults
	h.key(fyne.KeyReturn)
	m := h.core.State().Match
	if m == nil {
		t.Fatal("Enter in the New match dialog created no match")
	}
	want := defaultSpec()
	if m.Title != "ACM Chess Challenge" || m.Players != want.Players || m.Computer != "Deep Blue" || m.GamesPlanned != 6 || m.Lots != "app" {
		t.Errorf("match = %+v, want the 1996 defaults", m)
	}
	if got := m.Controls["Deep Blue"].String(); got != "40/7200:20/3600:1800" {
		t.Errorf("control = %s, want acm1996 (40/2h, 20/1h, 30m)", got)
	}
	if len(m.Operators) != 1 || m.Arbiter == "" {
		t.Errorf("operator %v and arbiter %q should be filled", m.Operators, m.Arbiter)
	}
}

func TestPlayAGameWithMouseAndKeyboard(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	if g := h.game(); g == nil || g.State != match.Running {
		t.Fatalf("game not started: %+v", g)
	}

	t.Run("click-click on squares plays a move and presses the clock", func(t *testing.T) {
		h.ft.advance(7 * time.Second)
		h.tap("e2")
		h.tap("e4")
		if h.ply() != 1 {
			t.Fatalf("ply = %d after e2-e4 by clicks, want 1", h.ply())
		}
		if r, _ := h.game().Clock.Running(); r != clock.Black {
			t.Errorf("running clock = %v, want Black after White's move", r)
		}
	})
	t.Run("dragging a piece plays a move", func(t *testing.T) {
		h.ft.advance(3 * time.Second)
		b := h.c.board
		start := b.centre(chess.E7)
		step := b.centre(chess.E5).Subtract(start) // two squares down
		b.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: start.Add(fyne.NewPos(0, 3))}, Dragged: fyne.NewDelta(0, 3)})
		b.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: start.Add(step)}, Dragged: fyne.NewDelta(step.X, step.Y-3)})
		b.DragEnd()
		if h.ply() != 2 || h.game().Sheet.Entries()[1].SAN != "e5" {
			t.Fatalf("drag e7→e5 did not play e5 (ply %d)", h.ply())
		}
	})
	t.Run("a typed move is recorded with Enter", func(t *testing.T) {
		h.ft.advance(65 * time.Second)
		h.typeMove("Nf3")
		if h.ply() != 3 {
			t.Fatalf("ply = %d after typing Nf3, want 3 (error shown: %q)", h.ply(), h.c.moveErr.Text)
		}
		if h.c.moveEntry.Text != "" {
			t.Errorf("move field keeps %q after a recorded move", h.c.moveEntry.Text)
		}
	})
	t.Run("an illegal move is refused with the reason under the field", func(t *testing.T) {
		h.typeMove("Ke6")
		if h.ply() != 3 {
			t.Fatalf("the illegal move was recorded")
		}
		if !strings.Contains(h.c.moveErr.Text, "Ke6") {
			t.Errorf("error shown = %q, want the reason naming the move", h.c.moveErr.Text)
		}
		if h.c.moveEntry.Text != "Ke6" {
			t.Errorf("the refused move should stay in the field, got %q", h.c.moveEntry.Text)
		}
	})
	t.Run("the next legal move clears the error", func(t *testing.T) {
		h.c.moveEntry.SetText("")
		h.ft.advance(2 * time.Second)
		h.typeMove("Nc6")
		if h.ply() != 4 || h.c.moveErr.Text != "" {
			t.Fatalf("ply %d, error %q", h.ply(), h.c.moveErr.Text)
		}
	})
	t.Run("the scoresheet shows move pairs with time used and clock after", func(t *testing.T) {
		want := []string{"  1. e4       0:07 1:59:53  e5       0:03 1:59:57", "  2. Nf3      1:05 1:58:48  Nc6      0:02 1:59:55"}
		if !equal(h.c.sheet.shown, want) {
			t.Errorf("scoresheet =\n%s\nwant\n%s", strings.Join(h.c.sheet.shown, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("the clocks show names, time, period, move and moves to control", func(t *testing.T) {
		l, r := h.c.clocks[0], h.c.clocks[1]
		if l.name.Text != "♔ Garry Kasparov — White" || r.name.Text != "♚ Deep Blue — Black" {
			t.Errorf("clock names %q / %q", l.name.Text, r.name.Text)
		}
		if l.time.Text != "1:58:48" || r.time.Text != "1:59:55" {
			t.Errorf("clock times %q / %q", l.time.Text, r.time.Text)
		}
		if got := l.info.Text + " " + l.toGo.Text; got != "period 1 · move 3 · 38 to control" {
			t.Errorf("left info = %q", got)
		}
		if l.frame.StrokeColor != colRunning || r.frame.StrokeColor == colRunning {
			t.Errorf("the running (White) clock should be framed, the other not")
		}
	})
	h.golden("midgame.xml")
}

func TestClockKeys(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)

	t.Run("the clock key of a stopped clock does nothing", func(t *testing.T) {
		h.c.win.Canvas().Unfocus()
		h.key(defaultKeyRight)
		if h.game().Pressed != nil {
			t.Fatal("pressing Black's (stopped) clock recorded a press")
		}
	})
	t.Run("the running clock's key presses it; the move entered then matches the press", func(t *testing.T) {
		h.ft.advance(4 * time.Second)
		h.key(defaultKeyLeft)
		g := h.game()
		if g.Pressed == nil || *g.Pressed != clock.White {
			t.Fatalf("F1 did not press White's clock: %+v", g.Pressed)
		}
		if r, _ := g.Clock.Running(); r != clock.Black {
			t.Errorf("after the press Black's clock should run")
		}
		h.ft.advance(10 * time.Second)
		h.typeMove("d4")
		if h.ply() != 1 {
			t.Fatalf("move after the press not recorded: %q", h.c.moveErr.Text)
		}
		if used := h.game().Sheet.Entries()[0].Used; used != 4*time.Second {
			t.Errorf("d4 used %s, want 4s (the press, not the entry, ends the move)", used)
		}
	})
	t.Run("clock keys work while the move field has the focus", func(t *testing.T) {
		h.c.win.Canvas().Focus(h.c.moveEntry)
		h.ft.advance(time.Second)
		h.key(defaultKeyRight)
		if p := h.game().Pressed; p == nil || *p != clock.Black {
			t.Fatalf("F12 in the move field did not press Black's clock")
		}
		if h.c.moveEntry.Text != "" {
			t.Errorf("the key typed %q into the move field", h.c.moveEntry.Text)
		}
		h.typeMove("d5")
	})
	t.Run("with keys alone switching the clocks a move needs a press first", func(t *testing.T) {
		h.c.do(actMovePresses)
		if h.c.movePresses {
			t.Fatal("setting did not toggle")
		}
		h.typeMove("c4")
		if h.ply() != 2 || h.c.moveErr.Text == "" {
			t.Fatalf("a move without a press was recorded or not explained (ply %d)", h.ply())
		}
		h.c.moveEntry.SetText("")
		h.key(defaultKeyLeft)
		h.typeMove("c4")
		if h.ply() != 3 {
			t.Fatalf("c4 after the press not recorded: %q", h.c.moveErr.Text)
		}
	})
	t.Run("swapping the clocks swaps the keys (6.4)", func(t *testing.T) {
		h.c.do(actSwapClocks)
		if h.c.sideAt(0) != clock.Black || h.c.clocks[0].name.Text != "♚ Deep Blue — Black" {
			t.Fatalf("left clock after swap: %v %q", h.c.sideAt(0), h.c.clocks[0].name.Text)
		}
		h.key(defaultKeyLeft) // Black runs and now stands left
		if p := h.game().Pressed; p == nil || *p != clock.Black {
			t.Fatalf("left key after swap should press Black")
		}
	})
}

func TestPauseAndResume(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(5 * time.Second)
	h.typeMove("e4")

	t.Run("the call key stops the clocks to call the arbiter (6.12b)", func(t *testing.T) {
		h.ft.advance(3 * time.Second)
		h.c.win.Canvas().Unfocus()
		h.key(defaultKeyCall)
		g := h.game()
		if g.State != match.Paused || !g.Paused.Call {
			t.Fatalf("state %s call %v after the call key", g.State, g.Paused.Call)
		}
		// the human's call, on either clock: the notice names him
		if want := "Clocks stopped: Garry Kasparov (White) called the arbiter (6.12b)."; !strings.Contains(h.c.notice.Text, want) {
			t.Errorf("notice = %q, want %q", h.c.notice.Text, want)
		}
		if h.c.clocks[1].frame.StrokeColor == colRunning {
			t.Error("a stopped clock is still framed as running")
		}
	})
	h.golden("paused.xml")
	t.Run("the arbiter resumes", func(t *testing.T) {
		h.ft.advance(time.Minute)
		h.c.do(actResume)
		if g := h.game(); g.State != match.Running {
			t.Fatalf("state %s after resume", g.State)
		}
		if r, _ := h.game().Clock.Running(); r != clock.Black {
			t.Errorf("resume started %v, want Black (to move)", r)
		}
	})
	t.Run("the arbiter pauses and resumes from the menu", func(t *testing.T) {
		h.c.do(actPause)
		h.key(fyne.KeyReturn) // the cause: other, as offered
		if h.game().State != match.Paused {
			t.Fatal("pause did not stop the clocks")
		}
		h.c.do(actResume)
		if h.game().State != match.Running {
			t.Fatal("resume did not restart the clocks")
		}
	})
	t.Run("the log lists pause and resume with both clock readings", func(t *testing.T) {
		var kinds []string
		for _, r := range h.c.lastLog {
			kinds = append(kinds, r)
		}
		if len(kinds) != 4 {
			t.Fatalf("log has %d rows, want 4:\n%s", len(kinds), strings.Join(kinds, "\n"))
		}
		want := "#4  20:00:08 UTC  after 1. e4  W 1:59:55 · B 1:59:57  white Garry Kasparov · call (6.12b)" // Esc in arbiter mode: the human's call
		if got := strings.SplitN(kinds[0], "\n", 2)[0]; got != want {
			t.Errorf("first log row = %q, want %q", got, want)
		}
	})
}

func TestArbiterActionsAskForThePIN(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "arbiter passphrase")
	// a console started without the PIN runs in operator mode
	h2 := &harness{t: t, ft: h.ft, core: h.core, ctx: h.ctx}
	h2.c = newConsole(h.ctx, h.c.fa, h.core, config{path: "x.db", role: match.RoleArbiter, now: h.ft.Now, after: h.ft.after, ui: h.ui.do})
	h2.c.movePresses = true // typing first, as the harness
	if h2.c.mode != match.RoleOperator {
		t.Fatalf("mode %s without the PIN, want operator", h2.c.mode)
	}
	h2.c.do(actStartGame)
	if h.game() != nil {
		t.Fatal("the game started without the PIN")
	}
	pin, ok := h2.c.win.Canvas().Focused().(*formEntry)
	if !ok || !pin.Password {
		t.Fatalf("no PIN field has the focus: %T", h2.c.win.Canvas().Focused())
	}
	t.Run("a wrong PIN is refused", func(t *testing.T) {
		test.Type(pin, "wrong passphrase")
		pin.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if h.game() != nil || h2.c.mode != match.RoleOperator {
			t.Fatal("a wrong PIN started the game")
		}
		if !strings.Contains(topDialogTexts(h2.c), "PIN is wrong") {
			t.Errorf("dialog says %q", topDialogTexts(h2.c))
		}
		evs, _ := h.core.DB().EventsAfter(h.ctx, 0)
		if last := evs[len(evs)-1]; last.Kind != match.KindAuthFail {
			t.Errorf("the wrong PIN was not recorded: last event %s", last.Kind)
		}
	})
	t.Run("the right PIN lends arbiter mode to the action and unlocks it", func(t *testing.T) {
		h.ft.advance(time.Second) // the back-off after one wrong PIN
		h2.c.do(actStartGame)
		pin := h2.c.win.Canvas().Focused().(*formEntry)
		test.Type(pin, "arbiter passphrase")
		pin.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if g := h.game(); g == nil || g.State != match.Running {
			t.Fatal("the right PIN did not start the game")
		}
		if h2.c.mode != match.RoleOperator || !h2.c.unlocked() {
			t.Errorf("after the action: %s mode, unlocked %v; want operator mode, arbiter mode unlocked", h2.c.mode, h2.c.unlocked())
		}
	})
	t.Run("operator mode records the operator for the computer; the human's press and move are the arbiter's, lent while arbiter mode is unlocked", func(t *testing.T) {
		h.ft.advance(time.Second)
		for len(h2.c.dialogs) > 0 { // the wrong PIN's note is closed first: behind it the keys answer it
			h2.c.dialogs[len(h2.c.dialogs)-1].Hide()
		}
		h2.c.win.Canvas().Focus(h2.c.moveEntry)
		h2.c.moveEntry.TypedKey(&fyne.KeyEvent{Name: defaultKeyLeft}) // Kasparov presses
		test.Type(h2.c.moveEntry, "e4")
		h2.c.moveEntry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		h.ft.advance(time.Second)
		h2.c.moveEntry.SetText("e5")
		h2.c.moveEntry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		evs, err := h.core.DB().EventsAfter(h.ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		var roles []string
		for _, e := range evs {
			if e.Kind == match.KindMove {
				roles = append(roles, e.Role)
			}
		}
		if strings.Join(roles, ",") != "arbiter,operator" {
			t.Errorf("move roles = %v, want arbiter (Kasparov's, in arbiter mode) and operator (Deep Blue)", roles)
		}
		if h2.c.mode != match.RoleOperator {
			t.Errorf("after the human's move the console is in %s mode, want operator mode", h2.c.mode)
		}
	})
	t.Run("errors show as one sentence in a dialog", func(t *testing.T) {
		h2.c.do(actDrawAccept)
		if shown := refusalShown(h2.c); shown == "" || !strings.HasSuffix(shown, ".") {
			t.Errorf("the dialog says %q", shown)
		}
	})
}

func TestClockRedrawsOnlyWhenItsTextChanges(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("60", "") // one minute sudden death
	h.c.do(actStartGame)
	white := h.c.clocks[0]
	if got := h.ft.pending(); got != 1 {
		t.Fatalf("%d timers armed, want 1 (only the running clock)", got)
	}
	updates := 0
	white.onRedraw = func() { updates++ }
	before := updates
	h.ft.advance(10 * time.Second)
	if white.time.Text != "0:00:50" {
		t.Fatalf("after 10 s White shows %q", white.time.Text)
	}
	if n := updates - before; n != 10 {
		t.Errorf("%d redraws in 10 s of whole seconds, want 10", n)
	}
	t.Run("the flag appears at its exact instant", func(t *testing.T) {
		h.ft.advance(50*time.Second - time.Millisecond)
		if white.flag.Text != "" {
			t.Fatalf("flag shown 1 ms early: %q", white.flag.Text)
		}
		h.ft.advance(time.Millisecond)
		if !strings.Contains(white.flag.Text, "FLAG 20:01:00.000") || white.notes[0].Text != "flag fell" || !white.notes[0].Visible() {
			t.Errorf("flag = %q, note %q (shown %v)", white.flag.Text, white.notes[0].Text, white.notes[0].Visible())
		}
		if h.ft.pending() != 0 {
			t.Errorf("%d timers still armed after the flag fell and the display froze", h.ft.pending())
		}
	})
	t.Run("the flag is recorded from the menu and logged", func(t *testing.T) {
		h.c.do(actFlagWhite)
		h.key(fyne.KeyReturn) // it ends the game: Enter confirms
		if !strings.Contains(strings.Join(h.c.lastLog, "\n"), "· flag") {
			t.Errorf("log = %q, want the flag", h.c.lastLog)
		}
		if !strings.Contains(topDialogTexts(h.c), "(6.9)") {
			t.Errorf("the verdict is not shown: %q", topDialogTexts(h.c))
		}
	})
}

func TestBoardHighlightsAndFlip(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	for _, mv := range []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"} {
		h.typeMove(mv)
	}
	t.Run("last move and check are highlighted", func(t *testing.T) {
		if !h.c.board.cells[chess.F7].last || !h.c.board.cells[chess.H5].last {
			t.Errorf("h5 and f7 are not shown as the last move (Qxf7#)")
		}
		if !h.c.board.cells[chess.E8].check {
			t.Error("the checked king on e8 is not marked")
		}
	})
	t.Run("checkmate ends the game and the match table shows it", func(t *testing.T) {
		if g := h.game(); g.Result != "1-0" {
			t.Fatalf("result %q", g.Result)
		}
		if !strings.Contains(h.c.score.Text, "Garry Kasparov 1") {
			t.Errorf("score = %q", h.c.score.Text)
		}
	})
	t.Run("flip puts h1 at the top left", func(t *testing.T) {
		h.c.do(actFlip)
		if r, c := h.c.board.cell(chess.H1); r != 0 || c != 0 {
			t.Errorf("h1 at %d,%d after flip", r, c)
		}
		h.c.do(actFlip)
	})
}

func TestEveryActionHasAMenuEntryAndAShortcut(t *testing.T) {
	seen := map[string]actionID{}
	for _, a := range actions {
		s, ok := shortcuts[a.id]
		if !ok {
			t.Errorf("action %s has no shortcut", a.id)
			continue
		}
		txt := shortcutText(s)
		if other, dup := seen[txt]; dup {
			t.Errorf("%s is the shortcut of both %s and %s", txt, other, a.id)
		}
		seen[txt] = a.id
	}
	var ids []string
	for id := range shortcuts {
		if findAction(id) == nil {
			ids = append(ids, string(id))
		}
	}
	sort.Strings(ids)
	if len(ids) > 0 {
		t.Errorf("shortcuts without an action: %v", ids)
	}
}

func TestAudienceDisplay(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.c.do(actAudience)
	a := h.c.audience
	if a == nil {
		t.Fatal("no audience window")
	}
	h.typeMove("e4")
	if !strings.Contains(a.moves.Text, "1. e4") || a.clocks[1].frame.StrokeColor != colRunning {
		t.Errorf("audience shows %q", a.moves.Text)
	}
	for _, o := range test.LaidOutObjects(a.win.Content()) {
		if _, isButton := o.(*widget.Button); isButton {
			t.Fatal("the audience display has a control")
		}
	}
	h.c.do(actAudience)
	if h.c.audience != nil {
		t.Error("the audience window did not close")
	}
}

func TestQuitWithARunningClockAsksFirst(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.c.quit()
	if !strings.Contains(topDialogTexts(h.c), "does not stop it") {
		t.Errorf("no confirmation: %q", topDialogTexts(h.c))
	}
	if _, running := h.game().Clock.Running(); !running {
		t.Error("asking to quit stopped the clock")
	}
}

func TestEmptyDatabaseGolden(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.golden("empty.xml")
}

// errOf is the refusal of a command given to the core (its result
// dropped).
func errOf(_ match.Result, err error) error { return err }

// The console's notes and questions draw no icon: Fyne's information and
// confirmation dialogs drew theme.InfoIcon or QuestionIcon at the box's
// top-right corner, reaching a padding out over its edge and under the
// title; the text still reads whole on one line where it fits.
func TestANoteOrAQuestionDrawsNoIconOverItsCorner(t *testing.T) {
	for _, tc := range []struct {
		name    string
		show    func(h *harness)
		want    string
		oneLine bool // the text fits one line of the dialog
	}{
		{"a note", func(h *harness) { h.c.info("Not done", "a refusal") }, "a refusal", true},
		{"a question", func(h *harness) { h.c.resign(clock.White) }, "resigns?", true},
		{"the question before quitting", func(h *harness) {
			h.quits()
			h.c.do(actQuit)
		}, "Quit?", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, match.RoleArbiter, "")
			h.newMatch("acm1996", "")
			h.c.do(actStartGame)
			h.humanMoves("e4")
			tc.show(h)
			top := h.c.win.Canvas().Overlays().Top()
			if top == nil || !strings.Contains(topDialogTexts(h.c), tc.want) {
				t.Fatalf("the dialog says %q, want %q", topDialogTexts(h.c), tc.want)
			}
			for _, o := range test.LaidOutObjects(top) {
				// the buttons' icons are a line high; the dialog's filled
				// its corner, as high as the title and a line of text
				if img, ok := o.(*canvas.Image); ok && img.Resource != nil && o.Visible() && o.Size().Height > 2*theme.IconInlineSize() {
					t.Errorf("the dialog draws an icon (%s) at %v, %v", img.Resource.Name(), o.Position(), o.Size())
				}
				if l, ok := o.(*widget.Label); ok && tc.oneLine && strings.Contains(l.Text, tc.want) && l.MinSize().Height > widget.NewLabel("M").MinSize().Height+0.5 {
					t.Errorf("the text %q wraps though it fits a line", l.Text)
				}
			}
		})
	}
}
