package match

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"arbiter/assets"
	"arbiter/internal/outside"
)

// definition has another program replace from with to in the definition of
// table name in the file's schema (PRAGMA writable_schema, as the sqlite3
// shell allows): the table's name stays, so SchemaEdits names nothing.
func definition(name, from, to string) string {
	return "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, '" + from + "', '" + to +
		"') WHERE type = 'table' AND name = '" + name + "'; PRAGMA writable_schema = OFF"
}

// A row no walk of the chain reads is an edit of the file (principle 1;
// the attacker's pass of 2026-12-06). The events table refuses an event
// numbered below 1 (CHECK (seq >= 1)), and every walk reads from seq 1 on;
// but another program may take the refusal out of the table's definition
// with PRAGMA writable_schema, insert a game.end at seq -1, and put the
// definition back word for word. Before, verify said the record whole, its
// open took commands, and the sqlite3 shell (any program reading the
// table) showed the forged result first. Now verify, the open and the
// running core's schema check say record-check-rows-outside-chain.
func TestARowOutsideTheChainIsAnEditOfTheFile(t *testing.T) {
	const seqCheck = "CHECK (seq >= 1)"
	for _, tc := range []struct {
		name   string
		stmts  []string
		counts string // the rows outside, as the English says them
		defn   bool   // the events table's definition was edited and put back
	}{
		{"a game.end at seq -1, put in while the table's refusal was taken out, then put back",
			[]string{
				definition("events", seqCheck, ""),
				`INSERT INTO events (seq, match, game, at_ns, role, actor, kind, payload, prev, hash, received_ns)
				 SELECT -1, match, game, at_ns, 'arbiter', actor, 'game.end', '{"result":"0-1"}', prev, hash, received_ns FROM events WHERE seq = 5`,
				definition("events", "seq         INTEGER PRIMARY KEY ", "seq         INTEGER PRIMARY KEY "+seqCheck),
			}, "holds event rows numbered below 1 (1 of them)", true},
	} {
		t.Run(tc.name+" does not verify", func(t *testing.T) {
			path, _ := protectedRecord(t)
			head := func() string {
				evs := readEvents(t, path)
				return evs[len(evs)-1].Hash
			}
			before := head()
			for _, s := range tc.stmts {
				outside.SQL(t, path, s)
			}
			if tc.defn {
				// the definition is Arbiter's again, word for word
				if got := tableSQL(t, path, "events"); !strings.Contains(got, "seq         INTEGER PRIMARY KEY "+seqCheck) {
					t.Fatalf("the definition was not put back: %s", got)
				}
			}
			if head() != before {
				t.Fatal("the chain itself changed: the test edits only rows outside it")
			}
			r := checkFile(t, path, Anchors{})
			if r.OK || r.Why == nil || r.Why.Code != string(CodeRowsOutsideChain) || !strings.Contains(r.Problem, tc.counts) {
				t.Fatalf("verify says %v (%q), want %s saying %q", r.OK, r.Problem, CodeRowsOutsideChain, tc.counts)
			}
			if de := assets.Dictionary("de").Say(r.Why); !strings.Contains(de, "außerhalb ihrer Kette") {
				t.Fatalf("German: %q", de)
			}
			opensBrokenAndWritesNothing(t, path, CodeRowsOutsideChain)
		})
	}
}

// tableSQL is table name's definition as the file holds it.
func tableSQL(t *testing.T, path, name string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var def string
	if err := db.QueryRow("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", name).Scan(&def); err != nil {
		t.Fatal(err)
	}
	return def
}

