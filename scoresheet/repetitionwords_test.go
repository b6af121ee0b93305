package scoresheet

import (
	"strings"
	"testing"

	"arbiter/assets"
)

// TestAnInvalidClaimOfRepetitionCountsAsAPersonDoes: an invalid claim
// says how often the position occurred in words, in English and German
// ("only once", "erst einmal"; "only twice", "erst zweimal"), never "1
// time(s)" as before.
func TestAnInvalidClaimOfRepetitionCountsAsAPersonDoes(t *testing.T) {
	de := assets.Dictionary("de")
	for _, tc := range []struct {
		rule     string
		moves    []string
		intended string
		english  string
		german   string
	}{
		{"a position that occurred once says once", []string{"Nf3"}, "",
			"the current position has occurred only once.", "die aktuelle Stellung ist erst einmal aufgetreten."},
		{"a position that occurred twice says twice", []string{"Nf3", "Nf6", "Ng1", "Ng8"}, "",
			"the current position has occurred only twice.", "die aktuelle Stellung ist erst zweimal aufgetreten."},
		{"an intended move to a new position says once", []string{"Nf3"}, "e5",
			"after the intended move e5 the position would have occurred only once.", "nach dem beabsichtigten Zug e5 wäre die Stellung erst einmal aufgetreten."},
		{"an intended move repeating a position once says twice", []string{"Nf3", "Nf6", "Ng1"}, "Ng8",
			"after the intended move Ng8 the position would have occurred only twice.", "nach dem beabsichtigten Zug Ng8 wäre die Stellung erst zweimal aufgetreten."},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			s := newSheet(t, "")
			play(t, s, tc.moves...)
			ok, why := s.ClaimRepetition(tc.intended)
			if ok {
				t.Fatalf("the claim is valid: %s", why)
			}
			if got := why.Error(); !strings.HasSuffix(got, tc.english) || strings.Contains(got, "(s)") {
				t.Errorf("in English %q, want it to end %q", got, tc.english)
			}
			if got := de.Say(why); !strings.HasSuffix(got, tc.german) || strings.Contains(got, "-mal") {
				t.Errorf("in German %q, want it to end %q", got, tc.german)
			}
		})
	}
}
