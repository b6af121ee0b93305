package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// oldRecord writes, without this package's Open, a record as a binary of
// schema version v wrote it: the embedded migrations 0001 to v applied as
// they are, then n events chained with their hashes (each event from
// schema 5 on with a receipt) and, from schema 3 on, a command signature
// for each event and a head signature of the last. It returns the events
// and signatures written.
func oldRecord(t *testing.T, path string, v, n int) ([]Event, []Signature) {
	t.Helper()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	raw := rawDB(t, path)
	defer raw.Close()
	for _, m := range ms[:v] {
		mustExec(t, raw, m.sql)
	}
	mustExec(t, raw, fmt.Sprintf("PRAGMA user_version = %d", v))
	mustExec(t, raw, "BEGIN")
	defer mustExec(t, raw, "COMMIT")
	var evs []Event
	prev := GenesisPrev
	for i := 0; i < n; i++ {
		e, err := normalize(testEvent(i))
		if err != nil {
			t.Fatal(err)
		}
		if v >= 5 && i%2 == 1 {
			e.Received = e.At.Add(time.Second)
		}
		e.Seq, e.Prev = int64(i+1), prev
		e.Hash = EventHash(e)
		prev = e.Hash
		if v >= 5 {
			mustExec(t, raw, "INSERT INTO events ("+eventColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				e.Seq, e.Match, e.Game, e.At.UnixNano(), receivedNS(e), e.Role, e.Actor, e.Kind, string(e.Payload), e.Prev, e.Hash)
		} else {
			mustExec(t, raw, "INSERT INTO events (seq, match, game, at_ns, role, actor, kind, payload, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				e.Seq, e.Match, e.Game, e.At.UnixNano(), e.Role, e.Actor, e.Kind, string(e.Payload), e.Prev, e.Hash)
		}
		evs = append(evs, e)
	}
	var sigs []Signature
	if v >= 3 {
		for _, e := range evs {
			sigs = append(sigs, Signature{Seq: e.Seq, Kind: SigCommand, Count: 1, Cmd: fmt.Sprintf("cmd-%d", e.Seq),
				Signer: "arbiter", Station: "", Key: hex64('k'), Sig: hex64('s') + hex64('s')})
		}
		sigs = append(sigs, Signature{Seq: int64(n), Kind: SigHead, Count: 1, Signer: "arbiter", Key: hex64('k'), Sig: hex64('h') + hex64('h')})
		for _, s := range sigs {
			mustExec(t, raw, "INSERT INTO signatures (seq, kind, count, cmd, signer, station, key, sig) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
				s.Seq, s.Kind, s.Count, s.Cmd, s.Signer, s.Station, s.Key, s.Sig)
		}
	}
	return evs, sigs
}

// hex64 is 64 lowercase hex digits, all c.
func hex64(c byte) string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = "0123456789abcdef"[int(c)%16]
	}
	return string(b)
}

