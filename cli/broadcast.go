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
	register(&command{name: "broadcast", roles: rolesRead, usage: "broadcast --listen HOST:PORT",
		summary: "Serve the match live, read-only: /games.pgn (with [%clk]), /game/N.pgn and a spectator page at /; runs until interrupted.",
		run:     runBroadcast})
}

func runBroadcast(r *runner, a *args) error {
	addr, ok := a.take("listen")
	if err := a.done("broadcast", 0); err != nil {
		return err
	}
	if !ok || addr == "" {
		return fmt.Errorf("broadcast needs --listen HOST:PORT: name the address of the hall's network to serve on, e.g. --listen 192.168.1.10:8080")
	}
	if err := broadcast.CheckListen(addr); err != nil {
		return err
	}
	// The broadcast never writes: its own read-only handle, beside the
	// console's.
	db, err := service.OpenRecordReadOnly(r.ctx, r.g.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	srv, err := broadcast.New(r.ctx, db, broadcast.Options{})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s (%v): choose a free port or an address of this machine", addr, err)
	}
	ctx, stop := signal.NotifyContext(r.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(r.env.Stderr, "arbiter: broadcasting %s read-only on http://%s/ (games.pgn, game/N.pgn); Ctrl+C stops\n", r.g.DB, ln.Addr())
	return srv.Serve(ctx, ln)
}
