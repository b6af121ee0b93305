package gui

import (
	"strings"
	"testing"
	"time"

	"arbiter/match"
)

// The Verify dialog of a protected match says what the file alone cannot
// prove, as 'arbiter verify' given no anchor does (branch htrust;
// docs/reliability.md, "What verify proves from the file alone"): the
// console checks the record against nothing from outside it. In English
// and German; before, it said nothing of it.
func TestTheVerifyDialogSaysWhatTheFileAloneCannotProve(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		german     bool
	}{
		{"the English console says it", "Nothing from outside the file was given to check it against, so this proves only that the file agrees with itself", false},
		{"the German console says it in German", "Es wurde nichts von außerhalb der Datei angegeben, gegen das sie geprüft wird, daher beweist dies nur, dass die Datei in sich stimmig ist", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.german {
				inGerman(t)
			}
			h := newHarness(t, match.RoleArbiter, secret)
			h.newMatch("acm1996", secret)
			h.c.do(actStartGame)
			h.ft.advance(3 * time.Second)
			h.typeMove("e4")
			h.c.do(actVerify)
			if got := topDialogTexts(h.c); !strings.Contains(got, tc.want) {
				t.Errorf("the dialog says\n%s\nwant it to say %q", got, tc.want)
			}
		})
	}
}
