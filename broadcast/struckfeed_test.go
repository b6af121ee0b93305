package broadcast_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

// struckGame has an operator's error found after the opponent's reply: the
// arbiter stops the clocks after the struck moves, then corrects.
const struckGame = `0:00:00 match new --title "Struck" --player "Anna Bell" --player "Comp" --computer "Comp" --operator "Op" --white "Anna Bell" --tc 600 --games 2
0:00:01 game start
0:00:31 move e4
0:01:01 --as operator move e5
0:01:40 move Nf3
0:02:10 --as operator move Nf6
0:02:40 move Nxe5
0:03:00 pause --cause correction --reason "the operator made Nf6; the computer chose Nc6"
0:04:05 correct --ply 4 --method keep --reason "the operator made Nf6 on the board"
0:04:07 resume
0:04:10 --as operator move Nc6
`

// The live feed's main line is the game as corrected, and the moves a
// correction struck out are said in the comment of the move before them,
// with the stop that opened the correction, which happened after them.
// Before, the feed dropped the variation of export pgn and with it the
// struck moves and that stop: a journalist reading the feed saw a
// correction but not the moves it took back nor when the clocks stopped.
func TestTheLiveFeedSaysTheStruckMovesAndWhatHappenedAfterThem(t *testing.T) {
	_, srv, hs, setNow := delayedServer(t, struckGame, 0)
	setNow(t0.Add(5 * time.Minute))
	if err := srv.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, pgn := get(t, hs.URL+"/game/1.pgn")
	flat := strings.Join(strings.Fields(pgn), " ")
	_, comment, _ := strings.Cut(flat, "2. Nf3 {")
	comment, _, _ = strings.Cut(comment, "}")
	for _, tc := range []struct{ name, want string }{
		{"the stop after the struck moves is a command", "[%evt pause 6.12a 1996-02-10T20:03:00.000Z arbiter]"},
		{"the struck moves are named with the cause", "struck out: operator error, rule 10: the operator made Nf6 on the board: 2... Nf6 3. Nxe5"},
		{"the stop is said after the move it followed", "3. Nxe5 (#"},
		{"the correction follows", "[%evt correct r10 1996-02-10T20:04:05.000Z arbiter]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(comment, tc.want) {
				t.Errorf("the comment of 2. Nf3 lacks %q: %q\n%s", tc.want, comment, pgn)
			}
		})
	}
	t.Run("the stop stands before the correction, as it happened", func(t *testing.T) {
		if p, c := strings.Index(comment, "[%evt pause"), strings.Index(comment, "[%evt correct"); p < 0 || c < p {
			t.Errorf("the pause (%d) does not stand before the correction (%d): %q", p, c, comment)
		}
	})
	t.Run("the main line has no variation", func(t *testing.T) {
		if strings.Contains(comments.ReplaceAllString(pgn, ""), "(") || strings.Contains(comments.ReplaceAllString(pgn, ""), "Nf6") {
			t.Errorf("the feed's movetext holds the struck moves:\n%s", pgn)
		}
	})
	t.Run("pgn-extract and chess.js read it", func(t *testing.T) { pgnCheck(t, pgn) })
}
