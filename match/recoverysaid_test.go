package match

import (
	"strings"
	"testing"
	"time"

	"arbiter/assets"
)

// TestTheRecoveryNoteIsSaidInTheConsolesLanguage: the incident a recovery
// event makes carries the phrase of the English note it records, rebuilt
// from its payload, so that the German console and report say it in
// German; before, the German console's incident log showed the English
// sentence. The record keeps the English text.
func TestTheRecoveryNoteIsSaidInTheConsolesLanguage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		closed bool // the console quit normally (else it was gone)
		de     string
	}{
		{"a console gone while White's clock ran is said in German", false, "die Konsole war weg (abgestürzt oder abgebrochen) für 10m"},
		{"a console closed while White's clock ran is said in German", true, "die Konsole war "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.newMatch(MatchNew{})
			f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
			if tc.closed {
				f.ok(f.app.Closing(f.ctx, f.at(time.Second).At))
			} else {
				f.ok(f.app.Beat(f.ctx, f.at(time.Second).At))
			}
			if _, err := f.app.CheckRecovery(f.ctx, f.at(10*time.Minute+123*time.Millisecond).At, true); err != nil {
				t.Fatal(err)
			}
			var inc *Incident
			for i, in := range f.app.State().CurrentGame().Incidents {
				if in.Kind == IncidentRecovery {
					inc = &f.app.State().CurrentGame().Incidents[i]
				}
			}
			if inc == nil {
				t.Fatal("no recovery in the incident log")
			}
			if !strings.HasPrefix(inc.Text, "the console was ") {
				t.Errorf("the record says %q, want the English note", inc.Text)
			}
			if inc.Said == nil {
				t.Fatalf("the recovery %q carries no phrase: the German console shows it in English", inc.Text)
			}
			if en := inc.Said.Error(); en != inc.Text {
				t.Errorf("the phrase says %q in English, the record %q", en, inc.Text)
			}
			if de := assets.Dictionary("de").Say(inc.Said); !strings.HasPrefix(de, tc.de) || strings.Contains(de, "White") {
				t.Errorf("in German: %q, want it to begin %q", de, tc.de)
			}
		})
	}
}
