package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/internal/outside"
)

// t0 is a fixed instant with a nanosecond part, in a non-UTC zone, so that
// round trips show both normalisation to UTC and full precision.
var t0 = time.Date(1996, 2, 10, 15, 0, 0, 123456789, time.FixedZone("EST", -5*3600))

func testEvent(i int) Event {
	return Event{
		Match:   1,
		Game:    1 + i%6,
		At:      t0.Add(time.Duration(i) * 1001 * time.Microsecond),
		Role:    Roles[i%len(Roles)],
		Actor:   fmt.Sprintf("person %d", i%3),
		Kind:    "move",
		Payload: []byte(fmt.Sprintf(`{"ply":%d,"san":"e4"}`, i)),
	}
}

func openTest(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newTestDB(t testing.TB) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "match.arbiter")
	return openTest(t, path), path
}

// appendEvents appends n test events, one Update each, and returns them.
func appendEvents(t testing.TB, db *DB, n int) []Event {
	t.Helper()
	var out []Event
	for i := 0; i < n; i++ {
		evs, err := db.Update(context.Background(), func(tx *Tx) error {
			_, err := tx.Append(testEvent(i))
			return err
		})
		if err != nil {
			t.Fatalf("Update #%d: %v", i, err)
		}
		out = append(out, evs...)
	}
	return out
}

func fileSum(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// rawDB opens path with database/sql directly, the way an intruder (or a
// test building an old or foreign file) would.
func rawDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	raw.SetMaxOpenConns(1)
	return raw
}

