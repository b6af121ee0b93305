//go:build !nostation

package service

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"arbiter/internal/filelock"
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
type StationLock struct{ h *filelock.Held }

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

// LockStation takes the station lock of the record at db, or refuses with
// a *BusyError when a station runs for it (in this process or another).
// It creates the lock file if needed and writes nothing else.
func LockStation(db string) (*StationLock, error) {
	h, err := filelock.Lock(StationLockPath(db))
	var held *filelock.HeldError
	if errors.As(err, &held) {
		return nil, &BusyError{DB: db, PID: held.PID}
	}
	if err != nil {
		var fe *filelock.Error
		if errors.As(err, &fe) && !fe.Opened {
			return nil, refuse(CodeLockNotOpened, fe.Path, fe.Err)
		}
		if errors.As(err, &fe) {
			return nil, refuse(CodeLockNotTaken, fe.Path, fe.Err)
		}
		return nil, err
	}
	return &StationLock{h: h}, nil
}

// Release gives the lock up (closing the file releases the OS lock).
func (l *StationLock) Release() {
	if l != nil {
		l.h.Release()
	}
}
