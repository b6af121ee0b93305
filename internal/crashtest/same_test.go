package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/cli"
	"arbiter/store"
)

// playTwice plays the first lines of the crash test's script into two
// new records, as the reference run and a killed run do, and returns
// both records' events.
func playTwice(t *testing.T) (ref, again []store.Event) {
	t.Helper()
	sc, err := newScript()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "match.txt")
	if err := os.WriteFile(script, []byte(strings.Join(sc.lines[:min(len(sc.lines), 30)], "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var played [2][]store.Event
	for i := range played {
		db := filepath.Join(dir, []string{"reference.arbiter", "again.arbiter"}[i])
		var stdout, stderr bytes.Buffer
		env := cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now}
		if code := cli.Run(context.Background(), []string{"--db", db, "--at", start.Format(time.RFC3339), "play", script}, env); code != 0 {
			t.Fatalf("play %s: exit %d: %s", db, code, stderr.String())
		}
		if played[i], err = readEvents(db); err != nil {
			t.Fatal(err)
		}
	}
	if len(played[0]) < 3 || len(played[0]) != len(played[1]) {
		t.Fatalf("the two plays wrote %d and %d events", len(played[0]), len(played[1]))
	}
	return played[0], played[1]
}

func TestTheCrashTestTakesAnotherPlayOfTheScriptForTheReferencesEvents(t *testing.T) {
	ref, again := playTwice(t)
	if ref[0].Hash == again[0].Hash {
		t.Logf("the two plays' first events hash alike (%s): each record was to draw its own match id", ref[0].Hash)
	}
	edit := func(evs []store.Event, i int, change func(*store.Event)) []store.Event {
		out := append([]store.Event(nil), evs...)
		change(&out[i])
		return out
	}
	last := len(again) - 1
	for _, c := range []struct {
		name string
		evs  []store.Event
		same bool
	}{
		{"another play of the script is the same events though its match id, receipts and hashes are its own", again, true},
		{"a prefix of another play is the same events", again[:2], true},
		{"an event with another payload differs", edit(again, last, func(e *store.Event) { e.Payload = []byte(`{"san":"e4"}`) }), false},
		{"an event at another instant differs", edit(again, last, func(e *store.Event) { e.At = e.At.Add(time.Millisecond) }), false},
		{"an event of another kind differs", edit(again, last, func(e *store.Event) { e.Kind = "incident.note" }), false},
		{"an event given by another actor differs", edit(again, last, func(e *store.Event) { e.Actor = "Someone Else" }), false},
		{"an event that records no instant of receipt differs", edit(again, last, func(e *store.Event) { e.Received = time.Time{} }), false},
		{"a match.new with another title differs", edit(again, 0, func(e *store.Event) {
			e.Payload = bytes.Replace(e.Payload, []byte(`"title":"`), []byte(`"title":"Not `), 1)
		}), false},
		{"a match.new without a match id differs", edit(again, 0, func(e *store.Event) {
			e.Payload = bytes.Replace(e.Payload, []byte(`"match_id":"`), []byte(`"match_idx":"`), 1)
		}), false},
		{"more events than the reference differ", append(append([]store.Event(nil), again...), again[last]), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := sameEvents(c.evs, ref)
			if c.same && err != nil {
				t.Fatalf("said to differ: %v", err)
			}
			if !c.same && err == nil {
				t.Fatal("said to be the reference's events")
			}
		})
	}
}
