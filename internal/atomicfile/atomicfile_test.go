package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// names lists the files in dir (to see that nothing was left behind).
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range es {
		ns = append(ns, e.Name())
	}
	return ns
}

func TestWriteCreatesOrReplacesARegularFileWhole(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before []byte // nil: no file yet
	}{
		{"a new file is created with the data", nil},
		{"an existing regular file is replaced by the data", []byte("old contents that are longer than the new")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "match.pgn")
			if tc.before != nil {
				if err := os.WriteFile(p, tc.before, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := Write(p, []byte("1. e4 *\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(p)
			if err != nil || string(got) != "1. e4 *\n" {
				t.Fatalf("file holds %q (%v), want the new data", got, err)
			}
			if ns := names(t, dir); len(ns) != 1 {
				t.Errorf("folder holds %v, want only match.pgn (no temporary file left)", ns)
			}
			if runtime.GOOS != "windows" {
				if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
					t.Errorf("permissions %v, want 0644", fi.Mode().Perm())
				}
			}
		})
	}
}

func TestWriteRefusesATargetThatIsNotARegularFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links, FIFOs and /dev/null are Unix files")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.txt")
	if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.pgn")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe.pgn")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder.pgn")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, kind string
	}{
		{"a symbolic link is refused, not written through", link, "a symbolic link"},
		{"a named pipe is refused", fifo, "a named pipe (FIFO)"},
		{"a folder is refused", folder, "a folder"},
		{"a device is refused", "/dev/null", "a device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := names(t, dir)
			err := Write(tc.path, []byte("data"), 0o644)
			var nr *NotRegularError
			if !errors.As(err, &nr) || nr.Kind != tc.kind || !errors.Is(err, ErrNotRegular) {
				t.Fatalf("Write(%s) = %v, want a NotRegularError of kind %q", tc.path, err, tc.kind)
			}
			if got := names(t, dir); len(got) != len(before) {
				t.Errorf("folder went from %v to %v: a refused write must leave nothing", before, got)
			}
		})
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Errorf("the link's target now holds %q: the write went through the link", b)
	}
}

func TestWriteIntoAMissingFolderFailsAndCreatesNothing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "no-such-folder", "x.pgn")
	err := Write(p, []byte("x"), 0o644)
	if err == nil {
		t.Fatal("Write into a missing folder succeeded")
	}
	// the sentence names the folder and what to do, not the temporary file
	want := "cannot write " + p + ": the folder " + filepath.Dir(p) + " does not exist: create it or choose another"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if _, err := os.Stat(filepath.Dir(p)); err == nil {
		t.Error("Write created the missing folder")
	}
}
