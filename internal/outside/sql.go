package outside

import (
	"database/sql"
	"testing"

	_ "modernc.org/sqlite" // the driver a plain SQLite client would use
)

// SQL is the writer of a record that is SQLite itself, not Arbiter: it runs
// stmts on the file at path through a plain connection of its own (an
// editor of the events, a VACUUM INTO), as a tamperer with the sqlite3
// shell would, and fails t at the first statement refused.
func SQL(t testing.TB, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}