func rawExec(t testing.TB, path string, stmts ...string) {
	t.Helper()
	raw := rawDB(t, path)
	defer raw.Close()
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestMigrationsAreNumberedWithoutGaps(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 2 {
		t.Fatalf("got %d migrations, want at least 2", len(ms))
	}
	for i, m := range ms {
		if m.version != i+1 {
			t.Errorf("migration %s has number %d, want %d", m.name, m.version, i+1)
		}
	}
}

func TestAppendReadRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, _ := newTestDB(t)
	in := Event{
		Match: 1, Game: 2, At: t0, Role: "operator", Actor: "Feng-hsiung Hsu",
		Kind: "move", Payload: []byte("{ \"san\" : \"Nf3\",\n \"note\": \"é ♞\" }"),
	}
	got, err := db.Update(ctx, func(tx *Tx) error {
		if _, err := tx.Append(in); err != nil {
			return err
		}
		_, err := tx.Append(Event{Match: 1, Game: 2, At: t0.Add(1), Role: "system", Kind: "press"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("Update returned %d events, want 2", len(got))
	}
	read, err := db.EventsAfter(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != 2 {
		t.Fatalf("EventsAfter(0) returned %d events, want 2", len(read))
	}
	t.Run("the instant keeps its nanoseconds and comes back in UTC", func(t *testing.T) {
		if !read[0].At.Equal(t0) || read[0].At.UnixNano() != t0.UnixNano() {
			t.Errorf("At = %v, want %v", read[0].At, t0)
		}
		if read[0].At.Location() != time.UTC || got[0].At.Location() != time.UTC {
			t.Errorf("At location = %v / %v, want UTC", read[0].At.Location(), got[0].At.Location())
		}
		if d := read[1].At.Sub(read[0].At); d != 1 {
			t.Errorf("second event is %v after the first, want 1ns", d)
		}
	})
	t.Run("the payload is stored compact and otherwise verbatim", func(t *testing.T) {
		if want := `{"san":"Nf3","note":"é ♞"}`; string(read[0].Payload) != want {
			t.Errorf("Payload = %s, want %s", read[0].Payload, want)
		}
		if string(read[1].Payload) != "{}" {
			t.Errorf("empty payload stored as %q, want {}", read[1].Payload)
		}
	})
	t.Run("what Update returns is what is read back", func(t *testing.T) {
		for i := range got {
			if fmt.Sprint(got[i]) != fmt.Sprint(read[i]) {
				t.Errorf("event %d:\nUpdate returned %+v\nread back      %+v", i+1, got[i], read[i])
			}
		}
	})
	t.Run("seq is 1-based and contiguous and prev links the chain", func(t *testing.T) {
		if read[0].Seq != 1 || read[1].Seq != 2 {
			t.Errorf("seqs = %d, %d; want 1, 2", read[0].Seq, read[1].Seq)
		}
		if read[0].Prev != GenesisPrev || read[1].Prev != read[0].Hash {
			t.Errorf("prev links wrong: %q, %q", read[0].Prev, read[1].Prev)
		}
		for _, e := range read {
			if e.Hash != EventHash(e) {
				t.Errorf("event %d: stored hash %s, recomputed %s", e.Seq, e.Hash, EventHash(e))
			}
		}
	})
	t.Run("head is the last event", func(t *testing.T) {
		seq, hash, err := db.Head(ctx)
		if err != nil || seq != 2 || hash != read[1].Hash {
			t.Errorf("Head = %d, %s, %v; want 2, %s", seq, hash, err, read[1].Hash)
		}
	})
	t.Run("EventsAfter skips what the caller has seen", func(t *testing.T) {
		after, err := db.EventsAfter(ctx, 1)
		if err != nil || len(after) != 1 || after[0].Seq != 2 {
			t.Errorf("EventsAfter(1) = %v, %v; want event 2 only", after, err)
		}
	})
}

func TestEmptyLog(t *testing.T) {
	ctx := context.Background()
	db, _ := newTestDB(t)
	seq, hash, err := db.Head(ctx)
	if err != nil || seq != 0 || hash != "" {
		t.Errorf("Head of empty log = %d, %q, %v; want 0, \"\", nil", seq, hash, err)
	}
	r, err := db.Verify(ctx, "")
	if err != nil || !r.OK || r.Events != 0 {
		t.Errorf("Verify of empty log = %+v, %v; want OK with 0 events", r, err)
	}
}

func TestAppendRefusesInvalidEvents(t *testing.T) {
	ok := testEvent(0)
	tests := []struct {
		name   string
		modify func(*Event)
	}{
		{"an empty kind is refused", func(e *Event) { e.Kind = "" }},
		{"an empty role is refused", func(e *Event) { e.Role = "" }},
		{"a role outside the list is refused", func(e *Event) { e.Role = "spectator" }},
		{"a payload that is not JSON is refused", func(e *Event) { e.Payload = []byte(`{"san":`) }},
		{"a JSON payload that is not an object is refused", func(e *Event) { e.Payload = []byte(`["e4"]`) }},
		{"a payload with invalid UTF-8 is refused", func(e *Event) { e.Payload = []byte("{\"s\":\"\xff\"}") }},
		{"an actor with invalid UTF-8 is refused", func(e *Event) { e.Actor = "Kasp\xc3rov" }},
		{"a kind with invalid UTF-8 is refused", func(e *Event) { e.Kind = "mo\xffve" }},
		{"a missing time is refused", func(e *Event) { e.At = time.Time{} }},
		{"a negative game number is refused", func(e *Event) { e.Game = -1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, _ := newTestDB(t)
			e := ok
			tt.modify(&e)
			_, err := db.Update(ctx, func(tx *Tx) error {
				_, err := tx.Append(e)
				return err
			})
			if !errors.Is(err, ErrInvalidEvent) {
				t.Fatalf("err = %v, want ErrInvalidEvent", err)
			}
			if seq, _, _ := db.Head(ctx); seq != 0 {
				t.Errorf("head seq = %d after a refused append, want 0", seq)
			}
		})
	}
}

func TestUpdateRollsBackWhenFnFails(t *testing.T) {
	ctx := context.Background()
	db, _ := newTestDB(t)
	appendEvents(t, db, 2)
	errStop := errors.New("the arbiter cancelled")
	evs, err := db.Update(ctx, func(tx *Tx) error {
		for i := 0; i < 3; i++ {
			if _, err := tx.Append(testEvent(i)); err != nil {
				return err
			}
		}
		return errStop
	})
	if err != errStop {
		t.Fatalf("err = %v, want the fn's error returned unchanged", err)
	}
	if evs != nil {
		t.Errorf("events = %v, want none", evs)
	}
	if seq, _, _ := db.Head(ctx); seq != 2 {
		t.Errorf("head seq = %d, want 2 (nothing of the failed transaction written)", seq)
	}
	t.Run("the next update continues the chain", func(t *testing.T) {
		more := appendEvents(t, db, 1)
		if more[0].Seq != 3 {
			t.Errorf("next seq = %d, want 3", more[0].Seq)
		}
		if r, _ := db.Verify(ctx, ""); !r.OK {
			t.Errorf("Verify: %+v", r)
		}
	})
	t.Run("a Tx used after its Update is refused", func(t *testing.T) {
		var kept *Tx
		if _, err := db.Update(ctx, func(tx *Tx) error { kept = tx; return nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := kept.Append(testEvent(0)); err == nil {
			t.Error("Append on a finished Tx succeeded")
		}
	})
}

func TestGuardTriggersRefuseUpdateAndDelete(t *testing.T) {
	ctx := context.Background()
	db, _ := newTestDB(t)
	appendEvents(t, db, 3)
	for _, stmt := range []string{
		`UPDATE events SET payload = '{"san":"Qh5"}' WHERE seq = 2`,
		`DELETE FROM events WHERE seq = 3`,
		`DELETE FROM events`,
	} {
		t.Run(stmt, func(t *testing.T) {
			_, err := db.sql.ExecContext(ctx, stmt)
			if err == nil {
				t.Fatal("statement succeeded; want the append-only trigger to refuse it")
			}
			if err := mapErr(err); !errors.Is(err, ErrAppendOnly) {
				t.Errorf("err = %v, want ErrAppendOnly", err)
			}
		})
	}
	if r, err := db.Verify(ctx, ""); err != nil || !r.OK || r.Events != 3 {
		t.Errorf("Verify = %+v, %v; want 3 intact events", r, err)
	}
}

func TestTwoHandlesShareOneChain(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "match.arbiter")
	a := openTest(t, path) // the console
	b := openTest(t, path) // a CLI call
	t.Run("alternating appends each see the other's commits inside the transaction", func(t *testing.T) {
		handles := []*DB{a, b}
		for i := 0; i < 10; i++ {
			db := handles[i%2]
			_, err := db.Update(ctx, func(tx *Tx) error {
				seen, err := tx.EventsAfter(0)
				if err != nil {
					return err
				}
				if len(seen) != i {
					return fmt.Errorf("handle %d saw %d events before append %d, want %d", i%2, len(seen), i, i)
				}
				_, err = tx.Append(testEvent(i))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		for name, db := range map[string]*DB{"a": a, "b": b} {
			r, err := db.Verify(ctx, "")
			if err != nil || !r.OK || r.Events != 10 {
				t.Errorf("handle %s: Verify = %+v, %v; want 10 intact events", name, r, err)
			}
		}
	})
	t.Run("concurrent appends from both handles keep one unbroken chain", func(t *testing.T) {
		const perHandle = 25
		var wg sync.WaitGroup
		errs := make(chan error, 2*perHandle)
		for _, db := range []*DB{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < perHandle; i++ {
					_, err := db.Update(ctx, func(tx *Tx) error {
						_, err := tx.Append(testEvent(i))
						return err
					})
					if err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		r, err := a.Verify(ctx, "")
		if err != nil || !r.OK || r.Events != 10+2*perHandle {
			t.Errorf("Verify = %+v, %v; want %d intact events", r, err, 10+2*perHandle)
		}
		_, headB, _ := b.Head(ctx)
		if headB != r.Head {
			t.Errorf("handle b sees head %s, a verified %s", headB, r.Head)
		}
	})
}

func TestOpenRefusesForeignFilesUntouched(t *testing.T) {
	tests := []struct {
		name    string
		make    func(t *testing.T, path string)
		wantErr error
	}{
		{"a text file is not SQLite", func(t *testing.T, path string) {
			writeFile(t, path, []byte("[Event \"ACM Chess Challenge\"]\n[Site \"Philadelphia\"]\n\n1. e4 c5 *\n"))
		}, ErrForeign},
		{"a file shorter than a SQLite header is not SQLite", func(t *testing.T, path string) {
			writeFile(t, path, []byte("SQLite format 3\x00"))
		}, ErrForeign},
		{"a SQLite magic followed by garbage is not SQLite", func(t *testing.T, path string) {
			writeFile(t, path, append([]byte("SQLite format 3\x00"), make([]byte, 4000)...))
		}, ErrForeign},
		{"SQLite with another application_id is foreign", func(t *testing.T, path string) {
			rawExec(t, path, "PRAGMA application_id = 1196312910", "CREATE TABLE t (x)", "INSERT INTO t VALUES (1)")
		}, ErrForeign},
		{"SQLite with no application_id and tables is foreign", func(t *testing.T, path string) {
			rawExec(t, path, "CREATE TABLE contacts (name TEXT)", "INSERT INTO contacts VALUES ('Deep Blue')")
		}, ErrForeign},
		{"SQLite in WAL mode with another application_id is foreign", func(t *testing.T, path string) {
			rawExec(t, path, "PRAGMA journal_mode = WAL", "PRAGMA application_id = 7", "CREATE TABLE t (x)")
		}, ErrForeign},
		{"SQLite with no application_id and commits still in its WAL is foreign", func(t *testing.T, path string) {
			raw := rawDB(t, path)
			t.Cleanup(func() { raw.Close() })
			for _, s := range []string{"PRAGMA journal_mode = WAL", "CREATE TABLE t (x)", "INSERT INTO t VALUES (1)"} {
				if _, err := raw.Exec(s); err != nil {
					t.Fatal(err)
				}
			}
			if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
				t.Fatalf("want a non-empty WAL for this case: %v", err)
			}
		}, ErrForeign},
		{"an Arbiter file with a newer schema is refused", func(t *testing.T, path string) {
			db, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			appendEvents(t, db, 2)
			db.Close()
			rawExec(t, path, "PRAGMA user_version = 99")
		}, ErrNewerSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.arbiter")
			tt.make(t, path)
			before := fileSum(t, path)
			listBefore := dirList(t, filepath.Dir(path))
			for _, open := range []struct {
				name string
				fn   func(context.Context, string) (*DB, error)
			}{{"Open", Open}, {"OpenReadOnly", OpenReadOnly}} {
				db, err := open.fn(context.Background(), path)
				if err == nil {
					db.Close()
					t.Fatalf("%s succeeded, want %v", open.name, tt.wantErr)
				}
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("%s: err = %v, want %v", open.name, err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), path) {
					t.Errorf("%s: error %q does not name the file", open.name, err)
				}
			}
			if after := fileSum(t, path); after != before {
				t.Errorf("file changed: sha256 %s before, %s after", before, after)
			}
			if after := dirList(t, filepath.Dir(path)); after != listBefore {
				t.Errorf("directory changed: %s before, %s after", listBefore, after)
			}
		})
	}
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func dirList(t testing.TB, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return strings.Join(names, ",")
}

func TestOpenAcceptsAnEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.arbiter")
	writeFile(t, path, nil)
	db := openTest(t, path)
	appendEvents(t, db, 1)
	if _, err := os.Stat(path + ".bak-v0"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an empty file was backed up (%v); want no backup", err)
	}
}

func TestOpenSetsApplicationIDAndSchemaVersion(t *testing.T) {
	db, path := newTestDB(t)
	appendEvents(t, db, 1)
	db.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	if h.appID != ApplicationID || int(h.userVersion) != SchemaVersion() {
		t.Errorf("header application_id %#x user_version %d; want %#x, %d", h.appID, h.userVersion, ApplicationID, SchemaVersion())
	}
	if string(b[68:72]) != "ARBI" {
		t.Errorf("application_id bytes = %q, want ARBI", b[68:72])
	}
}

func TestOpenMigratesOlderSchemaAfterBackup(t *testing.T) {
	ctx := context.Background()
	t.Run("a v0 file is copied to .bak-v0 and then migrated", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "old.arbiter")
		rawExec(t, path,
			fmt.Sprintf("PRAGMA application_id = %d", ApplicationID),
			"CREATE TABLE notes (text TEXT)",
			"INSERT INTO notes VALUES ('from a prototype')")
		db := openTest(t, path)
		// VACUUM INTO rewrites pages, so compare content, not bytes.
		checkNotes(t, path+".bak-v0")
		if h := headerOf(t, path+".bak-v0"); h.appID != ApplicationID || h.userVersion != 0 {
			t.Errorf("backup header: %+v; want the v0 file's", h)
		}
		appendEvents(t, db, 2)
		if r, err := db.Verify(ctx, ""); err != nil || !r.OK {
			t.Errorf("Verify after migration = %+v, %v", r, err)
		}
	})
	t.Run("a v1 file keeps its events and its chain; the backup holds v1", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "v1.arbiter")
		db := openTest(t, path)
		evs := appendEvents(t, db, 5)
		db.Close()
		rawExec(t, path, "ALTER TABLE events DROP COLUMN received_ns", "DROP TABLE heartbeat", "DROP TABLE meta", "DROP TABLE signatures", "PRAGMA user_version = 1")

		db = openTest(t, path)
		bak := path + ".bak-v1"
		h := headerOf(t, bak)
		if h.userVersion != 1 || h.appID != ApplicationID {
			t.Errorf("backup header: user_version %d application_id %#x; want 1, %#x", h.userVersion, h.appID, ApplicationID)
		}
		r, err := db.Verify(ctx, evs[4].Hash)
		if err != nil || !r.OK || r.Events != 5 {
			t.Errorf("Verify after migration = %+v, %v; want 5 intact events ending at the old head", r, err)
		}
		if err := db.WriteHeartbeat(ctx, Heartbeat{Wall: t0, PID: 1, Host: "h"}); err != nil {
			t.Errorf("heartbeat table missing after migration: %v", err)
		}
		old, err := OpenReadOnly(ctx, bak)
		if err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		if r, err := old.Verify(ctx, evs[4].Hash); err != nil || !r.OK {
			t.Errorf("backup Verify = %+v, %v", r, err)
		}
	})
	t.Run("an existing backup name is not overwritten", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "v1.arbiter")
		db := openTest(t, path)
		appendEvents(t, db, 1)
		db.Close()
		rawExec(t, path, "ALTER TABLE events DROP COLUMN received_ns", "DROP TABLE heartbeat", "DROP TABLE meta", "DROP TABLE signatures", "PRAGMA user_version = 1")
		writeFile(t, path+".bak-v1", []byte("keep me"))
		openTest(t, path)
		if b, _ := os.ReadFile(path + ".bak-v1"); string(b) != "keep me" {
			t.Errorf("existing .bak-v1 overwritten")
		}
		if h := headerOf(t, path+".bak-v1.2"); h.userVersion != 1 {
			t.Errorf(".bak-v1.2 user_version = %d, want 1", h.userVersion)
		}
	})
}

func checkNotes(t *testing.T, path string) {
	t.Helper()
	raw := rawDB(t, path)
	defer raw.Close()
	var text string
	if err := raw.QueryRow("SELECT text FROM notes").Scan(&text); err != nil || text != "from a prototype" {
		t.Errorf("backup content: %q, %v", text, err)
	}
}

func headerOf(t testing.TB, path string) header {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseHeader(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return h
}

func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	t.Run("a missing file is a clear error and is not created", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nope.arbiter")
		_, err := OpenReadOnly(ctx, path)
		if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("err = %v, want ErrNotFound and fs.ErrNotExist", err)
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("file was created")
		}
	})
	t.Run("reading never writes", func(t *testing.T) {
		db, path := newTestDB(t)
		evs := appendEvents(t, db, 4)
		if err := db.WriteHeartbeat(ctx, Heartbeat{Wall: t0, PID: 42, Host: "console"}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		before := fileSum(t, path)
		listBefore := dirList(t, filepath.Dir(path))

		ro, err := OpenReadOnly(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := ro.Verify(ctx, evs[3].Hash); err != nil || !r.OK {
			t.Errorf("Verify = %+v, %v", r, err)
		}
		if got, err := ro.EventsAfter(ctx, 0); err != nil || len(got) != 4 {
			t.Errorf("EventsAfter = %d events, %v", len(got), err)
		}
		if hb, ok, err := ro.ReadHeartbeat(ctx); err != nil || !ok || hb.PID != 42 {
			t.Errorf("ReadHeartbeat = %+v, %v, %v", hb, ok, err)
		}
		if _, err := ro.Update(ctx, func(tx *Tx) error { _, err := tx.Append(testEvent(0)); return err }); !errors.Is(err, ErrReadOnly) {
			t.Errorf("Update err = %v, want ErrReadOnly", err)
		}
		if err := ro.WriteHeartbeat(ctx, Heartbeat{Wall: t0}); !errors.Is(err, ErrReadOnly) {
			t.Errorf("WriteHeartbeat err = %v, want ErrReadOnly", err)
		}
		_, err = ro.sql.ExecContext(ctx, "CREATE TABLE sneaky (x)")
		if !errors.Is(mapErr(err), ErrReadOnly) {
			t.Errorf("raw write on a read-only handle: err = %v, want ErrReadOnly", mapErr(err))
		}
		if err := ro.Close(); err != nil {
			t.Fatal(err)
		}
		if after := fileSum(t, path); after != before {
			t.Errorf("file changed by a read-only open: %s before, %s after", before, after)
		}
		// SQLite's WAL readers may create the usual -wal and -shm side files;
		// nothing may be written into the log.
		if after := dirList(t, filepath.Dir(path)); after != listBefore &&
			after != listBefore+","+filepath.Base(path)+"-shm,"+filepath.Base(path)+"-wal" {
			t.Errorf("directory changed by a read-only open: %s before, %s after", listBefore, after)
		}
		if st, err := os.Stat(path + "-wal"); err == nil && st.Size() != 0 {
			t.Errorf("read-only open wrote %d bytes of WAL", st.Size())
		}
	})
	t.Run("a reader sees a live writer's commits", func(t *testing.T) {
		db, path := newTestDB(t)
		appendEvents(t, db, 1)
		ro, err := OpenReadOnly(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		appendEvents(t, db, 2)
		if seq, _, err := ro.Head(ctx); err != nil || seq != 3 {
			t.Errorf("reader Head = %d, %v; want 3", seq, err)
		}
	})
}

func TestHeartbeat(t *testing.T) {
	ctx := context.Background()
	db, _ := newTestDB(t)
	if _, ok, err := db.ReadHeartbeat(ctx); ok || err != nil {
		t.Errorf("fresh file: ReadHeartbeat ok=%v err=%v; want no heartbeat", ok, err)
	}
	for i, hb := range []Heartbeat{
		{Wall: t0, PID: 100, Host: "console-1"},
		{Wall: t0.Add(time.Second + 7), PID: 200, Host: "console-2"},
	} {
		if err := db.WriteHeartbeat(ctx, hb); err != nil {
			t.Fatal(err)
		}
		got, ok, err := db.ReadHeartbeat(ctx)
		if err != nil || !ok || !got.Wall.Equal(hb.Wall) || got.PID != hb.PID || got.Host != hb.Host {
			t.Errorf("beat %d: ReadHeartbeat = %+v, %v, %v; want %+v", i, got, ok, err, hb)
		}
	}
	var rows int
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM heartbeat").Scan(&rows); err != nil || rows != 1 {
		t.Errorf("heartbeat table has %d rows, want exactly 1", rows)
	}
	if seq, _, _ := db.Head(ctx); seq != 0 {
		t.Errorf("heartbeat touched the event chain: head seq %d", seq)
	}
}

func TestMeta(t *testing.T) {
	ctx := context.Background()
	db, _ := newTestDB(t)
	if _, err := db.Meta(ctx, "title"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing key: err = %v, want ErrNotFound", err)
	}
	for _, v := range []string{"ACM Chess Challenge", "1996 ACM Chess Challenge"} {
		if err := db.SetMeta(ctx, "title", v); err != nil {
			t.Fatal(err)
		}
		if got, err := db.Meta(ctx, "title"); err != nil || got != v {
			t.Errorf("Meta = %q, %v; want %q", got, err, v)
		}
	}
}

func TestBackup(t *testing.T) {
	ctx := context.Background()
	db, path := newTestDB(t)
	appendEvents(t, db, 7)
	_, head, _ := db.Head(ctx)
	dest := filepath.Join(filepath.Dir(path), "copy.arbiter")
	if err := db.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	t.Run("the copy verifies with the same head", func(t *testing.T) {
		cp, err := OpenReadOnly(ctx, dest)
		if err != nil {
			t.Fatal(err)
		}
		defer cp.Close()
		r, err := cp.Verify(ctx, head)
		if err != nil || !r.OK || r.Head != head || r.Events != 7 {
			t.Errorf("Verify(copy) = %+v, %v; want OK, 7 events, head %s", r, err, head)
		}
	})
	t.Run("an existing destination is refused and left alone", func(t *testing.T) {
		before := fileSum(t, dest)
		appendEvents(t, db, 1)
		if err := db.Backup(ctx, dest); !errors.Is(err, ErrExists) {
			t.Errorf("err = %v, want ErrExists", err)
		}
		if fileSum(t, dest) != before {
			t.Error("existing destination was changed")
		}
	})
}

func TestDiskFullIsAClearError(t *testing.T) {
	ctx := context.Background()
	db, _ := newTestDB(t)
	appendEvents(t, db, 1)
	// Simulate a full disk: forbid the file to grow by even one page.
	var pages int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages)); err != nil {
		t.Fatal(err)
	}
	big := Event{Match: 1, At: t0, Role: "system", Kind: "bulk",
		Payload: []byte(`{"pad":"` + strings.Repeat("x", 64<<10) + `"}`)}
	_, err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.Append(big)
		return err
	})
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("err = %v, want ErrDiskFull", err)
	}
	if seq, _, _ := db.Head(ctx); seq != 1 {
		t.Errorf("head seq = %d after a failed append, want 1", seq)
	}
}

