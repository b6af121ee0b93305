package service

import (
	"context"
	"sync"
	"sync/atomic"

	"arbiter/match"
)

// Live is the match a console works on and the change notifications its
// face subscribes to. The face subscribes once (OnChange); the match behind
// it may be replaced (ContinueIn: Match → Continue in a new file…), and
// from then on only the new match's changes are told. The core tells Live
// after each commit (match.App.SetChanged), so a subscriber never sees an
// event's effect before the event is in the record.
//
// App may be read from any goroutine (the console's heartbeat and poll).
type Live struct {
	cur  atomic.Pointer[match.App]
	mu   sync.Mutex
	subs []func()
}

// NewLive makes app the live match.
func NewLive(app *match.App) *Live {
	l := &Live{}
	l.Switch(app)
	return l
}

// App is the live match.
func (l *Live) App() *match.App { return l.cur.Load() }

// OnChange subscribes f: it is run (on the goroutine that committed or
// caught up, outside the core's lock) after the live match's state changed.
func (l *Live) OnChange(f func()) {
	l.mu.Lock()
	l.subs = append(l.subs, f)
	l.mu.Unlock()
}

// Switch makes app the live match; the one before is no longer heard (the
// caller closes its record).
func (l *Live) Switch(app *match.App) {
	if old := l.cur.Swap(app); old != nil && old != app {
		old.SetChanged(nil)
	}
	app.SetChanged(func() {
		if l.cur.Load() == app {
			l.notify()
		}
	})
}

func (l *Live) notify() {
	l.mu.Lock()
	fs := append([]func(){}, l.subs...)
	l.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// ContinueIn carries the live match on in the new file newPath (ContinueIn:
// a verified copy), makes the copy the live match and closes the old
// record, which stays as it was. It returns the new match.
func (l *Live) ContinueIn(ctx context.Context, newPath string) (*match.App, error) {
	old := l.App()
	app, err := ContinueIn(ctx, old, newPath)
	if err != nil {
		return nil, err
	}
	l.Switch(app)
	_ = old.DB().Close()
	return app, nil
}
