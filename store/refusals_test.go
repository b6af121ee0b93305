package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
)

// TestEveryStoreRefusalHasItsWordsInBothDictionaries: the store's refusals
// are codes (issue 25), worded by the shared dictionary — in English exactly
// as their Error(), in German with the same arguments.
func TestEveryStoreRefusalHasItsWordsInBothDictionaries(t *testing.T) {
	phrase.CheckTable(t, assets.Dictionary("en"), assets.Dictionary("de"), english)
}

// TestTheStoreRefusesWithTheCodeOfWhatIsWrong: a refusal a person reads
// carries its code (and its English as before, byte for byte), and still
// wraps the sentinel callers test with errors.Is.
func TestTheStoreRefusesWithTheCodeOfWhatIsWrong(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	foreign := filepath.Join(dir, "foreign.arbiter")
	if err := os.WriteFile(foreign, []byte("not a database, a letter"), 0o600); err != nil {
		t.Fatal(err)
	}
	noFolder := filepath.Join(dir, "no such folder", "m.arbiter")
	noFile := filepath.Join(dir, "m.arbiter")
	tests := []struct {
		name    string
		do      func() error
		code    Code
		is      error
		english string // "" where it names a file the system words
	}{
		{"a file in a missing folder is refused with the folder named", func() error { _, err := Open(ctx, noFolder); return err },
			CodeNoFolder, ErrNotFound,
			fmt.Sprintf("store: open %s: the folder %s does not exist; create it or choose another place (not found)", noFolder, filepath.Dir(noFolder))},
		{"a missing file is not opened read-only", func() error { _, err := OpenReadOnly(ctx, noFile); return err },
			CodeNoFile, ErrNotFound, ""},
		{"a file that is not an Arbiter database is refused", func() error { _, err := Open(ctx, foreign); return err },
			CodeForeign, ErrForeign, "store: open " + foreign + ": the file is not an Arbiter database; open the match's database file"},
		{"a fault count below 1 is refused", func() error { _, _, err := parseFault("after-insert:0"); return err },
			CodeFaultCount, nil, `count "0" is not a whole number of at least 1; write POINT:N, e.g. after-insert:2`},
		{"an unknown fault point is refused", func() error { _, _, err := parseFault("during-lunch"); return err },
			CodeFaultPoint, nil, `point "during-lunch" is not one of ` + strings.Join(FaultPoints, ", ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if got := ErrorCode(err); got != tt.code {
				t.Fatalf("code = %q (%v), want %q", got, err, tt.code)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not wrap %v", err, tt.is)
			}
			if tt.english != "" && err.Error() != tt.english {
				t.Errorf("English = %q, want %q", err.Error(), tt.english)
			}
		})
	}
}
