package store

import (
	"context"
	"fmt"
	"strings"
)

// made are the objects of the record's schema Arbiter makes (its
// migrations, and events_game and the UNIQUE index on hash of a schema
// before 6, read without migrating it), by type and name. SQLite's own
// (named sqlite_…: the indexes of keys, sqlite_stat1 after an ANALYZE) are
// not an edit.
var made = map[string]bool{
	"table events": true, "table heartbeat": true, "table meta": true, "table signatures": true,
	"trigger events_no_update": true, "trigger events_no_delete": true,
	"index events_game": true,
}

// SchemaEdits names the objects of the file's schema that Arbiter did not
// make ("trigger sneaky", "view v"): another program edited the schema. A
// trigger can drop an appended row without an error, or change what is
// written after it; an index, view or table was added by someone writing
// the file. None is evidence, but the file is no longer as Arbiter wrote it
// (docs/store.md, "The file").
func (db *DB) SchemaEdits(ctx context.Context) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT type, name FROM sqlite_schema ORDER BY type, name")
	if err != nil {
		return nil, fmt.Errorf("store: read the schema: %w", mapErr(err))
	}
	defer rows.Close()
	var edits []string
	for rows.Next() {
		var typ, name string
		if err := rows.Scan(&typ, &name); err != nil {
			return nil, fmt.Errorf("store: read the schema: %w", mapErr(err))
		}
		if strings.HasPrefix(name, "sqlite_") || made[typ+" "+name] {
			continue
		}
		edits = append(edits, typ+" "+name)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read the schema: %w", mapErr(err))
	}
	return edits, nil
}
