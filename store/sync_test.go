package store

import (
	"runtime"
	"testing"

	"modernc.org/sqlite"
)

// A read-write handle makes SQLite commit with fdatasync on Linux, as
// SQLite's own Linux builds do: the commit's frames and the log's size
// reach the disk, the timestamps are left out (syncData).
func TestARecordOpenedForWritingCommitsWithFdatasyncOnLinux(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("fdatasync is switched on only where SQLite can use it; this is %s", runtime.GOOS)
	}
	newTestDB(t)
	if !sqlite.FdatasyncEnabled() {
		t.Fatal("after a read-write Open SQLite still commits with fsync")
	}
}
