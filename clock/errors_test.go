package clock

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"arbiter/internal/phrase"
)

// dictionary reads one of the shared dictionaries (assets/translations).
func dictionary(t *testing.T, lang string) phrase.Dictionary {
	t.Helper()
	b, err := os.ReadFile("../assets/translations/" + lang + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var d phrase.Dictionary
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEveryClockRefusalHasItsWordsInBothDictionaries: the clock refuses
// with a code (issue 25); the shared dictionary words it — in English
// exactly as its Error(), in German with the same arguments.
func TestEveryClockRefusalHasItsWordsInBothDictionaries(t *testing.T) {
	en, de := dictionary(t, "en"), dictionary(t, "de")
	for _, c := range Codes() {
		t.Run(string(c), func(t *testing.T) {
			if en[string(c)] != English(c) {
				t.Errorf("en.json says %q, the clock %q", en[string(c)], English(c))
			}
			w, ok := de[string(c)]
			if !ok {
				t.Fatal("de.json has no words for it")
			}
			if !reflect.DeepEqual(phrase.Verbs(w), phrase.Verbs(English(c))) {
				t.Errorf("de.json's %q takes other arguments than %q", w, English(c))
			}
		})
	}
}

// inner is the code of the refusal a time control's refusal carries.
func inner(err error) Code {
	var p *phrase.Error
	if !errors.As(err, &p) || len(p.Args) < 2 {
		return ""
	}
	e, _ := p.Args[1].(error)
	return ErrorCode(e)
}

func TestATimeControlIsRefusedWithTheCodeOfWhatIsWrong(t *testing.T) {
	de := dictionary(t, "de")
	for _, tc := range []struct {
		spec string
		want Code
	}{
		{"", CodeEmpty},
		{"40/7200::1800", CodeEmptyPeriod},
		{"*60", CodeSandclock},
		{"0/7200", CodeMoveCountZero},
		{"40/x", CodeSecondsBad},
		{"1800:40/7200", CodeNothingAfterAll},
		{"40/0", CodeFirstNoTime},
	} {
		t.Run(tc.want.name(tc.spec), func(t *testing.T) {
			_, err := ParseTimeControl(tc.spec)
			if ErrorCode(err) != CodeTimeControl || inner(err) != tc.want {
				t.Fatalf("ParseTimeControl(%q): %v (%s, %s), want %s within %s", tc.spec, err, ErrorCode(err), inner(err), tc.want, CodeTimeControl)
			}
			german := phrase.Translate(err, de.T)
			if strings.Contains(german, "time control") || strings.Contains(german, "period") {
				t.Errorf("in German it reads %q", german)
			}
		})
	}
}

func (c Code) name(spec string) string {
	return string(c) + " for " + strings.ReplaceAll(spec, "/", "÷")
}