// indexesOn lists the indexes SQLite holds for table, automatic ones
// (a UNIQUE's, a PRIMARY KEY's other than the rowid) included.
func indexesOn(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query("SELECT name FROM pragma_index_list(?)", table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

// TestAMigratedRecordKeepsEveryEventAndItsHeadAndEventsHasNoIndexButItsKey:
// a record of every older schema, and the golden record of package match
// (written by an older binary), opens read-write, is migrated after its
// backup, and keeps every event as it was, its signatures and its head;
// afterwards events has no index but its key (migration 0006, issue 29: a
// commit writes one page of it), the append-only triggers still refuse an
// edit, and the record takes new events.
func TestAMigratedRecordKeepsEveryEventAndItsHeadAndEventsHasNoIndexButItsKey(t *testing.T) {
	ctx := context.Background()
	type record struct {
		name string
		v    int // the schema the record was written at
		make func(t *testing.T, path string) (evs []Event, sigs []Signature, head string)
	}
	var tests []record
	for v := 1; v < SchemaVersion(); v++ {
		tests = append(tests, record{name: fmt.Sprintf("a record of schema %d", v), v: v,
			make: func(t *testing.T, path string) ([]Event, []Signature, string) {
				evs, sigs := oldRecord(t, path, v, 40)
				return evs, sigs, evs[len(evs)-1].Hash
			}})
	}
	tests = append(tests, record{name: "the golden record request-v1.db of package match, written by a binary of schema 5", v: 5,
		make: func(t *testing.T, path string) ([]Event, []Signature, string) {
			b, err := os.ReadFile(filepath.Join("..", "match", "testdata", "request-v1.db"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			ro, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			evs, err := ro.EventsAfter(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			sigs, err := ro.Signatures(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return evs, sigs, "259dbd8d1aeb6c5e6911bc1bff4d2d563e3f9c9c0cce17700701cd1dcdb031cb"
		}})
	for _, tt := range tests {
		t.Run(tt.name+" keeps every event, its signatures and its head, and events has no index but its key", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.arbiter")
			evs, sigs, head := tt.make(t, path)
			if h := headerOf(t, path); int(h.userVersion) != tt.v {
				t.Fatalf("the record was written at schema %d, want %d", h.userVersion, tt.v)
			}
			raw := rawDB(t, path)
			before := indexesOn(t, raw, "events")
			raw.Close()
			if tt.v < 6 && len(before) == 0 {
				t.Fatalf("the record of schema %d has no index on events: it is not the file an older binary wrote", tt.v)
			}

			db := openTest(t, path)
			if h := headerOf(t, path+fmt.Sprintf(".bak-v%d", tt.v)); int(h.userVersion) != tt.v {
				t.Errorf("backup user_version %d, want %d", h.userVersion, tt.v)
			}
			got, err := db.EventsAfter(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(evs) {
				t.Fatalf("%d events after migration, want %d", len(got), len(evs))
			}
			for i := range evs {
				if !equalEvents(got[i], evs[i]) {
					t.Fatalf("event %d after migration:\n %+v\nwant\n %+v", i+1, got[i], evs[i])
				}
			}
			gotSigs, err := db.Signatures(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(gotSigs, sigs) {
				t.Errorf("signatures after migration:\n %+v\nwant\n %+v", gotSigs, sigs)
			}
			r, err := db.Verify(ctx, head)
			if err != nil || !r.OK || r.Head != head || r.Events != int64(len(evs)) {
				t.Errorf("Verify after migration = %+v, %v; want %d intact events ending at %s", r, err, len(evs), head)
			}

			if idx := indexesOn(t, db.sql, "events"); len(idx) != 0 {
				t.Errorf("indexes on events after migration: %v; want none but the key (before: %v)", idx, before)
			}
			if _, err := db.sql.ExecContext(ctx, `UPDATE events SET actor = 'x' WHERE seq = 1`); !isAppendOnly(err) {
				t.Errorf("UPDATE after migration: %v; want the append-only trigger to refuse it", err)
			}
			if _, err := db.sql.ExecContext(ctx, `DELETE FROM events WHERE seq = 1`); !isAppendOnly(err) {
				t.Errorf("DELETE after migration: %v; want the append-only trigger to refuse it", err)
			}
			more := appendEvents(t, db, 2)
			if more[0].Seq != int64(len(evs)+1) || more[0].Prev != head {
				t.Errorf("the first new event is %d after %s; want %d after the old head %s", more[0].Seq, more[0].Prev, len(evs)+1, head)
			}
			if r, err := db.Verify(ctx, head); err != nil || !r.OK || r.HeadSeq != int64(len(evs)) {
				t.Errorf("Verify with new events = %+v, %v; want intact, the old head at %d", r, err, len(evs))
			}
		})
	}
}

func isAppendOnly(err error) bool {
	return err != nil && errors.Is(mapErr(err), ErrAppendOnly)
}

// equalEvents compares events field by field (times by instant).
func equalEvents(a, b Event) bool {
	return a.Seq == b.Seq && a.Match == b.Match && a.Game == b.Game && a.At.Equal(b.At) && a.Received.Equal(b.Received) &&
		a.Role == b.Role && a.Actor == b.Actor && a.Kind == b.Kind && string(a.Payload) == string(b.Payload) &&
		a.Prev == b.Prev && a.Hash == b.Hash
}
