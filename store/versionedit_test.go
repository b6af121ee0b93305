package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"arbiter/internal/phrase"
)

// TestOpenRefusesASchemaVersionLoweredBelowItsTables (principle 1, branch
// hanchor, the attacker's pass with sqlite3): a record whose schema version
// was lowered with PRAGMA user_version had the migrations run again over
// the tables they made — the first failed ("table signatures already
// exists"), after a backup was left beside the file, and every command,
// verify too, said only that. Now opening it is refused in one sentence
// saying what was changed and what to do, with nothing written and nothing
// left beside it; the version lowered to one its tables still fit (5, whose
// migration 6 rebuilds the events' table as it is) opens as before.
func TestOpenRefusesASchemaVersionLoweredBelowItsTables(t *testing.T) {
	for _, tc := range []struct {
		lowered, held int
		refused       bool
	}{{1, 5, true}, {2, 5, true}, {3, 5, true}, {4, 5, true}, {5, 5, false}} {
		t.Run(fmt.Sprintf("lowered to %d: refused %v", tc.lowered, tc.refused), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "match.arbiter")
			db := openTest(t, path)
			appendEvents(t, db, 3)
			db.Close()
			rawExec(t, path, fmt.Sprintf("PRAGMA user_version = %d", tc.lowered))
			sum, dir := fileSum(t, path), dirList(t, filepath.Dir(path))
			db, err := Open(context.Background(), path)
			if !tc.refused {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				db.Close()
				return
			}
			var p *phrase.Error
			if err == nil || !errors.As(err, &p) || p.Code != string(CodeVersionEdited) {
				if db != nil {
					db.Close()
				}
				t.Fatalf("Open: %v, want %s", err, CodeVersionEdited)
			}
			want := fmt.Sprintf("the file says its schema is of version %d, but its tables are of version %d: the version in its header was changed by another program, and nothing was written to it; keep it as it is for the appeals board and continue from a backup", tc.lowered, tc.held)
			if p.Error() != want {
				t.Errorf("said %q\nwant %q", p.Error(), want)
			}
			if fileSum(t, path) != sum || dirList(t, filepath.Dir(path)) != dir {
				t.Errorf("the file or its folder changed: %s", dirList(t, filepath.Dir(path)))
			}
		})
	}
}
