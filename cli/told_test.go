package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// errorLines are the lines of stderr that read as a refusal: "arbiter: "
// marks a refusal ("arbiter: Sentence.") and a warning ("arbiter: warning:
// …"); what a command tells besides its output carries no prefix.
func errorLines(stderr string) []string {
	var bad []string
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if strings.HasPrefix(l, "arbiter: ") && !strings.HasPrefix(l, "arbiter: warning: ") {
			bad = append(bad, l)
		}
	}
	return bad
}

// What a command that succeeded tells on standard error (verify's counts,
// the head an export signed or did not sign, where a report or a copy was
// written) never reads as an error: it does not carry the "arbiter: "
// prefix of a refusal.
func TestWhatACommandTellsNeverReadsAsAnError(t *testing.T) {
	db := protectedMatch(t)
	dir := t.TempDir()
	unprotected := filepath.Join(t.TempDir(), "u.db")
	newMatchAt(t, unprotected)
	for _, c := range []struct {
		rule string
		db   string
		args []string
		tell string // a line stderr holds
	}{
		{"export pgn without --pin tells the last head signed as information", db, []string{"export", "pgn"}, "nothing signed (no --pin given): the last head the arbiter signed is event "},
		{"export pgn -o without --pin tells the last head signed as information", db, []string{"export", "pgn", "-o", filepath.Join(dir, "m.pgn")}, "the last head the arbiter signed is event "},
		{"export pdf without --pin tells the last head and the report written as information", db, []string{"export", "pdf", "-o", filepath.Join(dir, "m.pdf")}, "report written to "},
		{"export pgn with --pin tells the head it signed as information", db, []string{"--pin", arbPass, "export", "pgn"}, "the arbiter signed the head at event "},
		{"verify tells what it checked as information", db, []string{"verify"}, "events verified; the chain is intact"},
		{"verify of an unprotected match tells it as information", unprotected, []string{"verify"}, "unprotected match: the events are unsigned"},
		{"backup tells the copy as information", db, []string{"backup", filepath.Join(dir, "copy.db")}, "events copied to "},
		{"demo tells the script written as information", db, []string{"demo", "1996", "--games", "1", "-o", filepath.Join(dir, "demo.txt")}, "the match script is written to "},
	} {
		t.Run(c.rule, func(t *testing.T) {
			_, errs, code := arb(t, c.db, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(errs, c.tell) {
				t.Errorf("stderr does not tell %q:\n%s", c.tell, errs)
			}
			if bad := errorLines(errs); len(bad) > 0 {
				t.Errorf("information that reads as an error (the prefix of a refusal): %q", bad)
			}
		})
	}
}
