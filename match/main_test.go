package match

import (
	"os"
	"testing"

	"arbiter/internal/kdf"
)

// TestMain makes credentials cheap to check: the production cost of
// argon2id (kdf.Production) is measured by BenchmarkCredentialGuess.
func TestMain(m *testing.M) {
	kdf.Current = kdf.Fast
	os.Exit(m.Run())
}
