package gui

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/internal/outside"
	"arbiter/match"
	"arbiter/store"
)

// consoleChildEnv names the record of a console run as a process of its
// own (TestMain runs consoleChild instead of the tests).
const consoleChildEnv = "ARBITER_CONSOLE_CHILD"

// consoleChild is the console on the record at path, as a process of its
// own: it makes the 1996 match, starts game 1 and the broadcast
// (View → Broadcast…, which reads the record through a handle of its own),
// prints "broadcast ADDR", then types one move for every line on standard
// input and prints "ok N" once the record holds event N. Its clock is the
// test's: one second a move.
func consoleChild(path string) error {
	ctx := context.Background()
	fa := test.NewApp()
	setupApp(fa)
	db, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	core, err := match.New(ctx, db)
	if err != nil {
		return err
	}
	ft := &fakeTime{now: t0}
	c := newConsole(ctx, fa, core, config{path: path, role: match.RoleArbiter, now: ft.Now, after: ft.after})
	c.win.Resize(fyne.NewSize(1280, 800))
	c.movePresses = true
	spec := defaultSpec()
	spec.White = "Garry Kasparov"
	if _, err := core.Do(ctx, match.Cmd{At: ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
		return err
	}
	c.refresh()
	c.do(actStartGame)
	ft.advance(time.Second)
	c.do(actBroadcast)
	field, ok := c.win.Canvas().Focused().(interface {
		SetText(string)
		TypedKey(*fyne.KeyEvent)
	})
	if !ok {
		return fmt.Errorf("View → Broadcast… shows no address field")
	}
	field.SetText("127.0.0.1:0")
	field.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	broadcastMu.Lock()
	live := broadcasts[c]
	broadcastMu.Unlock()
	if live == nil {
		return fmt.Errorf("the broadcast did not start: %s", topDialogTexts(c))
	}
	fmt.Printf("broadcast %s\n", live.addr)
	for len(c.dialogs) > 0 { // closed, as the arbiter would: behind it the keys answer it
		c.dialogs[len(c.dialogs)-1].Hide()
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		ft.advance(time.Second)
		c.win.Canvas().Focus(c.moveEntry)
		test.Type(c.moveEntry, in.Text())
		c.moveEntry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		seq, _, err := core.DB().Head(ctx)
		if err != nil {
			return err
		}
		fmt.Printf("ok %d\n", seq)
	}
	return fmt.Errorf("standard input closed; the test kills this process")
}

// The console with the broadcast on keeps every event it acknowledged
// through kill -9, whatever outside reader (the sqlite3 shell, Python's
// sqlite3) read the record between its commands, while the broadcast serves
// the game. On the code before, starting the broadcast opened and closed
// the record a second time by other means than SQLite: the console lost its
// locks on the file, the first outside reader deleted the write-ahead log
// under it, and the kill lost every move after that read.
func TestAnOutsideReaderNeverCostsAnAcknowledgedEventWithTheBroadcastOn(t *testing.T) {
	readers := outside.ForTest(t)
	path := filepath.Join(t.TempDir(), "match.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), consoleChildEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	lines := bufio.NewScanner(stdout)
	next := func() string {
		if !lines.Scan() {
			cmd.Wait()
			t.Fatalf("the console stopped: %s", errb.String())
		}
		return lines.Text()
	}
	addr, ok := strings.CutPrefix(next(), "broadcast ")
	if !ok {
		t.Fatalf("the console did not start the broadcast: %s", errb.String())
	}
	var acked int64
	for _, san := range []string{"e4", "c5", "Nf3", "d6", "d4", "cxd4"} {
		fmt.Fprintln(stdin, san)
		var n int64
		if _, err := fmt.Sscanf(next(), "ok %d", &n); err != nil || n <= acked {
			t.Fatalf("after %s the console's record holds event %d (before: %d): %v", san, n, acked, err)
		}
		acked = n
		// the broadcast polls the record every 100 ms
		for deadline := time.Now().Add(10 * time.Second); ; {
			res, err := http.Get("http://" + addr + "/games.pgn")
			if err != nil {
				t.Fatal(err)
			}
			pgn, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if strings.Contains(string(pgn), " "+san) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the broadcast does not show %s:\n%s", san, pgn)
			}
			time.Sleep(50 * time.Millisecond) // the broadcast's poller, in the other process
		}
		for _, r := range readers {
			if got, err := r.Count(path); err != nil {
				t.Fatal(err)
			} else if got != n {
				t.Errorf("%s counted %d events after the console acknowledged event %d", r.Name, got, n)
			}
		}
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rep, err := db.Verify(context.Background(), "")
	if err != nil || !rep.OK {
		t.Fatalf("after kill -9 the record does not verify: %v %+v", err, rep)
	}
	if rep.Events != acked {
		t.Fatalf("after kill -9 the record holds %d events; the console acknowledged %d", rep.Events, acked)
	}
}
