package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// run0 runs argv with no --db of its own and returns stdout, stderr, status.
func run0(t *testing.T, manifest []byte, argv ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" },
		Now: func() time.Time { return start }, Manifest: manifest}
	code := Run(context.Background(), argv, env)
	return out.String(), errb.String(), code
}

func TestHelpAndVersionFollowTheConventionsAndOpenNothing(t *testing.T) {
	manifest, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		argv []string
		want string // on standard output
	}{
		{"--help lists the commands", []string{"--help"}, "Commands:"},
		{"-h lists the commands", []string{"-h"}, "Commands:"},
		{"help lists the commands", []string{"help"}, "Commands:"},
		{"-h COMMAND tells about the command", []string{"-h", "verify"}, "usage: arbiter verify [--head HEX]"},
		{"COMMAND --help tells about the command", []string{"status", "--help"}, "usage: arbiter status [--json]"},
		{"COMMAND -h tells about the command", []string{"move", "-h"}, "usage: arbiter move MOVE"},
		{"a group's --help lists its commands", []string{"export", "--help"}, "arbiter export pdf -o FILE"},
		{"a group's -h lists its commands", []string{"game", "-h"}, "arbiter game start [N]"},
		{"help GROUP lists its commands", []string{"help", "export"}, "arbiter export pgn"},
		{"--version names the version of FyneApp.toml", []string{"--version"}, "arbiter 0.1.0 (build 1, "},
		{"--version names the licence", []string{"--version"}, "\nFree software under the MIT licence (the file LICENSE)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "none", "m.db")
			out, errs, code := run0(t, manifest, append([]string{"--db", db}, tc.argv...)...)
			if code != 0 || errs != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing on stderr", code, errs)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("stdout does not contain %q:\n%s", tc.want, out)
			}
			if _, err := os.Stat(filepath.Dir(db)); err == nil {
				t.Errorf("help or version created %s", filepath.Dir(db))
			}
		})
	}
}

