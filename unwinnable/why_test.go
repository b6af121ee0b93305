package unwinnable

import (
	"testing"

	"arbiter/internal/phrase"
)

// Why is the reason as a code and arguments: in English it says exactly
// Reason (what 'arbiter unwinnable' prints, a contract), and a face's
// dictionary can say it in its own language.
func TestTheReasonIsACodeWithArgumentsThatSaysTheEnglishReason(t *testing.T) {
	for _, tc := range []struct{ fen, winner string }{
		{"8/8/4k3/8/8/4K3/8/8 w - - 0 1", "white"},                   // only the king
		{"8/8/4k3/8/8/4KB2/8/8 w - - 0 1", "white"},                  // bishops of one colour
		{"8/8/4k3/8/8/4KN2/8/8 w - - 0 1", "white"},                  // a knight against a bare king
		{"2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1", "white"}, // blocked pawns
		{"3k4/p1p1p1p1/P1P1P1P1/4p3/8/4P3/8/6K1 w - - 0 1", "white"}, // the progress search
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "white"},                  // stalemate
		{"7k/8/6K1/8/8/8/8/6R1 w - - 0 1", "white"},                  // a mate
		{"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "black"},                  // the winner is mated
		{"k7/8/1K6/8/8/8/8/8 w - - 0 1", "black"},                    // Black has only the king
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "white"},
	} {
		t.Run(tc.fen+" "+tc.winner, func(t *testing.T) {
			c, _ := ParseColour(tc.winner)
			r, err := AnalyseFEN(tc.fen, c, 5000)
			if err != nil {
				t.Fatal(err)
			}
			if r.Why == nil {
				t.Fatalf("%s: no code for the reason %q", r.Verdict, r.Reason)
			}
			if got := r.Why.Error(); got != r.Reason {
				t.Errorf("the code says %q, the reason is %q", got, r.Reason)
			}
			words := 0
			phrase.Translate(r.Why, func(s string) string {
				if s == "White" || s == "Black" || s == "white" || s == "black" {
					words++
				}
				return s
			})
			if words == 0 {
				t.Errorf("%q names no colour as a word a dictionary can translate", r.Reason)
			}
		})
	}
}
