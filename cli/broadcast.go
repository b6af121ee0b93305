package cli

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"arbiter/broadcast"
	"arbiter/service"
)

func init() {
	register(&command{name: "broadcast", roles: rolesRead, usage: "broadcast --listen HOST:PORT [--delay DURATION]",
		summary: "Serve the match live, read-only: /games.pgn (with [%clk]), /game/N.pgn and a spectator page at /; --delay 15m serves it as it stood 15 minutes ago; runs until interrupted.",
		run:     runBroadcast})
}

func runBroadcast(r *runner, a *args) error {
	addr, ok := a.take("listen")
	delayText, _ := a.take("delay")
	if err := a.done("broadcast", 0); err != nil {
		return err
	}
	if !ok || addr == "" {
		return fmt.Errorf("broadcast needs --listen HOST:PORT: name the address of the hall's network to serve on, e.g. --listen 192.168.1.10:8080")
	}
	if err := broadcast.CheckListen(addr); err != nil {
		return err
	}
	delay, err := broadcast.ParseDelay(delayText)
	if err != nil {
		return fmt.Errorf("--delay: %w", err)
	}
	if err := r.needDatabase(); err != nil {
		return err
	}
	// The broadcast never writes: the process's one handle of the record,
	// read-only.
	app, err := service.OpenReadOnly(r.ctx, r.g.DB)
	if err != nil {
		return err
	}
	db := app.DB()
	defer db.Close()
	srv, err := broadcast.New(r.ctx, db, broadcast.Options{Delay: delay})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s (%v): choose a free port or an address of this machine", addr, err)
	}
	ctx, stop := signal.NotifyContext(r.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	held := "as it stands"
	if delay > 0 {
		held = "as it stood " + delay.String() + " ago"
	}
	fmt.Fprintf(r.env.Stderr, "arbiter: broadcasting %s read-only on http://%s/ (games.pgn, game/N.pgn), %s, to at most %d connections at once; Ctrl+C stops\n",
		r.g.DB, ln.Addr(), held, srv.Capacity())
	if n := srv.Capacity(); n < broadcast.DefaultLimits.MaxConns {
		fmt.Fprintf(r.env.Stderr, "arbiter: this process may open only about %d files: raise the limit (ulimit -n %d) to serve %d spectators\n",
			n, broadcast.DefaultLimits.MaxConns+256, broadcast.DefaultLimits.MaxConns)
	}
	return srv.Serve(ctx, ln)
}
