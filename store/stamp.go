package store

import (
	"context"
	"fmt"
	"os"
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
}

// Stamp looks at the record's main file with stat(2): it never opens the
// file, which would drop the process's POSIX locks on it (held.go).
func (db *DB) Stamp() Stamp {
	fi, err := os.Stat(db.path)
	if err != nil {
		return Stamp{}
	}
	return Stamp{info: fi, size: fi.Size(), mod: fi.ModTime()}
}

// Same reports whether s and o describe the same file, unchanged; two
// zero Stamps are the same.
func (s Stamp) Same(o Stamp) bool {
	if s.info == nil || o.info == nil {
		return s.info == nil && o.info == nil
	}
	return os.SameFile(s.info, o.info) && s.size == o.size && s.mod.Equal(o.mod)
}

// Uncache has the DB's connection forget the pages it holds, so that the
// next read reads the file as it is now. SQLite keeps its page cache
// across transactions while the write-ahead log's index is unchanged: a
// byte changed in the main file by other means than SQLite (a hex editor)
// was not seen by Record on the same connection until this (measured: the
// edited payload read back as before, then as edited after it).
func (db *DB) Uncache(ctx context.Context) error {
	if _, err := db.sql.ExecContext(ctx, "PRAGMA shrink_memory"); err != nil {
		return fmt.Errorf("store: uncache: %w", mapErr(err))
	}
	return nil
}
