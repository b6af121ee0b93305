package gui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"arbiter/assets"
	"arbiter/internal/timesource"
	"arbiter/match"
	"arbiter/service"
)

// appID identifies the console's preferences.
const appID = "org.arbiter.console"

// Run opens the console on the database at path and blocks until it closes.
// When ctx is done (main cancels it at SIGINT or SIGTERM) the console
// closes as its window's close does (closeWhenDone): the record is closed
// and the next start notes no crash; its own work runs on ctx without the
// cancel, so that closing still writes.
// When it runs the station of a station's record and that station is the
// authority, the station runs what other stations send through the core
// (match.App.Do), as every face does.
func Run(ctx context.Context, path string, opts service.Global) error {
	done := ctx.Done()
	ctx = context.WithoutCancel(ctx)
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("gui: create the database folder %s: %w", dir, err)
		}
	}
	// A station's record (a joined station's replica, or the first
	// station's) is written only by its station: the console shows it read
	// only, says whose replica it is and who the authority is, and writes
	// no heartbeat and no recovery event (gui/stations.go).
	replica := service.IsStation(path)
	open := service.Open
	if replica {
		open = service.OpenReadOnly
	}
	core, err := open(ctx, path)
	if err != nil {
		return fmt.Errorf("gui: open %s: %w", path, err)
	}

	defer profile()()

	fa := app.NewWithID(appID)
	if l := fa.Preferences().String("language"); l != "" {
		os.Setenv("LANGUAGE", l)
		os.Setenv("LC_ALL", l)
		os.Setenv("LANG", l)
	}
	setupApp(fa)
	stopHook := takeStopHook(fa)
	ts := timesource.New()
	c := newConsole(ctx, fa, core, config{path: path, role: opts.Role, pin: opts.PIN, now: ts.Now})
	c.board.geometryFile = os.Getenv("ARBITER_GUI_GEOMETRY")
	if f := c.board.geometryFile; f != "" {
		c.bar.geometryFile = f + ".bar"
	}
	// the console may have moved to another file (Continue in a new file…)
	defer func() { c.live.App().DB().Close() }()

	if replica {
		if sf, ok, _ := service.ReadStation(path); ok {
			c.stationRole = sf.Role
			// Unless a station runs for this record already, the console
			// runs it (as 'station serve' would) until it closes.
			defer c.runStation(path, sf, ts.Now)()
			// One link to the authority for the console's session, its
			// credentials unlocked ahead of the first press.
			c.prepareLink()
			defer c.closeLink()
		}
		c.stationNote = stationNote(path, time.Now())
		c.refreshWhere()
	} else if msg, err := core.CheckRecovery(ctx, ts.Now(), true); err != nil {
		c.showError(err)
	} else if match.OfACopy(msg) {
		c.info(translate("A copy of the record"), sentence(msg))
	} else if msg != nil {
		c.info(translate("The console was away"), sentence(msg))
	}
	if !replica {
		c.noteWriteError(core.Beat(ctx, ts.Now()))
	}

	stop := make(chan struct{})
	go c.keepUp(ctx, path, replica, ts, stop)
	go c.closeWhenDone(done, stop)

	c.win.SetMaster()
	c.win.Show()
	if core.State().Match == nil {
		c.newMatchDialog()
	} else {
		c.focusMove()
	}
	fa.Run()
	c.markClosed() // the app stopped: the window's close, a signal Fyne took, or c.closeNow
	stopHook()
	close(stop)
	c.closeEngine()
	return nil
}

// keepUp runs until stop is closed: the heartbeat (with the suspend check)
// and the poll for events written by another process (e.g. the command
// line on the same file), on slow tickers; neither redraws anything unless
// the state changed. Both use the console's current file (it changes with
// Continue in a new file…). On a station's record it refreshes the note of
// whose replica it is instead of beating.
func (c *console) keepUp(ctx context.Context, path string, replica bool, ts *timesource.Source, stop chan struct{}) {
	beat := time.NewTicker(match.HeartbeatEvery)
	// another process's commit (the engine bridge's move, a command given
	// at the command line) is noticed within a tenth of a second through
	// SQLite's data_version, and read only then (every 2 s regardless);
	// an edit of any event likewise (c.poll)
	poll := time.NewTicker(100 * time.Millisecond)
	defer beat.Stop()
	defer poll.Stop()
	var p pollState
	for {
		select {
		case <-stop:
			return
		case <-beat.C:
			if replica {
				note := stationNote(path, time.Now())
				c.ui(func() {
					if c.stationNote != note {
						c.stationNote = note
						c.refreshWhere()
					}
				})
				continue
			}
			now := ts.Now()
			core := c.live.App()
			// no beat once the console closed: it would overwrite the
			// heartbeat's "closed" (match.App.Closing), and the next start
			// would say the console was gone (gui-check's SIGINT, after the
			// merge of the stop hook made the end of Run longer)
			c.beatMu.Lock()
			if !c.closed {
				c.noteWriteErrorAsync(core.Beat(ctx, now))
			}
			c.beatMu.Unlock()
			if d := ts.Suspended(); d > 0 {
				if err := core.LogSuspend(ctx, now, d); err != nil {
					c.ui(func() { c.showError(err) })
				}
			}
		case <-poll.C:
			c.poll(ctx, &p, time.Now())
		}
	}
}

