//go:build !nostation

package service

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// One station per record (docs/stations.md, "One station per record"):
// 'station serve', 'station join' and the console that runs its record's
// station in process each hold an OS lock on FILE.station.lock while the
// station runs (flock on Linux and macOS, LockFileEx on Windows, behind
// build tags). The OS drops the lock with the process, so a station killed
// with kill -9 leaves no lock behind; a second station for the record is
// refused before it writes anything. The file holds the holder's process
// id, for the sentence only.

// StationLockPath is the lock file beside the record.
func StationLockPath(db string) string { return db + ".station.lock" }

// StationLock is a held lock on a record's station.
type StationLock struct{ f *os.File }

// BusyError: a station already runs for the record (PID: its process, 0
// if unknown).
type BusyError struct {
	DB  string
	PID int
}

func (e *BusyError) Error() string {
	who := "another process"
	if e.PID == os.Getpid() {
		who = "this process"
	} else if e.PID > 0 {
		who = "process " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("a station already runs for %s (%s), and a record has one station: stop that one first, or give commands to it with 'arbiter --db %s …'", e.DB, who, e.DB)
}

// errLocked: the OS lock is held by another (lockFile's refusal).
var errLocked = errors.New("locked")

// LockStation takes the station lock of the record at db, or refuses with
// a *BusyError when a station runs for it (in this process or another).
// It creates the lock file if needed and writes nothing else.
func LockStation(db string) (*StationLock, error) {
	path := StationLockPath(db)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, refuse(CodeLockNotOpened, path, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, &BusyError{DB: db, PID: lockHolder(path)}
		}
		return nil, refuse(CodeLockNotTaken, path, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &StationLock{f: f}, nil
}

// Release gives the lock up (closing the file releases the OS lock).
func (l *StationLock) Release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// lockHolder is the process id the lock file names (0 if none).
func lockHolder(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}
