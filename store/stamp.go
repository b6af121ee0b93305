package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// Stamp is what the file system says of the record's main file: its
// identity (device and inode, os.SameFile), size and modification time.
// A hex editor's edit changes it and not SQLite's data_version; the
// DB's own commits change it only when the write-ahead log is
// checkpointed into the main file (every walAutocheckpoint pages, and at
// the last close). The zero Stamp is a file that could not be looked at.
type Stamp struct {
	info os.FileInfo
	size int64
	mod  time.Time
	gone bool // no file has the record's name
}

// Stamp looks at the record's main file with stat(2): it never opens the
// file, which would drop the process's POSIX locks on it (held.go).
func (db *DB) Stamp() Stamp {
	return stampOf(db.path)
}

func stampOf(path string) Stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{gone: errors.Is(err, fs.ErrNotExist)}
	}
	return Stamp{info: fi, size: fi.Size(), mod: fi.ModTime()}
}

// Same reports whether s and o describe the same file, unchanged; two
// zero Stamps are the same.
func (s Stamp) Same(o Stamp) bool {
	if s.info == nil || o.info == nil {
		return s.info == nil && o.info == nil && s.gone == o.gone
	}
	return os.SameFile(s.info, o.info) && s.size == o.size && s.mod.Equal(o.mod)
}

// Replaced reports whether the file the record's name gives now, as s
// saw it, is not the file the DB opened: another file renamed over it
// (mv), or none (removed). The DB still reads and writes the file it
// opened, which nobody finds under the record's name any more. A file
// that could not be looked at for another reason (a permission) is not
// said to be replaced.
func (db *DB) Replaced(s Stamp) bool {
	if db.opened == nil {
		return false
	}
	return s.gone || s.info != nil && !os.SameFile(db.opened, s.info)
}

// noteOpened keeps the identity of the file the DB has just opened
// (Replaced compares with it).
func (db *DB) noteOpened() {
	if fi, err := os.Stat(db.path); err == nil {
		db.opened = fi
	}
}

// walWatch is what the DB knows of its write-ahead log (the -wal file):
// its look after the DB's own last commit, or WALChanged's, and whether it
// was found changed by other means before one of them (walMoved).
type walWatch struct {
	mu    sync.Mutex
	known logLook // the log as the DB's last commit (its shape) or WALChanged (its times too) saw it
	moved bool
	wrote bool // the DB wrote since WALChanged last looked
	// logID is the -wal the DB's connection writes, as stat(2) first saw
	// it (the zero logLook: not seen yet); replaced names the side file found not to be
	// the one the connection uses ("-wal", "-shm"; sidecheck.go); shmAgain:
	// the connection was made anew, the -shm's identity is taken again
	logID    logLook
	replaced string
	shmAgain bool
	lookLog  bool // WALChanged found the log's stat moved: SideFileReplaced reads its header
}

// The DB's own commits never ask for the -wal's times (docs/performance.md,
// "Commit one event, twelfth pass"). Since Linux 6.13 a file system with
// multigrain timestamps (ext4, xfs, btrfs, tmpfs) gives the write after a
// stat(2) that read a file's times a new fine-grained time, where a write
// within the same clock tick would otherwise leave the times as they were;
// new times make the inode dirty, and fdatasync(2) on an ext4 without a
// journal writes a dirty inode's table block, shared with the inodes of
// the files beside it, before it returns. Two stat(2)s a commit made every
// commit's sync write that block as well as the log's frames: two writes
// where one does. So the looks around a commit (lookAtLogShape: identity
// and size) leave the times unasked, and only the first commit after
// WALChanged, which asked them, compares them as well (the write after
// it takes a fine-grained time anyway).

// lookAtLogTimed is the look that asks for the -wal's times (lookAtLog),
// as the watch takes it (a variable: the tests count its calls).
var lookAtLogTimed = lookAtLog

// beforeOwnWrite is called before the DB's own write transaction, with the
// DB's one connection held (withConn): a -wal that is not as the DB's last
// commit (or WALChanged) left it was changed by someone else meanwhile —
// another connection's commit, which data_version tells too, or a hex
// editor's write, which only this tells. Both looks are taken while the
// write holds the connection: a second write of the DB's own that began
// while the first committed (a station's replica taking the authority's
// own command from the stream as the authority commits it) would
// otherwise see the first's commit before the first noted it, and the
// watch would check the record whole for nothing. The first write after
// WALChanged compares the log's times with what WALChanged saw; the
// others its identity and size only (an edit of the log's bytes between
// two of the DB's own commits is told by its checksums: WALChanged).
func (db *DB) beforeOwnWrite() {
	w := &db.wal
	w.mu.Lock()
	timed := !w.wrote
	w.mu.Unlock()
	var s logLook
	if timed {
		s = lookAtLogTimed(db.walPath)
	} else {
		s = lookAtLogShape(db.walPath, db.walPathZ)
	}
	w.mu.Lock()
	if !s.sameShape(w.known) || timed && w.known.timed() && !s.same(w.known) {
		w.moved = true
	}
	w.noteLogID(s)
	w.mu.Unlock()
}

// afterOwnWrite notes the -wal as the DB's own commit left it (the
// connection still held, as for beforeOwnWrite): its identity and size.
func (db *DB) afterOwnWrite() {
	s := lookAtLogShape(db.walPath, db.walPathZ)
	w := &db.wal
	w.mu.Lock()
	w.known, w.wrote = s, true
	w.noteLogID(s)
	w.mu.Unlock()
}

// WALChanged reports whether the record's write-ahead log (the -wal file)
// changed since the last call by other means than this DB's own commits:
// another connection's commit, or bytes written into it behind SQLite (a
// hex editor), which leave data_version and the main file as they were.
// It costs one stat(2). When the DB did not write since the last call, any
// write into the log moved its times; when it did, its commits moved them
// too, and are not told apart by them: then the log's identity and size
// are compared, and its committed frames checked against their checksums
// (walIntact, walcheck.go; outside the lock the DB's commits take, so none
// waits for it) — a log whose frames cannot be walked as the wal-index
// names them (another copy's log written over it in place, with other
// salts) is told changed.
func (db *DB) WALChanged() bool {
	s := lookAtLogTimed(db.walPath)
	w := &db.wal
	w.mu.Lock()
	wrote := w.wrote
	moved := w.moved || !s.sameShape(w.known) || !wrote && !s.same(w.known)
	w.known, w.moved, w.wrote = s, false, false
	w.noteLogID(s)
	w.lookLog = w.lookLog || moved
	w.mu.Unlock()
	if !moved && wrote {
		if intact, sure := walIntact(db.path, db.side); !intact || !sure {
			moved = true
			w.mu.Lock()
			w.lookLog = w.lookLog || !sure
			w.mu.Unlock()
		}
	}
	return moved
}

// Uncache has the DB's connection forget the pages it holds, so that the
// next read reads the file as it is now. SQLite keeps its page cache
// across transactions while the write-ahead log's index is unchanged: a
// byte changed in the main file by other means than SQLite (a hex editor)
// was not seen by Record on the same connection until this (measured: the
// edited payload read back as before, then as edited after it).
func (db *DB) Uncache(ctx context.Context) error {
	// on the DB's connection, whose own last head (ownHead) is forgotten
	// with its pages: the next Append reads the head from the file as well
	if err := db.withConn(ctx, func(c *conn) error { return c.forgetPages(ctx) }); err != nil {
		return fmt.Errorf("store: uncache: %w", mapErr(err))
	}
	return nil
}
