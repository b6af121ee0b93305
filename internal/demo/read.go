package demo

import (
	"io"
	"time"

	"arbiter/scoresheet"
)

// readGames reads every game of a PGN file with scoresheet.ReadPGN.
func readGames(r io.Reader) ([]game, error) {
	rgs, err := scoresheet.ReadPGN(r)
	if err != nil {
		return nil, err
	}
	var out []game
	for _, rg := range rgs {
		var g game
		g.white, _ = rg.Tag("White")
		g.black, _ = rg.Tag("Black")
		g.result, _ = rg.Tag("Result")
		if rg.Result != "" {
			g.result = rg.Result
		}
		if d, ok := rg.Tag("Date"); ok {
			g.date, _ = time.Parse("2006.01.02", d)
		}
		g.sans = rg.Moves
		out = append(out, g)
	}
	return out, nil
}
