package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
)

// The append-only triggers dropped or changed with the sqlite3 shell
// (branch htrust; docs/reliability.md, "An attacker's pass"): with them
// gone, UPDATE and DELETE of events succeed. Before, nothing said it:
// SchemaEdits names only what was added, and verify of such a file
// passed (exit 0). GuardEdits names each guard missing or not as Arbiter
// made it.
func TestGuardEditsNamesTheAppendOnlyTriggersDroppedOrChanged(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name             string
		stmts            []string
		dropped, changed []string
	}{
		{"a record as Arbiter made it has none", nil, nil, nil},
		{"the update guard dropped is named", []string{"DROP TRIGGER events_no_update"}, []string{"events_no_update"}, nil},
		{"both guards dropped are named", []string{"DROP TRIGGER events_no_update", "DROP TRIGGER events_no_delete"}, []string{"events_no_update", "events_no_delete"}, nil},
		{"a guard made again under its name doing nothing is changed",
			[]string{"DROP TRIGGER events_no_delete", "CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT 1; END"}, nil, []string{"events_no_delete"}},
		{"a guard made again that never fires (WHEN 0) is changed",
			[]string{"DROP TRIGGER events_no_update", "CREATE TRIGGER events_no_update BEFORE UPDATE ON events WHEN 0 BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"}, nil, []string{"events_no_update"}},
		{"a guard made again with the same words on one line is not an edit",
			[]string{"DROP TRIGGER events_no_update", "create trigger events_no_update before update on events begin select raise(abort, 'events are append-only'); end"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "match.arbiter")
			db := openTest(t, path)
			appendEvents(t, db, 2)
			if len(tc.stmts) > 0 {
				rawExec(t, path, tc.stmts...)
			}
			dropped, changed, err := db.GuardEdits(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(dropped, tc.dropped) || !reflect.DeepEqual(changed, tc.changed) {
				t.Fatalf("GuardEdits = dropped %q, changed %q; want %q, %q", dropped, changed, tc.dropped, tc.changed)
			}
		})
	}
	// every schema version's guards, read as they are (verify reads an
	// older record read-only, without migrating it)
	for v := 1; v <= 6; v++ {
		t.Run("the guards of a record of schema version "+string(rune('0'+v))+" are Arbiter's", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "match.arbiter")
			oldRecord(t, path, v, 2)
			ro, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			dropped, changed, err := ro.GuardEdits(ctx)
			if err != nil || dropped != nil || changed != nil {
				t.Fatalf("GuardEdits = dropped %q, changed %q (%v); want none", dropped, changed, err)
			}
		})
	}
}
