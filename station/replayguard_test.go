package station

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/assets"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// TestAReplicaRefusesAReplayedOrRewrittenRequestFromTheStreamAsVerifyDoes
// (principle 1, hwal's leftover): whoever can write into the stream (a
// station key of his own, no credential) cannot have a replica take what
// verify and the watch refuse in the file — a request signed at another
// station replayed at the record's end, where its move is legal again, and
// a move other than the one the request signed, its input kept and the
// event signed again by a station key of his. The replica raises the alarm
// naming it as verify does, applies nothing and plays no move. Before,
// the replica took both, and the station's state played the move until
// its watch read the file.
func TestAReplicaRefusesAReplayedOrRewrittenRequestFromTheStreamAsVerifyDoes(t *testing.T) {
	for _, tc := range []struct {
		name string
		// forge is the forger's command after the record's last event,
		// its rows (the station's signed by a key of his)
		forge func(t *testing.T, db *store.DB, evs []store.Event, sigs []store.Signature) ([]store.Event, []store.Signature)
		want  match.Code
	}{
		{"a request replayed at the record's end, where its move is legal again, raises the alarm", func(t *testing.T, db *store.DB, evs []store.Event, sigs []store.Signature) ([]store.Event, []store.Signature) {
			nf3 := evs[0]
			for _, e := range evs {
				if e.Kind == match.KindMove && strings.Contains(string(e.Payload), `"Nf3"`) {
					nf3 = e
					break
				}
			}
			last := evs[len(evs)-1]
			again := nf3
			again.Seq, again.Prev = last.Seq+1, last.Hash
			again.At, again.Received = last.At.Add(time.Second), last.Received.Add(time.Second)
			again.Hash = store.EventHash(again)
			var rows []store.Signature
			for _, s := range sigs {
				if s.Seq == nf3.Seq && s.Kind != store.SigStation && s.Kind != store.SigHead {
					s.Seq = again.Seq
					rows = append(rows, s)
				}
			}
			return []store.Event{again}, append(rows, forgedStationRow(t, again))
		}, match.CodeReplayedCommand},
		{"another move in the place of the one signed at another station, its input kept, raises the alarm", func(t *testing.T, db *store.DB, evs []store.Event, sigs []store.Signature) ([]store.Event, []store.Signature) {
			// the white's 3.Nc3 signed at another station, run on a copy of
			// the record as the authority would run it, rewritten there as
			// 3.Na3 under the input signed
			ctx := context.Background()
			other := filepath.Join(t.TempDir(), "other.db")
			if err := db.Backup(ctx, other); err != nil {
				t.Fatal(err)
			}
			odb := openDB(t, other)
			app, err := match.New(ctx, odb)
			if err != nil {
				t.Fatal(err)
			}
			st := app.State()
			b, err := match.EncodeCommand(match.Move{Input: "Nc3"})
			if err != nil {
				t.Fatal(err)
			}
			at := st.LastAt.Add(time.Second)
			sr := &match.SignedRequest{ID: "laptop/Nc3", From: "laptop", Role: "white", Signer: "arbiter", AtNS: at.UnixNano(), Seq: st.Seq, Head: st.Head, Command: b}
			sr.Sign(testKey)
			if _, err := app.Do(ctx, match.Cmd{At: at, Actor: match.Actor{Role: match.RoleWhite, Signed: sr},
				Stamp: &match.Stamp{Pressed: at, Received: at, ReceivedBy: "arbiter", RTT: time.Millisecond}}, match.Move{Input: "Nc3"}); err != nil {
				t.Fatal(err)
			}
			oevs, osigs, err := odb.Record(ctx)
			if err != nil {
				t.Fatal(err)
			}
			e := oevs[len(oevs)-1]
			var p map[string]json.RawMessage // numbers kept as written
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatal(err)
			}
			if string(p["uci"]) != `"b1c3"` {
				t.Fatalf("the copy played %s", e.Payload)
			}
			p["san"], p["uci"] = json.RawMessage(`"Na3"`), json.RawMessage(`"b1a3"`)
			e.Payload, _ = json.Marshal(p)
			e.Hash = store.EventHash(e)
			var rows []store.Signature
			for _, s := range osigs {
				if s.Seq == e.Seq && s.Kind != store.SigStation && s.Kind != store.SigHead {
					rows = append(rows, s)
				}
			}
			return []store.Event{e}, append(rows, forgedStationRow(t, e))
		}, match.CodeRequestOtherMove},
		{"a recovery note that cannot be read, under the system's role and a station key of his, raises the alarm", func(t *testing.T, db *store.DB, evs []store.Event, sigs []store.Signature) ([]store.Event, []store.Signature) {
			return systemEvent(t, evs, match.KindRecovery, `{"away_ms":"a minute"}`)
		}, CodeAlarmNotPlayable},
		{"a move under the system's role and a station key of his raises the alarm", func(t *testing.T, db *store.DB, evs []store.Event, sigs []store.Signature) ([]store.Event, []store.Signature) {
			return systemEvent(t, evs, match.KindMove, `{"san":"e4","uci":"e2e4","press":true}`)
		}, match.CodeSystemKind},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.db")
			newProtectedRecord(t, path)
			db := openDB(t, path)
			s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true,
				Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js")}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Stop()
			submit(t, s, pinReqOn(s, "arbiter", match.GameStart{Game: 1}))
			for i, mv := range []string{"Nf3", "Nf6", "Ng1", "Ng8"} {
				role := "white"
				if i%2 == 1 {
					role = "black"
				}
				submit(t, s, pinReqOn(s, role, match.Move{Input: mv}))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			evs, sigs := recordHeld(t, ctx, db, s.Replica())
			last := evs[len(evs)-1]
			head := verifyHead(t, db)
			forged, rows := tc.forge(t, db, evs, sigs)
			// verify refuses the forged command in a file: the replica
			// must refuse it as verify would
			if tc.want == CodeAlarmNotPlayable {
				// the record would not open: the console's New says so
			} else if r := verifyWith(t, dir, evs, sigs, forged, rows); r.OK || r.Why == nil || r.Why.Code != string(tc.want) {
				t.Fatalf("verify of the record with the forged command says %q, want %s", r.Problem, tc.want)
			}
			if _, err := s.Link().Append(ctx, "forged", encodeEvents("forged", forged, rows), uint64(last.Seq)); err != nil {
				t.Fatalf("inject: %v", err)
			}
			if err := s.Replica().WaitSeq(ctx, uint64(forged[0].Seq)); err == nil {
				t.Fatal("the forged command was applied")
			}
			st := s.Status()
			if st.AlarmWhy == nil || !strings.HasPrefix(st.Alarm, fmt.Sprintf("event %d from the stream does not fit", forged[0].Seq)) || st.CanAppend {
				t.Fatalf("status alarm %q: want the stream's alarm at event %d and no appending", st.Alarm, forged[0].Seq)
			}
			if !names(st.AlarmWhy, tc.want) {
				t.Errorf("the alarm %q does not name the problem %s", st.Alarm, tc.want)
			}
			if german := assets.Dictionary("de").Say(st.AlarmWhy); strings.Contains(german, "from the stream") {
				t.Errorf("the alarm in German is %q", german)
			}
			if seq, _, _ := db.Head(context.Background()); seq != last.Seq || verifyHead(t, db) != head {
				t.Fatalf("the record moved: head %d", seq)
			}
			if got := s.app.State().Seq; got != last.Seq {
				t.Errorf("the station's state is at event %d, want %d", got, last.Seq)
			}
		})
	}
}

