package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

// A schema edited by another program (issue 24, "a forged record under the
// genuine key"; principle 1): a trigger made with the sqlite3 shell can drop
// an appended event without an error. Before, `arbiter move e4` then said
// "1.e4 recorded as event 3" of a record that held 2 events, and verify
// passed: an acknowledged move that was never written. Now Append refuses
// (ErrNotWritten: the transaction writes nothing), and SchemaEdits names what
// Arbiter did not make, which the record's check reports (match).
func TestAnEventATriggerDropsIsNeverSaidWritten(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, trigger string
	}{
		{"a trigger that ignores every insert", "CREATE TRIGGER sneaky BEFORE INSERT ON events BEGIN SELECT RAISE(IGNORE); END"},
		{"a trigger that ignores one kind", "CREATE TRIGGER sneaky BEFORE INSERT ON events WHEN NEW.kind = 'move' BEGIN SELECT RAISE(IGNORE); END"},
	} {
		t.Run(tc.name+": the append fails and the transaction writes nothing", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "match.arbiter")
			db := openTest(t, path)
			appendEvents(t, db, 2)
			rawExec(t, path, tc.trigger)
			_, err := db.Update(ctx, func(tx *Tx) error {
				if _, err := tx.Append(Event{Match: 1, Game: 1, At: testEvent(0).At, Role: "arbiter", Actor: "A", Kind: "note", Payload: []byte(`{}`)}); err != nil {
					return err
				}
				e := testEvent(3)
				e.Kind = "move"
				_, err := tx.Append(e)
				return err
			})
			if !errors.Is(err, ErrNotWritten) {
				t.Fatalf("the append said %v, want ErrNotWritten", err)
			}
			if seq, _, err := db.Head(ctx); err != nil || seq != 2 {
				t.Fatalf("the record holds %d events (%v), want the 2 before", seq, err)
			}
		})
	}
}

func TestSchemaEditsNamesWhatArbiterDidNotMake(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		stmts []string
		want  []string
	}{
		{"a record as Arbiter made it has none", nil, nil},
		{"SQLite's statistics after an ANALYZE are none", []string{"ANALYZE"}, nil},
		{"a trigger", []string{"CREATE TRIGGER sneaky AFTER INSERT ON events BEGIN SELECT 1; END"}, []string{"trigger sneaky"}},
		{"an index, a view and a table", []string{"CREATE INDEX by_kind ON events (kind)", "CREATE VIEW moves AS SELECT * FROM events", "CREATE TABLE notes (x)"},
			[]string{"index by_kind", "table notes", "view moves"}},
		{"the guard trigger dropped and made again under another name", []string{"DROP TRIGGER events_no_update", "CREATE TRIGGER no_update BEFORE UPDATE ON events BEGIN SELECT 1; END"}, []string{"trigger no_update"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "match.arbiter")
			db := openTest(t, path)
			appendEvents(t, db, 2)
			if len(tc.stmts) > 0 {
				rawExec(t, path, tc.stmts...)
			}
			got, err := db.SchemaEdits(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("SchemaEdits = %q, want %q", got, tc.want)
			}
		})
	}
}
