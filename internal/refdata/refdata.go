package refdata

import (
	"os"
	"path/filepath"
	"testing"
)

// Env is the name of the environment variable that names the directory.
const Env = "REFERENCE_DATA"

// Dir returns the reference data directory, or "" when REFERENCE_DATA is
// unset.
func Dir() string { return os.Getenv(Env) }

// Need returns the path of the reference file name (a path inside the
// directory). Without REFERENCE_DATA it skips the test, naming the file and
// the target that runs it; a relative directory or a missing file fails it.
func Need(t testing.TB, name string) string {
	t.Helper()
	dir := Dir()
	if dir == "" {
		t.Skipf("needs the reference file %s of others (not in the repository): make test-reference REFERENCE_DATA=DIR", name)
	}
	return mustFile(t, dir, name)
}

// File returns the path of the reference file name when REFERENCE_DATA is
// set (a missing file fails the test), and "" when it is not.
func File(t testing.TB, name string) string {
	t.Helper()
	dir := Dir()
	if dir == "" {
		return ""
	}
	return mustFile(t, dir, name)
}

func mustFile(t testing.TB, dir, name string) string {
	t.Helper()
	if !filepath.IsAbs(dir) {
		t.Fatalf("%s=%s is not an absolute path: the tests run in each package's folder; give an absolute one", Env, dir)
	}
	p := filepath.Join(dir, filepath.FromSlash(name))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s=%s: %v", Env, dir, err)
	}
	return p
}