// forgedStationRow is e's station signature by a key of the forger's.
func forgedStationRow(t *testing.T, e store.Event) store.Signature {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return store.Signature{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: hex.EncodeToString(k.Public().(ed25519.PublicKey)),
		Sig: hex.EncodeToString(ed25519.Sign(k, match.StationMessage(e.Hash)))}
}

// names reports whether p is, or says within it, a phrase of code c.
func names(p *phrase.Error, c match.Code) bool {
	if p == nil {
		return false
	}
	if p.Code == string(c) {
		return true
	}
	for _, a := range p.Args {
		if q, ok := a.(*phrase.Error); ok && names(q, c) {
			return true
		}
	}
	return false
}

// systemEvent is an event of kind with payload under the system's role
// after the record's last event, signed by a station key of the forger's.
func systemEvent(t *testing.T, evs []store.Event, kind, payload string) ([]store.Event, []store.Signature) {
	t.Helper()
	last := evs[len(evs)-1]
	e := last // its match and game
	e.Seq, e.Prev, e.At, e.Received = last.Seq+1, last.Hash, last.At.Add(time.Second), last.Received.Add(time.Second)
	e.Role, e.Actor, e.Kind, e.Payload = string(match.RoleSystem), "Arbiter", kind, []byte(payload)
	e.Hash = store.EventHash(e)
	return []store.Event{e}, []store.Signature{forgedStationRow(t, e)}
}

// verifyWith is verify's report on the record evs, sigs with the events
// forged and their rows appended, in a file of its own in dir.
func verifyWith(t *testing.T, dir string, evs []store.Event, sigs []store.Signature, forged []store.Event, rows []store.Signature) match.RecordReport {
	t.Helper()
	ctx := context.Background()
	db := openDB(t, filepath.Join(dir, "verify.db"))
	if _, err := db.Update(ctx, func(tx *store.Tx) error {
		for _, e := range append(append([]store.Event(nil), evs...), forged...) {
			e.Seq, e.Prev, e.Hash = 0, "", ""
			if _, err := tx.Append(e); err != nil {
				return err
			}
		}
		for _, s := range append(append([]store.Signature(nil), sigs...), rows...) {
			if err := tx.PutSignature(s); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	r, err := match.VerifyRecordAgainst(ctx, db, match.Anchors{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
