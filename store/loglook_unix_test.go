//go:build unix

package store

import (
	"runtime"
	"testing"
)

// TestTheWatchsLooksAroundACommitAllocateOnlyThePath: the two looks at the
// -wal that every commit takes (beforeOwnWrite, afterOwnWrite) allocate
// at most the path's C string each (os.Stat made a FileInfo of 240 bytes
// at each as well), and on Linux nothing (statx(2) of the path made once
// at open, lookAtLogShape). Other platforms keep os.Stat
// (loglook_other.go).
func TestTheWatchsLooksAroundACommitAllocateOnlyThePath(t *testing.T) {
	db, _ := newTestDB(t)
	appendEvents(t, db, 1)
	got := testing.AllocsPerRun(100, func() {
		db.beforeOwnWrite()
		db.afterOwnWrite()
	})
	want := 2.0
	if runtime.GOOS == "linux" {
		want = 0
	}
	if got > want {
		t.Errorf("the looks around a commit allocate %v times, want at most %v", got, want)
	}
}
