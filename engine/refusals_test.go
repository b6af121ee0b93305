package engine

import (
	"errors"
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
	"arbiter/match"
)

// TestEveryEngineRefusalHasItsWordsInBothDictionaries: the bridge's own
// refusals are codes (issue 25), worded by the shared dictionary — in
// English exactly as their Error(), in German with the same arguments.
func TestEveryEngineRefusalHasItsWordsInBothDictionaries(t *testing.T) {
	phrase.CheckTable(t, assets.Dictionary("en"), assets.Dictionary("de"), english)
}

// TestTheBridgeRefusesWithTheCodeOfWhatIsWrong: what the bridge refuses
// before it starts is a code and its arguments, which each face words.
func TestTheBridgeRefusesWithTheCodeOfWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  string
		opts []string
		want match.Code
	}{
		{"no command", "  ", nil, CodeNoCommand},
		{"an unterminated quote", "'/opt/my engine", nil, CodeUnterminatedQuote},
		{"a program that is not there", "/nonexistent/engine", nil, CodeNotThere},
		{"an option that is not NAME=VALUE", fakeCmd(), []string{"Hash"}, CodeOptionNotNameValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Run(t.Context(), nil, Options{Cmd: tc.cmd, Options: tc.opts})
			var p *phrase.Error
			if !errors.As(err, &p) || match.Code(p.Code) != tc.want {
				t.Fatalf("refused with %v, want the code %s", err, tc.want)
			}
		})
	}
}
