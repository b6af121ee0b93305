package cli

import (
	"errors"
	"testing"

	"arbiter/internal/phrase"
)

func TestSentenceIsOneCapitalisedSentence(t *testing.T) {
	upper := map[string]string{"%s is in check": "über %s: Schach", "Black": "Schwarz"}
	tr := func(s string) string {
		if t, ok := upper[s]; ok {
			return t
		}
		return s
	}
	for _, tc := range []struct {
		name string
		err  error
		tr   func(string) string
		want string
	}{
		{"the first letter is capitalised and a full stop added", errors.New("no game is in progress"), nil, "No game is in progress."},
		{"a sentence starting with a move keeps it as written", errors.New("e4 is not legal"), nil, "e4 is not legal."},
		{"a closing parenthesis ends the sentence", errors.New("wait (6.6)"), nil, "Wait (6.6)"},
		{"a translated sentence starting with an umlaut is capitalised whole", phrase.Errorf("%s is in check", phrase.Word("Black")), tr, "Über Schwarz: Schach."},
		{"an empty error says so", errors.New(" "), nil, "unknown error."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Sentence(tc.err)
			if tc.tr != nil {
				got = SentenceIn(tc.err, tc.tr)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
