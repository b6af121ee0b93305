package match

import (
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/scoresheet"
)

// FuzzGameStartFEN: the start position of 'game start --fen' never panics;
// a FEN it accepts starts a sheet and a clock whose move counters are those
// the FEN's move number gives.
func FuzzGameStartFEN(f *testing.F) {
	for _, s := range []string{"", scoresheet.StandardFEN, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 45", "8/8/8 w - - 0 1",
		"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 0", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 99999999999"} {
		f.Add(s)
	}
	acm, _ := clock.ParseSpec("acm1996")
	at := time.Date(1996, 2, 10, 15, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, fen string) {
		var p GamePayload
		if err := (StartPosition{FEN: fen}).fill(&p); err != nil || p.FEN == "" {
			return
		}
		sheet, err := scoresheet.NewSheet(p.FEN)
		if err != nil {
			t.Fatalf("fill accepted %q but NewSheet refuses it: %v", fen, err)
		}
		c, err := setUpClock(clock.New(acm, acm), sheet, p, at)
		if err != nil {
			t.Fatalf("setUpClock(%q): %v", fen, err)
		}
		moves := startMoves(sheet)
		for _, s := range []clock.Side{clock.White, clock.Black} {
			if moves[s] < 0 || c.Moves(s) != moves[s] || c.Period(s) != acm.PeriodFor(moves[s]) {
				t.Fatalf("%q: %s has %d moves in period %d, want %d", fen, Colour(s), c.Moves(s), c.Period(s), moves[s])
			}
		}
	})
}
