package report_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/cli"
	"arbiter/internal/demo"
	"arbiter/match"
	"arbiter/store"
)

// validators reports whether the external tools are required: with
// ARBITER_REQUIRE_VALIDATORS=1 a missing tool fails the test.
func requireTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("ARBITER_REQUIRE_VALIDATORS") == "1" {
			t.Fatalf("%s is not installed (ARBITER_REQUIRE_VALIDATORS=1): install poppler-utils", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// runCLI runs the command line and fails the test on a non-zero exit.
func runCLI(t testing.TB, args ...string) string {
	t.Helper()
	out, errOut, code := runCLIStatus(args...)
	if code != 0 {
		t.Fatalf("arbiter %v: exit %d: %s", args, code, errOut)
	}
	return out
}

func runCLIStatus(args ...string) (stdout, stderr string, code int) {
	// The machine's clock reads a month after the instants recorded: the
	// demo's, or the --at given (nobody records an instant not yet come).
	now := demo.Start.Add(30 * 24 * time.Hour)
	for i, a := range args {
		if t, err := time.Parse(time.RFC3339Nano, a); err == nil && i > 0 && args[i-1] == "--at" && t.Add(30*24*time.Hour).After(now) {
			now = t.Add(30 * 24 * time.Hour)
		}
	}
	return runCLIAt(now, args...)
}

// runCLIAt runs the command line on a machine whose clock reads now.
func runCLIAt(now time.Time, args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	env := cli.Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}
	code = cli.Run(context.Background(), args, env)
	return o.String(), e.String(), code
}

// playLive plays a script's lines as they happen: each line given at its
// own instant (start + OFFSET, "H:MM:SS") on a machine whose clock reads
// that instant, as an operator's and players' commands are given on a
// protected match (a party's instant may not lie more than 5 s back).
func playLive(t testing.TB, db string, start time.Time, script string) {
	t.Helper()
	dir := t.TempDir()
	for i, line := range strings.Split(strings.TrimSpace(script), "\n") {
		var h, m, sec int
		if _, err := fmt.Sscanf(strings.Fields(line)[0], "%d:%d:%d", &h, &m, &sec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		at := start.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second)
		sp := filepath.Join(dir, fmt.Sprintf("line%d.txt", i+1))
		if err := os.WriteFile(sp, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, errs, code := runCLIAt(at, "--db", db, "--at", start.Format(time.RFC3339Nano), "play", sp); code != 0 {
			t.Fatalf("line %d (%s): exit %d: %s", i+1, line, code, errs)
		}
	}
}

// buildDemo plays the demo script of the first games of the 1996 match
// into a new database in dir and returns its path.
func buildDemo(t testing.TB, dir string, games int) string {
	t.Helper()
	script, err := demo.Script1996(demo.Options{Games: games, Seed: 1996})
	if err != nil {
		t.Fatal(err)
	}
	sp := filepath.Join(dir, "demo.txt")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "demo.db")
	runCLI(t, "--db", db, "--at", demo.Start.Format(time.RFC3339), "play", sp)
	return db
}

// loadState opens a database and rebuilds its state and head.
func loadState(t testing.TB, path string) (*match.State, string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	app, err := match.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := db.Verify(ctx, "")
	if err != nil || !rep.OK {
		t.Fatalf("verify: %v %+v", err, rep)
	}
	return app.State(), rep.Head
}

// The 6-game match is built once per test binary.
var six struct {
	once sync.Once
	dir  string
	db   string
	err  string
}

func sixGames(t testing.TB) string {
	t.Helper()
	six.once.Do(func() {
		dir, err := os.MkdirTemp("", "arbiter-report-")
		if err != nil {
			six.err = err.Error()
			return
		}
		six.dir = dir
		ft := &fatalRecorder{TB: t}
		func() {
			defer func() {
				if r := recover(); r != nil && r != errFatal {
					panic(r)
				}
			}()
			six.db = buildDemo(ft, dir, 0)
		}()
		six.err = ft.msg
	})
	if six.err != "" {
		t.Fatalf("building the 6-game demo match: %s", six.err)
	}
	return six.db
}

func TestMain(m *testing.M) {
	code := m.Run()
	if six.dir != "" {
		os.RemoveAll(six.dir)
	}
	os.Exit(code)
}

var errFatal = fmt.Errorf("fatal")

// fatalRecorder turns a Fatal inside the shared fixture into a message for
// every test that needs the fixture.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Fatal(a ...any) { f.msg = fmt.Sprint(a...); panic(errFatal) }
func (f *fatalRecorder) Fatalf(format string, a ...any) {
	f.msg = fmt.Sprintf(format, a...)
	panic(errFatal)
}
