// Package filelock holds an OS lock on a file beside a record while a
// process serves it: one station per record (package service), one engine
// bridge per record (package engine). The lock is flock on Linux and macOS
// and LockFileEx on Windows, so the OS drops it with the process: a holder
// killed with kill -9, a crash or a power cut leaves none behind. The file
// holds the holder's process id, for the sentence that names it only.
package filelock

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Held is a lock this process holds.
type Held struct{ f *os.File }

// HeldError: another holder has the lock (PID: its process, 0 if unknown;
// this process's own id when it holds it itself).
type HeldError struct {
	Path string
	PID  int
}

func (e *HeldError) Error() string { return fmt.Sprintf("%s is held by process %d", e.Path, e.PID) }

// Error: the lock file at Path could not be opened (Opened false), or its
// lock could not be taken for another reason than another holder; each
// face says it in its words.
type Error struct {
	Path   string
	Opened bool
	Err    error
}

func (e *Error) Error() string {
	if !e.Opened {
		return fmt.Sprintf("the lock %s cannot be opened: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("the lock %s cannot be taken: %v", e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// errLocked: the OS lock is held by another (lockFile's refusal).
var errLocked = errors.New("locked")

// Lock takes the lock on the file at path, creating it if needed, and
// writes this process's id into it; a *HeldError when another open file —
// in this process or another — holds it.
func Lock(path string) (*Held, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, &HeldError{Path: path, PID: holder(path)}
		}
		return nil, &Error{Path: path, Opened: true, Err: err}
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Held{f: f}, nil
}

// Release gives the lock up (closing the file releases the OS lock).
func (h *Held) Release() {
	if h != nil && h.f != nil {
		h.f.Close()
		h.f = nil
	}
}

// holder is the process id the lock file names (0 if none).
func holder(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}
