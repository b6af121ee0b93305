package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVerifySaysWhatTheFileAloneCannotProveWhenNoAnchorIsGiven (branch
// htrust; docs/reliability.md, "What verify proves from the file alone"):
// a record cut short at its end with its signatures, or made again from
// its start under other keys, verifies as the genuine one does; verify
// given nothing from outside the file says so in one sentence and names
// what to bring. Given a head, a key, a match id or a CA it does not say
// it (that anchor was checked). Before, nothing said what an exit 0
// without anchors leaves unproved.
func TestVerifySaysWhatTheFileAloneCannotProveWhenNoAnchorIsGiven(t *testing.T) {
	db := protectedMatch(t)
	head, errs, code := arb(t, db, "verify")
	head = strings.TrimSpace(head)
	const says = "nothing from outside the file was given to check it against, so this proves only that the file agrees with itself"
	if code != 0 || !strings.Contains(errs, says) || !strings.Contains(errs, "(a head with --head, the arbiter's first key with --key, the match id with --match, the match's CA with --ca)") {
		t.Fatalf("verify without an anchor: exit %d, %s", code, errs)
	}
	if n := strings.Count(errs, "\n"+says); n != 1 {
		t.Errorf("the sentence stands on %d lines of its own, want 1:\n%s", n, errs)
	}
	t.Run("verify --head with the head printed does not say it", func(t *testing.T) {
		_, errs, code := arb(t, db, "verify", "--head", head)
		if code != 0 || strings.Contains(errs, says) {
			t.Errorf("verify --head: exit %d, %s", code, errs)
		}
	})
	t.Run("an unprotected record says it too", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "u.db")
		newMatchAt(t, db)
		mustArb(t, db, "--at", at(time.Second), "game", "start")
		_, errs, code := arb(t, db, "verify")
		if code != 0 || !strings.Contains(errs, says) {
			t.Errorf("verify of an unprotected record: exit %d, %s", code, errs)
		}
	})
}
