package broadcast_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arbiter/broadcast"
	"arbiter/match"
)

// TestTheFeedChangesOnlyWithWhatItShows: an event that changes nothing a
// spectator sees — the engine bridge's start and stop, the move the engine
// chose before the operator makes it on the board, a credential handed out,
// a wrong one tried — changes no header (ETag, Last-Modified), no byte of
// the PGN routes (WhiteClock/BlackClock included) and publishes nothing to
// the page's stream; the operator's move does. Before, the engine's choice
// changed the ETag and the clock tags the moment it was recorded.
func TestTheFeedChangesOnlyWithWhatItShows(t *testing.T) {
	const pin = "arbiter passphrase"
	ctx := context.Background()
	path, app := openApp(t)
	now := t0
	cmd := func(role match.Role, d time.Duration) match.Cmd {
		now = now.Add(d)
		return match.Cmd{At: now, Actor: match.Actor{Role: role, PIN: pin}}
	}
	do := func(c match.Cmd, command match.Command) {
		t.Helper()
		if _, err := app.Do(ctx, c, command); err != nil {
			t.Fatal(err)
		}
	}
	do(cmd(match.RoleArbiter, 0), match.MatchNew{Title: "T", Players: [2]string{"Garry Kasparov", "Deep Blue"},
		Computer: "Deep Blue", Operators: []string{"Op"}, White: "Garry Kasparov", PIN: pin})
	do(cmd(match.RoleArbiter, time.Second), match.GameStart{})
	do(cmd(match.RoleArbiter, 70*time.Second), match.Move{Input: "e4"}) // Kasparov's; Deep Blue is to move
	srv, hs := serveAt(t, path, broadcast.Options{Now: func() time.Time { return now }})
	updated := srv.Updated()
	type feed struct{ etag, modified, all, game1 string }
	read := func() feed {
		r, all := get(t, hs.URL+"/games.pgn")
		_, game1 := get(t, hs.URL+"/game/1.pgn")
		return feed{r.Header.Get("ETag"), r.Header.Get("Last-Modified"), all, game1}
	}
	stateSeq := func() int64 {
		_, body := get(t, hs.URL+"/state.json")
		var v broadcast.View
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		return v.Seq
	}
	const bridge = "0123456789ab"
	for _, step := range []struct {
		rule    string
		give    func()
		changes bool
		shows   string // a text the PGN then holds
	}{
		{"the engine bridge's start changes nothing the feed serves", func() {
			do(cmd(match.RoleOperator, 5*time.Second), match.EngineStart{Bridge: bridge, Cmd: "stockfish"})
		}, false, ""},
		{"the move the engine chose, not yet made on the board, changes nothing the feed serves", func() {
			g := app.State().CurrentGame()
			do(cmd(match.RoleOperator, 40*time.Second), match.EngineMove{Game: 1, Ply: 2, FEN: g.Sheet.FEN(), UCI: "c7c5", Received: now, Eval: "cp 20", Depth: 12,
				EngineTranscript: match.EngineTranscript{File: "game-1.log", Lines: 20, Bytes: 900, SHA256: strings.Repeat("0f", 32)}, Bridge: bridge})
		}, false, ""},
		{"a credential handed out changes nothing the feed serves", func() {
			do(cmd(match.RoleArbiter, 3*time.Second), match.CredentialAdd{Role: match.RoleOperator, Secret: "the operator's passphrase"})
		}, false, ""},
		{"a wrong credential tried changes nothing the feed serves", func() {
			c := cmd(match.RoleArbiter, 2*time.Second)
			c.PIN = "not the passphrase"
			if _, err := app.Do(ctx, c, match.Pause{Reason: "noise"}); match.ErrorCode(err) != match.CodeWrongCredential {
				t.Fatalf("a wrong credential: %v", err)
			}
		}, false, ""},
		{"the operator's move changes the feed, its clock tags read at the move", func() {
			do(cmd(match.RoleOperator, 4*time.Second), match.Move{Input: "c5"})
		}, true, `[BlackClock "01:59:02"]`},
		{"the engine bridge's stop changes nothing the feed serves", func() {
			do(cmd(match.RoleOperator, 9*time.Second), match.EngineStop{Bridge: bridge})
		}, false, ""},
	} {
		t.Run(step.rule, func(t *testing.T) {
			before, seq := read(), stateSeq()
			step.give()
			now = now.Add(time.Second) // the feed is read a moment later
			if err := srv.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			if srv.Seq() != app.State().Seq {
				t.Fatalf("the server holds event %d, the record %d", srv.Seq(), app.State().Seq)
			}
			after := read()
			published := false
			select {
			case <-updated:
				published = true
			default:
			}
			if step.changes {
				if after.etag == before.etag || after.all == before.all || !published || stateSeq() == seq || !strings.Contains(after.all, step.shows) {
					t.Errorf("the feed did not change with the move (ETag %s → %s, published %v):\n%s", before.etag, after.etag, published, after.all)
				}
				return
			}
			if after != before {
				t.Errorf("the feed changed:\nbefore %+v\nafter  %+v", before, after)
			}
			if published || stateSeq() != seq {
				t.Errorf("the page's stream was sent a new state (published %v, seq %d → %d)", published, seq, stateSeq())
			}
		})
	}
}
