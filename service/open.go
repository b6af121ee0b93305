package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"arbiter/match"
	"arbiter/store"
)

// DB is the record's event log. The faces hold it (to close, back up or
// verify it) without importing store/.
type DB = store.DB

// Tx, Event and Signature are the record's transaction, event and
// signature, for the station layer's faces (cli/station.go), which append
// membership events of their own.
type (
	Tx        = store.Tx
	Event     = store.Event
	Signature = store.Signature
)

// The record's failures the faces tell apart (errors.Is).
var (
	ErrDiskFull = store.ErrDiskFull
	ErrReadOnly = store.ErrReadOnly
	ErrExists   = store.ErrExists
	ErrEmpty    = store.ErrEmpty
)

// Global holds the options of one session: the database, the instant a
// command happens at, and who gives it.
type Global struct {
	DB    string
	At    time.Time
	AtSet bool
	Role  match.Role
	PIN   string // the arbiter's passphrase (--pin, or ARBITER_PIN)
	// Secret is the passphrase of the --as role's own credential (--secret).
	Secret string
	// KeyFile is the --as role's credential as a key file (--key-file).
	KeyFile string
}

// A record is opened one of three ways (issue 25), each through the store's
// one way in to the file (docs/store.md): read-write (Open: the console and
// every command that writes), read-only (OpenReadOnly: a command that only
// reads a file it cannot write, the broadcast, the console and every face's
// read of a station's record, which only its station writes), and a
// station's replica (openReplica: the record a running station holds,
// written only through the stream). A command that only reads opens a
// record it can write as the console does (Writable, then Open): an older
// schema is migrated after its own backup, and SQLite removes its -wal and
// -shm on close; no event is appended either way.

// Open opens the record at path read-write (creating it when absent, as
// store.Open does) and the match over it.
func Open(ctx context.Context, path string) (*match.App, error) {
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return openMatch(ctx, db)
}

// openMatch opens the match over db, closing db if that fails.
func openMatch(ctx context.Context, db *store.DB) (*match.App, error) {
	app, err := match.New(ctx, db)
	if err != nil {
		db.Close()
		return nil, err
	}
	return app, nil
}

// OpenReadOnly opens an existing record read-only (store.OpenReadOnly) and
// the match over it: nothing can be appended through it; it works on a
// write-protected copy or a read-only mount. A path that is not a regular
// file (/dev/null, a folder) is refused before SQLite could put a journal
// beside it.
func OpenReadOnly(ctx context.Context, path string) (*match.App, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, refuse(CodeNotARecordFile, path)
	}
	db, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	return openMatch(ctx, db)
}

// Writable reports whether the record at path is a regular file that, with
// its folder, can be written: a command that only reads opens it with Open
// then, else with OpenReadOnly. It never opens the file: closing a
// descriptor of the record drops every POSIX lock this process holds on it
// (store's held.go), so the file is asked with access(2) (canWrite), and
// the folder with a probe file.
func Writable(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() || !canWrite(path) {
		return false
	}
	probe, err := os.CreateTemp(filepath.Dir(path), ".arbiter-probe-*")
	if err != nil {
		return false
	}
	probe.Close()
	os.Remove(probe.Name())
	return true
}

// ContinueIn copies the live record of old to the new file newPath
// (CopyMatch: a verified copy), opens the copy and returns the match
// over it. old stays open; the caller closes it once it has switched.
func ContinueIn(ctx context.Context, old *match.App, newPath string) (*match.App, error) {
	if err := CopyMatch(ctx, old.DB().Path(), newPath); err != nil {
		return nil, err
	}
	app, err := Open(ctx, newPath)
	if err != nil {
		return nil, fmt.Errorf("open the new file %s: %w", newPath, err)
	}
	return app, nil
}

// VerifyCopy opens a fresh copy read-only and checks its hash chain; it
// returns the number of events and the head.
func VerifyCopy(ctx context.Context, path string) (int64, string, error) {
	db, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		return 0, "", fmt.Errorf("the copy %s cannot be opened: %w", path, err)
	}
	defer db.Close()
	rep, err := db.Verify(ctx, "")
	if err != nil {
		return 0, "", fmt.Errorf("the copy %s cannot be read: %w", path, err)
	}
	if !rep.OK {
		return 0, "", refuse(CodeCopyDoesNotVerify, path, rep.Why)
	}
	return rep.Events, rep.Head, nil
}
