package station

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"arbiter/internal/outside"
	"arbiter/match"
	"arbiter/store"
)

// syncLevels collects the synchronous level of every write on each
// record (store.CommitSyncHook) while on.
type syncLevels struct {
	mu     sync.Mutex
	on     bool
	levels map[string][]int // path -> levels, in order
}

func watchSyncLevels(t *testing.T) *syncLevels {
	l := &syncLevels{levels: map[string][]int{}}
	t.Cleanup(func() { store.CommitSyncHook = nil })
	store.CommitSyncHook = func(path string, level int) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.on {
			l.levels[path] = append(l.levels[path], level)
		}
	}
	return l
}

func (l *syncLevels) start() {
	l.mu.Lock()
	l.on, l.levels = true, map[string][]int{}
	l.mu.Unlock()
}

func (l *syncLevels) of(path string) []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.levels[path]...)
}

// TestARecordHolderCommitsTheStreamsEventsWithoutFsyncAndTheLaptopWithIt
// (issue 29; docs/stations.md, "The record holders' commits without a
// second fsync"): a record holder's engine stores the stream with sync
// always, and the record commits an event only once the stream holds it,
// so the holder's record commits the stream's events with
// synchronous=NORMAL (no fsync), as read on its connection inside each
// transaction; the laptop, a client with no store of its own, commits
// each with its fsync (FULL); a write on the holder that is not the
// stream's (a meta row, the heartbeat) stays FULL. Without the change
// every commit is FULL and the first rule fails.
func TestARecordHolderCommitsTheStreamsEventsWithoutFsyncAndTheLaptopWithIt(t *testing.T) {
	const normal, full = 1, 2
	levels := watchSyncLevels(t) // its cleanup runs after the stations' stops
	dir := t.TempDir()
	holder, hdb := startFirst(t, dir)
	lpath := filepath.Join(dir, "laptop.db")
	laptop, err := Start(context.Background(), Config{Name: "laptop", Role: "operator", DB: openDB(t, lpath), Dial: []string{holder.Engine().ClientURL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer laptop.Stop()
	levels.start()
	submit(t, laptop, req("arbiter", match.GameStart{Game: 1}))
	submit(t, laptop, req("white", match.Move{Input: "e4"}))
	r := submit(t, holder, req("black", match.Move{Input: "c5"}))
	for _, s := range []*Station{holder, laptop} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := s.Replica().WaitSeq(ctx, r.Seq); err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		cancel()
	}
	// the holder's commit of its last command may follow its answer
	waitFor(t, 10*time.Second, "the holder's record does not hold the last command", func() bool {
		seq, _, err := hdb.Head(context.Background())
		return err == nil && uint64(seq) >= r.Seq
	})
	// every commit of the record at path was at level want, one a command at least
	allAt := func(t *testing.T, path, whose string, want int) {
		t.Helper()
		got := levels.of(path)
		if len(got) < 3 {
			t.Fatalf("%s record committed %d times (%v), want a commit a command", whose, len(got), got)
		}
		for i, l := range got {
			if l != want {
				t.Errorf("%s commit %d at synchronous %d, want %d; all: %v", whose, i+1, l, want, got)
			}
		}
	}
	t.Run("the holder's record commits the stream's events without fsync", func(t *testing.T) {
		allAt(t, hdb.Path(), "the holder's", normal)
	})
	t.Run("the laptop's record commits each with its fsync", func(t *testing.T) {
		allAt(t, lpath, "the laptop's", full)
	})
	t.Run("a write on the holder that is not the stream's stays FULL", func(t *testing.T) {
		levels.start()
		if err := hdb.SetMeta(context.Background(), "test.local", "x"); err != nil {
			t.Fatal(err)
		}
		if err := hdb.WriteHeartbeat(context.Background(), store.Heartbeat{Wall: time.Now(), PID: os.Getpid(), Host: "test"}); err != nil {
			t.Fatal(err)
		}
		if got := levels.of(hdb.Path()); len(got) != 2 || got[0] != full || got[1] != full {
			t.Errorf("the holder's meta row and heartbeat at synchronous %v, want [2 2] (FULL)", got)
		}
	})
}

// TestAHolderRestartedOnAnOlderCopyOfItsRecordCatchesUpFromTheStream
// (principle 1; docs/stations.md, "The record holders' commits without a
// second fsync"): a power cut may take the last commits of a record
// holder's record (committed without fsync) while the stream, synced,
// holds them. The holder restarted on its record as a copy taken earlier
// left it — the main file and its -wal copied while the station ran,
// put back after more commands — finds its record behind the stream and
// applies what it lacks from it: the same events, no alarm, as a station
// that was off. A copy edited behind it (an event forged after its end,
// one removed in the middle, one's bytes changed) still raises the alarm
// (or is refused at the start), as before. This is today's behaviour, which
// the commits without fsync rely on: the test passes without the change
// too (checked), and fails if a record behind the stream is ever taken
// for an edited one.
func TestAHolderRestartedOnAnOlderCopyOfItsRecordCatchesUpFromTheStream(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, path string) // on the copy put back, closed
		ok   bool                            // caught up; otherwise refused or the alarm
	}{
		{"the copy as it was: caught up from the stream with the same events, no alarm", nil, true},
		{"an event forged after the copy's end: the alarm", func(t *testing.T, path string) {
			db, err := store.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Update(context.Background(), func(tx *store.Tx) error {
				_, err := tx.Append(store.Event{Match: 1, Game: 1, At: time.Now(), Role: "white", Actor: "Garry Kasparov", Kind: "move", Payload: []byte(`{"san":"d4"}`)})
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"an event removed in the middle: the alarm", func(t *testing.T, path string) {
			outside.SQL(t, path, "DROP TRIGGER IF EXISTS events_no_delete", "DELETE FROM events WHERE seq = 2")
		}, false},
		{"an event's bytes changed: the alarm", func(t *testing.T, path string) {
			outside.SQL(t, path, "DROP TRIGGER IF EXISTS events_no_update", "UPDATE events SET actor = 'someone else' WHERE seq = 2")
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.db")
			newProtectedRecord(t, path)
			start := func() (*Station, *store.DB, error) {
				t.Helper()
				db, err := store.Open(context.Background(), path)
				if err != nil {
					return nil, nil, err
				}
				s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true, Logf: t.Logf,
					Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js")}})
				if err != nil {
					db.Close()
					return nil, nil, err
				}
				return s, db, nil
			}
			s, db, err := start()
			if err != nil {
				t.Fatal(err)
			}
			submit(t, s, pinReqOn(s, "arbiter", match.GameStart{Game: 1}))
			r := submit(t, s, pinReqOn(s, "white", match.Move{Input: "e4"}))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := s.Replica().WaitSeq(ctx, r.Seq); err != nil {
				t.Fatal(err)
			}
			// the record as the disk holds it after a power cut: its
			// main file and -wal as they were then (cp, another process:
			// no descriptor of this one's on the record)
			for _, side := range []string{"", "-wal"} {
				if out, err := exec.Command("cp", path+side, path+".old"+side).CombinedOutput(); err != nil {
					t.Fatalf("cp %s: %v %s", side, err, out)
				}
			}
			copied, _ := s.Replica().Head()
			submit(t, s, pinReqOn(s, "black", match.Move{Input: "c5"}))
			r = submit(t, s, pinReqOn(s, "white", match.Move{Input: "Nf3"}))
			if err := s.Replica().WaitSeq(ctx, r.Seq); err != nil {
				t.Fatal(err)
			}
			want, _ := s.Replica().Applied()
			s.Stop()
			db.Close()
			for _, side := range []string{"", "-wal"} {
				if err := os.Rename(path+".old"+side, path+side); err != nil {
					t.Fatal(err)
				}
			}
			os.Remove(path + "-shm")
			if tc.edit != nil {
				tc.edit(t, path)
			} else if old, err := store.OpenReadOnly(context.Background(), path); err != nil {
				t.Fatal(err)
			} else {
				seq, _, err := old.Head(context.Background())
				old.Close()
				if err != nil || uint64(seq) != copied || seq >= int64(len(want)) {
					t.Fatalf("the copy put back ends at event %d (%v), want %d, before the stream's %d", seq, err, copied, len(want))
				}
			}

			s, db, err = start()
			if !tc.ok {
				if err == nil {
					defer db.Close()
					defer s.Stop()
					werr := s.Replica().WaitFor(ctx, func(r *Replica) bool { return r.alarm != nil })
					if werr != nil {
						seq, _ := s.Replica().Head()
						t.Fatalf("the edited copy raised no alarm (the station at event %d of %d)", seq, len(want))
					}
					t.Logf("the alarm: %v", s.Replica().Alarm())
				} else {
					t.Logf("refused at the start: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("the holder on its older copy did not start: %v", err)
			}
			defer db.Close()
			defer s.Stop()
			if err := s.Replica().WaitSeq(ctx, uint64(len(want))); err != nil {
				t.Fatalf("the holder on its older copy did not catch up to event %d: %v (alarm %v)", len(want), err, s.Replica().Alarm())
			}
			if a := s.Replica().Alarm(); a != nil {
				t.Fatalf("the alarm raised on a record behind the stream: %v", a)
			}
			got, _, err := db.Record(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(got) < len(want) {
				t.Fatalf("the record holds %d events, want %d", len(got), len(want))
			}
			for i, w := range want {
				if got[i].Hash != w.Hash || got[i].Seq != w.Seq {
					t.Fatalf("event %d is %s after the catch-up, the stream's %s", w.Seq, got[i].Hash, w.Hash)
				}
			}
			if rep, err := match.VerifyRecord(context.Background(), db, "", ""); err != nil || !rep.OK {
				t.Fatalf("verify after the catch-up: %v %s", err, rep.Problem)
			}
			var alarm *AlarmError
			if errors.As(s.Replica().Alarm(), &alarm) {
				t.Fatal(fmt.Sprint(alarm))
			}
		})
	}
}
