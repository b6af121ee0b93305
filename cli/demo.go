package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"arbiter/internal/demo"
)

func init() {
	register(&command{name: "demo 1996", roles: rolesRead, usage: "demo 1996 [--pgn FILE] [--games N] -o SCRIPT",
		summary: "Write the script of the 1996 Kasparov–Deep Blue match (its games are built in; --pgn reads them from a PGN file instead), for 'arbiter play'.",
		run:     runDemo1996})
}

// demoSeed fixes the invented thinking times, so that the same PGN always
// gives the same script (the benchmarks and the crash test use it too).
const demoSeed = 1996

// runDemo1996 writes the demonstration script; it opens no database.
func runDemo1996(r *runner, a *args) error {
	pgn, _ := a.take("pgn")
	out, _ := a.take("o")
	n, err := a.int("games", 0)
	if err != nil {
		return err
	}
	if err := a.done("demo 1996", 0); err != nil {
		return err
	}
	switch {
	case out == "":
		return fmt.Errorf("demo 1996 needs -o SCRIPT: name the script file to write, then run it with 'arbiter play SCRIPT'")
	case n < 0:
		return fmt.Errorf("--games %d is not a number of games: give 1 or more, or leave it out for all of them", n)
	}
	opts := demo.Options{Games: n, Seed: demoSeed}
	var text string
	if pgn == "" {
		text, err = demo.Script1996(opts)
	} else {
		text, err = demo.Script1996From(pgn, opts)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("there is no PGN file at %s: give the path of the 1996 games with --pgn", pgn)
	}
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "demo: "))
	}
	if err := writeFile(out, r.g.DB, []byte(text)); err != nil {
		return err
	}
	r.tell("the match script is written to %s; run it with 'arbiter --db FILE --at %s play %s'",
		out, demo.Start.Format("2006-01-02T15:04:05Z"), out)
	return nil
}
