package refdata

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records a skip or a failure and stops the
// goroutine there, as the testing package does.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, a ...any) {
	r.skipped = fmt.Sprintf(format, a...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.failed = fmt.Sprintf(format, a...)
	runtime.Goexit()
}

// call runs f with a recorder in a goroutine of its own and returns what
// f returned and what the recorder saw.
func call(f func(testing.TB) string) (string, *recorder) {
	r := &recorder{}
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = f(r)
	}()
	<-done
	return got, r
}

func TestAReferenceFileIsFoundOrTheTestSaysWhy(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "clk-samples.pgn"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, env, file       string
		path, skipped, failed string // parts of what must happen
	}{
		{name: "without REFERENCE_DATA the test skips, naming the file and the target", env: "", file: "clk-samples.pgn",
			skipped: "clk-samples.pgn of others (not in the repository): make test-reference REFERENCE_DATA=DIR"},
		{name: "with it the file's path is given", env: dir, file: "clk-samples.pgn", path: filepath.Join(dir, "clk-samples.pgn")},
		{name: "a file missing there fails the test", env: dir, file: "unwinnable.tsv", failed: "unwinnable.tsv"},
		{name: "a relative directory fails the test", env: "shared/data", file: "clk-samples.pgn", failed: "is not an absolute path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(Env, tc.env)
			got, r := call(func(tb testing.TB) string { return Need(tb, tc.file) })
			if tc.path != "" && got != tc.path || r.skipped == "" != (tc.skipped == "") || !strings.Contains(r.skipped, tc.skipped) ||
				r.failed == "" != (tc.failed == "") || !strings.Contains(r.failed, tc.failed) {
				t.Errorf("Need = %q, skipped %q, failed %q", got, r.skipped, r.failed)
			}
			if tc.env == "" {
				if got, r := call(func(tb testing.TB) string { return File(tb, tc.file) }); got != "" || r.skipped != "" || r.failed != "" {
					t.Errorf("File without REFERENCE_DATA = %q, skipped %q, failed %q; want \"\" and neither", got, r.skipped, r.failed)
				}
			}
		})
	}
}
