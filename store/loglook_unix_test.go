//go:build unix

package store

import "testing"

// TestTheWatchsLooksAroundACommitAllocateOnlyThePath: the two looks at the
// -wal that every commit takes (beforeOwnWrite, afterOwnWrite) allocate
// only the path's C string each (os.Stat made a FileInfo of 240 bytes at
// each as well). Other platforms keep os.Stat (loglook_other.go).
func TestTheWatchsLooksAroundACommitAllocateOnlyThePath(t *testing.T) {
	db, _ := newTestDB(t)
	appendEvents(t, db, 1)
	got := testing.AllocsPerRun(100, func() {
		db.beforeOwnWrite()
		db.afterOwnWrite()
	})
	if got > 2 {
		t.Errorf("the looks around a commit allocate %v times, want at most 2", got)
	}
}
