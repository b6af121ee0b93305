package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// intruder opens the log with database/sql directly, drops the guard
// triggers, and runs tamper on it.
func intruder(t *testing.T, path string, tamper func(raw *sql.DB)) {
	t.Helper()
	raw := rawDB(t, path)
	defer raw.Close()
	for _, s := range []string{"DROP TRIGGER events_no_update", "DROP TRIGGER events_no_delete"} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	tamper(raw)
}

func mustExec(t *testing.T, raw *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := raw.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// forge inserts e with a correctly computed hash, as an intruder who has
// read docs/store.md would.
func forge(t *testing.T, raw *sql.DB, e Event) Event {
	t.Helper()
	e.Hash = EventHash(e)
	mustExec(t, raw, `INSERT INTO events (seq, match, game, at_ns, role, actor, kind, payload, prev, hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Seq, e.Match, e.Game, e.At.UnixNano(), e.Role, e.Actor, e.Kind, string(e.Payload), e.Prev, e.Hash)
	return e
}

// shift renumbers events with seq >= from by delta, in two steps so that the
// UNIQUE seq never collides mid-statement.
func shift(t *testing.T, raw *sql.DB, from, delta int64) {
	t.Helper()
	mustExec(t, raw, "UPDATE events SET seq = seq + 100000 WHERE seq >= ?", from)
	mustExec(t, raw, "UPDATE events SET seq = seq - 100000 + ? WHERE seq >= 100000", delta)
}

// copyEvent inserts event ?2 again, every column as it is, as event ?1.
const copyEvent = `INSERT INTO events (seq, match, game, at_ns, received_ns, role, actor, kind, payload, prev, hash)
	SELECT ?1, match, game, at_ns, received_ns, role, actor, kind, payload, prev, hash FROM events WHERE seq = ?2`

func TestVerifyDetectsTampering(t *testing.T) {
	const n = 10
	tests := []struct {
		name        string
		tamper      func(t *testing.T, raw *sql.DB, evs []Event)
		wantHead    func(evs []Event) string // nil: no head check
		wantOK      bool
		wantBad     int64
		wantProblem string
	}{
		{
			name:   "an untouched chain verifies and reports its head",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {},
			wantOK: true,
		},
		{
			name:     "an untouched chain verifies against the head written down at its end",
			tamper:   func(t *testing.T, raw *sql.DB, evs []Event) {},
			wantHead: func(evs []Event) string { return evs[n-1].Hash },
			wantOK:   true,
		},
		{
			name:     "a head written down earlier is still in the chain",
			tamper:   func(t *testing.T, raw *sql.DB, evs []Event) {},
			wantHead: func(evs []Event) string { return strings.ToUpper(evs[5].Hash) },
			wantOK:   true,
		},
		{
			name: "an edited payload is a hash mismatch at that event",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `UPDATE events SET payload = '{"ply":6,"san":"Qh5"}' WHERE seq = 7`)
			},
			wantBad: 7, wantProblem: "event 7 (move) was edited (hash mismatch)",
		},
		{
			name: "an edited role is a hash mismatch at that event",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `UPDATE events SET role = 'arbiter' WHERE seq = 4`)
			},
			wantBad: 4, wantProblem: "event 4 (move) was edited (hash mismatch)",
		},
		{
			name: "an edited instant is a hash mismatch at that event",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `UPDATE events SET at_ns = at_ns - 60000000000 WHERE seq = 2`)
			},
			wantBad: 2, wantProblem: "event 2 (move) was edited (hash mismatch)",
		},
		{
			name: "a deleted event leaves a gap",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `DELETE FROM events WHERE seq = 5`)
			},
			wantBad: 5, wantProblem: "event 5 is missing (the record goes on with event 6 (move))",
		},
		{
			name: "a deleted event is missing even when later events are renumbered",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `DELETE FROM events WHERE seq = 5`)
				shift(t, raw, 6, -1)
			},
			wantBad: 5, wantProblem: "event 5 is missing (later events were renumbered; event 5 (move) was recorded as event 6)",
		},
		{
			name: "two swapped events are out of order",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `UPDATE events SET seq = 1000 WHERE seq = 5`)
				mustExec(t, raw, `UPDATE events SET seq = 5 WHERE seq = 9`)
				mustExec(t, raw, `UPDATE events SET seq = 9 WHERE seq = 1000`)
			},
			wantBad: 5, wantProblem: "event 5 (move) is out of order (it was recorded as event 9)",
		},
		{
			name: "two adjacent swapped events are out of order",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `UPDATE events SET seq = 1000 WHERE seq = 3`)
				mustExec(t, raw, `UPDATE events SET seq = 3 WHERE seq = 4`)
				mustExec(t, raw, `UPDATE events SET seq = 4 WHERE seq = 1000`)
			},
			wantBad: 3, wantProblem: "event 3 (move) is out of order (it was recorded as event 4)",
		},
		{
			name: "a forged event inserted mid-chain with a valid hash is caught at its place",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				shift(t, raw, 4, +1)
				f := testEvent(99)
				f.At, f.Seq, f.Prev = f.At.UTC(), 4, evs[2].Hash
				forge(t, raw, f)
			},
			wantBad: 4, wantProblem: "event 4 (move) was inserted (the original event 4 now sits at 5)",
		},
		{
			name: "a forged event inserted with a made-up hash is a hash mismatch",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				shift(t, raw, 4, +1)
				mustExec(t, raw, `INSERT INTO events (seq, match, game, at_ns, role, actor, kind, payload, prev, hash) VALUES (4, 1, 1, 0, 'arbiter', 'X', 'draw.agreed', '{}', ?, ?)`,
					evs[2].Hash, strings.Repeat("ab", 32))
			},
			wantBad: 4, wantProblem: "event 4 (draw.agreed) was edited (hash mismatch)",
		},
		{
			// Before migration 0006 the UNIQUE index on hash refused this
			// row; the chain names it.
			name: "an event copied whole after the last is a copy of it",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, copyEvent, n+1, n)
			},
			wantBad: n + 1, wantProblem: "event 11 (move) is a copy of event 10",
		},
		{
			name: "an event copied whole into the middle, renumbering the rest, is a copy of it",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				shift(t, raw, 6, +1)
				mustExec(t, raw, copyEvent, 6, 5)
			},
			wantBad: 6, wantProblem: "event 6 (move) is a copy of event 5",
		},
		{
			name: "an event copied over a deleted one is a copy of its predecessor",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `DELETE FROM events WHERE seq = 4`)
				mustExec(t, raw, copyEvent, 4, 3)
			},
			wantBad: 4, wantProblem: "event 4 (move) is a copy of event 3",
		},
		{
			name: "an event edited and re-hashed breaks the link from its successor",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				e := evs[5]
				e.Actor = "someone else"
				mustExec(t, raw, `UPDATE events SET actor = ?, hash = ? WHERE seq = 6`, e.Actor, EventHash(e))
			},
			wantBad: 6, wantProblem: "event 6 (move) was edited and re-hashed (event 7 records a different hash for it)",
		},
		{
			name: "a cut-off tail verifies alone but not against the head written down",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `DELETE FROM events WHERE seq > 8`)
			},
			wantHead: func(evs []Event) string { return evs[n-1].Hash },
			wantBad:  9,
			// wantProblem filled in below: it quotes the head.
		},
		{
			name: "a chain rebuilt from scratch verifies alone but not against the head written down",
			tamper: func(t *testing.T, raw *sql.DB, evs []Event) {
				mustExec(t, raw, `DELETE FROM events`)
				prev := GenesisPrev
				for i := 0; i < n; i++ {
					e := testEvent(i)
					e.At, e.Seq, e.Prev = e.At.UTC(), int64(i+1), prev
					if i == 6 {
						e.Payload = []byte(`{"ply":6,"san":"Qh5"}`)
					}
					prev = forge(t, raw, e).Hash
				}
			},
			wantHead: func(evs []Event) string { return evs[n-1].Hash },
			wantBad:  n + 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, path := newTestDB(t)
			evs := appendEvents(t, db, n)
			db.Close()
			intruder(t, path, func(raw *sql.DB) { tt.tamper(t, raw, evs) })

			ro, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			want := ""
			if tt.wantHead != nil {
				want = tt.wantHead(evs)
			}
			r, err := ro.Verify(ctx, want)
			if err != nil {
				t.Fatal(err)
			}
			wantProblem := tt.wantProblem
			if want != "" && !tt.wantOK && wantProblem == "" {
				wantProblem = fmt.Sprintf("head %s… is not in the chain", want[:12])
				// Without the head the chain itself must look intact.
				if alone, _ := ro.Verify(ctx, ""); !alone.OK {
					t.Errorf("without a head: %+v; want the tampered chain to look intact", alone)
				}
			}
			if r.OK != tt.wantOK || r.BadSeq != tt.wantBad || r.Problem != wantProblem {
				t.Errorf("Verify = OK %v BadSeq %d Problem %q;\n want OK %v BadSeq %d Problem %q",
					r.OK, r.BadSeq, r.Problem, tt.wantOK, tt.wantBad, wantProblem)
			}
			if tt.wantOK {
				if r.Head != evs[n-1].Hash || r.Events != n {
					t.Errorf("Verify = %+v; want %d events, head %s", r, n, evs[n-1].Hash)
				}
				if len(r.Head) != 64 || strings.ToLower(r.Head) != r.Head {
					t.Errorf("Head %q is not 64 lowercase hex", r.Head)
				}
				t.Logf("head %s", r.Head)
			}
		})
	}
}

// TestHashEncodingGolden pins the hash encoding: if this test fails, every
// existing log would stop verifying. The golden file doubles as a worked
// example for docs/store.md. Regenerate with -update only for a new HashDomain.
func TestHashEncodingGolden(t *testing.T) {
	e := Event{
		Seq: 1, Match: 1, Game: 1,
		At:      time.Date(1996, 2, 10, 20, 0, 0, 5, time.UTC),
		Role:    "operator",
		Actor:   "Feng-hsiung Hsu",
		Kind:    "move",
		Payload: []byte(`{"san":"e4","uci":"e2e4"}`),
		Prev:    GenesisPrev,
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "event: %+v\n", struct {
		Seq, Match int64
		Game       int
		AtUnixNano int64
		Role       string
		Actor      string
		Kind       string
		Payload    string
		Prev       string
	}{e.Seq, e.Match, e.Game, e.At.UnixNano(), e.Role, e.Actor, e.Kind, string(e.Payload), e.Prev})
	fmt.Fprintf(&b, "encoding:\n%s", hex.Dump(EncodeEvent(e)))
	fmt.Fprintf(&b, "hash: %s\n", EventHash(e))

	matchGolden(t, "hash_vector.golden", b.Bytes(), "existing logs")
}

// matchGolden compares got with testdata/name (written with -update):
// a hash encoding that changed would leave whose records unverifiable.
func matchGolden(t *testing.T, name string, got []byte, whose string) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("hash encoding changed; %s would no longer verify.\ngot:\n%s\nwant:\n%s", whose, got, want)
	}
}

func TestEncodingIsUnambiguous(t *testing.T) {
	base := Event{Seq: 1, Match: 1, At: t0, Role: "white", Actor: "ab", Kind: "c", Payload: []byte("{}"), Prev: GenesisPrev}
	tests := []struct {
		name string
		a, b func(*Event)
	}{
		{"moving a byte from actor to kind changes the hash",
			func(e *Event) { e.Actor, e.Kind = "ab", "c" }, func(e *Event) { e.Actor, e.Kind = "a", "bc" }},
		{"an empty actor differs from a missing one shifted into kind",
			func(e *Event) { e.Actor, e.Kind = "", "x" }, func(e *Event) { e.Actor, e.Kind = "x", "" }},
		{"game and match are not interchangeable",
			func(e *Event) { e.Match, e.Game = 1, 2 }, func(e *Event) { e.Match, e.Game = 2, 1 }},
		{"one nanosecond changes the hash",
			func(e *Event) {}, func(e *Event) { e.At = e.At.Add(1) }},
		{"the time zone does not change the hash",
			func(e *Event) {}, func(e *Event) { e.At = e.At.UTC() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := base, base
			tt.a(&a)
			tt.b(&b)
			same := a.At.Equal(b.At) && sameFields(a, b)
			if (EventHash(a) == EventHash(b)) != same {
				t.Errorf("hashes equal = %v, fields equal = %v", EventHash(a) == EventHash(b), same)
			}
		})
	}
}

func sameFields(a, b Event) bool {
	return a.Seq == b.Seq && a.Match == b.Match && a.Game == b.Game && a.At.UnixNano() == b.At.UnixNano() &&
		a.Role == b.Role && a.Actor == b.Actor && a.Kind == b.Kind && bytes.Equal(a.Payload, b.Payload) && a.Prev == b.Prev
}
