package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Backup writes a consistent copy of the live database to dest with
// VACUUM INTO. It refuses an existing dest (the error wraps ErrExists). The
// copy keeps application_id and user_version and verifies with the same head.
// The copy is a file of its own in SQLite's rollback-journal mode, not a
// write-ahead-log database (an Open makes it one again), and its heartbeat
// (outside the hash chain), copied from a console that may still run, keeps
// its instant and host but says CopyPID, so that nothing takes the copy for
// a file copied without its -wal while the console ran (OpenedWithoutLog).
func (db *DB) Backup(ctx context.Context, dest string) error {
	if err := vacuumInto(ctx, db.sql, dest); err != nil {
		return fmt.Errorf("store: backup %s to %s: %w", db.path, dest, err)
	}
	if err := selfContained(ctx, dest); err != nil {
		return fmt.Errorf("store: backup %s to %s: %w", db.path, dest, err)
	}
	return nil
}

// CopyPID is the heartbeat's process id in a consistent copy (Backup).
const CopyPID = -2

// selfContained turns the new copy at dest, which nothing else opens yet,
// into a rollback-journal database whose heartbeat, if any, says CopyPID.
func selfContained(ctx context.Context, dest string) error {
	d, err := dsn(dest, "mode=rw", "_pragma=busy_timeout(5000)", "_pragma=journal_mode(DELETE)")
	if err != nil {
		return err
	}
	sdb, err := sql.Open("sqlite", d)
	if err != nil {
		return err
	}
	defer sdb.Close()
	if _, err := sdb.ExecContext(ctx, "UPDATE heartbeat SET pid = ? WHERE id = 1", CopyPID); err != nil {
		return mapErr(err)
	}
	return sdb.Close()
}

func vacuumInto(ctx context.Context, q interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, dest string) error {
	if _, err := os.Lstat(dest); err == nil {
		return ErrExists
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if _, err := q.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		return mapErr(err)
	}
	return nil
}

// backupBeforeMigration copies path, at schema version version, to
// PATH.bak-v<N> (or PATH.bak-v<N>.2, .3, ... if that exists) through a
// read-only connection, before anything is written to path.
func backupBeforeMigration(ctx context.Context, path string, version int) (string, error) {
	d, err := dsn(path, "mode=ro", "_pragma=busy_timeout(5000)")
	if err != nil {
		return "", err
	}
	sdb, err := sql.Open("sqlite", d)
	if err != nil {
		return "", err
	}
	defer sdb.Close()
	base := fmt.Sprintf("%s.bak-v%d", path, version)
	dest := base
	for i := 2; ; i++ {
		err := vacuumInto(ctx, sdb, dest)
		if errors.Is(err, ErrExists) && i < 1000 {
			dest = fmt.Sprintf("%s.%d", base, i)
			continue
		}
		if err != nil {
			return "", err
		}
		return dest, nil
	}
}
