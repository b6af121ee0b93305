package match

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"arbiter/internal/forgery"
	"arbiter/store"
)

const operatorPass = "the operator's passphrase"

// operatorMatch is a protected match of the 1996 players in which the
// operator holds a credential (operatorPass), game 1 started. It returns
// the fixture, what puts the arbiter's PIN on a command, and the operator's
// key.
func operatorMatch(t *testing.T) (*fixture, func(Cmd) Cmd, ed25519.PrivateKey) {
	t.Helper()
	f := newFixture(t)
	pin := func(c Cmd) Cmd { c.PIN = arbiterPass; return c }
	f.ok(f.app.NewMatch(f.ctx, pin(f.at(0)), MatchNew{Title: "ACM Chess Challenge", Players: [2]string{"Garry Kasparov", "Deep Blue"},
		Computer: "Deep Blue", Operators: []string{"Feng-hsiung Hsu"}, White: "Deep Blue", PIN: arbiterPass}))
	f.ok(f.app.AddCredential(f.ctx, pin(f.at(time.Second)), CredentialAdd{Role: RoleOperator, Secret: operatorPass}))
	f.ok(f.app.StartGame(f.ctx, pin(f.at(time.Second)), 0))
	key, ok := f.app.State().Auth.Creds["operator"].Unlock(operatorPass, nil)
	if !ok {
		t.Fatal("the operator's passphrase does not open his key")
	}
	return f, pin, key
}

