package store

import "path/filepath"

// sideFiles is the name beside which SQLite keeps the record's -wal and
// -shm files: the file a symbolic link names (SQLite resolves links in a
// database's name), path itself when it is no link or cannot be resolved.
// The watch (WALChanged, walIntact) and the checks at open look at the
// -wal there: beside a link there is none, and edits of the log behind it
// were not seen.
func sideFiles(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
