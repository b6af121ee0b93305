package service

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/assets"
	"arbiter/internal/phrase"
	"arbiter/match"
)

// TestEveryServiceRefusalHasItsWordsInBothDictionaries: the service's own
// refusals are codes (issue 25), worded by the shared dictionary — in
// English exactly as their Error(), in German with the same arguments.
func TestEveryServiceRefusalHasItsWordsInBothDictionaries(t *testing.T) {
	phrase.CheckTable(t, assets.Dictionary("en"), assets.Dictionary("de"), english)
}

// codeOf is the code of the phrase in err.
func codeOf(err error) match.Code {
	if p, ok := err.(*phrase.Error); ok {
		return match.Code(p.Code)
	}
	return ""
}

func TestAFileTheUserNamesIsRefusedWithTheCodeOfWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.key")
	if err := os.WriteFile(big, make([]byte, 70<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	de := assets.Dictionary("de")
	for _, tc := range []struct {
		name, path string
		want       match.Code
		german     string
	}{
		{"a file that is not there cannot be read", filepath.Join(dir, "none.key"), CodeCannotRead, "Schlüsseldatei"},
		{"a folder is not a regular file", dir, CodeNotRegular, "ein Ordner"},
		{"a file larger than a key file is refused", big, CodeTooLarge, "größer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadKeyFile(tc.path)
			if codeOf(err) != tc.want {
				t.Fatalf("ReadKeyFile(%s): %v (%s), want %s", tc.path, err, codeOf(err), tc.want)
			}
			if said := de.Say(err); !strings.Contains(said, tc.german) {
				t.Errorf("in German: %q", said)
			}
		})
	}
	if _, err := OpenReadOnly(t.Context(), dir); codeOf(err) != CodeNotARecordFile {
		t.Errorf("a folder opened as a record: %v", err)
	}
}
