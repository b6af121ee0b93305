package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// NotRegularError is the refusal of a target that exists and is not a
// regular file. Kind names what it is ("a symbolic link", "a folder", "a
// device", "a named pipe (FIFO)", "a socket", "not a regular file").
type NotRegularError struct {
	Path string
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: choose a file name to write to", e.Path, e.Kind)
}

// ErrNotRegular is matched by every *NotRegularError (errors.Is).
var ErrNotRegular = errors.New("not a regular file")

func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// kind names a file mode that is not a regular file's.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// Check refuses path when it exists and is not a regular file. A path that
// does not exist yet passes.
func Check(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return &NotRegularError{Path: path, Kind: kind(fi.Mode())}
	}
	return nil
}

// CheckTarget refuses what Write would refuse before writing anything:
// path when it exists and is not a regular file (Check), and a folder of
// path that does not exist or is not a folder. A command checks it before
// it changes anything for the write (an export given with the arbiter's
// credential signs the head first).
func CheckTarget(path string) error {
	if err := Check(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return folderError(path, dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a folder: choose another", path, dir)
	}
	return nil
}

// Write writes data to path with permissions perm, atomically: through a
// temporary file in the same folder that is synced and renamed over path.
// It refuses a path that is not a regular file (see Check). On error
// nothing is left behind and an existing file at path is unchanged.
func Write(path string, data []byte, perm fs.FileMode) error {
	if err := Check(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".arbiter-write-*")
	if err != nil {
		return folderError(path, dir, err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(perm)
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		// The target may have become something else since Check.
		werr = Check(path)
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		var nr *NotRegularError
		if errors.As(werr, &nr) {
			return werr
		}
		return fmt.Errorf("cannot write %s: %w", path, werr)
	}
	syncDir(dir)
	return nil
}

// folderError says why nothing could be written into dir, naming the
// folder and what to do rather than the temporary file that was refused
// ("open /tmp/out/.arbiter-write-2226067617: no such file or directory").
func folderError(path, dir string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: the folder %s does not exist: create it or choose another", path, dir)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot write %s: the folder %s may not be written to: choose another", path, dir)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the temporary file's name means nothing to the reader
	}
	return fmt.Errorf("cannot write %s: %w", path, err)
}

// syncDir makes the rename durable where the system allows syncing a folder.
func syncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
