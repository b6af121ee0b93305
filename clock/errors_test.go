package clock

import (
	"errors"
	"strings"
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
)

// TestEveryClockRefusalHasItsWordsInBothDictionaries: the clock refuses
// with a code (issue 25); the shared dictionary words it — in English
// exactly as its Error(), in German with the same arguments.
func TestEveryClockRefusalHasItsWordsInBothDictionaries(t *testing.T) {
	phrase.CheckTable(t, assets.Dictionary("en"), assets.Dictionary("de"), english)
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
	de := assets.Dictionary("de")
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
