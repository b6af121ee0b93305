package store

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// The write-ahead log (-wal) and the wal-index (-shm) a DB's connection
// uses are the files that stood beside the record when it opened them:
// SQLite keeps a descriptor of each for as long as the connection is open,
// and neither is made anew while any connection holds the record (the last
// one to close removes both; another process that closes is never the
// last while this one holds its lock). A -wal or -shm put in their place
// (mv of another copy's), or removed, while the DB holds the record is not
// what SQLite writes and reads: the DB's commits go on into a file nobody
// finds under its name — a kill -9 loses them, and the next process that
// opens the record reads another copy's log over this file, or, with a
// -shm of its own, takes itself for the last connection and removes the
// DB's log — while the DB's own reads find the record as it was, so the
// watch's check of the record (match.App.Watch) found nothing wrong.
// SideFileReplaced tells it by the files' identities (device and inode).

// noteLogID keeps the identity of the -wal as s saw it, the first time
// one is there, and otherwise says the log replaced when s is another file
// or none. w.mu is held.
func (w *walWatch) noteLogID(s logLook) {
	switch {
	case !w.logID.hasID():
		w.logID = s // none again when there is none: taken at the next look
	case s.isGone() || s.hasID() && !w.logID.sameFile(s):
		if w.replaced == "" {
			w.replaced = "-wal"
		}
	}
}

// newConnection is called when the DB's connection was discarded (a failed
// BEGIN, a panic: stmt.go): the next one may have made the side files
// anew, if the old one was the last to hold the record, so their
// identities are taken again at the next look.
func (db *DB) newConnection() {
	w := &db.wal
	w.mu.Lock()
	w.logID, w.shmAgain = logLook{}, true
	w.mu.Unlock()
}

// SideFileReplaced is the name of the record's -wal or -shm when it is no
// longer the file the DB's connection uses — another file was renamed over
// it, or it was removed, while the DB held the record — and "" when both
// are as they were (or cannot be told: a read-only record with none). It
// costs a stat(2) of the -shm and an fstat(2) of the process's descriptor
// of it (held.go); the -wal's identity is looked at by WALChanged and the
// DB's own writes, which stat it anyway. Once said, it is said at every
// call.
func (db *DB) SideFileReplaced() string {
	w := &db.wal
	w.mu.Lock()
	replaced, again := w.replaced, w.shmAgain
	w.mu.Unlock()
	if replaced != "" {
		return db.side + replaced
	}
	gone, settled := shmReplaced(db.path, db.side, again)
	w.mu.Lock()
	look := w.lookLog && settled && !gone
	w.lookLog = w.lookLog && !look
	w.mu.Unlock()
	foreign := look && logForeign(db.path, db.side)
	w.mu.Lock()
	defer w.mu.Unlock()
	if settled {
		w.shmAgain = false
	}
	if gone && w.replaced == "" {
		w.replaced = "-shm"
	}
	if foreign && w.replaced == "" {
		w.replaced = "-wal"
	}
	if w.replaced != "" {
		return db.side + w.replaced
	}
	return ""
}

// shmReplaced reports whether the -shm beside side is not the file the
// process's descriptor of it (heldShm) has open, or is gone. again: the
// DB's connection was made anew since the -shm was last taken, so a -shm
// made anew with it is taken in place of the one held (which SQLite
// removed); settled: it was (or it is the one held), and again is done.
func shmReplaced(path, side string, again bool) (replaced, settled bool) {
	f := heldShm(path)
	if f == nil {
		return false, false
	}
	held, err := f.Stat()
	if err != nil {
		return false, false
	}
	now, err := os.Stat(side + "-shm")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return !again, false // with again: the new connection has not made it yet
	case err != nil:
		return false, false
	case os.SameFile(held, now):
		return false, true
	case again:
		reholdShm(path, f)
		return false, true
	}
	return true, true
}

// logForeign reports whether the -wal beside side is not the log the
// wal-index of the record at path (the process's held -shm) describes:
// bytes written over it in place (cp of another copy's log onto it keeps
// the file, so its identity), where the index has committed frames, its
// header's salts or page size are not the index's, it is shorter than
// the frames committed, or — a copy of this very log, taken with the
// record and written on at the copy, which keeps the salts — its
// committed frames do not chain to the checksum the index holds (branch
// hleft: such a copy longer than ours passed the header's check). SQLite's reads of such a log fail (a short read:
// "disk I/O error") or read another copy's pages. The index is read again
// after the log: a checkpoint that restarted or truncated the log
// meanwhile (the index first, then the log) is not said foreign.
// WALChanged finds the log's stat moved before SideFileReplaced looks so.
func logForeign(path, side string) bool {
	idx, ok := readWALIndex(path)
	if !ok || idx.mxFrame == 0 {
		return false
	}
	f, err := os.Open(side + "-wal") // SQLite holds no lock on the log itself
	if err != nil {
		return false // none: its identity tells (noteLogID)
	}
	defer f.Close()
	foreign := true
	var hdr [walHeaderSize]byte
	if _, err := io.ReadFull(f, hdr[:]); err == nil {
		fi, err := f.Stat()
		foreign = err == nil && (!idx.wroteFor(hdr[:]) ||
			fi.Size() < walHeaderSize+int64(idx.mxFrame)*int64(walFrameHeaderSize+idx.pageSize))
		if err == nil && !foreign {
			// the header is the index's: a copy of this log taken with the
			// record and written on at the copy keeps the salts, and is
			// as long or longer; its frames after the copy are not the
			// ones the index committed, so their checksums, chained from
			// the salts and holding frame by frame, end elsewhere than the
			// index's (walFramesChain). A chain broken inside is an edit
			// of this log, which the record's check names by its event.
			chained, atIndex, sure := walFramesChain(side, idx)
			foreign = sure && chained && !atIndex
		}
	}
	if !foreign {
		return false
	}
	again, ok := readWALIndex(path)
	return ok && again == idx
}
