package match

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/internal/forgery"
	"arbiter/store"
)

// insertRows writes the events evs and their signature rows sigs into the
// record at path as another writer would (sqlite3: the guard triggers let
// an INSERT through).
func insertRows(t *testing.T, path string, evs []store.Event, sigs []store.Signature) {
	t.Helper()
	db := raw(t, path)
	for _, e := range evs {
		exec(t, db, `INSERT INTO events (seq, match, game, at_ns, received_ns, role, actor, kind, payload, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.Seq, e.Match, e.Game, e.At.UnixNano(), receivedNS(e), e.Role, e.Actor, e.Kind, string(e.Payload), e.Prev, e.Hash)
	}
	for _, s := range sigs {
		exec(t, db, `INSERT INTO signatures (seq, kind, count, cmd, signer, station, key, sig, request) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			s.Seq, s.Kind, s.Count, s.Cmd, s.Signer, s.Station, s.Key, s.Sig, s.Request)
	}
	putBack(t, db) // rows added need no guard dropped
	db.Close()
}

func receivedNS(e store.Event) int64 {
	if e.Received.IsZero() {
		return 0
	}
	return e.Received.UnixNano()
}

// TestARunningCoreChecksTheEventsOthersWroteAsVerifyDoes (principle 1, any
// edit of the file is detected): the checks that only 'arbiter verify' ran
// — a command id the record holds already, a move given at another station
// replayed on its position — run on the events another writer appended
// while the console (or a station) runs, at its next watch: a request
// replayed at the record's end where its move is legal again
// (internal/forgery.ReplayRequest), and another move in the place of the
// one the operator signed at the laptop, the input signed kept and signed
// again by a station key of the forger's (internal/forgery.ResignTail), are
// named as verify names them, the state rebuilt from the events before,
// and nothing more is taken. Before, the watch took them and played the
// move; only the next verify said so.
func TestARunningCoreChecksTheEventsOthersWroteAsVerifyDoes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// forge writes into the running f's record; it returns the event
		// the watch must name
		forge func(t *testing.T, f *fixture) int64
		want  Code
	}{
		{"a request replayed at the record's end, where its move is legal again, is named by the next watch", func(t *testing.T, f *fixture) int64 {
			evs, sigs := readRecord(t, f.db.Path())
			var row store.Signature
			for _, s := range sigs {
				if s.Kind == store.SigRequest && s.Cmd == "laptop/Nf3" {
					row = s
				}
			}
			again := evs[row.Seq-1]
			again.Seq, again.Prev, again.Hash = 0, "", ""
			again.At, again.Received = evs[len(evs)-1].At.Add(time.Minute), evs[len(evs)-1].At.Add(time.Minute)
			got, err := forgery.ReplayRequest(ctx, f.db.Path(), again, row)
			if err != nil {
				t.Fatal(err)
			}
			return got.Seq
		}, CodeReplayedCommand},
		{"another move in the place of the one the operator signed at the laptop, written by another writer, is named by the next watch", func(t *testing.T, f *fixture) int64 {
			// the laptop's 3.Nc3 given at another holder of the record (a
			// copy of it), rewritten there as 3.Na3 under the input signed
			dir := t.TempDir()
			other := filepath.Join(dir, "other.arbiter")
			if err := f.db.Backup(ctx, other); err != nil {
				t.Fatal(err)
			}
			db, err := store.Open(ctx, other)
			if err != nil {
				t.Fatal(err)
			}
			app, err := New(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			g := &fixture{t: t, ctx: ctx, db: db, app: app, now: f.now}
			key, ok := app.State().Auth.Creds["operator"].Unlock(operatorPass, nil)
			if !ok {
				t.Fatal("the operator's passphrase does not open his key")
			}
			if err := givenAtLaptop(g, key, g.at(10*time.Second).At, "Nc3", time.Millisecond, 2*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			seq := app.State().Seq
			db.Close()
			forged := filepath.Join(dir, "forged.arbiter")
			evs, err := forgery.ResignTail(ctx, other, forged, seq, func(e *store.Event) {
				var p map[string]any
				if err := json.Unmarshal(e.Payload, &p); err != nil {
					t.Fatal(err)
				}
				p["san"], p["uci"] = "Na3", "b1a3"
				e.Payload, _ = json.Marshal(p)
			})
			if err != nil {
				t.Fatal(err)
			}
			_, sigs := readRecord(t, forged)
			insertRows(t, f.db.Path(), evs[seq-1:], rowsAfter(sigs, seq-1))
			if r := checkFile(t, f.db.Path(), Anchors{}); r.OK || r.Why.Code != string(CodeRequestOtherMove) || r.BadSeq != seq {
				t.Fatalf("verify says %q at event %d, want %s at event %d", r.Problem, r.BadSeq, CodeRequestOtherMove, seq)
			}
			return seq
		}, CodeRequestOtherMove},
	} {
		for _, taken := range []bool{false, true} {
			name := tc.name
			if taken {
				// a station's App takes the events its replica applied
				// from the stream before its watch checks the file: the
				// check replays them from its last position, as the App's
				// state holds a move a request signed
				name += ", taken into the App before its watch"
			}
			t.Run(name, func(t *testing.T) {
				f, pin, key := operatorMatch(t)
				knightsOutAndBack(t, f, pin, key)
				f.ok(f.app.Watch(f.ctx))
				if f.app.Why() != nil {
					t.Fatalf("a sound record: %v", f.app.Why())
				}
				told := 0
				f.app.SetChanged(func() { told++ })
				bad := tc.forge(t, f)
				if taken {
					evs, _ := readRecord(t, f.db.Path())
					f.ok(f.app.Take(f.ctx, evs))
					if f.app.State().Seq != int64(len(evs)) {
						t.Fatalf("the App took the record to event %d, want %d", f.app.State().Seq, len(evs))
					}
					told = 0
				}
				f.ok(f.app.Watch(f.ctx))
				f.ok(f.app.Watch(f.ctx))
				p := f.app.Why()
				if p == nil || p.Code != string(tc.want) {
					t.Fatalf("the problem: %v, want %s at event %d", p, tc.want, bad)
				}
				if told != 1 || f.app.State().Seq != bad-1 {
					t.Errorf("told %d times, the state at event %d; want once and %d", told, f.app.State().Seq, bad-1)
				}
				if _, err := f.app.Move(f.ctx, pin(f.as(RoleBlack, 10*time.Second)), "e5", false); err == nil {
					t.Error("a move was taken after the forged event")
				}
			})
		}
	}
}

// TestARunningCoreFindsASignatureRowAlteredBeforeItsWatchWalkedTheEvent
// (principle 1): the App's own commands move no stamp, so its watch walks
// their events only at the next change another writer makes. A station
// signature row of such an event altered with sqlite3 before then, under a
// head the arbiter signed at a later command, was taken as the open takes
// rows under the last head (present, the right key, not verified): the
// watch compares only the rows it walked. The watch now verifies every
// signature of the events it walks for the first time (the station's own
// watch test failed so about one run in three).
func TestARunningCoreFindsASignatureRowAlteredBeforeItsWatchWalkedTheEvent(t *testing.T) {
	f := newFixture(t)
	pin := func(c Cmd) Cmd { c.PIN = arbiterPass; return c }
	f.ok(f.app.NewMatch(f.ctx, pin(f.at(0)), MatchNew{Title: "ACM Chess Challenge", Players: [2]string{"Garry Kasparov", "Deep Blue"},
		Computer: "Deep Blue", Operators: []string{"Feng-hsiung Hsu"}, White: "Deep Blue", PIN: arbiterPass}))
	f.ok(f.app.StartGame(f.ctx, pin(f.at(time.Second)), 0))
	f.ok(f.app.Watch(f.ctx)) // walks the record as it stands
	for _, m := range []string{"e4", "c5", "c3"} {
		if _, err := f.app.Move(f.ctx, pin(f.at(30*time.Second)), m, false); err != nil {
			t.Fatal(err)
		}
	}
	f.ok(f.app.Watch(f.ctx)) // nothing but the App's own commands: not walked
	evs, _ := readRecord(t, f.db.Path())
	e := evs[len(evs)-2] // 1...c5, under the head signed at 2.c3
	alterSignature(t, f.db.Path(), e.Seq, store.SigStation)
	f.ok(f.app.Watch(f.ctx))
	want := fmt.Sprintf("event %d (move) does not match the hash its station signed", e.Seq)
	if p := f.app.Why(); p == nil || !strings.Contains(p.Error(), want) {
		t.Fatalf("the problem: %v, want %q", p, want)
	}
}

// TestOnlyTheSystemsOwnKindsGoUnderItsRoleWithoutACommandsSignature
// (principle 1): on a protected match an event under the system's role
// needs no command's signature, only a station's, and a station key is
// not certified — so such an event may only be of the kinds the system
// records (a station's event, a recovery note, a suspension). A move, a
// game's end or a flag under the system's role, signed by a station key of
// the forger's, is named by verify (and by the watch and a station's
// replica, which walk as it does). Before, a move e4 so added verified and
// was played.
func TestOnlyTheSystemsOwnKindsGoUnderItsRoleWithoutACommandsSignature(t *testing.T) {
	for _, tc := range []struct {
		kind, payload string
		want          Code
	}{
		{KindMove, `{"san":"e4","uci":"e2e4","press":true}`, CodeSystemKind},
		{KindGameEnd, `{"result":"0-1","termination":"time forfeit"}`, CodeSystemKind},
		{KindIncident, `{"kind":"note","text":"x"}`, CodeSystemKind},
		{KindIncident, `{"kind":"suspend","text":"x","rule":"6.10"}`, ""},
		{"station.member", `{"name":"x","role":"mirror"}`, ""},
	} {
		t.Run(tc.kind+" "+tc.payload, func(t *testing.T) {
			f, _, _ := operatorMatch(t)
			evs, _ := readRecord(t, f.db.Path())
			last := evs[len(evs)-1]
			e := last
			e.Seq, e.Prev, e.At, e.Received = last.Seq+1, last.Hash, last.At.Add(time.Second), last.Received.Add(time.Second)
			e.Role, e.Actor, e.Kind, e.Payload = string(RoleSystem), "Arbiter", tc.kind, []byte(tc.payload)
			e.Hash = store.EventHash(e)
			k := forgery.NewKey()
			insertRows(t, f.db.Path(), []store.Event{e}, []store.Signature{{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: forgery.PublicHex(k),
				Sig: hex.EncodeToString(ed25519.Sign(k, StationMessage(e.Hash)))}})
			r := checkFile(t, f.db.Path(), Anchors{})
			if tc.want == "" {
				if !r.OK {
					t.Fatalf("verify: %v", r.Why)
				}
				return
			}
			if r.OK || r.Why.Code != string(tc.want) || r.BadSeq != e.Seq {
				t.Fatalf("verify says %q at event %d, want %s at event %d", r.Problem, r.BadSeq, tc.want, e.Seq)
			}
		})
	}
}
