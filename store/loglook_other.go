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