// A table's definition rewritten by another program is an edit of the file
// (the attacker's pass of 2026-12-06): PRAGMA writable_schema lets the
// sqlite3 shell take a refusal out of a table (a CHECK), under the same
// name, so SchemaEdits, which names objects added, saw nothing; verify
// said the record whole and the next command was recorded into it. Now
// the definitions of Arbiter's tables are compared with the migrations'
// (as words), at verify, every open and the running core's schema check.
func TestATableDefinitionRewrittenIsAnEditOfTheFile(t *testing.T) {
	for _, tc := range []struct {
		name, table, from, to, says string
	}{
		{"the signatures table's refusal of a short signature taken out", "signatures", "CHECK (length(sig) = 128)", "", "its table of signatures"},
		{"the events table's refusal of an event numbered below 1 taken out", "events", "CHECK (seq >= 1)", "", "its table of events"},
		{"the heartbeat table made to take more than one row", "heartbeat", "CHECK (id = 1)", "", "its heartbeat table"},
	} {
		t.Run(tc.name+" does not verify", func(t *testing.T) {
			path, _ := protectedRecord(t)
			outside.SQL(t, path, definition(tc.table, tc.from, tc.to))
			if got := tableSQL(t, path, tc.table); strings.Contains(got, tc.from) {
				t.Fatalf("the definition was not rewritten: %s", got)
			}
			r := checkFile(t, path, Anchors{})
			if r.OK || r.Why == nil || r.Why.Code != string(CodeTableChanged) || !strings.Contains(r.Problem, "holds "+tc.says+" in another form") {
				t.Fatalf("verify says %v (%q), want %s naming %s", r.OK, r.Problem, CodeTableChanged, tc.says)
			}
			if de := assets.Dictionary("de").Say(r.Why); !strings.Contains(de, "umgeschrieben") {
				t.Fatalf("German: %q", de)
			}
			opensBrokenAndWritesNothing(t, path, CodeTableChanged)
		})
	}
}

// A running core finds a table's definition rewritten, or a row put in
// outside the chain, at its next watch (the attacker's pass of
// 2026-12-06): neither moves SQLite's schema_version (PRAGMA
// writable_schema does not, an INSERT does not), which alone had the watch
// read the schema again, so the console went on appending to such a
// record until its next open.
func TestARunningCoreFindsATableRewrittenOrARowOutsideTheChainAtItsNextWatch(t *testing.T) {
	const seqCheck = "CHECK (seq >= 1)"
	for _, tc := range []struct {
		name  string
		stmts []string
		want  Code
	}{
		{"the signatures table's refusal of a short signature taken out",
			[]string{definition("signatures", "CHECK (length(sig) = 128)", "")}, CodeTableChanged},
		{"a game.end at seq -1, the events table's definition put back",
			[]string{
				definition("events", seqCheck, ""),
				`INSERT INTO events (seq, match, game, at_ns, role, actor, kind, payload, prev, hash, received_ns)
				 SELECT -1, match, game, at_ns, 'arbiter', actor, 'game.end', '{"result":"0-1"}', prev, hash, received_ns FROM events WHERE seq = 1`,
				definition("events", "seq         INTEGER PRIMARY KEY ", "seq         INTEGER PRIMARY KEY "+seqCheck),
			}, CodeRowsOutsideChain},
	} {
		t.Run(tc.name+" is said at the next watch", func(t *testing.T) {
			f, pin, _ := operatorMatch(t)
			if _, err := f.app.Move(f.ctx, pin(f.at(30*time.Second)), "e4", false); err != nil {
				t.Fatal(err)
			}
			f.ok(f.app.Watch(f.ctx))
			if why := f.app.Why(); why != nil {
				t.Fatalf("the sound record's watch says %v", why)
			}
			for _, s := range tc.stmts {
				outside.SQL(t, f.db.Path(), s)
			}
			f.ok(f.app.Watch(f.ctx))
			if why := f.app.Why(); why == nil || why.Code != string(tc.want) {
				t.Fatalf("the watch says %v, want %s", why, tc.want)
			}
			if _, err := f.app.Move(f.ctx, pin(f.at(30*time.Second)), "e5", false); ErrorCode(err) != CodeRecordBroken {
				t.Fatalf("a move after the edit: %v, want %s", err, CodeRecordBroken)
			}
		})
	}
}
