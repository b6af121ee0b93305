package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// A refused command on a new path leaves no file (and no folder) behind; a
// refusal on an existing record leaves it as it was.
func TestARefusedCommandOnANewPathLeavesNoFile(t *testing.T) {
	matchNew := []string{"match", "new", "--title", "T", "--player", "A", "--player", "B"}
	tests := []struct {
		name   string
		path   func(dir string) string
		args   []string
		wantOK bool
		gone   string // a folder that must not exist afterwards ("" none)
	}{
		{"match new with a bad control leaves no file", func(d string) string { return filepath.Join(d, "new.db") },
			append(append([]string{}, matchNew...), "--tc", "bogus"), false, ""},
		{"match new with an unknown zone leaves no file and no folder", func(d string) string { return filepath.Join(d, "a", "b", "new.db") },
			append(append([]string{}, matchNew...), "--tz", "Mars/Olympus"), false, "a"},
		{"a move on a new path leaves no file", func(d string) string { return filepath.Join(d, "move.db") },
			[]string{"move", "e4"}, false, ""},
		{"match new accepted makes the file", func(d string) string { return filepath.Join(d, "ok.db") },
			matchNew, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := tc.path(dir)
			_, errs, code := arb(t, db, tc.args...)
			if (code == 0) != tc.wantOK {
				t.Fatalf("exit %d (%s)", code, errs)
			}
			_, err := os.Stat(db)
			if exists := err == nil; exists != tc.wantOK {
				t.Errorf("the file exists: %v, want %v", exists, tc.wantOK)
			}
			left, _ := filepath.Glob(db + "*")
			if !tc.wantOK && len(left) > 0 {
				t.Errorf("files left behind: %v", left)
			}
			if tc.gone != "" {
				if _, err := os.Stat(filepath.Join(dir, tc.gone)); err == nil {
					t.Errorf("the folder %s made for the file is left behind", tc.gone)
				}
			}
		})
	}
	t.Run("a refusal on an existing record keeps it", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "m.db")
		mustArb(t, db, matchNew...)
		if _, _, code := arb(t, db, matchNew...); code == 0 {
			t.Fatal("a second match new was accepted")
		}
		if _, err := os.Stat(db); err != nil {
			t.Errorf("the record is gone: %v", err)
		}
		mustArb(t, db, "status")
	})
}
