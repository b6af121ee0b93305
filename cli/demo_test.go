package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// pgn1996 is the project's own PGN of the 1996 games, the file the program
// embeds.
const pgn1996 = "../internal/games/deepblue1996.pgn"

func TestDemo1996WritesAScriptThatPlayRuns(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "Demo1996.txt")
	db := filepath.Join(dir, "none", "demo.db")
	_, errs, code := arb(t, db, "demo", "1996", "--games", "1", "-o", script)
	if code != 0 {
		t.Fatalf("demo 1996: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, script) || !strings.Contains(errs, "play") {
		t.Errorf("the notice does not name the script and how to play it: %q", errs)
	}
	if _, err := os.Stat(filepath.Dir(db)); err == nil {
		t.Error("demo 1996 opened or created a database")
	}
	text, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "match new") || !strings.Contains(string(text), "move") {
		t.Fatalf("the script has no match new or moves:\n%.500s", text)
	}
	// the same games give the same script, built in or read with --pgn
	again := filepath.Join(dir, "again.txt")
	mustArb(t, db, "demo", "1996", "--games", "1", "-o", again)
	if b, _ := os.ReadFile(again); string(b) != string(text) {
		t.Error("two runs of demo 1996 wrote different scripts")
	}
	fromFile := filepath.Join(dir, "from-file.txt")
	mustArb(t, db, "demo", "1996", "--pgn", pgn1996, "--games", "1", "-o", fromFile)
	if b, _ := os.ReadFile(fromFile); string(b) != string(text) {
		t.Error("demo 1996 --pgn with the same games wrote another script than the built-in games")
	}
	play := filepath.Join(dir, "demo.db")
	mustArb(t, play, "--at", "1996-02-10T20:00:00Z", "play", script)
	st := status(t, play, 30*24*time.Hour)
	if got := path(st, "games"); got == nil {
		t.Fatalf("status after play has no games: %v", st)
	}
	g := path(st, "games").([]any)[0].(map[string]any)
	if g["result"] != "1-0" {
		t.Errorf("game 1 of 1996 ended %v, want 1-0 (Deep Blue won)", g["result"])
	}
}

func TestDemo1996RefusesBadInputClearly(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.txt")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no -o", []string{"demo", "1996"}, "needs -o SCRIPT"},
		{"no -o, with --pgn", []string{"demo", "1996", "--pgn", pgn1996}, "needs -o SCRIPT"},
		{"a missing PGN", []string{"demo", "1996", "--pgn", filepath.Join(dir, "nope.pgn"), "-o", out}, "here is no PGN file at"},
		{"negative games", []string{"demo", "1996", "--pgn", pgn1996, "--games", "-2", "-o", out}, "is not a number of games"},
		{"another year", []string{"demo", "1997", "--pgn", pgn1996, "-o", out}, `"1997" is not one of the demo commands: use one of 1996`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := arb(t, filepath.Join(dir, "m.db"), tc.args...)
			if code != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, errs, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a refused demo wrote the script")
			}
		})
	}
}

func TestExportWritesOnlyRegularFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links and /dev/null are Unix files")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	newMatchAt(t, db)
	mustArb(t, db, "--at", at(time.Second), "game", "start")
	target := filepath.Join(dir, "target.pgn")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.pgn")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	shortcut := filepath.Join(dir, "shortcut.db") // the record opened through a link
	if err := os.Symlink(db, shortcut); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, db, out, want string }{
		{"the write-ahead log of the file a link to the database names is refused", shortcut, db + "-wal", "is the match's database (or a file of it)"},
		{"the file a link to the database names is refused", shortcut, db, "is the match's database"},
		{"a symbolic link is refused", db, link, "is a symbolic link, not a regular file"},
		{"a device is refused", db, "/dev/null", "/dev/null is a device, not a regular file"},
		{"a folder is refused", db, dir, "is a folder, not a regular file"},
		{"the match's database itself is refused (the export would replace the record)", db, db, "is the match's database"},
		{"the database's write-ahead log is refused", db, db + "-wal", "is the match's database (or a file of it)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := arb(t, tc.db, "export", "pgn", "-o", tc.out)
			if code != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, errs, tc.want)
			}
		})
	}
	if out := mustArb(t, db, "verify"); len(strings.TrimSpace(out)) != 64 {
		t.Errorf("after the refused exports verify prints %q", out)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	mustArb(t, db, "export", "pgn", "-o", target)
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "[Event") {
		t.Errorf("a regular file was not replaced by the PGN: %q", b)
	}
}
