package broadcast_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/scoresheet"
)

// comments matches a PGN comment.
var comments = regexp.MustCompile(`(?s)\{[^}]*\}`)

// pgnCheck runs tools/pgncheck (pgn-extract and chess.js must both accept
// every game and agree on its final position) on pgn. Without the tools
// it fails under ARBITER_REQUIRE_VALIDATORS=1 (make test) and skips
// saying why otherwise.
func pgnCheck(t *testing.T, pgn string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "feed.pgn")
	if err := os.WriteFile(path, []byte(pgn), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", "../tools/pgncheck/pgncheck.sh", path).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
		if os.Getenv("ARBITER_REQUIRE_VALIDATORS") == "1" {
			t.Fatalf("the PGN validators are not installed (ARBITER_REQUIRE_VALIDATORS=1): %s", out)
		}
		t.Skipf("the PGN validators are not installed: %s", out)
	}
	if err != nil {
		t.Fatalf("pgn-extract or chess.js refuses the feed: %v\n%s\n%s", err, out, pgn)
	}
}

// TestTheRelayFeedIsOneGameAcrossPolls polls /games.pgn after each event
// of a game with a pause, a rule 10 correction and a flag, as lichess's
// relay does, and checks what a relay relies on at every poll: the tags it
// matches games by never change, every move has its [%clk], the main line
// is the game as corrected (no variation), WhiteClock/BlackClock are the
// clocks as they stand at the last event, and pgn-extract and chess.js
// read it.
func TestTheRelayFeedIsOneGameAcrossPolls(t *testing.T) {
	const delay = time.Minute
	evs, srv, hs, setNow := delayedServer(t, delayedGame, delay)

	stable := []string{"Event", "Site", "Date", "Round", "White", "Black"}
	first := map[string]string{}
	var afterCorrection, last string
	for _, e := range evs {
		setNow(e.At.Add(delay))
		if err := srv.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		_, pgn := get(t, hs.URL+"/games.pgn")
		want := asItStood(t, evs, e.At)
		g := want.CurrentGame()
		if g == nil || g.Sheet == nil {
			continue
		}
		games, err := scoresheet.ReadPGN(strings.NewReader(pgn))
		if err != nil || len(games) != 1 {
			t.Fatalf("after event %d (%s) the feed does not read: %v\n%s", e.Seq, e.Kind, err, pgn)
		}
		rg := games[0]
		t.Run("after event "+e.Kind+" at "+e.At.Sub(t0).String(), func(t *testing.T) {
			for _, name := range stable {
				v, _ := rg.Tag(name)
				if f, ok := first[name]; ok && f != v {
					t.Errorf("the %s tag changed from %q to %q between polls", name, f, v)
				}
				if v == "" || v == "?" {
					t.Errorf("the %s tag is %q", name, v)
				}
				first[name] = v
			}
			if r, _ := rg.Tag("Round"); r != "1" {
				t.Errorf("Round is %q, not the game's number 1", r)
			}
			for i, c := range rg.Comments {
				if !strings.Contains(c, "[%clk ") {
					t.Errorf("move %d (%s) has no [%%clk]: %q", i+1, rg.Moves[i], c)
				}
			}
			if strings.Contains(comments.ReplaceAllString(pgn, ""), "(") {
				t.Errorf("the feed has a variation:\n%s", pgn)
			}
			for side, name := range map[clock.Side]string{clock.White: "WhiteClock", clock.Black: "BlackClock"} {
				d := g.Clock.Remaining(side, want.LastAt)
				s := int(d / time.Second)
				wantTag := time.Date(0, 1, 1, s/3600, s/60%60, s%60, 0, time.UTC).Format("15:04:05")
				if v, _ := rg.Tag(name); v != wantTag {
					t.Errorf("%s is %q; the clock stood at %s at the last event", name, v, wantTag)
				}
			}
		})
		if e.Kind == "correct" {
			afterCorrection = pgn
		}
		last = pgn
	}
	if afterCorrection == "" {
		t.Fatal("no poll followed the correction")
	}
	if !strings.Contains(last, "Nf6") || strings.Contains(comments.ReplaceAllString(last, ""), "a6") || !strings.Contains(last, `[Result "0-1"]`) {
		t.Errorf("the last poll is not the corrected, finished game:\n%s", last)
	}
	t.Run("pgn-extract and chess.js read the feed after the correction and at the end", func(t *testing.T) {
		pgnCheck(t, afterCorrection)
		pgnCheck(t, last)
	})
}
