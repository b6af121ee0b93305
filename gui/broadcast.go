package gui

import (
	"context"
	"net"
	"strings"
	"sync"

	"fyne.io/fyne/v2/widget"

	"arbiter/broadcast"
	"arbiter/service"
)

// liveBroadcast is a broadcast the console started (View → Broadcast…): the
// same server as "arbiter broadcast --listen", reading the console's own
// record through the console's own connection to it.
type liveBroadcast struct {
	addr  string
	delay string
	stop  context.CancelFunc
	srv   *broadcast.Server
}

var (
	broadcastMu sync.Mutex
	broadcasts  = map[*console]*liveBroadcast{}
	// broadcastHeard: the console's change notifications already wake its
	// broadcast (Live has no unsubscribe: one subscription per console).
	broadcastHeard = map[*console]bool{}
)

// liveRecord is the record of the console's live match, read through the
// match's own SQLite connection, whichever file it is in (Continue in a new
// file… moves it): the broadcast never opens the file itself.
type liveRecord struct{ live *service.Live }

func (r liveRecord) Head(ctx context.Context) (int64, string, error) {
	return r.live.App().DB().Head(ctx)
}

func (r liveRecord) EventsAfter(ctx context.Context, seq int64) ([]service.Event, error) {
	return r.live.App().DB().EventsAfter(ctx, seq)
}

// broadcastDialog starts the live broadcast on an address the arbiter
// names, with the transmission delay beside it (0 unless changed: the
// address and Enter start it), or, while one runs, says where and offers
// to stop it.
func (c *console) broadcastDialog() {
	broadcastMu.Lock()
	live := broadcasts[c]
	broadcastMu.Unlock()
	if live != nil {
		c.formDialog(translate("Broadcast"), translate("Stop the broadcast"), []*widget.FormItem{
			widget.NewFormItem(translate("Address"), widget.NewLabel("http://"+live.addr+"/  (games.pgn, game/N.pgn)")),
			widget.NewFormItem(translate("Delay"), widget.NewLabel(live.delay)),
		}, func() error {
			c.stopBroadcast()
			return nil
		})
		return
	}
	addr := entryWith("127.0.0.1:8080")
	delay := entryWith("0")
	c.formDialog(translate("Broadcast"), translate("Start the broadcast"), []*widget.FormItem{
		widget.NewFormItem(translate("Address (HOST:PORT)"), addr),
		widget.NewFormItem(translate("Delay (e.g. 15m; 0 for none)"), delay),
		widget.NewFormItem("", widget.NewLabel(translate("Read-only, without credentials: the PGN with the clocks for broadcasters, and a spectator page.")+"\n"+
			translate("With a delay, everything shows the match as it stood that long ago."))),
	}, func() error {
		a := strings.TrimSpace(addr.Text)
		if err := broadcast.CheckListen(a); err != nil {
			return errText(tr("%q is not an address to listen on: give HOST:PORT, e.g. 127.0.0.1:8080 or the hall network's address", a))
		}
		d, err := broadcast.ParseDelay(delay.Text)
		if err != nil {
			return errText(tr("%q is not a delay: give a duration from 0 to 24h, such as 15m, 90s or 1h30m, or 0 for none", strings.TrimSpace(delay.Text)))
		}
		srv, err := broadcast.New(c.ctx, liveRecord{c.live}, broadcast.Options{Delay: d, Now: c.now})
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", a)
		if err != nil {
			return errText(tr("cannot listen on %s (%v): choose a free port or an address of this machine", a, err))
		}
		ctx, stop := context.WithCancel(c.ctx)
		held := translate("none: as it stands")
		if d > 0 {
			held = d.String()
		}
		live := &liveBroadcast{addr: ln.Addr().String(), delay: held, stop: stop, srv: srv}
		broadcastMu.Lock()
		broadcasts[c] = live
		hook := !broadcastHeard[c]
		broadcastHeard[c] = true
		broadcastMu.Unlock()
		if hook {
			c.live.OnChange(func() {
				broadcastMu.Lock()
				b := broadcasts[c]
				broadcastMu.Unlock()
				if b != nil {
					b.srv.Changed()
				}
			})
		}
		go func() { _ = srv.Serve(ctx, ln) }()
		c.afterDialog(func() {
			if d > 0 {
				c.info(translate("Broadcast"), tr("The match is broadcast on http://%s/ (games.pgn, game/N.pgn), as it stood %s ago.", live.addr, d.String()))
				return
			}
			c.info(translate("Broadcast"), tr("The match is broadcast on http://%s/ (games.pgn, game/N.pgn).", live.addr))
		})
		return nil
	})
}

// stopBroadcast ends the console's broadcast, if any.
func (c *console) stopBroadcast() {
	broadcastMu.Lock()
	live := broadcasts[c]
	delete(broadcasts, c)
	broadcastMu.Unlock()
	if live != nil {
		live.stop()
	}
}
