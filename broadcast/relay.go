package broadcast

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/report"
	"arbiter/scoresheet"
	"arbiter/store"
)

// relayPGN is the PGN relays poll (/games.pgn with n = 0, /game/N.pgn): the
// games of `arbiter export pgn` (report.MatchPGN: the Seven Tag Roster with
// Round = the game's number, [%clk] on every move) as a relay reads them
// across polls:
//
//   - the main line is the game as it stands after every correction; the
//     moves a correction struck out are not in the movetext (export pgn
//     keeps them as a variation, which relays show as a side line of the
//     live game) but said in the comment of the move before them, with
//     what happened after them (report.MatchPGNMainLine);
//   - WhiteClock and BlackClock (HH:MM:SS) are each clock as it stands at
//     instant at, the last event the feed shows (shown), a period's added
//     time and the arbiter's adjustments included, so a relay shows the
//     right clock before the next move comes.
//
// Every tag but Result, Termination, PlyCount and the clock tags is fixed
// from the game's start: a relay finds the same game at every poll.
func relayPGN(st *match.State, n int, at time.Time) []byte {
	if st == nil || st.Match == nil {
		return []byte{}
	}
	var games []scoresheet.PGNGame
	for _, g := range st.Games {
		if g.Sheet == nil || (n != 0 && g.Number != n) {
			continue
		}
		for _, pg := range report.MatchPGNMainLine(st, g.Number) {
			pg.Tags = append(pg.Tags,
				scoresheet.Tag{Name: "WhiteClock", Value: tagClock(g.Clock.Remaining(clock.White, at))},
				scoresheet.Tag{Name: "BlackClock", Value: tagClock(g.Clock.Remaining(clock.Black, at))})
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

// shown reports whether the feed shows event e: every event of the match
// but those that change nothing a spectator sees — the engine bridge's
// (its start and stop, and the move its engine chose, which the record
// holds before the operator makes it on the board: rule 9), the
// credentials handed out and the wrong ones tried, and the stations' own.
// Such an event moves no header (ETag, Last-Modified), no clock tag and no
// event of the page's stream: before, the engine's choice changed the
// ETag and the clock tags the moment it was recorded, telling a spectator
// (and the player he signals) that the computer had chosen, and when.
func shown(e store.Event) bool {
	switch {
	case strings.HasPrefix(e.Kind, "engine."),
		e.Kind == match.KindAuthFail, e.Kind == match.KindCredentialAdd,
		strings.HasPrefix(e.Kind, match.StationKindPrefix):
		return false
	}
	return true
}

// feedMark is the last event the feed shows: its seq and hash name the
// feed (ETag), its instant is the feed's time (Last-Modified, the clock
// tags).
type feedMark struct {
	seq  int64
	head string
	at   time.Time
}
