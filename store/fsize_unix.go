//go:build linux || darwin

package store

import (
	"errors"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// writeLimited reports whether err is a write SQLite failed while this
// process runs under a file size limit (RLIMIT_FSIZE, set with ulimit -f),
// and that limit in bytes. Under it the kernel refuses a write that would
// take a file past the limit (EFBIG; Go ignores SIGXFSZ), and SQLite says
// it "disk I/O error (778)", SQLITE_IOERR_WRITE, which told the user
// nothing he could act on (branch hattack; measured: a write starting at
// the limit and one going on past it after frames that fitted both). A
// full disk under a limit (SQLITE_FULL, ENOSPC) is said by the same
// sentence, which names both.
func writeLimited(err error) (uint64, bool) {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return 0, false
	}
	code := se.Code()
	switch code & 0xff {
	case sqlite3.SQLITE_FULL:
	case sqlite3.SQLITE_IOERR:
		if code != sqlite3.SQLITE_IOERR_WRITE && code != sqlite3.SQLITE_IOERR_TRUNCATE {
			return 0, false
		}
	default:
		return 0, false
	}
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_FSIZE, &l) != nil || l.Cur >= 1<<62 {
		return 0, false // none (RLIM_INFINITY)
	}
	return uint64(l.Cur), true
}
