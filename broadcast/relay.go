package broadcast

import (
	"bytes"
	"fmt"
	"time"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/report"
	"arbiter/scoresheet"
)

// relayPGN is the PGN relays poll (/games.pgn with n = 0, /game/N.pgn): the
// games of `arbiter export pgn` (report.MatchPGN: the Seven Tag Roster with
// Round = the game's number, [%clk] on every move) as a relay reads them
// across polls:
//
//   - the main line is the game as it stands after every correction; the
//     moves a correction struck out are left out (export pgn keeps them as
//     a variation, which relays show as a side line of the live game);
//   - WhiteClock and BlackClock (HH:MM:SS) are each clock as it stands at
//     the last event the feed holds, a period's added time and the
//     arbiter's adjustments included, so a relay shows the right clock
//     before the next move comes.
//
// Every tag but Result, Termination, PlyCount and the clock tags is fixed
// from the game's start: a relay finds the same game at every poll.
func relayPGN(st *match.State, n int) []byte {
	if st == nil || st.Match == nil {
		return []byte{}
	}
	var games []scoresheet.PGNGame
	for _, g := range st.Games {
		if g.Sheet == nil || (n != 0 && g.Number != n) {
			continue
		}
		for _, pg := range report.MatchPGN(st, g.Number) {
			for i := range pg.Moves {
				pg.Moves[i].Variations = nil
			}
			pg.Tags = append(pg.Tags,
				scoresheet.Tag{Name: "WhiteClock", Value: tagClock(g.Clock.Remaining(clock.White, st.LastAt))},
				scoresheet.Tag{Name: "BlackClock", Value: tagClock(g.Clock.Remaining(clock.Black, st.LastAt))})
			games = append(games, pg)
		}
	}
	if len(games) == 0 {
		return []byte{}
	}
	var b bytes.Buffer
	if err := scoresheet.WritePGN(&b, games); err != nil {
		return []byte{}
	}
	return b.Bytes()
}

// tagClock writes a clock as the WhiteClock/BlackClock tags carry it:
// HH:MM:SS, rounded down.
func tagClock(d time.Duration) string {
	s := int64(max(d, 0) / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}
