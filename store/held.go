package store

import (
	"os"
	"path/filepath"
	"sync"
)

// One way in to the file (docs/store.md). SQLite keeps its locks on a
// record as POSIX advisory locks, and POSIX drops all of a process's locks
// on a file when the process closes any descriptor of it, however opened.
// A process that holds the record in SQLite and then opens and closes the
// file by other means (reading its header, say) silently loses its shared
// lock; the next outside reader that closes (the sqlite3 shell, Python's
// sqlite3) then believes itself the last connection, checkpoints the
// write-ahead log and deletes it, and the writer goes on writing into a
// deleted file: a kill -9 loses every event acknowledged since.
//
// So the header is read directly (readHeader) only while this process holds
// no SQLite connection to the file; every later open in the process asks
// SQLite instead, whose own descriptors share one lock table per file
// within the process and never drop another connection's locks. held is
// that register: the files this process holds through a *DB (and the one
// being opened), by path and by identity (a symbolic or hard link to a
// held file is the same file).
var held struct {
	sync.Mutex
	files []*heldFile
}

type heldFile struct {
	abs string
	n   int // handles holding it (and opens under way)
	// shm: the wal-index (-shm) opened for reading (heldShm), closed only
	// when the last handle has closed, as SQLite holds its locks there;
	// retired: those it replaced (reholdShm), closed then too
	shm     *os.File
	retired []*os.File
}

// heldShm is a descriptor of the wal-index (the -shm file) of the record at
// path, which this process holds: opened once and kept until the last
// handle on the record closes (unhold), since closing a descriptor of it
// while SQLite holds its locks there would drop them (above). nil when the
// record is not held or its -shm cannot be opened.
func heldShm(path string) *os.File {
	held.Lock()
	defer held.Unlock()
	abs := absPath(path)
	for _, h := range held.files {
		if h.abs != abs {
			continue
		}
		if h.shm == nil {
			if f, err := os.Open(sideFiles(path) + "-shm"); err == nil {
				h.shm = f
			}
		}
		return h.shm
	}
	return nil
}

// reholdShm has the process's descriptor of the -shm of the record at path,
// old, replaced by one of the -shm there now: the DB's connection was made
// anew and with it the -shm (sidecheck.go). old is kept open, with the
// other descriptors, until the last handle closes: should any SQLite
// connection of the process still hold a lock on it, closing it would drop
// that lock.
func reholdShm(path string, old *os.File) {
	held.Lock()
	defer held.Unlock()
	abs := absPath(path)
	for _, h := range held.files {
		if h.abs == abs && h.shm == old {
			if f, err := os.Open(sideFiles(path) + "-shm"); err == nil {
				h.retired = append(h.retired, old)
				h.shm = f
			}
			return
		}
	}
}

// absPath is path made absolute, or path itself if that fails.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// holdFile registers a handle about to be opened on path and reports
// whether this process held the file already. If it did not, first is
// called while the register is locked, before anyone in the process can
// open the file in SQLite: the one moment the file may be read by other
// means. release undoes the registration (when the handle closes, or the
// open fails); it may be called more than once.
func holdFile(path string, first func()) (release func(), already bool) {
	held.Lock()
	defer held.Unlock()
	abs := absPath(path)
	fi, statErr := os.Stat(path)
	var f *heldFile
	for _, h := range held.files {
		if h.abs == abs {
			f = h
			break
		}
		if statErr == nil {
			if hi, err := os.Stat(h.abs); err == nil && os.SameFile(fi, hi) {
				f = h
				break
			}
		}
	}
	already = f != nil
	if f == nil {
		first()
		f = &heldFile{abs: abs}
		held.files = append(held.files, f)
	}
	f.n++
	var once sync.Once
	return func() { once.Do(func() { unhold(f) }) }, already
}

func unhold(f *heldFile) {
	held.Lock()
	defer held.Unlock()
	if f.n--; f.n > 0 {
		return
	}
	if f.shm != nil {
		f.shm.Close() // no SQLite handle on the file is left in the process
		f.shm = nil
	}
	for _, r := range f.retired {
		r.Close()
	}
	f.retired = nil
	for i, h := range held.files {
		if h == f {
			held.files = append(held.files[:i], held.files[i+1:]...)
			break
		}
	}
}