// pollState is what the poll keeps between its ticks.
type pollState struct {
	version int64     // SQLite's data_version when the record was last read
	read    time.Time // when it was last read
	failed  string    // the error the poll's Watch last showed, not shown again at every tick
}

// poll is one tick of the console's poll (keepUp, every tenth of a
// second; tests call it): the core's Watch, which finds an edit of any
// event made while the console runs — with sqlite3, a hex editor — and
// takes events another process appended (docs/reliability.md, "An edit
// while the console runs"); then the tail read every 2 s regardless, as
// before. A record found not to verify stops the clocks and refuses every
// writing action as one opened so (the core's Why).
func (c *console) poll(ctx context.Context, p *pollState, now time.Time) {
	core := c.live.App()
	show := func(err error) {
		if err == nil {
			p.failed = ""
			return
		}
		if err.Error() == p.failed {
			return
		}
		p.failed = err.Error()
		c.ui(func() { c.showError(err) })
	}
	if err := core.Watch(ctx); err != nil {
		show(err)
		return
	}
	show(nil)
	if v, err := core.DB().DataVersion(ctx); err == nil && v == p.version && now.Sub(p.read) < 2*time.Second {
		return
	} else if err == nil {
		p.version = v
	}
	p.read = now
	show(core.Refresh(ctx))
}

// profile writes a CPU profile of the session to ARBITER_CPUPROFILE=FILE
// from 5 s after the start (when the window has settled) until the
// function it returns is called, to find what costs time while a clock
// runs (scripts/gui-cpu.sh --profile).
func profile() (stop func()) {
	f := os.Getenv("ARBITER_CPUPROFILE")
	if f == "" {
		return func() {}
	}
	out, err := os.Create(f)
	if err != nil {
		return func() {}
	}
	time.AfterFunc(5*time.Second, func() { _ = pprof.StartCPUProfile(out) })
	return func() { pprof.StopCPUProfile(); out.Close() }
}

// takeStopHook takes Fyne's own stop hook (the preferences' last save,
// which app.NewWithID sets) from the app's lifecycle and returns it, for
// the console to run once fa.Run has returned. Fyne 2.7.1 queues that hook
// to the UI thread as the app stops, while the thread drains its queue one
// last time and closes it: a hook queued late is never run, the goroutine
// that queued it waits for ever, and so does Run (Lifecycle.WaitForEvents):
// the window gone, the process left running. gui-check's quit flake was
// that (the console's goroutines on SIGQUIT: main in WaitForEvents,
// Lifecycle.RunEventQueue in runOnMainWithWait; 1 quit in 15 at load 20).
// With no hook Fyne queues nothing as it stops. The console sets no hook of
// its own (Lifecycle.SetOnStopped) for the same reason. A lifecycle
// without these methods (another Fyne) keeps its hook: a no-op is returned.
func takeStopHook(fa fyne.App) func() {
	l, ok := fa.Lifecycle().(interface {
		OnStopped() func()
		SetOnStoppedHookExecuted(func())
	})
	if !ok {
		return func() {}
	}
	hook := l.OnStopped()
	l.SetOnStoppedHookExecuted(nil)
	if hook == nil {
		return func() {}
	}
	return hook
}

// setupApp applies what every console app needs, real or under test: the
// icon, the translations and the theme.
func setupApp(fa fyne.App) {
	fa.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	if err := loadTranslations(); err != nil {
		fyne.LogError("gui: load translations", err)
	}
	scale := float32(fa.Preferences().FloatWithFallback("scale", 1))
	fa.Settings().SetTheme(&consoleTheme{scale: scale})
}
