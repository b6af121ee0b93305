// Command arbiter is the Arbiter console and command line. With no command it
// opens the console (the Fyne desktop app) on the database; with a command it
// runs that command headlessly (see docs/cli.md).
package main

import (
	_ "arbiter/internal/quietlocale" // before Fyne initialises: see its doc

	"context"
	_ "embed"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"arbiter/cli"
	"arbiter/gui"
)

// fyneApp is the application's manifest; "arbiter --version" reads its
// version and build number.
//
//go:embed FyneApp.toml
var fyneApp []byte

func main() {
	ctx := context.Background()
	args := os.Args[1:]
	if cli.HasCommand(args) {
		env := cli.OSEnv()
		env.Manifest = fyneApp
		os.Exit(cli.Run(ctx, args, env))
	}
	db, opts, err := cli.ConsoleOptions(args, os.Getenv, time.Now)
	if err != nil {
		fmt.Fprintln(os.Stderr, "arbiter: "+cli.Sentence(err))
		os.Exit(2)
	}
	// Without a display the window cannot open: say so before the database
	// is opened (or created).
	if err := cli.ConsoleDisplay(runtime.GOOS, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "arbiter: "+cli.Sentence(err))
		os.Exit(2)
	}
	// Ctrl+C in the terminal (SIGINT) or a SIGTERM closes the console as
	// its window's close does: the record closed, the heartbeat saying it
	// closed, where the process died with the signal and its next start
	// said the console was gone (crashed or killed). A second signal, once
	// the first was taken, ends the process as before (stop restores the
	// default).
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	if err := gui.Run(ctx, db, opts); err != nil {
		fmt.Fprintln(os.Stderr, "arbiter: "+cli.Sentence(err))
		os.Exit(1)
	}
}
