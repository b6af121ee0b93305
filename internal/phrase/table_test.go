package phrase

import "testing"

func TestATableOfRefusalsIsCheckedAgainstBothDictionaries(t *testing.T) {
	table := Table[string]{"too-late": "%s is after %s"}
	for _, tc := range []struct {
		name   string
		en, de Dictionary
		fails  int
	}{
		{"English as the table and German with the same arguments pass", Dictionary{"too-late": "%s is after %s"}, Dictionary{"too-late": "%s liegt nach %s"}, 0},
		{"English other than the table's is reported", Dictionary{"too-late": "%s is later than %s"}, Dictionary{"too-late": "%s liegt nach %s"}, 1},
		{"a code German lacks is reported", Dictionary{"too-late": "%s is after %s"}, Dictionary{}, 1},
		{"German with other arguments is reported", Dictionary{"too-late": "%s is after %s"}, Dictionary{"too-late": "%d liegt nach %s"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			CheckTable(&r, tc.en, tc.de, table)
			if len(r.errs) != tc.fails {
				t.Errorf("%d problems reported, want %d: %v", len(r.errs), tc.fails, r.errs)
			}
		})
	}
	t.Run("a refusal says the table's English and carries its code", func(t *testing.T) {
		err := table.Refuse("too-late", "20:01", "20:00")
		if err.Error() != "20:01 is after 20:00" || err.Code != "too-late" {
			t.Errorf("%q with code %q", err.Error(), err.Code)
		}
	})
}
