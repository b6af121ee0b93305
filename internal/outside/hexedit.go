package outside

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// A hex editor is the writer of a record that is not Arbiter nor SQLite:
// it changes bytes of the file, or of its write-ahead log, in place, in a
// process of its own (a test's process holds the record in SQLite and must
// not open and close the file by other means: store's held.go). That
// process is the test binary run again with only a helper test selected,
// whose body is HexEditHelper.
const (
	hexFileEnv = "ARBITER_HEXEDIT_FILE"
	hexFromEnv = "ARBITER_HEXEDIT_FROM"
	hexToEnv   = "ARBITER_HEXEDIT_TO"
	hexAllEnv  = "ARBITER_HEXEDIT_ALL"
)

// HexEdit writes to over from (as long) in the file at path, from another
// process: the test binary run again with only the test named helper,
// which calls HexEditHelper. With all it writes over every place the file
// holds from (the write-ahead log holds a page once per commit that wrote
// it), else over the one place the file must hold it.
func HexEdit(t testing.TB, helper, path, from, to string, all bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), hexFileEnv+"="+path, hexFromEnv+"="+from, hexToEnv+"="+to)
	if all {
		cmd.Env = append(cmd.Env, hexAllEnv+"=1")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the hex edit of %s: %v: %s", path, err, out)
	}
}

// HexEditHelper is the body of the helper test HexEdit runs: it makes the
// edit its environment names, and is skipped, saying why (the test it
// serves), when run as a test of its own.
func HexEditHelper(t *testing.T, why string) {
	path := os.Getenv(hexFileEnv)
	if path == "" {
		t.Skip(why)
	}
	if err := hexEdit(path, []byte(os.Getenv(hexFromEnv)), []byte(os.Getenv(hexToEnv)), os.Getenv(hexAllEnv) != ""); err != nil {
		t.Fatal(err)
	}
}

func hexEdit(path string, from, to []byte, all bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if n := bytes.Count(b, from); (n != 1 && !all) || n == 0 || len(from) != len(to) {
		return fmt.Errorf("the file holds %q %d times, want once, or at least once for every place (and %q as long)", from, n, to)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	for off := 0; ; {
		i := bytes.Index(b[off:], from)
		if i < 0 {
			break
		}
		if _, err := f.WriteAt(to, int64(off+i)); err != nil {
			f.Close()
			return err
		}
		off += i + len(from)
	}
	return f.Close()
}
