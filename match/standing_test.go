package match

import "testing"

// The match is won by the player with more than half the planned games'
// points, drawn when every game is over with the points level; until then
// both scores stand (Standing, which status, the console and the PDF word).
func TestTheMatchIsWonWithMoreThanHalfThePlannedPoints(t *testing.T) {
	const k, d = "Garry Kasparov", "Deep Blue"
	game := func(result string) *Game {
		return &Game{White: k, Black: d, Result: result, State: Finished}
	}
	for _, tc := range []struct {
		name    string
		results []string
		winner  int
		drawn   bool
		says    string
	}{
		{"before any game both scores stand", nil, -1, false, "Garry Kasparov 0 – Deep Blue 0"},
		{"3½ of 6 wins the match before its end", []string{"1-0", "1-0", "1/2-1/2", "1-0"}, 0, false, "Garry Kasparov wins the match 3½–½"},
		{"3 of 6 with games left decides nothing", []string{"0-1", "0-1", "0-1"}, -1, false, "Garry Kasparov 0 – Deep Blue 3"},
		{"the other player wins with 4 of 6", []string{"0-1", "0-1", "0-1", "1/2-1/2", "0-1"}, 1, false, "Deep Blue wins the match 4½–½"},
		{"3–3 after six games is a drawn match", []string{"1-0", "0-1", "1/2-1/2", "1/2-1/2", "1-0", "0-1"}, -1, true, "the match is drawn 3–3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &State{Match: &Match{Players: [2]string{k, d}, GamesPlanned: 6}}
			for _, r := range tc.results {
				st.Games = append(st.Games, game(r))
			}
			s := st.Standing()
			if s.Winner != tc.winner || s.Drawn != tc.drawn || s.Played != len(tc.results) {
				t.Errorf("standing %+v, want winner %d, drawn %v", s, tc.winner, tc.drawn)
			}
			if got := st.MatchResult(); got != tc.says {
				t.Errorf("says %q, want %q", got, tc.says)
			}
		})
	}
}
