package games_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"arbiter/internal/games"
	"arbiter/scoresheet"
)

// The fixtures state the historical facts the tests of other packages rely
// on: six games each, the colours alternating, the time control of both
// matches, the results and the final scores.
func TestTheGameScoresStateTheMatchesAsTheyWere(t *testing.T) {
	for _, tc := range []struct {
		name, pgn, site, firstDate string
		firstWhite                 string
		results                    []string
		human, computer            float64 // points
	}{
		{"1996", games.DeepBlue1996(), "Philadelphia, PA USA", "1996.02.10", "Deep Blue",
			[]string{"1-0", "1-0", "1/2-1/2", "1/2-1/2", "0-1", "1-0"}, 4, 2},
		{"1997", games.DeepBlue1997(), "New York, NY USA", "1997.05.03", "Kasparov, Garry",
			[]string{"1-0", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "1-0"}, 2.5, 3.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, err := scoresheet.ReadPGN(strings.NewReader(tc.pgn))
			if err != nil {
				t.Fatal(err)
			}
			if len(gs) != 6 {
				t.Fatalf("%d games, want 6", len(gs))
			}
			points := map[string]float64{}
			for i, g := range gs {
				tag := func(name string) string { v, _ := g.Tag(name); return v }
				if tag("Site") != tc.site || tag("TimeControl") != "40/7200:20/3600:1800" || tag("Round") != string(rune('1'+i)) {
					t.Errorf("game %d: Site %q, TimeControl %q, Round %q", i+1, tag("Site"), tag("TimeControl"), tag("Round"))
				}
				if i == 0 && tag("Date") != tc.firstDate {
					t.Errorf("game 1 was played on %s, want %s", tag("Date"), tc.firstDate)
				}
				if g.Result != tc.results[i] || tag("Result") != g.Result {
					t.Errorf("game %d ends %s (tag %s), want %s", i+1, g.Result, tag("Result"), tc.results[i])
				}
				if tag("PlyCount") != strconv.Itoa(len(g.Moves)) {
					t.Errorf("game %d: PlyCount %s but %d plies", i+1, tag("PlyCount"), len(g.Moves))
				}
				white, black := tag("White"), tag("Black")
				if (i%2 == 0) != (white == tc.firstWhite) || white == black || !slices.Contains([]string{"Deep Blue", "Kasparov, Garry"}, white) ||
					!slices.Contains([]string{"Deep Blue", "Kasparov, Garry"}, black) {
					t.Errorf("game %d: %s vs %s, want the colours alternating from %s with White", i+1, white, black, tc.firstWhite)
				}
				switch g.Result {
				case "1-0":
					points[white]++
				case "0-1":
					points[black]++
				default:
					points[white] += 0.5
					points[black] += 0.5
				}
			}
			if points["Kasparov, Garry"] != tc.human || points["Deep Blue"] != tc.computer {
				t.Errorf("score %v, want Kasparov %v, Deep Blue %v", points, tc.human, tc.computer)
			}
		})
	}
}
