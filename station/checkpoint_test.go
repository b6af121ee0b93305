package station

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/store"
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
	const laidOut = 450 * 4096 // laidOutPages (500) of 4 KiB, less a tenth
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

// A station checkpoints its record only once the record has not changed
// and no command has come to it for a whole quiet wait: a command under way
// (a request, a stream message, a command given here) or a change starts
// the wait again, and a wait it started over never checkpoints.
func TestAStationCheckpointsOnlyAfterAWholeQuietWaitWithoutCommandOrChange(t *testing.T) {
	s, waits, due, next := laptopDueForCheckpoint(t)
	change := func() {
		s.rep.mu.Lock()
		s.rep.broadcast()
		s.rep.mu.Unlock()
	}
	change()
	first := next("a change")
	s.working() // a command comes: the wait starts again
	second := next("a command came")
	first <- time.Time{} // the first wait's end, no longer watched
	change()             // the record changes: again
	third := next("another change")
	second <- time.Time{}
	select {
	case c := <-waits:
		t.Fatalf("a wait started after the end of one the loop no longer watched (%v)", c)
	default:
	}
	if !due() {
		t.Fatal("checkpointed at the end of a wait a command or a change had started over")
	}
	third <- time.Time{} // a whole quiet wait
	waitFor(t, 10*time.Second, "the checkpoint after a whole quiet wait", func() bool { return !due() })
}

