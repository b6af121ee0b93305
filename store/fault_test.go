package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFaultHookPanicLeavesAllOrNothing stops Update at each fault point with
// a panic and checks that the file still verifies and holds either the whole
// transaction (after the commit) or none of it (before).
func TestFaultHookPanicLeavesAllOrNothing(t *testing.T) {
	tests := []struct {
		point   string
		wantAll bool
	}{
		{"before-begin", false},
		{"after-insert", false},
		{"before-commit", false},
		{"after-commit", true},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("a panic at %s leaves none of the transaction", tt.point)
		if tt.wantAll {
			name = fmt.Sprintf("a panic at %s leaves all of the transaction", tt.point)
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, path := newTestDB(t)
			appendEvents(t, db, 2)
			type boom struct{ point string }
			FaultHook = func(p string) {
				if p == tt.point {
					panic(boom{p})
				}
			}
			t.Cleanup(func() { FaultHook = nil })
			func() {
				defer func() {
					if r := recover(); r != (boom{tt.point}) {
						t.Fatalf("recovered %v, want the hook's panic", r)
					}
				}()
				db.Update(ctx, func(tx *Tx) error {
					for i := 0; i < 3; i++ {
						if _, err := tx.Append(testEvent(i)); err != nil {
							return err
						}
					}
					return nil
				})
			}()
			FaultHook = nil
			want := int64(2)
			if tt.wantAll {
				want = 5
			}
			check := func(db *DB) {
				t.Helper()
				r, err := db.Verify(ctx, "")
				if err != nil || !r.OK || r.Events != want {
					t.Errorf("Verify = %+v, %v; want OK with %d events", r, err, want)
				}
			}
			check(db)
			t.Run("the handle stays usable", func(t *testing.T) {
				appendEvents(t, db, 1)
				want++
				check(db)
			})
			t.Run("another process sees the same", func(t *testing.T) {
				other := openTest(t, path)
				check(other)
			})
		})
	}
}

const helperDBEnv = "ARBITER_STORE_TEST_DB"

// TestHelperCrashWriter is not a test: TestCrashKillLeavesAllOrNothing runs
// the test binary again with only this function selected, ARBITER_FAULT set
// and helperDBEnv naming the file, so that the process SIGKILLs itself inside
// Update.
func TestHelperCrashWriter(t *testing.T) {
	path := os.Getenv(helperDBEnv)
	if path == "" {
		t.Skip("helper process for TestCrashKillLeavesAllOrNothing")
	}
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Update(context.Background(), func(tx *Tx) error {
		for i := 0; i < 3; i++ {
			if _, err := tx.Append(testEvent(i)); err != nil {
				return err
			}
		}
		return nil
	})
	t.Fatalf("Update returned (%v); the fault hook should have killed the process", err)
}

func TestCrashKillLeavesAllOrNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	tests := []struct {
		fault   string
		wantAll bool
	}{
		{"before-begin:1", false},
		{"after-insert:1", false},
		{"after-insert:3", false},
		{"before-commit:1", false},
		{"after-commit:1", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("SIGKILL at %s", tt.fault), func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "crash.arbiter")
			db := openTest(t, path)
			appendEvents(t, db, 2)

			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCrashWriter$", "-test.count=1")
			cmd.Env = append(os.Environ(), FaultEnv+"="+tt.fault, helperDBEnv+"="+path)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Exited() {
				t.Fatalf("helper was not killed by a signal: %v\n%s", err, out)
			}

			want := int64(2)
			if tt.wantAll {
				want = 5
			}
			r, err := db.Verify(ctx, "")
			if err != nil || !r.OK || r.Events != want {
				t.Errorf("Verify = %+v, %v; want OK with %d events", r, err, want)
			}
			more := appendEvents(t, db, 1)
			if more[0].Seq != want+1 {
				t.Errorf("next append got seq %d, want %d", more[0].Seq, want+1)
			}
		})
	}
}

func TestParseFault(t *testing.T) {
	tests := []struct {
		spec      string
		wantPoint string
		wantN     int
		wantCode  Code // the refusal's code, "" if accepted
	}{
		{"after-insert:2", "after-insert", 2, ""},
		{"before-commit", "before-commit", 1, ""},
		{"after-commit:1", "after-commit", 1, ""},
		{"after-insert:0", "", 0, CodeFaultCount},
		{"after-insert:-1", "", 0, CodeFaultCount},
		{"after-insert:x", "", 0, CodeFaultCount},
		{"during-lunch:1", "", 0, CodeFaultPoint},
		{"", "", 0, CodeFaultPoint},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.spec), func(t *testing.T) {
			p, n, err := parseFault(tt.spec)
			if ErrorCode(err) != tt.wantCode || p != tt.wantPoint || n != tt.wantN {
				t.Errorf("parseFault(%q) = %q, %d, %v; want %q, %d, code %q", tt.spec, p, n, err, tt.wantPoint, tt.wantN, tt.wantCode)
			}
		})
	}
}

func FuzzParseFault(f *testing.F) {
	for _, s := range []string{"after-insert:2", "before-begin", "x:1", ":", "after-commit:99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p, n, err := parseFault(spec)
		if err != nil {
			return
		}
		if n < 1 {
			t.Errorf("parseFault(%q) accepted count %d", spec, n)
		}
		p2, n2, err := parseFault(fmt.Sprintf("%s:%d", p, n))
		if err != nil || p2 != p || n2 != n {
			t.Errorf("round trip of %q: %q, %d, %v", spec, p2, n2, err)
		}
	})
}
