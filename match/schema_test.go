package match

import (
	"context"
	"testing"
	"time"

	"arbiter/internal/outside"
)

// A record whose schema another program edited does not verify, naming what
// it added, and takes nothing more (store.DB.SchemaEdits): a trigger can
// drop an event Arbiter appends without an error, so the file is no longer
// one whose every acknowledged event is in it. Before, verify passed on a
// record with such a trigger and every command went on writing into it.
func TestARecordWhoseSchemaWasEditedDoesNotVerifyAndTakesNothingMore(t *testing.T) {
	for _, tc := range []struct {
		name, stmt, says string
	}{
		{"a trigger that drops moves", "CREATE TRIGGER sneaky BEFORE INSERT ON events WHEN NEW.kind = 'move' BEGIN SELECT RAISE(IGNORE); END", "trigger sneaky"},
		{"an index", "CREATE INDEX by_kind ON events (kind)", "index by_kind"},
		{"a view", "CREATE VIEW moves AS SELECT * FROM events WHERE kind = 'move'", "view moves"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, _ := protectedRecord(t)
			outside.SQL(t, path, tc.stmt)
			r := checkFile(t, path, Anchors{})
			if r.OK || r.Why == nil || r.Why.Code != string(CodeSchemaEdited) {
				t.Fatalf("verify says %v (%q), want %s", r.OK, r.Problem, CodeSchemaEdited)
			}
			if want := "the record's file holds " + tc.says + ", which Arbiter did not make"; len(r.Problem) < len(want) || r.Problem[:len(want)] != want {
				t.Fatalf("the problem says %q, want it to begin %q", r.Problem, want)
			}
			opensBrokenAndWritesNothing(t, path, CodeSchemaEdited)
		})
	}
}

// opensBrokenAndWritesNothing opens the edited record at path as a console
// or station would: the App names the edit (code) and refuses the next
// command (record-broken), and the record gains no event.
func opensBrokenAndWritesNothing(t *testing.T, path string, code Code) {
	t.Helper()
	ctx := context.Background()
	app, db := openAppAt(t, path)
	if app.Why() == nil || app.Why().Code != string(code) {
		t.Fatalf("the record opens with the problem %v, want %s", app.Why(), code)
	}
	before := app.State().Seq
	c := Cmd{At: app.State().LastAt.Add(time.Second), Actor: Actor{Role: RoleArbiter, PIN: arbiterPass}}
	if _, err := app.Incident(ctx, c, "note", IncidentArgs{Text: "after the edit"}); ErrorCode(err) != CodeRecordBroken {
		t.Fatalf("a note on the edited record: %v, want %s", err, CodeRecordBroken)
	}
	if seq, _, _ := db.Head(ctx); seq != before {
		t.Fatalf("the record went from %d to %d events", before, seq)
	}
}