// knightsOutAndBack plays 1.Nf3 Nf6 2.Ng1 Ng8, White's moves given at the
// operator's laptop (givenAtLaptop), Black's at the console with the
// arbiter's PIN, ten seconds apart: the position after it is the starting
// one, so 2.Nf3's request is legal again at the record's end.
func knightsOutAndBack(t *testing.T, f *fixture, pin func(Cmd) Cmd, key ed25519.PrivateKey) {
	t.Helper()
	for _, m := range []string{"Nf3", "Nf6", "Ng1", "Ng8"} {
		at := f.at(10 * time.Second).At
		if m == "Nf6" || m == "Ng8" {
			if _, err := f.app.Move(f.ctx, pin(Cmd{At: at, Actor: Actor{Role: RoleBlack}}), m, false); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := givenAtLaptop(f, key, at, m, time.Millisecond, 2*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
}

// givenAtLaptop runs the operator's move input as the authority takes it
// from the laptop: a request his key signed at at for the record as it
// stands, stamped there, received here after received, with the round
// trip rtt.
func givenAtLaptop(f *fixture, key ed25519.PrivateKey, at time.Time, input string, received, rtt time.Duration) error {
	st := f.app.State()
	b, err := EncodeCommand(Move{Input: input})
	if err != nil {
		return err
	}
	req := &SignedRequest{ID: "laptop/" + input, From: "laptop", Role: string(RoleOperator), Signer: "operator", AtNS: at.UnixNano(), Seq: st.Seq, Head: st.Head, Command: b}
	req.Sign(key)
	c := Cmd{At: at, Actor: Actor{Role: RoleOperator, Signed: req},
		Stamp: &Stamp{Pressed: at, Received: at.Add(received), ReceivedBy: "arbiter", RTT: rtt}}
	_, err = f.app.Do(f.ctx, c, Move{Input: input})
	return err
}

// stationRecord is a protected record in which the operator's moves were
// given at another station (a request his key signed, stamped there, as the
// authority takes it) and Kasparov's by the arbiter's credential here; its
// last event is the operator's 2.c3, given at the laptop after the head the
// arbiter signed at 1…c5. It returns the file's path.
func stationRecord(t *testing.T) string {
	t.Helper()
	f, pin, key := operatorMatch(t)
	atLaptop := func(d time.Duration, input string) {
		t.Helper()
		at := f.at(d).At
		if err := givenAtLaptop(f, key, at, input, 2*time.Millisecond, 3*time.Millisecond); err != nil {
			t.Fatalf("the operator's %s given at the laptop: %v", input, err)
		}
	}
	atLaptop(30*time.Second, "e4")
	if _, err := f.app.Move(f.ctx, pin(f.at(30*time.Second)), "c5", false); err != nil {
		t.Fatal(err)
	}
	atLaptop(30*time.Second, "c3")
	return f.db.Path()
}

// A move given at another station is the move its role signed (issue 24,
// "a forged record under the genuine key"): the request signs the command,
// not the events the authority made of it, and those are vouched for by the
// station key that appended them, named only in their own rows. Before,
// anyone with a copy of a station's record (every replica: the laptop's,
// the mirror's) could put another move in the place of the last moves
// given at stations, after the last head the arbiter signed, sign it with a
// station key of his own, and verify said every signature held; now the
// move event must carry the input signed and the instant stamped where it
// was given, and that input must name the move recorded in its position.
func TestAMoveGivenAtAnotherStationIsTheMoveItsRoleSigned(t *testing.T) {
	src := stationRecord(t)
	t.Run("the record as the stations wrote it verifies", func(t *testing.T) {
		if r := checkFile(t, src, Anchors{}); !r.OK {
			t.Fatal(r.Problem)
		}
	})
	evs, _ := readRecord(t, src)
	last := evs[len(evs)-1]
	if last.Kind != KindMove {
		t.Fatalf("the last event is %s", last.Kind)
	}
	payload := func(e *store.Event, edit func(p map[string]any)) {
		var p map[string]any
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		edit(p)
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		e.Payload = b
	}
	for _, tc := range []struct {
		name string
		edit func(e *store.Event)
	}{
		{"another move in its place, the input signed kept (2.d4 for 2.c3)", func(e *store.Event) {
			payload(e, func(p map[string]any) { p["san"], p["uci"] = "d4", "d2d4" })
		}},
		{"another move with its own input (2.d4 for 2.c3)", func(e *store.Event) {
			payload(e, func(p map[string]any) { p["san"], p["uci"], p["input"] = "d4", "d2d4", "d4" })
		}},
		{"the same move pressed ten minutes later, its stamp moved with it", func(e *store.Event) {
			e.At = e.At.Add(10 * time.Minute)
			e.Received = e.Received.Add(10 * time.Minute)
			payload(e, func(p map[string]any) { p["pressed_ns"] = e.At.UnixNano() })
		}},
		{"the same move pressed before its stamp", func(e *store.Event) {
			e.At = e.At.Add(-10 * time.Second)
		}},
		{"no move at all in its place (a note)", func(e *store.Event) {
			e.Kind, e.Payload = KindIncident, []byte(`{"kind":"note","text":"nothing happened"}`)
		}},
	} {
		t.Run(tc.name+": verify names the event", func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "forged.db")
			if _, err := forgery.ResignTail(context.Background(), src, dst, last.Seq, tc.edit); err != nil {
				t.Fatal(err)
			}
			r := checkFile(t, dst, Anchors{})
			if r.OK {
				t.Fatal("the forged record verifies")
			}
			if r.BadSeq != last.Seq || r.Why == nil || r.Why.Code != string(CodeRequestOtherMove) {
				t.Fatalf("verify says %q at event %d, want %s at event %d", r.Problem, r.BadSeq, CodeRequestOtherMove, last.Seq)
			}
		})
	}
}

// A request is recorded once: one signed for a position that comes again
// (2.Nf3 after 1.Nf3 Nf6 2.Ng1 Ng8), put again at the record's end with a
// move event as the authority would have made it (the input and the stamp
// signed, the move legal there) and a station key of the forger's, is a
// replay; verify names it. Before, it verified.
func TestARequestReplayedWhereItsMoveIsLegalAgainIsNamed(t *testing.T) {
	f, pin, key := operatorMatch(t)
	knightsOutAndBack(t, f, pin, key)
	path := f.db.Path()
	f.db.Close()
	evs, sigs := readRecord(t, path)
	var nf3 store.Event
	var row store.Signature
	for _, s := range sigs {
		if s.Kind == store.SigRequest && s.Cmd == "laptop/Nf3" {
			row, nf3 = s, evs[s.Seq-1]
		}
	}
	if r := checkFile(t, path, Anchors{}); !r.OK {
		t.Fatal(r.Problem)
	}
	again := nf3
	again.Seq, again.Prev, again.Hash = 0, "", ""
	again.At, again.Received = evs[len(evs)-1].At.Add(time.Minute), evs[len(evs)-1].At.Add(time.Minute)
	got, err := forgery.ReplayRequest(context.Background(), path, again, row)
	if err != nil {
		t.Fatal(err)
	}
	r := checkFile(t, path, Anchors{})
	if r.OK || r.Why == nil || r.Why.Code != string(CodeReplayedCommand) || r.BadSeq != got.Seq {
		t.Fatalf("verify says %q at event %d, want %s at event %d", r.Problem, r.BadSeq, CodeReplayedCommand, got.Seq)
	}
}
