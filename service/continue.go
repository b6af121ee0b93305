package service

import (
	"context"
	"errors"
	"fmt"
	"os"

	"arbiter/match"
	"arbiter/store"
)

// CopyMatch copies a match to a new file so that officiating can go on after
// the disk holding oldPath filled up (or became read-only): it writes a
// consistent copy of the event log at oldPath to newPath with store.Backup
// (VACUUM INTO, one read snapshot; a console may still hold oldPath open),
// then opens the copy, checks that its hash chain is intact and ends at the
// head oldPath had when the copy was taken, and that the match rebuilds from
// it. The caller then opens newPath and carries on there (ContinueIn,
// Live.ContinueIn); oldPath is only read and stays as it was (opening it
// writes nothing).
//
// CopyMatch refuses an existing newPath (the error wraps store.ErrExists)
// and removes a partial copy when it fails, so a failed attempt can simply
// be retried with another place.
func CopyMatch(ctx context.Context, oldPath, newPath string) error {
	if _, err := os.Lstat(newPath); err == nil {
		return fmt.Errorf("match: continue in %s: %w", newPath, store.ErrExists)
	}
	old, err := openForCopy(ctx, oldPath)
	if err != nil {
		return fmt.Errorf("match: continue in %s: open %s: %w", newPath, oldPath, err)
	}
	defer old.Close()
	if err := old.Backup(ctx, newPath); err != nil {
		if !errors.Is(err, store.ErrExists) {
			os.Remove(newPath)
		}
		return fmt.Errorf("match: continue in %s: %w", newPath, err)
	}
	if err := checkCopy(ctx, old, newPath); err != nil {
		os.Remove(newPath)
		return fmt.Errorf("match: continue in %s: %w", newPath, err)
	}
	return nil
}

// openForCopy opens the old log for VACUUM INTO, which SQLite refuses on a
// read-only connection. Opening writes nothing to a file already at this
// binary's schema: the migration check commits an empty transaction, which a
// full disk still allows.
func openForCopy(ctx context.Context, path string) (*store.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("the match file is not there: %w", store.ErrNotFound)
	}
	return store.Open(ctx, path)
}

// checkCopy verifies the copy at path against the live log old.
func checkCopy(ctx context.Context, old *store.DB, path string) error {
	cp, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		return fmt.Errorf("open the copy: %w", err)
	}
	defer cp.Close()
	rep, err := cp.Verify(ctx, "")
	if err != nil {
		return fmt.Errorf("verify the copy: %w", err)
	}
	if !rep.OK {
		return refuse(CodeCopyProblem, rep.Why)
	}
	// The original may have grown since the snapshot, never shrunk: the copy's
	// head must be in the original's chain.
	orig, err := old.Verify(ctx, rep.Head)
	if err != nil {
		return fmt.Errorf("verify the original: %w", err)
	}
	if rep.Events > 0 && orig.HeadSeq != rep.Events {
		return refuse(CodeCopyNotInChain, rep.Events)
	}
	if _, err := match.New(ctx, cp); err != nil {
		return fmt.Errorf("rebuild the match from the copy: %w", err)
	}
	return nil
}
