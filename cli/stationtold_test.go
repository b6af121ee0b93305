//go:build !nostation

package cli

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A command given at a station's record says what it recorded as on one
// machine, read from the station's record once it holds the command (before,
// a station printed nothing but a setup card), and the warning of an
// unprotected match goes to standard error, not into that output.
func TestACommandGivenAtAStationSaysWhatItRecorded(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "arbiter.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch))
	serveInBackground(t, db, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	for _, c := range []struct {
		rule string
		args []string
		want string // a pattern of standard output's one line
	}{
		{"game start at a station says the game started", []string{"game", "start"}, `^game 1 started as event \d+: Deep Blue \(White\) vs Garry Kasparov \(Black\); White's clock runs \(White 2:00:00, Black 2:00:00\)\n$`},
		{"a move at a station says the move and its event", []string{"--as", "operator", "move", "e4"}, `^1\.e4 recorded as event \d+ \(game 1, ply 1\); Black's clock runs \(White 1:59:\d\d, Black 2:00:00\)\n$`},
		{"an incident at a station says its kind and its event", []string{"incident", "note", "--text", "the hall is quiet"}, `^incident note recorded as event \d+ \(game 1\); Black's clock runs \(White 1:59:\d\d, Black \d:\d\d:\d\d\)\n$`},
	} {
		t.Run(c.rule, func(t *testing.T) {
			out, errs, code := arb(t, db, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !regexp.MustCompile(c.want).MatchString(out) {
				t.Errorf("stdout %q, want one line matching %s", out, c.want)
			}
			if strings.Contains(out, "warning") {
				t.Errorf("a warning on standard output: %q", out)
			}
		})
	}
	t.Run("an invitation says where it was written and how it is used, as information", func(t *testing.T) {
		inv := filepath.Join(dir, "display.invite")
		out, errs, code := arb(t, db, "station", "invite", "--role", "display", "--name", "hall", "-o", inv)
		want := "invitation of the display station hall written to " + inv + ": on that machine give 'arbiter --db NEWFILE station join display.invite'\n"
		if code != 0 || out != "" || errs != want {
			t.Errorf("exit %d, stdout %q, stderr %q; want stderr %q", code, out, errs, want)
		}
	})
}
