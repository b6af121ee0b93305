package match

import (
	"crypto/ed25519"
	"strings"
	"testing"
	"time"

	"arbiter/internal/forgery"
)

// keyOperatorMatch is operatorMatch with the operator's credential a key
// file's key: the same key may hold the operator's credential in several
// matches (a practice match, the match itself).
func keyOperatorMatch(t *testing.T, key ed25519.PrivateKey) (*fixture, func(Cmd) Cmd) {
	t.Helper()
	f := newFixture(t)
	pin := func(c Cmd) Cmd { c.PIN = arbiterPass; return c }
	f.ok(f.app.NewMatch(f.ctx, pin(f.at(0)), MatchNew{Title: "ACM Chess Challenge", Players: [2]string{"Garry Kasparov", "Deep Blue"},
		Computer: "Deep Blue", Operators: []string{"Feng-hsiung Hsu"}, White: "Deep Blue", PIN: arbiterPass}))
	f.ok(f.app.AddCredential(f.ctx, pin(f.at(time.Second)), CredentialAdd{Role: RoleOperator, Key: key}))
	f.ok(f.app.StartGame(f.ctx, pin(f.at(time.Second)), 0))
	return f, pin
}

// signedOn runs the operator's move input as the authority takes it from
// the laptop, its request signed at at by key on a sender's record that
// ended at event seq with hash head.
func signedOn(f *fixture, key ed25519.PrivateKey, id, input string, at time.Time, seq int64, head string) error {
	b, err := EncodeCommand(Move{Input: input})
	if err != nil {
		return err
	}
	req := &SignedRequest{ID: id, From: "laptop", Role: string(RoleOperator), Signer: "operator", AtNS: at.UnixNano(), Seq: seq, Head: head, Command: b}
	req.Sign(key)
	c := Cmd{At: at, Actor: Actor{Role: RoleOperator, Signed: req},
		Stamp: &Stamp{Pressed: at, Received: at.Add(time.Millisecond), ReceivedBy: "arbiter", RTT: 2 * time.Millisecond}}
	_, err = f.app.Do(f.ctx, c, Move{Input: input})
	return err
}

// A request given at another station is run only on the record it was
// signed on (principle 1; the attacker's pass of 2026-12-06): the event its
// sender's record ended at (seq and hash, signed) must be this record's.
// Before, the authority ran a request the operator's key signed in another
// match (a key file kept for a practice match, whose record keeps every
// request whole in its rows) and appended its events: the move was played
// in this match, and then every replica's walk and verify found the record
// "rewritten up to that event" — a party's replay that both moved a piece
// and stopped every station. Now it is refused, nothing written.
func TestARequestIsRunOnlyOnTheRecordItWasSignedOn(t *testing.T) {
	key := forgery.NewKey()
	practice, _ := keyOperatorMatch(t, key)
	match, pin := keyOperatorMatch(t, key)
	de := germanDictionary(t)
	at := func() time.Time { return match.at(10 * time.Second).At }
	unchanged := func(t *testing.T, seq int64) {
		t.Helper()
		if got := match.app.State().Seq; got != seq {
			t.Fatalf("the record went from event %d to %d", seq, got)
		}
		if r := checkFile(t, match.db.Path(), Anchors{}); !r.OK {
			t.Fatalf("the record no longer verifies: %s", r.Problem)
		}
	}
	t.Run("a request the same key signed in another match is refused and nothing is written", func(t *testing.T) {
		p, st := practice.app.State(), match.app.State()
		if p.Seq != st.Seq || p.Head == st.Head {
			t.Fatalf("the practice record ends at %d (%s), the match's at %d (%s)", p.Seq, p.Head, st.Seq, st.Head)
		}
		err := signedOn(match, key, "laptop/practice-e4", "e4", at(), p.Seq, p.Head)
		refused(t, err, CodeRequestOtherRecord, i2s(p.Seq))
		if said := de.Sentence(err); !strings.Contains(said, "anderen Aufzeichnung") {
			t.Errorf("in German: %q", said)
		}
		unchanged(t, st.Seq)
	})
	t.Run("a request naming an earlier event with another hash is refused", func(t *testing.T) {
		st := match.app.State()
		prev := readEvents(t, practice.db.Path())[st.Seq-2]
		err := signedOn(match, key, "laptop/practice-earlier", "e4", at(), prev.Seq, prev.Hash)
		refused(t, err, CodeRequestOtherRecord, i2s(prev.Seq))
		unchanged(t, st.Seq)
	})
	t.Run("a request naming an event this record does not hold is refused", func(t *testing.T) {
		st := match.app.State()
		err := signedOn(match, key, "laptop/ahead", "e4", at(), st.Seq+1, st.Head)
		refused(t, err, CodeRequestOtherRecord, i2s(st.Seq+1))
		unchanged(t, st.Seq)
	})
	t.Run("a request signed on this record a command ago is run, and the record verifies", func(t *testing.T) {
		st := match.app.State()
		if _, err := match.app.Incident(match.ctx, pin(match.at(time.Second)), "note", IncidentArgs{Text: "the hall is quiet"}); err != nil {
			t.Fatal(err)
		}
		if err := signedOn(match, key, "laptop/e4", "e4", at(), st.Seq, st.Head); err != nil {
			t.Fatal(err)
		}
		if r := checkFile(t, match.db.Path(), Anchors{}); !r.OK {
			t.Fatalf("the record does not verify: %s", r.Problem)
		}
		if got := match.app.State().Seq; got != st.Seq+2 {
			t.Fatalf("the record ends at event %d, want %d", got, st.Seq+2)
		}
	})
}
