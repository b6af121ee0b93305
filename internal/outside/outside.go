// Package outside runs the readers of a record that are not Arbiter: the
// sqlite3 shell and Python's sqlite3 module, each in a process of its own,
// as the appeals board, an operator or a script reads the file between
// commands (docs/store.md, "One way in to the file").
//
// Such a reader closes its connection when it is done; if it is then the
// only process SQLite sees holding the file, it checkpoints the write-ahead
// log and deletes it. A process that holds the record and has lost its
// POSIX locks on it (by opening and closing the file by other means) goes
// on writing into the deleted log, and a kill -9 loses every event written
// there: the tests and the crash test run these readers between commands
// to show that it never happens. (A reader linked with modernc.org/sqlite
// does not take the log over when it closes, so it would prove nothing.)
//
// HexEdit is the one outside writer: a hex editor changing bytes of the
// file or of its write-ahead log behind SQLite, which the watch tests of
// match and station run to show that every such edit is found.
package outside

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Reader is one outside reader: Name says which, Count runs it on a record
// and returns the number of events it read.
type Reader struct {
	Name string
	bin  string
	args func(path string) []string
}

// Readers are the outside readers installed on this machine, and the
// sentences naming those that are not (scripts/deps.sh --test installs them).
//
// Each waits up to 5 s for a lock, as an SQLite client should: Python's
// sqlite3 by its default (timeout=5.0), the sqlite3 shell, whose default is
// not to wait, by ".timeout 5000". SQLite's write-ahead log has a reader
// meet an exclusive lock, briefly, in three cases it documents
// (sqlite.org/wal.html, "Sometimes queries return SQLITE_BUSY in WAL
// mode"): while the file is created (before it is a WAL file), while the
// last connection to it closes (it copies the log into the file and
// deletes it), and while the first to open it after a crash recovers the
// log. The shell then said "database is locked" and the crash test failed
// (docs/reliability.md), though nothing was lost.
func Readers() (installed []Reader, missing []string) {
	for _, r := range []Reader{
		{"the sqlite3 shell", "sqlite3", func(p string) []string { return []string{"-cmd", ".timeout 5000", p, "SELECT count(*) FROM events"} }},
		{"Python's sqlite3", "python3", func(p string) []string {
			return []string{"-c", "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nprint(c.execute('SELECT count(*) FROM events').fetchone()[0])\nc.close()", p}
		}},
	} {
		if _, err := exec.LookPath(r.bin); err != nil {
			missing = append(missing, fmt.Sprintf("%s is not installed, so %s does not read", r.bin, r.Name))
			continue
		}
		installed = append(installed, r)
	}
	return installed, missing
}

// Count reads the number of events in the record at path, opening and
// closing the file as the reader does.
func (r Reader) Count(path string) (int64, error) {
	out, err := exec.Command(r.bin, r.args(path)...).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%s on %s: %v: %s", r.Name, path, err, strings.TrimSpace(string(out)))
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s on %s printed %q", r.Name, path, strings.TrimSpace(string(out)))
	}
	return n, nil
}