func TestPathsWithAwkwardCharacters(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "Kasparov vs Deep Blue #1 ?% 100")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game?1#a%20b.arbiter")
	db := openTest(t, path)
	appendEvents(t, db, 1)
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("file not at the given path: %v", err)
	}
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if seq, _, _ := ro.Head(ctx); seq != 1 {
		t.Errorf("read-only handle sees head %d, want 1", seq)
	}
}

func TestOpenInAMissingFolderIsAClearError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no such folder", "m.arbiter")
	_, err := Open(context.Background(), path)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), filepath.Dir(path)) {
		t.Errorf("err = %v, want ErrNotFound naming the folder %s", err, filepath.Dir(path))
	}
}

// What a transaction read with EventsAfter ends with the file's last event,
// and Append continues exactly that event, whoever wrote it: read from any
// point of the file, or not at all, the appended event follows the file's
// last; the head check is asked once, at the first Append, with that event
// as the file holds it, and never by a transaction that only reads.
func TestAppendContinuesTheFilesLastEventWhateverTheTransactionRead(t *testing.T) {
	ctx := context.Background()
	for _, held := range []int{0, 5} {
		for _, after := range []int64{-1, 0, 3, 5, 7} { // -1: the transaction reads nothing
			t.Run(fmt.Sprintf("%d events (the last by another handle), read after %d", held+min(held, 1), after), func(t *testing.T) {
				held := held
				db, path := newTestDB(t)
				appendEvents(t, db, held)
				// the last event comes from another handle, as from another process
				other := openTest(t, path)
				if held > 0 {
					if _, err := other.Update(ctx, func(tx *Tx) error { _, err := tx.Append(testEvent(held)); return err }); err != nil {
						t.Fatal(err)
					}
					held++
				}
				other.Close()
				all, err := db.EventsAfter(ctx, 0)
				if err != nil {
					t.Fatal(err)
				}
				var checked []Event
				var oks []bool
				db.SetHeadCheck(func(last Event, ok bool) error { checked, oks = append(checked, last), append(oks, ok); return nil })
				// a transaction that only reads asks no head check
				if _, err := db.Update(ctx, func(tx *Tx) error { _, err := tx.EventsAfter(max(after, 0)); return err }); err != nil {
					t.Fatal(err)
				}
				if len(checked) != 0 {
					t.Fatalf("a transaction that appended nothing asked the head check %d times", len(checked))
				}
				evs, err := db.Update(ctx, func(tx *Tx) error {
					if after >= 0 {
						got, err := tx.EventsAfter(after)
						if err != nil {
							return err
						}
						var want []Event
						for _, e := range all {
							if e.Seq > after {
								want = append(want, e)
							}
						}
						if len(got) != len(want) || (len(got) > 0 && (got[0].Seq != want[0].Seq || got[len(got)-1].Hash != want[len(want)-1].Hash)) {
							t.Errorf("EventsAfter(%d) = %d events, want %d", after, len(got), len(want))
						}
					}
					_, err := tx.Append(testEvent(99))
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				wantPrev := GenesisPrev
				if held > 0 {
					wantPrev = all[held-1].Hash
				}
				if e := evs[0]; e.Seq != int64(held+1) || e.Prev != wantPrev {
					t.Errorf("appended seq %d prev %.12s, want seq %d prev %.12s", e.Seq, e.Prev, held+1, wantPrev)
				}
				if len(checked) != 1 || oks[0] != (held > 0) || (held > 0 && !sameEvent(checked[0], all[held-1])) {
					t.Errorf("head check asked with %v %v, want once with event %d", checked, oks, held)
				}
				if r, err := db.Verify(ctx, ""); err != nil || !r.OK {
					t.Errorf("verify: %+v %v", r, err)
				}
			})
		}
	}
	t.Run("a head check that refuses the event read writes nothing", func(t *testing.T) {
		db, _ := newTestDB(t)
		appendEvents(t, db, 3)
		refused := errors.New("the file changed")
		db.SetHeadCheck(func(Event, bool) error { return refused })
		_, err := db.Update(ctx, func(tx *Tx) error {
			if _, err := tx.EventsAfter(3); err != nil {
				return err
			}
			_, err := tx.Append(testEvent(3))
			return err
		})
		if !errors.Is(err, refused) {
			t.Fatalf("Update = %v, want the head check's refusal", err)
		}
		if seq, _, _ := db.Head(ctx); seq != 3 {
			t.Errorf("the log holds %d events, want 3", seq)
		}
	})
}

func sameEvent(a, b Event) bool {
	return a.Seq == b.Seq && a.Hash == b.Hash && a.Prev == b.Prev && string(a.Payload) == string(b.Payload) && a.At.Equal(b.At)
}

// Closing the last handle closes SQLite's connection to the file, whatever
// statements it ran: the write-ahead log is checkpointed into the file and
// removed (a statement left prepared would keep the connection, its file
// descriptors and its log open).
func TestClosingTheHandleCheckpointsAndRemovesTheLog(t *testing.T) {
	ctx := context.Background()
	for _, ops := range []struct {
		name string
		run  func(t *testing.T, db *DB)
	}{
		{"after commits", func(t *testing.T, db *DB) { appendEvents(t, db, 3) }},
		{"after reads in and out of a transaction", func(t *testing.T, db *DB) {
			appendEvents(t, db, 3)
			if _, _, err := db.Record(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Update(ctx, func(tx *Tx) error { _, err := tx.EventsAfter(1); return err }); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Verify(ctx, ""); err != nil {
				t.Fatal(err)
			}
		}},
		{"after a transaction that panicked", func(t *testing.T, db *DB) {
			appendEvents(t, db, 3)
			func() {
				defer func() { recover() }()
				db.Update(ctx, func(tx *Tx) error { tx.Append(testEvent(3)); panic("boom") })
			}()
			appendEvents(t, db, 1)
		}},
	} {
		t.Run(ops.name, func(t *testing.T) {
			db, path := newTestDB(t)
			ops.run(t, db)
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			for _, side := range []string{"-wal", "-shm"} {
				if _, err := os.Stat(path + side); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s still there after Close: %v", side, err)
				}
			}
		})
	}
}

// TestTheLogIsReusedOnceItHoldsWalAutocheckpointPages: the write-ahead log
// of a record being written is copied into the file, and reused from its
// start, once it holds walAutocheckpoint pages (docs/performance.md, "Fewer
// pages per commit"): after twice as many commits it holds no more than
// that and one commit's pages, where SQLite's default let it grow to 1,000.
func TestTheLogIsReusedOnceItHoldsWalAutocheckpointPages(t *testing.T) {
	ctx := context.Background()
	db, path := newTestDB(t)
	var pageSize int64
	if err := db.sql.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	appendEvents(t, db, 2*walAutocheckpoint)
	st, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	const walHeader, frameHeader, commitPages = 32, 24, 4
	if limit := walHeader + (walAutocheckpoint+commitPages)*(pageSize+frameHeader); st.Size() > limit {
		t.Errorf("the log is %d bytes (%d pages) after %d commits; want at most %d pages",
			st.Size(), (st.Size()-walHeader)/(pageSize+frameHeader), 2*walAutocheckpoint, walAutocheckpoint+commitPages)
	}
	if r, err := db.Verify(ctx, ""); err != nil || !r.OK || r.Events != 2*walAutocheckpoint {
		t.Errorf("Verify = %+v, %v; want %d intact events", r, err, 2*walAutocheckpoint)
	}
}

// TestSQLiteCheckpointsAWritingHandleOnceItsLogHoldsAThousandPages: the
// commits of a handle that writes carry SQLite's automatic checkpoint (the
// log copied into the file: the one time a commit changes the main file)
// once the log holds walAutocheckpoint (1,000) pages, some 850 one-event
// commits, and not at every 500 (docs/performance.md, "Commit and move,
// ninth pass": each checkpoint is a slow commit and makes the next one
// slow too). Every event is there for the handle and every outside reader.
func TestSQLiteCheckpointsAWritingHandleOnceItsLogHoldsAThousandPages(t *testing.T) {
	ctx := context.Background()
	db, path := newTestDB(t)
	const commits = 1200
	var at []int // the commits that changed the main file
	last := db.Stamp()
	for i := 0; i < commits; i++ {
		appendEvents(t, db, 1)
		if s := db.Stamp(); !s.Same(last) {
			at, last = append(at, i+1), s
		}
	}
	if len(at) != 1 || at[0] < 700 {
		t.Errorf("%d one-event commits checkpointed the log at commits %v; want once, after some 850 (1,000 pages)", commits, at)
	}
	if r, err := db.Verify(ctx, ""); err != nil || !r.OK || r.Events != commits {
		t.Errorf("Verify = %+v, %v; want %d intact events", r, err, commits)
	}
	for _, reader := range outside.ForTest(t) {
		if got, err := reader.Count(path); err != nil || got != commits {
			t.Errorf("%s counts %d events (%v); want %d", reader.Name, got, err, commits)
		}
	}
}

// TestTheLogIsLaidOutForAHandleThatKeepsWritingAndNothingOfItIsCommitted:
// a handle's first layoutAfter commits find the log as SQLite grows it (a
// command that commits a few times pays nothing); before its next, SQLite
// lays the write-ahead log out to growLogPages pages (growlog.go), so that
// the commits until the first checkpoint overwrite the log instead of
// growing it (the file's size does not change over the next hundred
// commits), and nothing of the layout is ever in the record: the events
// committed, no more, for the handle and for every outside reader, no table
// left behind, the page cache as it was.
func TestTheLogIsLaidOutForAHandleThatKeepsWritingAndNothingOfItIsCommitted(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, path string) int // events already in the file
	}{
		{"a new record", func(t *testing.T, path string) int { return 0 }},
		{"a record reopened after 30 events", func(t *testing.T, path string) int {
			db := openTest(t, path)
			appendEvents(t, db, 30)
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			return 30
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "match.arbiter")
			before := tc.prepare(t, path)
			db := openTest(t, path)
			var cache int64
			if err := db.sql.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cache); err != nil {
				t.Fatal(err)
			}
			var pageSize int64
			if err := db.sql.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
				t.Fatal(err)
			}
			frame := pageSize + walFrameHeader
			appendEvents(t, db, layoutAfter)
			if few, err := os.Stat(path + "-wal"); err != nil || (few.Size()-walHeaderSize)/frame > layoutAfter*4 {
				t.Errorf("after %d commits the log is %v bytes (%v); want it as the commits grew it, not laid out", layoutAfter, few.Size(), err)
			}
			appendEvents(t, db, 1)
			laid, err := os.Stat(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			if pages := (laid.Size() - walHeaderSize) / frame; pages < growLogPages*9/10 || pages > walAutocheckpoint+4 {
				t.Errorf("after the commit that follows them the log holds %d pages; want %d to %d", pages, growLogPages*9/10, walAutocheckpoint+4)
			}
			appendEvents(t, db, 100)
			if after, err := os.Stat(path + "-wal"); err != nil || after.Size() != laid.Size() {
				t.Errorf("the log went from %d bytes to %v (%v) over 100 commits; want them written over the laid-out log", laid.Size(), after.Size(), err)
			}
			want := int64(before + layoutAfter + 101)
			if r, err := db.Verify(ctx, ""); err != nil || !r.OK || r.Events != want {
				t.Errorf("Verify = %+v, %v; want %d intact events", r, err, want)
			}
			var left int
			if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name = ?", growTable).Scan(&left); err != nil || left != 0 {
				t.Errorf("%d tables %s in the schema (%v); want none", left, growTable, err)
			}
			var now int64
			if err := db.sql.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&now); err != nil || now != cache {
				t.Errorf("cache_size = %d (%v) after the layout; want %d as before", now, err, cache)
			}
			for _, reader := range outside.ForTest(t) {
				if got, err := reader.Count(path); err != nil || got != want {
					t.Errorf("%s counts %d events (%v); want %d", reader.Name, got, err, want)
				}
			}
		})
	}
}