// A station looks at its record's file as soon as it has checkpointed it,
// in the same quiet moment, not at its watch's next tick (every second),
// which may fall in a command: the checkpoint wrote the main file, which
// the watch cannot tell from another program's write, so that look checks
// the record whole, holding the record's connection while it reads
// (docs/performance.md, "The station figure's tail, second pass"). Here no
// tick runs at all: an old event edited in the main file before the
// checkpoint raises the alarm once the station has checkpointed.
func TestAStationChecksItsRecordWholeAsSoonAsItHasCheckpointedIt(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "r.db")
	newRecord(t, path) // closed: its events are in the main file
	db := openDB(t, path)
	if err := db.IdleCheckpoints(ctx, true); err != nil {
		t.Fatal(err)
	}
	s := newStation(Config{Name: "laptop", Role: "operator", DB: db})
	var err error
	if s.rep, err = NewReplica(ctx, db, nil); err != nil {
		t.Fatal(err)
	}
	if s.app, err = match.New(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := s.app.Watch(ctx); err != nil || s.app.Why() != nil {
		t.Fatal(err, s.app.Why()) // the station's first look
	}
	at := time.Now().UTC()
	do := func(role match.Role, c match.Command) {
		t.Helper()
		if _, err := s.app.Do(ctx, match.Cmd{At: at, Actor: match.Actor{Role: role}}, c); err != nil {
			t.Fatal(err)
		}
	}
	do(match.RoleArbiter, match.GameStart{Game: 1})
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	i := 0
	untilDue := func() {
		t.Helper()
		for n := 0; n < 500; i++ {
			if i > 20000 {
				t.Fatalf("%d commands wrote %d pages into the log", i, n)
			}
			do([]match.Role{match.RoleWhite, match.RoleBlack}[i%2], match.Move{Input: moves[i%4]})
			if n, err = db.LogPagesWritten(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	untilDue()
	if done, err := db.CheckpointIfDue(ctx); err != nil || !done {
		t.Fatal("not checkpointed", err) // the match's first events are in the main file and stay there
	}
	untilDue()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	title := bytes.Index(b, []byte("ACM Chess Challenge"))
	if title < 0 {
		t.Fatal("the match's title is not in the main file")
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("ACN"), int64(title)); err != nil { // a hex editor's edit of event 1
		t.Fatal(err)
	}
	f.Close()
	quiet := make(chan time.Time)
	s.quietTimer = func() (<-chan time.Time, func()) { return quiet, func() {} }
	s.wg.Add(1)
	go s.checkpointLoop(s.rep.changes())
	defer func() { s.cancel(); s.wg.Wait() }()
	s.rep.mu.Lock()
	s.rep.broadcast() // the record changed
	s.rep.mu.Unlock()
	close(quiet) // and stood still
	waitFor(t, 10*time.Second, "the alarm for the edited event once the station checkpointed its record", func() bool {
		return s.rep.Alarm() != nil
	})
	if n, err := db.LogPagesWritten(ctx); err != nil || n >= 500 {
		t.Errorf("the log holds %d pages after the alarm (%v): want it checkpointed first", n, err)
	}
	var a *AlarmError
	if !errors.As(s.rep.Alarm(), &a) || !a.File || !strings.Contains(a.Reason, "event 1 ") {
		t.Errorf("alarm %v; want the file alarm naming event 1", s.rep.Alarm())
	}
}

// A station takes no pause for idle while a command given at it, or run by
// it, is under way: a command whose publish is acknowledged later than the
// quiet wait (a slow disk) had the station checkpoint while it waited, and
// its record's apply of that command wait for the checkpoint. The wait that
// ends meanwhile starts again, and the command's end starts it over.
func TestAStationDoesNotCheckpointWhileACommandIsUnderWay(t *testing.T) {
	s, _, due, next := laptopDueForCheckpoint(t)
	s.rep.mu.Lock()
	s.rep.broadcast() // the record changed
	s.rep.mu.Unlock()
	first := next("a change")
	done := s.underWay() // a command given here: the wait starts again
	second := next("a command came")
	first <- time.Time{}  // no longer watched
	second <- time.Time{} // the whole wait passes with the command under way
	third := next("a wait that ended with a command under way")
	if !due() {
		t.Fatal("checkpointed while a command was under way")
	}
	done() // its end starts the wait over
	fourth := next("the command's end")
	third <- time.Time{}
	fourth <- time.Time{} // a whole quiet wait after it
	waitFor(t, 10*time.Second, "the checkpoint after a whole quiet wait once the command ended", func() bool { return !due() })
}

// laptopDueForCheckpoint is a laptop station over a record whose log holds
// the 500 pages that make a checkpoint due, its checkpoint loop running on
// quiet waits the test ends: due says whether the checkpoint is still due,
// next the wait the loop started next (the test fails when none starts
// within 10 s, saying after what it was awaited); waits gives every wait
// the loop starts, for a test to see that none started.
func laptopDueForCheckpoint(t *testing.T) (s *Station, waits chan chan time.Time, due func() bool, next func(why string) chan time.Time) {
	t.Helper()
	ctx := t.Context()
	db := openDB(t, filepath.Join(t.TempDir(), "r.db"))
	if err := db.IdleCheckpoints(ctx, true); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(1996, 2, 10, 15, 0, 0, 0, time.UTC)
	for i := 0; ; i++ {
		if n, err := db.LogPagesWritten(ctx); err != nil || n >= 500 {
			break
		}
		if _, err := db.Update(ctx, func(tx *store.Tx) error {
			_, err := tx.Append(store.Event{Match: 1, Game: 1, At: t0.Add(time.Duration(i) * time.Second), Role: "arbiter",
				Actor: "Mike Valvo", Kind: "note", Payload: []byte(fmt.Sprintf(`{"n":%d}`, i))})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	s = newStation(Config{Name: "laptop", Role: "operator", DB: db})
	var err error
	if s.rep, err = NewReplica(ctx, db, nil); err != nil {
		t.Fatal(err)
	}
	waits = make(chan chan time.Time, 8) // every wait the loop starts, for the test to end it
	s.quietTimer = func() (<-chan time.Time, func()) {
		c := make(chan time.Time, 1)
		waits <- c
		return c, func() {}
	}
	s.wg.Add(1)
	go s.checkpointLoop(s.rep.changes())
	t.Cleanup(func() { s.cancel(); s.wg.Wait() })
	due = func() bool {
		n, err := db.LogPagesWritten(ctx)
		return err == nil && n >= 500
	}
	next = func(why string) chan time.Time {
		t.Helper()
		select {
		case c := <-waits:
			return c
		case <-time.After(10 * time.Second):
			t.Fatalf("no quiet wait started after %s", why)
			return nil
		}
	}
	return s, waits, due, next
}
