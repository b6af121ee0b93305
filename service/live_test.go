package service

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"arbiter/match"
)

func TestLiveTellsItsSubscribersOnlyCommittedChangesOfTheLiveMatch(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	first, err := Open(ctx, filepath.Join(dir, "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	l := NewLive(first)
	var told []int64 // the record's length each subscriber call saw
	l.OnChange(func() { told = append(told, l.App().State().Seq) })
	at := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	arbiter := match.Cmd{At: at, Actor: match.Actor{Role: match.RoleArbiter}}
	spec := match.MatchNew{Title: "ACM Chess Challenge", Players: [2]string{"Garry Kasparov", "Deep Blue"}, Computer: "Deep Blue",
		Operators: []string{"Feng-hsiung Hsu"}, White: "Deep Blue"}

	t.Run("a committed command is told once, after its events are in the record", func(t *testing.T) {
		if _, err := first.Do(ctx, arbiter, spec); err != nil {
			t.Fatal(err)
		}
		if len(told) != 1 || told[0] == 0 {
			t.Fatalf("told %v after one command, want once with its events", told)
		}
		evs, err := first.DB().EventsAfter(ctx, 0)
		if err != nil || int64(len(evs)) != told[0] {
			t.Errorf("the subscriber saw %d events, the record holds %d (%v)", told[0], len(evs), err)
		}
	})
	t.Run("a refused command is not told", func(t *testing.T) {
		told = nil
		if _, err := first.Do(ctx, arbiter, spec); err == nil {
			t.Fatal("a second match was created")
		}
		if len(told) != 0 {
			t.Errorf("a refusal was told %d times", len(told))
		}
	})
	t.Run("after continuing in a new file only the new match is heard and the old record is closed", func(t *testing.T) {
		next, err := l.ContinueIn(ctx, filepath.Join(dir, "next.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer next.DB().Close()
		if l.App() != next {
			t.Fatal("the live match is not the copy")
		}
		if _, err := first.DB().EventsAfter(ctx, 0); err == nil {
			t.Error("the old record is still open")
		}
		told = nil
		later := arbiter
		later.At = at.Add(time.Minute)
		if _, err := next.Do(ctx, later, match.GameSchedule{Game: 1, Start: at.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if len(told) != 1 {
			t.Errorf("a command on the new file was told %d times, want 1", len(told))
		}
	})
}
