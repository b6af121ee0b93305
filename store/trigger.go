package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// guards are the append-only triggers of the events table as the
// migrations make them (0001, and 0006 again after its rebuild), by name:
// each refuses an UPDATE or a DELETE of an event. Their text is compared
// with the file's as words, case folded (guardText), so a line ending or
// an indent is not an edit.
var guards = []struct{ name, sql string }{
	{"events_no_update", `CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
	SELECT RAISE(ABORT, 'events are append-only');
END`},
	{"events_no_delete", `CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
	SELECT RAISE(ABORT, 'events are append-only');
END`},
}

// GuardEdits names the append-only triggers of the events table that the
// file no longer holds (dropped) or holds with another text than
// Arbiter's (changed: a trigger of that name that does something else,
// SELECT 1 instead of the RAISE). With them gone, the sqlite3 shell
// updates and deletes events freely; the hash chain and the signatures
// find most such edits later, but a dropped guard is itself an edit of the
// file, which SchemaEdits does not see (it names only what was added).
// A file without an events table (not a record yet) has no guards to miss.
func (db *DB) GuardEdits(ctx context.Context) (dropped, changed []string, err error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT name, coalesce(sql, '') FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'events'")
	if err != nil {
		return nil, nil, fmt.Errorf("store: read the schema's triggers: %w", mapErr(err))
	}
	defer rows.Close()
	have := map[string]string{}
	for rows.Next() {
		var name, sql string
		if err := rows.Scan(&name, &sql); err != nil {
			return nil, nil, fmt.Errorf("store: read the schema's triggers: %w", mapErr(err))
		}
		have[name] = sql
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("store: read the schema's triggers: %w", mapErr(err))
	}
	var events int
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'events'").Scan(&events); err != nil {
		return nil, nil, fmt.Errorf("store: read the schema: %w", mapErr(err))
	}
	if events == 0 {
		return nil, nil, nil
	}
	for _, g := range guards {
		sql, ok := have[g.name]
		switch {
		case !ok:
			dropped = append(dropped, g.name)
		case guardText(sql) != guardText(g.sql):
			changed = append(changed, g.name)
		}
	}
	return dropped, changed, nil
}

// guardText is a trigger's SQL as words, case folded.
func guardText(sql string) string {
	return strings.ToLower(strings.Join(strings.Fields(sql), " "))
}

// RowsOutsideChain counts the event rows no walk of the chain reads: those
// numbered below 1. Arbiter never writes them: the table refuses them
// (CHECK (seq >= 1)). But another program may take that refusal out of the
// table's definition (PRAGMA writable_schema, which SchemaEdits does not
// see: the names stay), insert such a row, and put the definition back as
// it was; the chain is read from seq 1 on, so the row was in the file
// unseen while verify said the record whole — a "game.end" at seq -1 that
// the sqlite3 shell, or any program reading the table, shows first
// (branch hattack). (A signature row beside no event is found by the walk,
// which reads every signature row.) One range of the table's key: no scan.
func (db *DB) RowsOutsideChain(ctx context.Context) (int64, error) {
	var tables int
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'events'").Scan(&tables); err != nil {
		return 0, fmt.Errorf("store: read the schema: %w", mapErr(err))
	}
	if tables == 0 {
		return 0, nil // not a record yet
	}
	var n int64
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM events WHERE seq < 1").Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count the rows outside the chain: %w", mapErr(err))
	}
	return n, nil
}

// tables are the definitions of Arbiter's tables as the migrations leave
// them, made once in a database of their own in memory (every file at this
// schema version ran the same statements: the tables of before were
// rebuilt or renamed by them).
var tables struct {
	once sync.Once
	defs map[string]string
	err  error
}

// tableDefinitions runs the migrations in memory and reads back the
// definitions of the tables they make.
func tableDefinitions(ctx context.Context) (map[string]string, error) {
	tables.once.Do(func() {
		mem, err := sql.Open("sqlite", ":memory:")
		if err != nil {
			tables.err = err
			return
		}
		defer mem.Close()
		mem.SetMaxOpenConns(1)
		ms, err := migrations()
		if err != nil {
			tables.err = err
			return
		}
		for _, m := range ms {
			if _, err := mem.ExecContext(ctx, m.sql); err != nil {
				tables.err = fmt.Errorf("migration %s in memory: %w", m.name, err)
				return
			}
		}
		tables.defs, tables.err = definitions(ctx, mem)
	})
	return tables.defs, tables.err
}

// definitions are the tables' definitions a database holds, by name
// (SQLite's own left out).
func definitions(ctx context.Context, db *sql.DB) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT name, coalesce(sql, '') FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	defs := map[string]string{}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			return nil, mapErr(err)
		}
		defs[name] = def
	}
	return defs, mapErr(rows.Err())
}

// TableEdits names Arbiter's tables whose definition the file holds in
// another form than the migrations make it (compared as words, case
// folded, as the guards are): another program rewrote it with PRAGMA
// writable_schema — a CHECK taken out, which lets rows in that Arbiter
// refuses; SchemaEdits names only objects added, and the names stay
// (branch hattack). Only a file at this binary's schema version is
// compared (an older one read without migrating has the tables of its
// version).
func (db *DB) TableEdits(ctx context.Context) ([]string, error) {
	var uv int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&uv); err != nil {
		return nil, fmt.Errorf("store: read the schema: %w", mapErr(err))
	}
	if uv != SchemaVersion() {
		return nil, nil
	}
	want, err := tableDefinitions(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: the tables Arbiter makes: %w", err)
	}
	have, err := definitions(ctx, db.sql)
	if err != nil {
		return nil, fmt.Errorf("store: read the schema: %w", err)
	}
	var edits []string
	for name, def := range want {
		if got, ok := have[name]; ok && guardText(got) != guardText(def) {
			edits = append(edits, name)
		}
	}
	sort.Strings(edits)
	return edits, nil
}
