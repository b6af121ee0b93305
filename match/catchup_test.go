package match

import (
	"testing"
	"time"

	"arbiter/store"
)

// A command reads nothing before its transaction: what other processes
// appended since the App last read is read, checked and caught up with
// inside it (docs/performance.md). These rules say that nothing a reader
// of the App relied on from the read before it was lost.
func TestACommandCatchesUpWithOtherProcessesInsideItsTransaction(t *testing.T) {
	// second opens another handle and App on the fixture's file, as another
	// process would.
	second := func(f *fixture) *App {
		t.Helper()
		other, err := store.Open(f.ctx, f.db.Path())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.Close() })
		app, err := New(f.ctx, other)
		if err != nil {
			t.Fatal(err)
		}
		return app
	}
	t.Run("a refused command still shows what another process appended", func(t *testing.T) {
		f := newFixture(t)
		f.newMatch(MatchNew{})
		app2 := second(f)
		f.ok(app2.StartGame(f.ctx, f.at(time.Second), 0))
		if _, err := f.app.Move(f.ctx, f.at(time.Second), "Ke2", false); err == nil {
			t.Fatal("an illegal move was recorded")
		}
		if g := f.app.State().CurrentGame(); g == nil {
			t.Error("the game another process started is not in the state after a refused command")
		}
	})
	t.Run("a credential another process added is honoured at the next command", func(t *testing.T) {
		f := newFixture(t)
		f.newMatch(MatchNew{PIN: arbiterPass})
		pin := func(c Cmd) Cmd { c.PIN = arbiterPass; return c }
		f.ok(f.app.StartGame(f.ctx, pin(f.at(time.Second)), 0))
		f.moves0(pin, "e4")
		app2 := second(f)
		f.ok(app2.AddCredential(f.ctx, pin(f.at(time.Second)), CredentialAdd{Role: "player", Player: "Garry Kasparov", Secret: "Kasparov's passphrase"}))
		c := f.as(RoleBlack, time.Second)
		c.Secret = "Kasparov's passphrase"
		if _, err := f.app.Move(f.ctx, c, "c5", false); err != nil {
			t.Errorf("Kasparov's credential, added by another process, does not let him move: %v", err)
		}
		if r := verifyFile(t, f.db.Path(), "", ""); !r.OK {
			t.Errorf("verify: %s", r.Problem)
		}
	})
	t.Run("a command after another process's events continues them", func(t *testing.T) {
		f := newFixture(t)
		f.newMatch(MatchNew{})
		app2 := second(f)
		f.ok(app2.StartGame(f.ctx, f.at(time.Second), 0))
		if _, err := app2.Move(f.ctx, f.at(time.Second), "e4", false); err != nil {
			t.Fatal(err)
		}
		f.moves(time.Second, "c5")
		st := f.app.State()
		if ply := st.CurrentGame().Sheet.Ply(); ply != 2 {
			t.Errorf("ply %d after the other process's e4 and this one's c5, want 2", ply)
		}
		seq, head, err := f.db.Head(f.ctx)
		f.ok(err)
		if st.Seq != seq || st.Head != head {
			t.Errorf("the state is at event %d %s, the record at %d %s", st.Seq, st.Head, seq, head)
		}
	})
}

// moves0 enters moves as the operator with a credential (cred).
func (f *fixture) moves0(cred func(Cmd) Cmd, ms ...string) {
	f.t.Helper()
	for _, m := range ms {
		if _, err := f.app.Move(f.ctx, cred(f.as(RoleOperator, time.Second)), m, false); err != nil {
			f.t.Fatalf("move %s: %v", m, err)
		}
	}
}
