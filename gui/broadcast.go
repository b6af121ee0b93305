package gui

import (
	"context"
	"net"
	"strings"
	"sync"

	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"arbiter/broadcast"
	"arbiter/service"
)

// liveBroadcast is a broadcast the console started (View → Broadcast…): the
// same server as "arbiter broadcast --listen", on its own read-only handle.
type liveBroadcast struct {
	addr string
	stop context.CancelFunc
	db   *service.DB
}

var (
	broadcastMu sync.Mutex
	broadcasts  = map[*console]*liveBroadcast{}
)

// broadcastDialog starts the live broadcast on an address the arbiter
// names, or, while one runs, says where and offers to stop it.
func (c *console) broadcastDialog() {
	broadcastMu.Lock()
	live := broadcasts[c]
	broadcastMu.Unlock()
	if live != nil {
		c.formDialog(lang.L("Broadcast"), lang.L("Stop the broadcast"), []*widget.FormItem{
			widget.NewFormItem(lang.L("Address"), widget.NewLabel("http://"+live.addr+"/  (games.pgn, game/N.pgn)")),
		}, func() error {
			c.stopBroadcast()
			return nil
		})
		return
	}
	addr := entryWith("127.0.0.1:8080")
	c.formDialog(lang.L("Broadcast"), lang.L("Start the broadcast"), []*widget.FormItem{
		widget.NewFormItem(lang.L("Address (HOST:PORT)"), addr),
		widget.NewFormItem("", widget.NewLabel(lang.L("Read-only, without credentials: the PGN with the clocks for broadcasters, and a spectator page."))),
	}, func() error {
		a := strings.TrimSpace(addr.Text)
		if err := broadcast.CheckListen(a); err != nil {
			return errText(tr("%q is not an address to listen on: give HOST:PORT, e.g. 127.0.0.1:8080 or the hall network's address", a))
		}
		db, err := service.OpenRecordReadOnly(c.ctx, c.core.DB().Path())
		if err != nil {
			return err
		}
		srv, err := broadcast.New(c.ctx, db, broadcast.Options{})
		if err != nil {
			db.Close()
			return err
		}
		ln, err := net.Listen("tcp", a)
		if err != nil {
			db.Close()
			return errText(tr("cannot listen on %s (%v): choose a free port or an address of this machine", a, err))
		}
		ctx, stop := context.WithCancel(c.ctx)
		live := &liveBroadcast{addr: ln.Addr().String(), stop: stop, db: db}
		broadcastMu.Lock()
		broadcasts[c] = live
		broadcastMu.Unlock()
		go func() { _ = srv.Serve(ctx, ln) }()
		c.afterDialog(func() {
			c.info(lang.L("Broadcast"), tr("The match is broadcast on http://%s/ (games.pgn, game/N.pgn).", live.addr))
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
		live.db.Close()
	}
}
