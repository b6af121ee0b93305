//go:build !unix

package store

import "os"

// logLook is what the file system says of the write-ahead log (the -wal
// file): its Stamp, where the platform has no stat(2) to read as values
// (loglook_unix.go).
type logLook struct{ s Stamp }

// lookAtLog looks at the file at path without opening it (stampOf).
func lookAtLog(path string) logLook { return logLook{stampOf(path)} }

// same reports whether l and o saw the same file, unchanged (Stamp.Same).
func (l logLook) same(o logLook) bool { return l.s.Same(o.s) }

// hasID reports whether l saw a file.
func (l logLook) hasID() bool { return l.s.info != nil }

// isGone reports whether l saw no file of the log's name.
func (l logLook) isGone() bool { return l.s.gone }

// sameFile reports whether l and o saw the same file (os.SameFile), both
// having seen one.
func (l logLook) sameFile(o logLook) bool {
	return l.s.info != nil && o.s.info != nil && os.SameFile(l.s.info, o.s.info)
}

// lookAtLogShape is lookAtLog: the platform has no stat(2) to ask for
// less (loglook_linux.go).
func lookAtLogShape(path string, _ []byte) logLook { return lookAtLog(path) }

// sameShape reports whether l and o saw the same file with the same size,
// or both none.
func (l logLook) sameShape(o logLook) bool {
	if l.s.info == nil || o.s.info == nil {
		return l.s.info == nil && o.s.info == nil && l.s.gone == o.s.gone
	}
	return os.SameFile(l.s.info, o.s.info) && l.s.size == o.s.size
}

// timed reports whether l holds the file's times.
func (l logLook) timed() bool { return l.s.info != nil }
