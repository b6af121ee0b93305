package phrase

import (
	"errors"
	"fmt"
	"testing"
)

var german = map[string]string{
	"%s is in check":                     "%s steht im Schach",
	"%s is not legal for %s: %s":         "%s ist für %s nicht legal: %s",
	"%s's clock cannot be set: %v":       "die Uhr von %s lässt sich nicht stellen: %v",
	"White":                              "Weiß",
	"no-game-for":                        "keine Partie für %s",
	"Black":                              "Schwarz",
	"the move":                           "der Zug",
	"%s is empty: say it in a few words": "%s ist leer: sagen Sie es in wenigen Worten",
	"give the instant in RFC 3339 (%s)":  "geben Sie den Zeitpunkt in RFC 3339 an (%s)",
}

func tr(s string) string {
	if t, ok := german[s]; ok {
		return t
	}
	return s
}

type state string

func (s state) Word() Word { return Word(s) }

func TestTranslate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		english string
		german  string
	}{
		{"the format and a word argument are translated",
			Errorf("%s is in check", Word("Black")), "Black is in check", "Schwarz steht im Schach"},
		{"a plain string argument is kept as given, even if it is a known word",
			Errorf("%s is in check", "Black"), "Black is in check", "Black steht im Schach"},
		{"a type with a Word method is translated",
			Errorf("%s is empty: say it in a few words", state("the move")), "the move is empty: say it in a few words", "der Zug ist leer: sagen Sie es in wenigen Worten"},
		{"a nested phrase is translated with its own arguments",
			Errorf("%s is not legal for %s: %s", "O-O", Word("White"), Errorf("%s is in check", Word("White"))),
			"O-O is not legal for White: White is in check", "O-O ist für Weiß nicht legal: Weiß steht im Schach"},
		{"a phrase wrapped in an error argument is found",
			Errorf("%s's clock cannot be set: %v", Word("White"), fmt.Errorf("clock: %w", Errorf("%s is in check", Word("White")))),
			"White's clock cannot be set: clock: White is in check", "die Uhr von Weiß lässt sich nicht stellen: Weiß steht im Schach"},
		{"an unknown format stays English, its words still translated",
			Errorf("no move for %s", Word("Black")), "no move for Black", "no move for Schwarz"},
		{"a phrase wrapped by context is found in the chain",
			fmt.Errorf("match: %w", Errorf("%s is in check", Word("Black"))), "match: Black is in check", "Schwarz steht im Schach"},
		{"a coded phrase takes the dictionary's words for its code",
			Coded("no-game-for", Word("Black")), `no-game-for: "Black"`, "keine Partie für Schwarz"},
		{"a coded phrase the dictionary does not know is its code and arguments",
			Coded("unknown-code", 3), `unknown-code: "3"`, `unknown-code: "3"`},
		{"an error without a phrase is its English text",
			errors.New("disk full"), "disk full", "disk full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.english {
				t.Errorf("Error() = %q, want %q", got, tc.english)
			}
			if got := Translate(tc.err, tr); got != tc.german {
				t.Errorf("Translate = %q, want %q", got, tc.german)
			}
		})
	}
}

func TestOneSentenceEndsWithOneFullStopOnEveryFace(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		english string
		german  string
	}{
		{"a sentence ending in a parenthesis takes its full stop after it",
			Errorf("give the instant in RFC 3339 (%s)", "1996-02-10T20:00:00Z"),
			"Give the instant in RFC 3339 (1996-02-10T20:00:00Z).", "Geben Sie den Zeitpunkt in RFC 3339 an (1996-02-10T20:00:00Z)."},
		{"a coded sentence takes its full stop in the face's words",
			Coded("no-game-for", Word("Black")), `No-game-for: "Black".`, "Keine Partie für Schwarz."},
		{"a sentence that ends with its own full stop takes none more",
			Errorf("%s is in check.", Word("Black")), "Black is in check.", "Schwarz is in check."},
		{"a full stop inside the closing parenthesis is the sentence's",
			Errorf("it is empty (see above.)"), "It is empty (see above.)", "It is empty (see above.)"},
		{"a question keeps its question mark",
			Errorf("is %s in check?", Word("Black")), "Is Black in check?", "Is Schwarz in check?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sentence(tc.err, func(s string) string { return s }); got != tc.english {
				t.Errorf("English = %q, want %q", got, tc.english)
			}
			if got := Sentence(tc.err, tr); got != tc.german {
				t.Errorf("German = %q, want %q", got, tc.german)
			}
		})
	}
}
