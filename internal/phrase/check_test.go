package phrase

import (
	"fmt"
	"testing"
)

// recorder keeps what CheckDictionary reports.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}

func TestCheckDictionaryFindsAMissingEntryAndOtherArguments(t *testing.T) {
	de := Dictionary{
		"Game %d":               "Partie %d",
		"%s wins %s–%s":         "%s gewinnt %s:%s",
		"%d moves in %s":        "%s für %d Züge",
		"Reason":                "Grund",
		"report|Reason":         "Begründung",
		"report|Signed by %s":   "Signiert",
		"the match is drawn %s": "Remis %s",
	}
	for _, tc := range []struct {
		name    string
		context string
		keys    []string
		errs    int
	}{
		{"entries with the same verbs pass", "", []string{"Game %d", "%s wins %s–%s", "the match is drawn %s"}, 0},
		{"a key without an entry is reported", "", []string{"Time control"}, 1},
		{"the same verbs in another order are reported", "", []string{"%d moves in %s"}, 1},
		{"an entry in the context is the key's", "report", []string{"Reason", "Game %d"}, 0},
		{"an entry in the context with other verbs is reported", "report", []string{"Signed by %s"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			CheckDictionary(r, de, tc.context, tc.keys)
			if len(r.errs) != tc.errs {
				t.Errorf("reported %q, want %d reports", r.errs, tc.errs)
			}
		})
	}
	t.Run("In takes the context's entry first", func(t *testing.T) {
		if got := de.In("report", "Reason"); got != "Begründung" {
			t.Errorf("In(report, Reason) = %q", got)
		}
		if got := de.In("report", "Game %d"); got != "Partie %d" {
			t.Errorf("In(report, Game %%d) = %q", got)
		}
	})
}
