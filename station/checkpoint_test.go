package station

import (
	"os"
	"testing"
	"time"

	"arbiter/match"
)

// A station's record has its log laid out as the station starts, not inside
// a command, and is checkpointed once it has stood still between commands
// (store.IdleCheckpoints): commands given back to back until the log is due
// for a checkpoint leave it due (none ran inside their commits, and SQLite's
// own would have), and the station copies it once they stop.
func TestAStationsRecordIsLaidOutAtStartAndCheckpointedBetweenCommands(t *testing.T) {
	s, db := startFirst(t, t.TempDir())
	ctx := t.Context()
	wal, err := os.Stat(db.Path() + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	const laidOut = 450 * 4096 // growLogPages (500) of 4 KiB, less a tenth
	if wal.Size() < laidOut {
		t.Errorf("the log is %d bytes once the station started; want it laid out (at least %d)", wal.Size(), laidOut)
	}
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	size := func() int64 {
		st, err := os.Stat(db.Path())
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	before := size()
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	for i := 0; ; i++ {
		n, err := db.LogPagesWritten(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n >= 500 || size() != before {
			break // due, or checkpointed in a pause between two commands
		}
		if i > 2000 {
			t.Fatalf("%d commands wrote %d pages into the log; want about one each", i, n)
		}
		role := "white"
		if i%2 == 1 {
			role = "black"
		}
		submit(t, s, req(role, match.Move{Input: moves[i%4]}))
	}
	waitFor(t, 10*time.Second, "the station to checkpoint its record once the commands stopped", func() bool {
		n, err := db.LogPagesWritten(ctx)
		return err == nil && n < 500 && size() > before
	})
}
