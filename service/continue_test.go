package service

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/store"
)

// continueStart is the instant the test match begins at.
var continueStart = time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)

// newContinueMatch creates a match with a started game and a few moves in a
// real SQLite file and returns the open App and the file's path.
func newContinueMatch(t *testing.T) (*match.App, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.arbiter")
	app, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.DB().Close() })
	at := func(d time.Duration) match.Cmd {
		return match.Cmd{At: continueStart.Add(d), Actor: match.Actor{Role: match.RoleArbiter}}
	}
	spec := match.MatchNew{Title: "ACM Chess Challenge", Players: [2]string{"Garry Kasparov", "Deep Blue"}, Computer: "Deep Blue",
		Operators: []string{"Feng-hsiung Hsu"}, White: "Deep Blue"}
	if _, err := app.Do(ctx, at(0), spec); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Do(ctx, at(time.Second), match.GameStart{}); err != nil {
		t.Fatal(err)
	}
	for i, mv := range []string{"e4", "c5", "c3"} {
		if _, err := app.Do(ctx, at(time.Duration(i+2)*time.Minute), match.Move{Input: mv}); err != nil {
			t.Fatalf("move %s: %v", mv, err)
		}
	}
	return app, path
}

func TestContinueInCopiesTheMatchAndPlayGoesOnInTheNewFile(t *testing.T) {
	ctx := context.Background()
	app, oldPath := newContinueMatch(t)
	before, err := os.ReadFile(oldPath)
	if err != nil {
		t.Fatal(err)
	}
	newPath := filepath.Join(t.TempDir(), "new.arbiter")
	if err := CopyMatch(ctx, oldPath, newPath); err != nil {
		t.Fatalf("CopyMatch: %v", err)
	}
	t.Run("the old file is only read", func(t *testing.T) {
		after, err := os.ReadFile(oldPath)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Error("CopyMatch changed the old file")
		}
	})
	db, err := store.Open(ctx, newPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	moved, err := match.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the new file rebuilds the same state and head", func(t *testing.T) {
		old, cur := app.State(), moved.State()
		if cur.Seq != old.Seq || cur.Head != old.Head {
			t.Errorf("new file: seq %d head %s; old: seq %d head %s", cur.Seq, cur.Head, old.Seq, old.Head)
		}
		if g := cur.CurrentGame(); g == nil || g.Sheet.Ply() != 3 {
			t.Errorf("the current game was not carried over: %+v", g)
		}
	})
	t.Run("the match goes on in the new file", func(t *testing.T) {
		c := match.Cmd{At: continueStart.Add(10 * time.Minute), Actor: match.Actor{Role: match.RoleArbiter}}
		if _, err := moved.Do(ctx, c, match.Move{Input: "Nf6"}); err != nil {
			t.Fatalf("move in the new file: %v", err)
		}
		rep, err := db.Verify(ctx, app.State().Head)
		if err != nil || !rep.OK || rep.HeadSeq != app.State().Seq {
			t.Errorf("the new chain does not continue the old one: %+v, %v", rep, err)
		}
	})
}

func TestContinueInRefusesAndLeavesNothingBehind(t *testing.T) {
	ctx := context.Background()
	_, oldPath := newContinueMatch(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "taken.arbiter")
	if err := os.WriteFile(existing, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.txt")
	if err := os.WriteFile(foreign, []byte("not a database at all, just some text that is long enough"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		old, new string
		wantErr  error
		mustLack string // a file that must not exist afterwards
	}{
		{"an existing destination is never overwritten", oldPath, existing, store.ErrExists, ""},
		{"a missing folder for the copy leaves no file", oldPath, filepath.Join(dir, "no", "such", "x.arbiter"), nil, filepath.Join(dir, "no", "such", "x.arbiter")},
		{"a foreign old file is refused", foreign, filepath.Join(dir, "f.arbiter"), store.ErrForeign, filepath.Join(dir, "f.arbiter")},
		{"a missing old file is refused", filepath.Join(dir, "gone.arbiter"), filepath.Join(dir, "g.arbiter"), nil, filepath.Join(dir, "g.arbiter")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CopyMatch(ctx, tt.old, tt.new)
			if err == nil {
				t.Fatal("CopyMatch succeeded")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v does not wrap %v", err, tt.wantErr)
			}
			if tt.mustLack != "" {
				if _, err := os.Stat(tt.mustLack); err == nil {
					t.Errorf("%s was left behind", tt.mustLack)
				}
			}
		})
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("the existing destination was changed: %q", b)
	}
}