func TestVersionLineReadsFyneAppTomlAndTheBuildInfo(t *testing.T) {
	manifest := []byte("[Details]\n  Icon = \"assets/icon.png\"\n  Version = \"2.3.4\"\n  Build = 17\n\n[LinuxAndBSD]\n  Version = \"9.9.9\"\n")
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	for _, tc := range []struct {
		name     string
		manifest []byte
		bi       *debug.BuildInfo
		want     string
	}{
		{"version, build number, Go, platform and commit", manifest, bi,
			"arbiter 2.3.4 (build 17, go1.26.0, windows/amd64, commit 0123456789ab+changes)"},
		{"without a manifest the module version is used", nil,
			&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.0"}}, "arbiter 1.2.0 (go1.26.0, windows/amd64)"},
		{"without either the version is said to be unknown", nil,
			&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, "arbiter (version unknown) (go1.26.0, windows/amd64)"},
		{"a release build says the release's version and commit", manifest, &debug.BuildInfo{GoVersion: "go1.26.0"},
			"arbiter 1.0.0 (build 17, go1.26.0, windows/amd64, commit fedcba987654)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rel release
			if strings.Contains(tc.name, "release") {
				rel = release{"1.0.0", "fedcba9876543210"}
			}
			if got := versionLine(tc.manifest, tc.bi, "windows/amd64", rel); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestTheConsoleWithoutADisplaySaysSo(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name   string
		goos   string
		getenv func(string) string
		ok     bool
	}{
		{"Linux without DISPLAY or WAYLAND_DISPLAY has no display", "linux", env(), false},
		{"Linux with DISPLAY has one", "linux", env("DISPLAY", ":0"), true},
		{"Linux with WAYLAND_DISPLAY has one", "linux", env("WAYLAND_DISPLAY", "wayland-0"), true},
		{"FreeBSD without them has none", "freebsd", env(), false},
		{"Windows always has its desktop", "windows", env(), true},
		{"macOS always has its desktop", "darwin", env(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ConsoleDisplay(tc.goos, tc.getenv)
			if (err == nil) != tc.ok {
				t.Fatalf("ConsoleDisplay = %v, want ok=%v", err, tc.ok)
			}
			if err != nil {
				s := Sentence(err)
				if strings.Contains(s, "\n") || !strings.Contains(s, "DISPLAY") {
					t.Errorf("the refusal is not one line naming DISPLAY: %q", s)
				}
			}
		})
	}
}

func TestFileNamesKeepTheirCaseAtTheStartOfASentence(t *testing.T) {
	for _, tc := range []struct{ err, want string }{
		{"nul.txt is a device, not a regular file: choose a file name to write to", "nul.txt is a device, not a regular file: choose a file name to write to."},
		{"./m.db already exists", "./m.db already exists."},
		{`c:\temp\m already exists`, `c:\temp\m already exists.`},
		{"script.txt line 3: no such move", "script.txt line 3: no such move."},
		{"the file is gone", "The file is gone."},
		{"e4 is not legal", "e4 is not legal."},
		{"backup already exists", "Backup already exists."},
	} {
		t.Run(tc.err, func(t *testing.T) {
			if got := Sentence(errString(tc.err)); got != tc.want {
				t.Errorf("Sentence = %q, want %q", got, tc.want)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// The read commands leave nothing beside the record, and refuse a device
// before SQLite could put a journal next to it.
func TestReadCommandsLeaveNothingBesideTheRecord(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	newMatchAt(t, db)
	mustArb(t, db, "--at", at(time.Second), "game", "start")
	for _, args := range [][]string{{"status"}, {"status", "--json"}, {"verify"}, {"export", "pgn"}} {
		t.Run(strings.Join(args, " ")+" writes nothing beside the record", func(t *testing.T) {
			before := fileHash(t, db)
			mustArb(t, db, args...)
			if fileHash(t, db) != before {
				t.Error("the record changed")
			}
			for _, side := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(db + side); err == nil {
					t.Errorf("%s left %s behind", strings.Join(args, " "), db+side)
				}
			}
			if es, _ := os.ReadDir(dir); len(es) != 1 {
				t.Errorf("the folder holds %d files after %s, want only m.db", len(es), strings.Join(args, " "))
			}
		})
	}
	if runtime.GOOS != "windows" {
		t.Run("status on /dev/null is refused and leaves no /dev/null-journal", func(t *testing.T) {
			os.Remove("/dev/null-journal") // a leftover of an older build would hide the bug
			_, errs, code := arb(t, "/dev/null", "status")
			if code == 0 {
				t.Errorf("status on /dev/null succeeded")
			}
			if strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("not one sentence: %q", errs)
			}
			for _, side := range []string{"-journal", "-wal", "-shm"} {
				if _, err := os.Stat("/dev/null" + side); err == nil {
					t.Errorf("/dev/null%s was created", side)
				}
			}
		})
	}
}

// A copy on a write-protected folder or mount (the appeals board's copy) can
// be verified and read. Root may write anywhere, so as root the check runs
// in a child process as the user nobody.
func TestReadCommandsWorkOnAWriteProtectedCopy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions")
	}
	if os.Getenv("ARBITER_RO_CHILD") != "" {
		return // the child's work is done by TestReadOnlyChild
	}
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil { // for the user nobody
			t.Fatal(err)
		}
	}
	ro := filepath.Join(dir, "copy")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(ro, "m.db")
	newMatchAt(t, db)
	mustArb(t, db, "--at", at(time.Second), "game", "start")
	mustArb(t, db, "--at", at(time.Minute), "--as", "operator", "move", "e4")
	head := strings.TrimSpace(mustArb(t, db, "verify"))
	if es, _ := os.ReadDir(ro); len(es) != 1 {
		t.Fatalf("the copy's folder holds %d files, want only m.db (as a copy is handed over)", len(es))
	}
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "cli.test")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestReadOnlyChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ARBITER_RO_CHILD="+db, "ARBITER_RO_HEAD="+head)
	asNobody(t, cmd)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("the read commands failed on the write-protected copy: %v\n%s", err, out)
	}
	if es, _ := os.ReadDir(ro); len(es) != 1 {
		t.Errorf("the write-protected folder now holds %d files, want only m.db", len(es))
	}
}

func TestReadOnlyChild(t *testing.T) {
	db := os.Getenv("ARBITER_RO_CHILD")
	if db == "" {
		t.Skip("run by TestReadCommandsWorkOnAWriteProtectedCopy")
	}
	if os.Geteuid() == 0 {
		if f, err := os.Create(filepath.Join(filepath.Dir(db), "probe")); err == nil {
			f.Close()
			t.Fatal("the child can write to the protected folder: the test would prove nothing")
		}
	}
	if got := strings.TrimSpace(mustArb(t, db, "verify")); got != os.Getenv("ARBITER_RO_HEAD") {
		t.Errorf("verify printed %q, want the head %q", got, os.Getenv("ARBITER_RO_HEAD"))
	}
	if out := mustArb(t, db, "export", "pgn"); !strings.Contains(out, "1. e4") {
		t.Errorf("export pgn lacks the move:\n%s", out)
	}
	mustArb(t, db, "status", "--json")
}

// newMatchAt creates the test match in db.
func newMatchAt(t *testing.T, db string) {
	t.Helper()
	words, err := splitLine(newMatch)
	if err != nil {
		t.Fatal(err)
	}
	mustArb(t, db, append([]string{"--at", at(0)}, words...)...)
}

func TestTheDefaultDatabaseIsInTheUsersDataFolder(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"ARBITER_DB wins", map[string]string{"ARBITER_DB": "x.db", "HOME": "/h"}, "x.db"},
		{"XDG_DATA_HOME", map[string]string{"XDG_DATA_HOME": "/d", "HOME": "/h"}, filepath.Join("/d", "arbiter", "arbiter.db")},
		{"HOME", map[string]string{"HOME": "/h"}, filepath.Join("/h", ".local", "share", "arbiter", "arbiter.db")},
		{"Windows without HOME uses LOCALAPPDATA", map[string]string{"LOCALAPPDATA": `C:\Users\gk\AppData\Local`},
			filepath.Join(`C:\Users\gk\AppData\Local`, "arbiter", "arbiter.db")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DefaultDB(func(k string) string { return tc.env[k] }); got != tc.want {
				t.Errorf("DefaultDB = %q, want %q", got, tc.want)
			}
		})
	}
}
