package match

import (
	"os"
	"testing"
	"time"
)

// copyFile copies the file at src to dst (a -wal: SQLite holds no lock on
// it, so reading it never drops the process's locks on the record).
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestARunningCoreFindsItsLogOrIndexReplacedAtItsNextWatch (principle 1,
// any edit of the file is detected): a -wal put beside the record in place
// of the one the console writes — an older copy's of the same record (a
// backup taken by copying the files while the console ran), renamed over
// it or written over it in place, or none — and a -shm put in place of its own,
// while the console runs, is found at the next watch: the console's own
// reads find the record as it was (its connection keeps the files it
// opened), so the check of the record found nothing, and its commands went
// on into a log nobody finds under the record's name. The state is kept,
// told once, and nothing more is written.
func TestARunningCoreFindsItsLogOrIndexReplacedAtItsNextWatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		side string
		act  func(t *testing.T, path, older string)
	}{
		{"an older copy's -wal renamed over the record's", "-wal", func(t *testing.T, path, older string) {
			if err := os.Rename(older+"-wal", path+"-wal"); err != nil {
				t.Fatal(err)
			}
		}},
		{"an older copy's -wal written over the record's in place (cp: the same file; SQLite's reads failed, a disk I/O error)", "-wal", func(t *testing.T, path, older string) {
			copyFile(t, older+"-wal", path+"-wal")
		}},
		{"the record's -wal removed", "-wal", func(t *testing.T, path, older string) {
			if err := os.Remove(path + "-wal"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a -shm of the intruder's renamed over the record's", "-shm", func(t *testing.T, path, older string) {
			if err := os.WriteFile(path+"-shm.new", make([]byte, 32768), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+"-shm.new", path+"-shm"); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name+" is found by the next watch", func(t *testing.T) {
			f := newFixture(t)
			f.newMatch(MatchNew{})
			f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
			f.moves(30*time.Second, "e4", "c5")
			path := f.db.Path()
			older := path + ".older"
			copyFile(t, path+"-wal", older+"-wal") // the log of a copy taken now
			f.moves(30*time.Second, "c3", "d5")
			f.ok(f.app.Watch(f.ctx))
			if f.app.Why() != nil {
				t.Fatalf("a sound record: %v", f.app.Why())
			}
			told := 0
			f.app.SetChanged(func() { told++ })
			seq := f.app.State().Seq
			tc.act(t, path, older)
			f.ok(f.app.Watch(f.ctx))
			f.ok(f.app.Watch(f.ctx))
			p := f.app.Why()
			if p == nil || p.Code != string(CodeSideFileReplaced) {
				t.Fatalf("the problem: %v, want %s", p, CodeSideFileReplaced)
			}
			if told != 1 || f.app.State().Seq != seq {
				t.Errorf("told %d times, state at event %d; want once and %d", told, f.app.State().Seq, seq)
			}
			if _, err := f.app.Move(f.ctx, f.at(30*time.Second), "exd5", false); err == nil {
				t.Error("a move was taken after the log was replaced")
			}
			evs, _, err := f.db.Record(f.ctx)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(evs)) != seq {
				t.Errorf("the record holds %d events, want %d", len(evs), seq)
			}
		})
	}
}
