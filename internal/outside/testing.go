package outside

import (
	"os"
	"testing"
)

// ForTest returns the outside readers for a test: under
// ARBITER_REQUIRE_VALIDATORS=1 (make test) every one must be installed;
// elsewhere a missing one is said in the log, and with none the test is
// skipped with that sentence.
func ForTest(t testing.TB) []Reader {
	t.Helper()
	rs, missing := Readers()
	for _, m := range missing {
		if os.Getenv("ARBITER_REQUIRE_VALIDATORS") == "1" {
			t.Fatalf("%s (ARBITER_REQUIRE_VALIDATORS=1): scripts/deps.sh --test installs it", m)
		}
		t.Log(m)
	}
	if len(rs) == 0 {
		t.Skip("no outside reader is installed (the sqlite3 shell, python3): scripts/deps.sh --test installs them")
	}
	return rs
}