// TestAHandleCheckpointedByItsOwnerWhenIdleNeverCheckpointsInsideACommit: a
// handle whose owner checkpoints it between commands (IdleCheckpoints, a
// station) copies nothing into the file inside its commits, past the
// walAutocheckpoint pages where SQLite's own checkpoint would have run in
// one of them; CheckpointIfDue copies the log once it holds
// idleCheckpointPages pages and not before; SQLite checkpoints by itself only at idleCheckpointLimit
// (a safety net), and again at walAutocheckpoint once the owner gives the
// checkpoints back. Every event is there for the handle and every outside
// reader.
func TestAHandleCheckpointedByItsOwnerWhenIdleNeverCheckpointsInsideACommit(t *testing.T) {
	ctx := context.Background()
	db, path := newTestDB(t)
	size := func() int64 {
		t.Helper()
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	autocheckpoint := func() int {
		t.Helper()
		var n int
		if err := db.sql.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := db.IdleCheckpoints(ctx, true); err != nil {
		t.Fatal(err)
	}
	if got := autocheckpoint(); got != idleCheckpointLimit {
		t.Errorf("wal_autocheckpoint = %d with idle checkpoints; want %d", got, idleCheckpointLimit)
	}
	events := 0
	commitUntil := func(pages int) {
		t.Helper()
		for {
			n, err := db.LogPagesWritten(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n >= pages {
				return
			}
			appendEvents(t, db, 1)
			if events++; events > 3*idleCheckpointLimit {
				t.Fatalf("%d commits wrote %d pages into the log; want about one each", events, n)
			}
		}
	}
	commitUntil(20)
	if done, err := db.CheckpointIfDue(ctx); err != nil || done {
		t.Errorf("CheckpointIfDue after %d commits = %v, %v; want not due", events, done, err)
	}
	before := size()
	commitUntil(walAutocheckpoint * 3 / 2)
	if got := size(); got != before {
		t.Errorf("the file went from %d to %d bytes over %d commits writing %d pages; want nothing copied inside a commit",
			before, got, events, walAutocheckpoint*3/2)
	}
	if done, err := db.CheckpointIfDue(ctx); err != nil || !done {
		t.Errorf("CheckpointIfDue once due = %v, %v; want the log copied", done, err)
	}
	if got := size(); got <= before {
		t.Errorf("the file is %d bytes after the checkpoint, %d before; want the log's pages in it", got, before)
	}
	if n, err := db.LogPagesWritten(ctx); err != nil || n != 0 {
		t.Errorf("LogPagesWritten after the checkpoint = %d, %v; want 0", n, err)
	}
	if done, err := db.CheckpointIfDue(ctx); err != nil || done {
		t.Errorf("CheckpointIfDue right after one = %v, %v; want not due", done, err)
	}
	before = size()
	commitUntil(idleCheckpointLimit + idleCheckpointPages)
	if got := size(); got <= before {
		t.Errorf("the file stayed at %d bytes over %d pages never checkpointed by the owner; want SQLite's own checkpoint at %d", got, idleCheckpointLimit+idleCheckpointPages, idleCheckpointLimit)
	}
	if err := db.IdleCheckpoints(ctx, false); err != nil {
		t.Fatal(err)
	}
	if got := autocheckpoint(); got != walAutocheckpoint {
		t.Errorf("wal_autocheckpoint = %d once given back; want %d", got, walAutocheckpoint)
	}
	if done, err := db.CheckpointIfDue(ctx); err != nil || done {
		t.Errorf("CheckpointIfDue once given back = %v, %v; want SQLite's own only", done, err)
	}
	if r, err := db.Verify(ctx, ""); err != nil || !r.OK || r.Events != int64(events) {
		t.Errorf("Verify = %+v, %v; want %d intact events", r, err, events)
	}
	for _, reader := range outside.ForTest(t) {
		if got, err := reader.Count(path); err != nil || got != int64(events) {
			t.Errorf("%s counts %d events (%v); want %d", reader.Name, got, err, events)
		}
	}
}

// TestALogLaidOutAtOnceHoldsTheFirstCyclesCommitsAndNothingOfItIsCommitted:
// LayOutLog lays the log out before the handle's first commit (a station, as
// it starts: not inside a command, as at the Update after layoutAfter); the
// commits until the first checkpoint write over it, and nothing of the
// layout is in the record.
func TestALogLaidOutAtOnceHoldsTheFirstCyclesCommitsAndNothingOfItIsCommitted(t *testing.T) {
	ctx := context.Background()
	db, path := newTestDB(t)
	var pageSize int64
	if err := db.sql.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	frame := pageSize + walFrameHeader
	if err := db.LayOutLog(ctx); err != nil {
		t.Fatal(err)
	}
	laid, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if pages := (laid.Size() - walHeaderSize) / frame; pages < laidOutPages*9/10 || pages > laidOutPages+4 {
		t.Errorf("after LayOutLog the log holds %d pages; want %d to %d", pages, laidOutPages*9/10, laidOutPages+4)
	}
	const n = layoutAfter + 50
	appendEvents(t, db, n)
	if after, err := os.Stat(path + "-wal"); err != nil || after.Size() != laid.Size() {
		t.Errorf("the log went from %d bytes to %v (%v) over %d commits; want them written over the laid-out log", laid.Size(), after.Size(), err, n)
	}
	if r, err := db.Verify(ctx, ""); err != nil || !r.OK || r.Events != n {
		t.Errorf("Verify = %+v, %v; want %d intact events", r, err, n)
	}
	var left int
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name = ?", growTable).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d tables %s in the schema (%v); want none", left, growTable, err)
	}
	for _, reader := range outside.ForTest(t) {
		if got, err := reader.Count(path); err != nil || got != n {
			t.Errorf("%s counts %d events (%v); want %d", reader.Name, got, err, n)
		}
	}
}
