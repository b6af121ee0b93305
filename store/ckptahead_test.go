package store

import (
	"context"
	"testing"
)

// TestAnUpdateThatCopiesTheLogIntoTheFileRestartsItInTheSameUpdate: a
// handle that writes by itself copies its log into the file before the
// Update that would take it past walAutocheckpoint pages, and that Update's
// commit restarts the log, so that one Update in a cycle is slow where
// SQLite's own checkpoint made two (the commit that copied the log, then
// the one that restarted it: docs/performance.md, "Commit one event,
// eleventh pass"). The log is copied once in 1,200 one-event Updates, and
// when the main file changes, the log already holds only that Update's
// frames (with SQLite's own, some 1,000). A handle whose owner checkpoints
// it between commands (IdleCheckpoints) is left to its owner. Every event
// is there for the handle.
func TestAnUpdateThatCopiesTheLogIntoTheFileRestartsItInTheSameUpdate(t *testing.T) {
	ctx := context.Background()
	const commits = 1200
	for _, tc := range []struct {
		name   string
		idle   bool
		copies int // Updates that changed the main file
	}{
		{"a handle that writes by itself copies its log once and restarts it in that Update", false, 1},
		{"a handle whose owner checkpoints between commands is not copied by its Updates", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, path := newTestDB(t)
			if tc.idle {
				if err := db.IdleCheckpoints(ctx, true); err != nil {
					t.Fatal(err)
				}
			}
			var copies []int
			last := db.Stamp()
			for i := 0; i < commits; i++ {
				appendEvents(t, db, 1)
				s := db.Stamp()
				if s.Same(last) {
					continue
				}
				last = s
				copies = append(copies, i+1)
				idx, ok := readWALIndex(path)
				if !ok || idx.mxFrame > 4 {
					t.Errorf("Update %d copied the log into the file and left %d frames in it (wal-index read: %v); want only its own commit's, the log restarted", i+1, idx.mxFrame, ok)
				}
			}
			if len(copies) != tc.copies || tc.copies > 0 && copies[0] < 700 {
				t.Errorf("%d one-event Updates changed the main file at %v; want %d time(s), after some 850 (1,000 pages)", commits, copies, tc.copies)
			}
			if r, err := db.Verify(ctx, ""); err != nil || !r.OK || r.Events != commits {
				t.Errorf("Verify = %+v, %v; want %d intact events", r, err, commits)
			}
		})
	}
}
