package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"arbiter/service"
)

func init() {
	register(&command{name: "backup", reads: true, roles: rolesRead, usage: "backup FILE",
		summary: "Copy the live database consistently to a new FILE (also while the console writes) and verify the copy.",
		run:     runBackup})
}

// runBackup writes a consistent copy of the database with store.Backup
// (VACUUM INTO, one read snapshot, so a console writing at the same time
// cannot tear it), then opens the copy read-only and checks that its hash
// chain is intact and ends at the head the original had when the copy was
// taken or later. It never overwrites a file and never writes to the original.
func runBackup(r *runner, a *args) error {
	if err := a.done("backup", 1); err != nil {
		return err
	}
	if len(a.pos) != 1 || a.pos[0] == "" {
		return fmt.Errorf("backup needs the file to write the copy to, e.g. 'arbiter backup match-copy.arbiter'")
	}
	dest := a.pos[0]
	if same, _ := samePath(dest, r.g.DB); same {
		return fmt.Errorf("the backup file %s is the database itself: give a new file name", dest)
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("%s already exists: choose a new file name, a backup never overwrites a file", dest)
	}
	if st, err := os.Stat(filepath.Dir(dest)); err != nil || !st.IsDir() {
		return fmt.Errorf("the folder %s does not exist: create it or choose another place for the backup", filepath.Dir(dest))
	}
	if err := r.db.Backup(r.ctx, dest); err != nil {
		os.Remove(dest) // a partial copy (disk full) is worth nothing
		if errors.Is(err, service.ErrDiskFull) {
			return fmt.Errorf("the disk holding %s is full: nothing was copied; choose a place with free space", dest)
		}
		return err
	}
	events, head, err := verifyCopy(r.ctx, dest)
	if err != nil {
		return err
	}
	r.out("%s\n", head)
	r.tell("%s copied to %s and verified", count(int(events), "event", "events"), dest)
	return nil
}

// verifyCopy opens a fresh copy read-only and checks its chain.
func verifyCopy(ctx context.Context, path string) (int64, string, error) {
	return service.VerifyCopy(ctx, path)
}

// samePath reports whether a and b name the same file (by path, or by inode
// when both exist).
func samePath(a, b string) (bool, error) {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true, nil
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}
