package match

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/internal/forgery"
	"arbiter/store"
)

// The attacks on the arbiter's key that issue 24 reproduced, made on real
// files by a forger who has read docs/store.md (internal/forgery).

// forgeReKeyed is the forgery of issue 24 on the record at src (written by
// protectedRecord): a key of the forger's in match.new, the last move (Nf3
// becomes Nc3) and the note changed, every signature made again with his
// keys, then the genuine arbiter credential appended, signed by his key.
func forgeReKeyed(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "forged.db")
	_, err := forgery.ReKey(context.Background(), src, dst, func(e *store.Event) {
		switch {
		case e.Kind == KindMove && strings.Contains(string(e.Payload), `"Nf3"`):
			e.Payload = []byte(`{"san":"Nc3","uci":"b1c3","press":true,"input":"Nc3"}`)
		case e.Kind == KindIncident:
			e.Payload = []byte(strings.ReplaceAll(string(e.Payload), "quiet", "noisy"))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func appendSignedCommand(t *testing.T, path string, e store.Event, signer string, key, head ed25519.PrivateKey) store.Event {
	t.Helper()
	got, err := forgery.AppendCommand(context.Background(), path, e, signer, key, head)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestARecordReKeyedFromItsFirstEventFailsTheGenuineKeyWhateverKeysItRegistersLater(t *testing.T) {
	path, _ := protectedRecord(t)
	genuine := verifyFile(t, path, "", "").Seal.ArbiterKey
	forged := forgeReKeyed(t, path)
	t.Run("the forged file is self-consistent: it verifies without a key, and its arbiter key at the end is the genuine one", func(t *testing.T) {
		r := verifyFile(t, forged, "", "")
		if !r.OK {
			t.Fatalf("the forgery is broken, so the test proves nothing: %s", r.Problem)
		}
		if r.Seal.ArbiterKey != genuine {
			t.Fatalf("the forged record's key at the end is %s, want the genuine %s", r.Seal.ArbiterKey[:16], genuine[:16])
		}
	})
	t.Run("verify with the genuine fingerprint fails, naming match.new's key as the one that anchors the record", func(t *testing.T) {
		for _, key := range []string{genuine, genuine[:16], HexBlocks(genuine)} {
			r := verifyFile(t, forged, "", key)
			if r.OK || r.BadSeq != 1 || r.BadKind != KindMatchNew || !strings.Contains(r.Problem, "re-keyed") {
				t.Errorf("verify --key %q = OK %v at %d (%s): %s; want event 1 (match.new), re-keyed", key, r.OK, r.BadSeq, r.BadKind, r.Problem)
			}
		}
	})
	t.Run("the genuine record still passes its key", func(t *testing.T) {
		if r := verifyFile(t, path, "", genuine); !r.OK {
			t.Errorf("verify --key on the genuine record: %s", r.Problem)
		}
	})
	t.Run("the forged record shows the forger's key first and the genuine one as a later rotation", func(t *testing.T) {
		keys := verifyFile(t, forged, "", "").Seal.ArbiterKeys
		if len(keys) != 2 || keys[0].Seq != 1 || keys[0].Fingerprint() == genuine || keys[1].Fingerprint() != genuine {
			t.Errorf("keys = %+v; want the forger's at event 1, then the genuine one", keys)
		}
		db, err := store.OpenReadOnly(context.Background(), forged)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		app, err := New(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		if s := app.Seal(); s.FirstKey() == genuine || len(s.ArbiterKeys) != 2 {
			t.Errorf("the console's seal shows the first key %s and %d keys; want the forger's first and both", s.FirstKey(), len(s.ArbiterKeys))
		}
	})
}

func TestAnArbiterKeyNotSignedByTheKeyItReplacesFailsNamingTheEvent(t *testing.T) {
	// The operator's key file is handed out first; the forger holds it.
	setup := func(t *testing.T) (path string, op ed25519.PrivateKey, last store.Event) {
		f := newFixture(t)
		f.newMatch(MatchNew{PIN: arbiterPass})
		op = forgery.NewKey()
		c := f.at(time.Second)
		c.PIN = arbiterPass
		f.ok(f.app.AddCredential(f.ctx, c, CredentialAdd{Role: RoleOperator, Key: op}))
		evs, err := f.db.EventsAfter(f.ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		path = f.db.Path()
		f.db.Close()
		return path, op, evs[len(evs)-1]
	}
	own := forgery.NewKey()
	ownCred, _ := json.Marshal(Credential{Role: "arbiter", Kind: "key", PublicKey: pubHex(own)})
	for _, tc := range []struct {
		name, role, signer string
		key                func(op ed25519.PrivateKey) ed25519.PrivateKey
		problem            string
	}{
		{"an arbiter key registered under the operator's signature", "operator", "operator",
			func(op ed25519.PrivateKey) ed25519.PrivateKey { return op }, "only the arbiter hands out credentials"},
		{"an arbiter key that signs its own registration on a protected match", "arbiter", "arbiter",
			func(ed25519.PrivateKey) ed25519.PrivateKey { return own }, "not signed by the arbiter key it replaces"},
	} {
		t.Run(tc.name+" fails, and so does every head it signs after", func(t *testing.T) {
			path, op, last := setup(t)
			e := appendSignedCommand(t, path, store.Event{Match: last.Match, At: last.At.Add(time.Second), Role: tc.role, Actor: "Feng-hsiung Hsu",
				Kind: KindCredentialAdd, Payload: ownCred}, tc.signer, tc.key(op), own)
			for _, full := range []bool{true, false} {
				evs, sigs := readRecord(t, path)
				r := checkRecord(evs, sigs, Anchors{}, full)
				if r.OK || r.BadSeq != e.Seq || !strings.Contains(r.Problem, tc.problem) {
					t.Errorf("full %v: OK %v at %d: %s; want event %d: %s", full, r.OK, r.BadSeq, r.Problem, e.Seq, tc.problem)
				}
			}
		})
	}
	t.Run("a rotation whose signature is not the old key's fails on opening too, though a later head signed by the new key vouches for it", func(t *testing.T) {
		path, _, last := setup(t)
		evs, _ := readRecord(t, path)
		e := appendSignedCommand(t, path, store.Event{Match: last.Match, At: last.At.Add(time.Second), Role: "arbiter", Actor: "",
			Kind: KindCredentialAdd, Payload: ownCred}, "arbiter", own, own)
		db := raw(t, path)
		// the command row claims the old key, with a signature it never made
		cred := credentialIn(evs[0])
		exec(t, db, `UPDATE signatures SET key = ?, sig = ? WHERE seq = ? AND kind = 'command'`, cred.PublicKey, strings.Repeat("ab", 64), e.Seq)
		evs, sigs := readRecord(t, path)
		if r := checkRecord(evs, sigs, Anchors{}, false); r.OK || r.BadSeq != e.Seq {
			t.Errorf("on opening: OK %v at %d: %s; want event %d", r.OK, r.BadSeq, r.Problem, e.Seq)
		}
	})
}

func readRecord(t *testing.T, path string) ([]store.Event, []store.Signature) {
	t.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs, sigs, err := db.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return evs, sigs
}

func TestTheMatchIDTellsMatchesMadeWithOneKeyFileApart(t *testing.T) {
	key := forgery.NewKey()
	made := func(t *testing.T) (string, string) {
		f := newFixture(t)
		f.newMatch(MatchNew{ArbiterKey: key})
		id := f.app.State().Match.ID
		path := f.db.Path()
		f.db.Close()
		return path, id
	}
	a, idA := made(t)
	b, idB := made(t)
	fp := Fingerprint(pubHex(key))
	t.Run("each match new draws a random id of 32 hex digits", func(t *testing.T) {
		if len(idA) != MatchIDDigits || strings.Trim(idA, "0123456789abcdef") != "" || idA == idB {
			t.Errorf("ids %q and %q", idA, idB)
		}
	})
	t.Run("both pass the key file's fingerprint: the key alone does not tell them apart", func(t *testing.T) {
		for _, p := range []string{a, b} {
			if r := verifyFile(t, p, "", fp); !r.OK {
				t.Errorf("%s: %s", p, r.Problem)
			}
		}
	})
	t.Run("each passes its own id and fails the other's, naming match.new", func(t *testing.T) {
		for _, tc := range []struct{ path, own, other string }{{a, idA, idB}, {b, idB, idA}} {
			if r := checkFile(t, tc.path, Anchors{Key: fp, MatchID: HexBlocks(tc.own)}); !r.OK || r.Seal.MatchID != tc.own {
				t.Errorf("its own id: OK %v id %q: %s", r.OK, r.Seal.MatchID, r.Problem)
			}
			r := checkFile(t, tc.path, Anchors{Key: fp, MatchID: tc.other})
			if r.OK || r.BadSeq != 1 || r.BadKind != KindMatchNew || !strings.Contains(r.Problem, "another match") {
				t.Errorf("the other's id: OK %v at %d (%s): %s", r.OK, r.BadSeq, r.BadKind, r.Problem)
			}
		}
	})
	t.Run("the id is signed with the match by the first key: changed, the record fails", func(t *testing.T) {
		db := raw(t, a)
		exec(t, db, `UPDATE events SET payload = json_set(payload, '$.match_id', ?) WHERE seq = 1`, idB)
		rehash(t, db)
		if r := checkFile(t, a, Anchors{MatchID: idB}); r.OK || r.BadSeq != 1 {
			t.Errorf("OK %v at %d: %s", r.OK, r.BadSeq, r.Problem)
		}
	})
	t.Run("a record made before match ids verifies, and fails any id it is checked against, saying it has none", func(t *testing.T) {
		f := newFixture(t)
		f.newMatch(MatchNew{ArbiterKey: key})
		f.ok(f.app.StartGame(f.ctx, func() Cmd { c := f.at(time.Second); c.Key = key; return c }(), 0))
		src := f.db.Path()
		f.db.Close()
		old := filepath.Join(t.TempDir(), "old.db")
		_, err := forgery.Rewrite(f.ctx, src, old, key, func(e *store.Event) {
			if e.Kind == KindMatchNew {
				var p map[string]json.RawMessage
				if err := json.Unmarshal(e.Payload, &p); err != nil {
					t.Fatal(err)
				}
				delete(p, "match_id")
				e.Payload, _ = json.Marshal(p)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		r := checkFile(t, old, Anchors{Key: fp})
		if !r.OK || r.Seal.MatchID != "" {
			t.Fatalf("the record without an id: OK %v id %q: %s", r.OK, r.Seal.MatchID, r.Problem)
		}
		r = checkFile(t, old, Anchors{Key: fp, MatchID: idA})
		if r.OK || r.BadSeq != 1 || !strings.Contains(r.Problem, "carries no match id") {
			t.Errorf("with an id: OK %v at %d: %s", r.OK, r.BadSeq, r.Problem)
		}
	})
}

func checkFile(t *testing.T, path string, want Anchors) RecordReport {
	t.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := VerifyRecordAgainst(context.Background(), db, want)
	if err != nil {
		t.Fatal(err)
	}
	checkSaid(t, r)
	return r
}
