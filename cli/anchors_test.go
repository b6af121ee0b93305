package cli

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/internal/forgery"
	"arbiter/match"
	"arbiter/store"
)

// hexAfter is the hex in blocks of eight that follows prefix in out.
func hexAfter(t *testing.T, out, prefix string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(prefix) + `((?:[0-9a-f]{8} ?)+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %q followed by hex in %q", prefix, out)
	}
	return strings.ReplaceAll(strings.TrimSpace(m[1]), " ", "")
}

func TestVerifyKeyHoldsOnlyForTheArbitersFirstKey(t *testing.T) {
	db := protectedMatch(t)
	_, errs, _ := arb(t, db, "verify")
	genuine := hexAfter(t, errs, "the arbiter's key is ")
	forged := filepath.Join(t.TempDir(), "forged.db")
	if _, err := forgery.ReKey(context.Background(), db, forged, func(e *store.Event) {
		switch {
		case e.Kind == match.KindMove && strings.Contains(string(e.Payload), `"e7e5"`):
			e.Payload = []byte(`{"san":"e6","uci":"e7e6","press":true,"input":"e6"}`)
		case e.Kind == match.KindIncident:
			e.Payload = []byte(strings.ReplaceAll(string(e.Payload), "quiet", "noisy"))
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Run("the forged record verifies alone, its arbiter key at the end the genuine one", func(t *testing.T) {
		_, errs, code := arb(t, forged, "verify")
		if code != 0 || hexAfter(t, errs, "the arbiter's key is ") != genuine {
			t.Fatalf("verify: exit %d, %s", code, errs)
		}
	})
	t.Run("verify --key with the genuine fingerprint fails, naming match.new", func(t *testing.T) {
		_, errs, code := arb(t, forged, "verify", "--key", match.HexBlocks(genuine))
		if code != 1 || !strings.Contains(errs, "event 1 (match.new)") || !strings.Contains(errs, "re-keyed") {
			t.Errorf("verify --key: exit %d, %s", code, errs)
		}
		if _, errs, code := arb(t, db, "verify", "--key", genuine[:16]); code != 0 {
			t.Errorf("the genuine record with its key: exit %d, %s", code, errs)
		}
	})
	t.Run("credential list and verify show the forger's key first and the genuine one as a rotation", func(t *testing.T) {
		out := mustArb(t, forged, "credential", "list")
		first := hexAfter(t, out, "anchors the record ('verify --key' checks it): ")
		later := hexAfter(t, out, "signed by the key it replaces: ")
		if first == genuine || later != genuine || !strings.Contains(out, "event 1, match.new") {
			t.Errorf("credential list:\n%s", out)
		}
		_, errs, _ := arb(t, forged, "verify")
		if hexAfter(t, errs, "anchors the record ('verify --key' checks it): ") != first || !strings.Contains(errs, "replaced at event") {
			t.Errorf("verify:\n%s", errs)
		}
		out = mustArb(t, db, "credential", "list")
		if hexAfter(t, out, "anchors the record ('verify --key' checks it): ") != genuine || strings.Contains(out, "replaced at") {
			t.Errorf("credential list of the genuine record:\n%s", out)
		}
	})
}

func TestVerifyMatchTellsMatchesMadeWithOneKeyFileApart(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "arbiter.key")
	fp := strings.ReplaceAll(strings.TrimSpace(mustArb(t, "", "credential", "keygen", keyFile)), " ", "")
	made := func(name string) (string, string) {
		db := filepath.Join(dir, name)
		out := mustArb(t, db, "--at", at(0), "match", "new", "--title", "T", "--player", "A", "--player", "B", "--key-file", keyFile)
		return db, hexAfter(t, out, "the match id: ")
	}
	a, idA := made("a.db")
	b, idB := made("b.db")
	t.Run("match new prints a match id of 32 hex digits, another for each match", func(t *testing.T) {
		if len(idA) != 32 || idA == idB {
			t.Errorf("ids %q, %q", idA, idB)
		}
	})
	t.Run("both matches pass the key file's fingerprint; each passes only its own id", func(t *testing.T) {
		for _, tc := range []struct{ db, own, other string }{{a, idA, idB}, {b, idB, idA}} {
			_, errs, code := arb(t, tc.db, "verify", "--key", fp, "--match", match.HexBlocks(tc.own))
			if code != 0 || hexAfter(t, errs, "the match id is ") != tc.own {
				t.Errorf("its own id: exit %d, %s", code, errs)
			}
			if _, errs, code := arb(t, tc.db, "verify", "--key", fp, "--match", tc.other); code != 1 || !strings.Contains(errs, "event 1 (match.new)") || !strings.Contains(errs, "another match") {
				t.Errorf("the other's id: exit %d, %s", code, errs)
			}
		}
	})
	t.Run("a record made before match ids verifies and says it has none; --match fails on it", func(t *testing.T) {
		b, err := os.ReadFile(keyFile)
		if err != nil {
			t.Fatal(err)
		}
		key, err := match.ParseKeyFile(b)
		if err != nil {
			t.Fatal(err)
		}
		mustArb(t, a, "--at", at(time.Second), "--key-file", keyFile, "game", "start")
		old := filepath.Join(dir, "old.db")
		if _, err := forgery.Rewrite(context.Background(), a, old, key, func(e *store.Event) {
			if e.Kind == match.KindMatchNew {
				var p map[string]json.RawMessage
				if err := json.Unmarshal(e.Payload, &p); err != nil {
					t.Fatal(err)
				}
				delete(p, "match_id")
				e.Payload, _ = json.Marshal(p)
			}
		}); err != nil {
			t.Fatal(err)
		}
		_, errs, code := arb(t, old, "verify", "--key", fp)
		if code != 0 || !strings.Contains(errs, "no match id") {
			t.Errorf("verify: exit %d, %s", code, errs)
		}
		if _, errs, code := arb(t, old, "verify", "--key", fp, "--match", idA); code != 1 || !strings.Contains(errs, "carries no match id") {
			t.Errorf("verify --match: exit %d, %s", code, errs)
		}
	})
}

// TestVerifySaysWhetherTheStationsKeysAreCertified (branch hcert;
// docs/stations.md, "Whose key a system event carries"): a record of one
// machine says nothing of stations' keys; a record whose claim of
// authority carries no certificate of the match's CA (made before
// stations certified their keys) verifies as before, and verify says that
// its events without a command's signature were checked for their kind
// and station signature only. (A record served by stations with their
// credentials: TestForwardedCommandsRoleSignatureVerifiesInEveryReplica.)
func TestVerifySaysWhetherTheStationsKeysAreCertified(t *testing.T) {
	db := protectedMatch(t)
	if _, errs, code := arb(t, db, "verify"); code != 0 || strings.Contains(errs, "stations' keys") {
		t.Fatalf("verify of a record of one machine: exit %d, %s", code, errs)
	}
	ctx := context.Background()
	sdb, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	k := forgery.NewKey()
	if _, err := sdb.Update(ctx, func(tx *store.Tx) error {
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		e, err := tx.Append(store.Event{Match: 1, At: at, Received: at, Role: string(match.RoleSystem), Actor: "Arbiter", Kind: match.KindStationClaim, Payload: []byte(`{"station":"arbiter"}`)})
		if err != nil {
			return err
		}
		return tx.PutSignature(store.Signature{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: forgery.PublicHex(k),
			Sig: hex.EncodeToString(ed25519.Sign(k, match.StationMessage(e.Hash)))})
	}); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	if _, errs, code := arb(t, db, "verify"); code != 0 || !strings.Contains(errs, "the stations' keys are not certified in this record") {
		t.Fatalf("verify of a record whose claim certifies no key: exit %d, %s", code, errs)
	}
}
