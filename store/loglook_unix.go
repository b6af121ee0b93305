//go:build unix

package store

import "golang.org/x/sys/unix"

// logLook is what stat(2) says of the write-ahead log (the -wal file):
// its identity (device and inode), size and modification time, as
// values, compared with ==. The watch looks at the log twice a commit
// (beforeOwnWrite, afterOwnWrite): os.Stat made an os.FileInfo of it
// each time (two allocations, 240 bytes), where this makes only the
// path's C string (docs/performance.md, "Commit and move, tenth pass").
// The zero logLook is a log that could not be looked at, as the zero
// Stamp is; gone is no file of the log's name.
type logLook struct {
	dev, ino  uint64
	size      int64
	sec, nsec int64
	looked    bool
	gone      bool
}

// lookAtLog stats the file at path (it never opens it: held.go), as
// stampOf does with os.Stat: the same file, size and time give the same
// logLook, and a missing file (ENOENT, fs.ErrNotExist) is gone.
func lookAtLog(path string) logLook {
	var st unix.Stat_t
	for {
		err := unix.Stat(path, &st)
		if err == nil {
			break
		}
		if err == unix.EINTR {
			continue
		}
		return logLook{gone: err == unix.ENOENT}
	}
	sec, nsec := st.Mtim.Unix()
	return logLook{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size, sec: sec, nsec: nsec, looked: true}
}

// same reports whether l and o saw the same file, unchanged (Stamp.Same).
func (l logLook) same(o logLook) bool { return l == o }

// sameShape reports whether l and o saw the same file with the same
// size, or both none, whatever its times (lookAtLogShape's look has none).
func (l logLook) sameShape(o logLook) bool {
	return l.looked == o.looked && l.gone == o.gone && l.dev == o.dev && l.ino == o.ino && l.size == o.size
}

// timed reports whether l holds the file's times (lookAtLog's look).
func (l logLook) timed() bool { return l.sec != 0 || l.nsec != 0 }

// hasID reports whether l saw a file (its device and inode).
func (l logLook) hasID() bool { return l.looked }

// isGone reports whether l saw no file of the log's name.
func (l logLook) isGone() bool { return l.gone }

// sameFile reports whether l and o saw the same file (os.SameFile), both
// having seen one.
func (l logLook) sameFile(o logLook) bool {
	return l.looked && o.looked && l.dev == o.dev && l.ino == o.ino
}
