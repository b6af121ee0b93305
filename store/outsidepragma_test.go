package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// Outside readers that do more than read (principle 1: "a kill -9 loses
// nothing shown, whoever else reads the file"): between the writer's
// commands another process checkpoints and truncates the write-ahead log,
// tries to switch the file out of WAL, runs a VACUUM, or holds a read
// transaction — in normal or exclusive locking mode — open across the
// commands after the first.
// Each may make the writer wait or fail a command, never lose one it
// acknowledged: after kill -9 the file verifies and holds every event the
// writer said was committed. (TestAnOutsideReaderNeverCostsAnAcknowledgedEvent
// has the plain readers; these held on the code of branch hprobe too.)
func TestAnOutsideProcessSettingPragmasNeverCostsAnAcknowledgedEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	// each between runs between the writer's commands; held opens a
	// connection kept open (its statements run first) until after the kill
	for _, tc := range []struct {
		name          string
		between, held []string
	}{
		{"a checkpoint that truncates the log", []string{"PRAGMA wal_checkpoint(TRUNCATE)"}, nil},
		{"a switch out of WAL (refused while the writer holds the file)", []string{"PRAGMA journal_mode=DELETE"}, nil},
		{"a VACUUM", []string{"VACUUM"}, nil},
		{"a read transaction held open across every command", nil, []string{"BEGIN", "SELECT count(*) FROM events"}},
		{"a reader in exclusive locking mode held open", nil, []string{"PRAGMA locking_mode=EXCLUSIVE", "SELECT count(*) FROM events"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "match.arbiter")
			db := openTest(t, path)
			appendEvents(t, db, 1)
			db.Close()
			other := func() *sql.DB {
				o, err := sql.Open("sqlite", path)
				if err != nil {
					t.Fatal(err)
				}
				o.SetMaxOpenConns(1)
				return o
			}
			w := startWriter(t, path, "read-only")
			acked := int64(1)
			for i := 0; i < 6; i++ {
				n, err := w.append()
				if err != nil {
					break // the writer failed a command (it waited on a lock and gave up): nothing it acknowledged may be lost
				}
				acked = n
				if i == 0 && tc.held != nil {
					// opened once the writer holds the file (before it, a
					// reader in exclusive mode keeps the writer from opening
					// it at all: refused, nothing acknowledged)
					h := other()
					defer h.Close()
					c, err := h.Conn(ctx)
					if err != nil {
						t.Fatal(err)
					}
					defer c.Close()
					for _, s := range tc.held {
						c.ExecContext(ctx, s) // refused or not, the connection stays open
					}
				}
				o := other()
				for _, s := range tc.between {
					o.ExecContext(ctx, s) // refused or not
				}
				o.Close()
			}
			if acked < 2 {
				t.Fatalf("the writer acknowledged no command: %s", w.errb.String())
			}
			rep := w.killAndVerify(t, ctx, path)
			if rep.Events < acked {
				t.Fatalf("after kill -9 the file holds %d events; the writer acknowledged %d", rep.Events, acked)
			}
		})
	}
}
