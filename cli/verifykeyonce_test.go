package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// verify names each of the arbiter's keys once: a key never replaced was
// said as his key and again as his first key, which anchors the record.
// The fingerprints are counted in verify's words on standard error, with
// the words each key's line says.
func TestVerifyNamesEachArbiterKeyOnce(t *testing.T) {
	const rotated = "Mike Valvo's new passphrase"
	rotatedMatch := func(t *testing.T) string {
		db := filepath.Join(t.TempDir(), "m.db")
		script := writeScript(t,
			"0:00:00 "+newMatch+" --pin \""+arbPass+"\"",
			"0:00:01 --pin \""+arbPass+"\" credential add --role arbiter --secret \""+rotated+"\"",
			"0:00:02 --pin \""+rotated+"\" game start",
			"0:00:05 --pin \""+rotated+"\" resign white",
		)
		mustArb(t, db, "--at", at(0), "play", script)
		return db
	}
	blocks := regexp.MustCompile(`(?:[0-9a-f]{8} ){7}[0-9a-f]{8}`)
	for _, tc := range []struct {
		name  string
		db    func(t *testing.T) string
		keys  int
		lines []string
	}{
		{"a key never replaced is named once, as his key, and said to anchor the record", protectedMatch, 1, []string{
			"the arbiter's key is ",
			"that key, never replaced, is the arbiter's first, which anchors the record ('verify --key' checks it) (event 1, match.new)",
		}},
		{"a replaced key and the key now are named once each", rotatedMatch, 2, []string{
			"the arbiter's key is ",
			"the arbiter's first key, which anchors the record ('verify --key' checks it): ",
			"the arbiter's key replaced at event 2 (credential.add), signed by the key it replaces: the key named above, his key now",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := arb(t, tc.db(t), "verify")
			if code != 0 {
				t.Fatalf("verify: exit %d, %s", code, errs)
			}
			seen := map[string]int{}
			for _, fp := range blocks.FindAllString(errs, -1) {
				seen[fp]++
			}
			// the head is printed on standard output; the match id has 4 blocks
			if len(seen) != tc.keys {
				t.Errorf("verify names %d keys, want %d:\n%s", len(seen), tc.keys, errs)
			}
			for fp, n := range seen {
				if n != 1 {
					t.Errorf("verify names the key %s %d times, want once:\n%s", fp, n, errs)
				}
			}
			for _, l := range tc.lines {
				if !strings.Contains(errs, l) {
					t.Errorf("verify does not say %q:\n%s", l, errs)
				}
			}
		})
	}
}
