// Command arbiter is the Arbiter console and command line. With no command it
// opens the console (the Fyne desktop app) on the database; with a command it
// runs that command headlessly (see docs/cli.md).
package main

import (
	_ "arbiter/internal/quietlocale" // before Fyne initialises: see its doc

	"context"
	"fmt"
	"os"
	"time"

	"arbiter/cli"
	"arbiter/gui"
)

func main() {
	ctx := context.Background()
	args := os.Args[1:]
	if cli.HasCommand(args) {
		os.Exit(cli.Run(ctx, args, cli.OSEnv()))
	}
	db, opts, err := cli.ConsoleOptions(args, os.Getenv, time.Now)
	if err != nil {
		fmt.Fprintln(os.Stderr, "arbiter: "+cli.Sentence(err))
		os.Exit(2)
	}
	if err := gui.Run(ctx, db, opts); err != nil {
		fmt.Fprintln(os.Stderr, "arbiter: "+cli.Sentence(err))
		os.Exit(1)
	}
}
