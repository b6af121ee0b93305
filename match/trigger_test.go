package match

import (
	"strings"
	"testing"
	"time"

	"arbiter/assets"
	"arbiter/internal/outside"
)

// The append-only triggers dropped, or made again to do nothing, with the
// sqlite3 shell (branch htrust; docs/reliability.md, "An attacker's
// pass"): every UPDATE and DELETE of an event then succeeds. Before, the
// record verified and took commands (SchemaEdits names only what was
// added); now verify and an App's open say the trigger itself, in English
// and German, and nothing more is written.
func TestARecordWhoseAppendOnlyTriggerWasDroppedOrChangedDoesNotVerify(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stmts   []string
		code    Code
		says    string
		saysDE  string
		editsOK bool // an UPDATE of an event succeeds after the edit
	}{
		{"both guards dropped are an edit of the file", []string{"DROP TRIGGER events_no_update", "DROP TRIGGER events_no_delete"},
			CodeTriggerDropped, "the record's file no longer holds what Arbiter made: its triggers that refuse any change or deletion of an event (dropped by another program",
			"die Datei der Aufzeichnung enthält nicht mehr, was Arbiter angelegt hat: ihre Trigger, die jede Änderung und Löschung eines Ereignisses abweisen (", true},
		{"the delete guard dropped is an edit of the file", []string{"DROP TRIGGER events_no_delete"},
			CodeTriggerDropped, "the record's file no longer holds what Arbiter made: its trigger that refuses any deletion of an event (",
			"die Datei der Aufzeichnung enthält nicht mehr, was Arbiter angelegt hat: ihren Trigger, der jede Löschung eines Ereignisses abweist (", false},
		{"the update guard made again to do nothing is an edit of the file",
			[]string{"DROP TRIGGER events_no_update", "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT 1; END"},
			CodeTriggerChanged, "the record's file holds its trigger that refuses any change of an event in another form than Arbiter made it (",
			"die Datei der Aufzeichnung enthält ihren Trigger, der jede Änderung eines Ereignisses abweist, in einer anderen Form", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, _ := protectedRecord(t)
			outside.SQL(t, path, tc.stmts...)
			if tc.editsOK {
				// the attack the guard stood against: an event's actor
				// set and set back, unrefused
				outside.SQL(t, path, "UPDATE events SET actor = actor || 'x' WHERE seq = 1", "UPDATE events SET actor = substr(actor, 1, length(actor) - 1) WHERE seq = 1")
			}
			r := checkFile(t, path, Anchors{})
			if r.OK || r.Why == nil || r.Why.Code != string(tc.code) {
				t.Fatalf("verify says %v (%q), want %s", r.OK, r.Problem, tc.code)
			}
			if !strings.HasPrefix(r.Problem, tc.says) {
				t.Fatalf("the problem says %q, want it to begin %q", r.Problem, tc.says)
			}
			if de := assets.Dictionary("de").Say(r.Why); !strings.HasPrefix(de, tc.saysDE) {
				t.Fatalf("German: %q, want it to begin %q", de, tc.saysDE)
			}
			opensBrokenAndWritesNothing(t, path, tc.code)
		})
	}
}

// A running core finds the guard triggers dropped or made again at its
// next watch, as its open would (branch htrust): the drop moves SQLite's
// schema_version, and the watch checks the schema when it moved. Before,
// the console went on appending to a record whose events anyone could
// then update, and only the next open said it.
func TestARunningCoreFindsTheAppendOnlyTriggerDroppedAtItsNextWatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stmts []string
		want  Code
	}{
		{"the update guard dropped", []string{"DROP TRIGGER events_no_update"}, CodeTriggerDropped},
		{"the delete guard made again doing nothing", []string{"DROP TRIGGER events_no_delete", "CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT 1; END"}, CodeTriggerChanged},
		{"a trigger added", []string{"CREATE TRIGGER sneaky BEFORE INSERT ON events WHEN NEW.kind = 'move' BEGIN SELECT RAISE(IGNORE); END"}, CodeSchemaEdited},
	} {
		t.Run(tc.name+" is said at the next watch", func(t *testing.T) {
			saidAtTheNextWatch(t, tc.stmts, tc.want)
		})
	}
}

// saidAtTheNextWatch: a running core whose record another connection edits
// with stmts (each on a connection of its own) says want at its next
// watch, and refuses the next move as the record broken.
func saidAtTheNextWatch(t *testing.T, stmts []string, want Code) {
	t.Helper()
	f, pin, _ := operatorMatch(t)
	if _, err := f.app.Move(f.ctx, pin(f.at(30*time.Second)), "e4", false); err != nil {
		t.Fatal(err)
	}
	f.ok(f.app.Watch(f.ctx))
	if why := f.app.Why(); why != nil {
		t.Fatalf("the sound record's watch says %v", why)
	}
	for _, s := range stmts {
		outside.SQL(t, f.db.Path(), s)
	}
	f.ok(f.app.Watch(f.ctx))
	if why := f.app.Why(); why == nil || why.Code != string(want) {
		t.Fatalf("the watch says %v, want %s", why, want)
	}
	if _, err := f.app.Move(f.ctx, pin(f.at(30*time.Second)), "e5", false); ErrorCode(err) != CodeRecordBroken {
		t.Fatalf("a move after the edit: %v, want %s", err, CodeRecordBroken)
	}
}
