package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/service"
)

// consoleChildEnv makes the test binary a console's stand-in on the file it
// names (writeLikeAConsole): it holds the file, writes its heartbeat and
// waits to be killed.
const consoleChildEnv = "ARBITER_TEST_CONSOLE"

// writeLikeAConsole writes the console's heartbeat (its own process, 40 s
// into the match) into db, where a checkpoint has put it, then holds db
// open as the console does, its heartbeat written again into the -wal,
// says "held" and waits until it is killed.
func writeLikeAConsole(db string) int {
	ctx := context.Background()
	for i := range 2 {
		app, err := service.Open(ctx, db)
		if err == nil {
			err = app.Beat(ctx, start.Add(40*time.Second))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i == 0 {
			app.DB().Close() // the last connection's close checkpoints the -wal into db
		}
	}
	fmt.Println("held")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// A file whose console never closed it is one of three things, and says
// which: a copy taken without its -wal (its console's process gone), a
// backup (arbiter backup, restored by copying it back) — neither records a
// "console was gone" recovery, at the console's open or at a command that
// writes — or the record of a console that crashed (killed with SIGKILL,
// its -wal left beside it), which says so and records the recovery.
func TestACopyOrABackupSaysWhatItIsAndOnlyACrashRecordsTheConsoleGone(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the console's stand-in is killed with SIGKILL, which Windows does not have")
	}
	ctx := context.Background()
	host, _ := os.Hostname()
	later := start.Add(40*time.Second + 3*time.Minute + 12*time.Second)
	for _, tc := range []struct {
		name string
		// file is the file opened after the console was killed, made from
		// its record db while the console held it
		file func(t *testing.T, db string) string
		say  string // the start of the warning (pid: the console's process)
		gone bool   // a "console was gone" recovery is recorded
	}{
		{"a copy taken with cp while the console ran, its process gone since, is said to be a copy and records nothing",
			func(t *testing.T, db string) string {
				raw, err := os.ReadFile(db)
				if err != nil {
					t.Fatal(err)
				}
				cp := filepath.Join(filepath.Dir(db), "copy.db")
				if err := os.WriteFile(cp, raw, 0o644); err != nil {
					t.Fatal(err)
				}
				return cp
			},
			"This file is a copy taken without its -wal while the console (process %d on " + host + ", not running here now) was writing it", false},
		{"a backup restored by copying it back is said to be a backup and records nothing",
			func(t *testing.T, db string) string {
				bk := filepath.Join(filepath.Dir(db), "backup.db")
				mustArb(t, db, "backup", bk)
				raw, err := os.ReadFile(bk)
				if err != nil {
					t.Fatal(err)
				}
				restored := filepath.Join(t.TempDir(), "m.db")
				if err := os.WriteFile(restored, raw, 0o644); err != nil {
					t.Fatal(err)
				}
				return restored
			},
			"This file is a backup made with Arbiter's backup, not the file its console was writing: its last heartbeat is 3m12s old", false},
		{"the record of a console killed with SIGKILL says the console was gone and records it",
			func(t *testing.T, db string) string { return db },
			"The console was gone (crashed or killed) for 3m12s while Black's clock was running", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch, "0:00:01 game start", "0:00:31 move e4"))
			console := exec.Command(os.Args[0])
			console.Env = append(os.Environ(), consoleChildEnv+"="+db)
			in, err := console.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := console.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var cerr bytes.Buffer
			console.Stderr = &cerr
			if err := console.Start(); err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if line, _ := bufio.NewReader(out).ReadString('\n'); line != "held\n" {
				console.Process.Kill()
				console.Wait()
				t.Fatalf("the console's stand-in said %q: %s", line, cerr.String())
			}
			file := tc.file(t, db)
			if err := console.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			console.Wait()
			if !tc.gone {
				if _, err := os.Stat(file + "-wal"); err == nil {
					t.Fatalf("the %s has a -wal", file)
				}
			} else if _, err := os.Stat(file + "-wal"); err != nil {
				t.Fatalf("the killed console left no -wal: %v", err)
			}
			want := "arbiter: warning: " + strings.Replace(tc.say, "%d", fmt.Sprint(console.Process.Pid), 1)
			env := func(errb *bytes.Buffer) Env {
				return Env{Stdout: io.Discard, Stderr: errb, Getenv: func(string) string { return "" }, Now: func() time.Time { return later }}
			}
			for _, cmd := range [][]string{{"status"}, {"verify"}} {
				var errb bytes.Buffer
				if code := Run(ctx, append([]string{"--db", file}, cmd...), env(&errb)); code != 0 || !strings.HasPrefix(errb.String(), want) {
					t.Errorf("%s: exit %d, stderr\n%s\nwant it to begin\n%s", cmd[0], code, errb.String(), want)
				}
			}
			// a command that writes says it (and records the crash)
			var errb bytes.Buffer
			if code := Run(ctx, []string{"--db", file, "--at", at(3*time.Minute + 50*time.Second), "incident", "note", "--text", "the arbiter looks"}, env(&errb)); code != 0 || !strings.Contains(errb.String(), want) {
				t.Errorf("incident note: exit %d, stderr\n%s\nwant\n%s", code, errb.String(), want)
			}
			// then the console's open (gui.Run: CheckRecovery, writing): a
			// copy and a backup are said to be one again; a crash was
			// recorded once, and is not again
			app, err := service.Open(ctx, file)
			if err != nil {
				t.Fatal(err)
			}
			note, err := app.CheckRecovery(ctx, later.Add(time.Minute), true)
			app.DB().Close()
			if err != nil {
				t.Fatal(err)
			}
			if tc.gone && note != nil {
				t.Errorf("the console's open after the recorded crash says %v again", note)
			}
			if match.OfACopy(note) != !tc.gone {
				t.Errorf("the console's open titles %v as a copy's: %v, want %v", note, match.OfACopy(note), !tc.gone)
			}
			if !tc.gone && (note == nil || !strings.HasPrefix("arbiter: warning: "+Sentence(note), strings.Replace(want, "3m12s", "4m12s", 1))) {
				t.Errorf("the console's open says %v, want it to begin\n%s", note, want)
			}
			if n := countEvents(t, file, "recovery"); tc.gone && n != 1 || !tc.gone && n != 0 {
				t.Errorf("%d recovery events recorded", n)
			}
		})
	}
}
