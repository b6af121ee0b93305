package cli

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/internal/forgery"
	"arbiter/match"
	"arbiter/station"
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

// claimWithCA appends to the record at db the first station's claim of
// authority with its certificate of a new CA, as 'station serve' makes
// them (station.NewCA, station.Issue, match.CertifyStationKey), and
// returns the CA's certificate (PEM) and the claim's seq.
func claimWithCA(t *testing.T, db string) ([]byte, int64) {
	t.Helper()
	caCert, caKey, err := station.NewCA("T")
	if err != nil {
		t.Fatal(err)
	}
	creds, err := station.Issue(caCert, caKey, "arbiter", "organiser")
	if err != nil {
		t.Fatal(err)
	}
	k, c, err := match.CertifyStationKey(creds.CA, creds.Cert, creds.Key, "arbiter")
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(struct {
		Station string `json:"station"`
		match.StationCertificate
	}{"arbiter", c})
	ctx := context.Background()
	sdb, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var seq int64
	if _, err := sdb.Update(ctx, func(tx *store.Tx) error {
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		e, err := tx.Append(store.Event{Match: 1, At: at, Received: at, Role: string(match.RoleSystem), Actor: "Arbiter", Kind: match.KindStationClaim, Payload: payload})
		if err != nil {
			return err
		}
		seq = e.Seq
		return tx.PutSignature(store.Signature{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: forgery.PublicHex(k),
			Sig: hex.EncodeToString(ed25519.Sign(k, match.StationMessage(e.Hash)))})
	}); err != nil {
		t.Fatal(err)
	}
	return caCert, seq
}

// TestVerifyCAHoldsOnlyForTheCAWrittenDown (branch hanchor): a record
// whose stations were certified by a CA of a forger's own — re-made from
// before its first claim — verifies by itself, its CA taken from itself;
// 'verify --ca' with the genuine CA's fingerprint, its certificate, a
// station's credentials.json or an invitation refuses it with one sentence
// naming the claim and both CAs, and passes the genuine record, whose
// verify names its CA.
func TestVerifyCAHoldsOnlyForTheCAWrittenDown(t *testing.T) {
	db := protectedMatch(t)
	dir := t.TempDir()
	unserved := filepath.Join(dir, "unserved.db")
	forged := filepath.Join(dir, "forged.db")
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{unserved, forged} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	caPEM, _ := claimWithCA(t, db)
	_, claim := claimWithCA(t, forged)
	_, errs, code := arb(t, db, "verify")
	fp := hexAfter(t, errs, "anchors the stations' keys ('verify --ca' checks it): ")
	if code != 0 || len(fp) != 64 {
		t.Fatalf("verify of the genuine record: exit %d, %s", code, errs)
	}
	pemFile := filepath.Join(dir, "ca.pem")
	creds := filepath.Join(dir, "credentials.json")
	invite := filepath.Join(dir, "invite.json")
	credsJSON, _ := json.Marshal(station.Credentials{CA: caPEM})
	inviteJSON, _ := json.Marshal(map[string]any{"match": "T", "credentials": station.Credentials{CA: caPEM}})
	for p, b := range map[string][]byte{pemFile: caPEM, creds: credsJSON, invite: inviteJSON} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("the record under the forger's CA verifies alone", func(t *testing.T) {
		if _, errs, code := arb(t, forged, "verify"); code != 0 || hexAfter(t, errs, "('verify --ca' checks it): ") == fp {
			t.Fatalf("verify: exit %d, %s", code, errs)
		}
	})
	t.Run("verify --ca refuses it with one sentence naming the claim and both CAs, given the fingerprint or a file", func(t *testing.T) {
		for _, given := range []string{match.HexBlocks(fp), fp[:16], pemFile, creds, invite} {
			_, errs, code := arb(t, forged, "verify", "--ca", given)
			want := fmt.Sprintf("event %d (station.claim) anchors the stations' keys to the CA ", claim)
			if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, "not to the CA "+match.HexBlocks(fp)[:8]) ||
				!strings.Contains(errs, "(the record was re-made under another CA)") || !strings.Contains(errs, brokenRecordAction) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("verify --ca %s: exit %d, %s", given, code, errs)
			}
		}
	})
	t.Run("the genuine record passes its CA, given the fingerprint or a file", func(t *testing.T) {
		for _, given := range []string{match.HexBlocks(fp), pemFile, creds, invite} {
			if _, errs, code := arb(t, db, "verify", "--ca", given); code != 0 {
				t.Errorf("verify --ca %s: exit %d, %s", given, code, errs)
			}
		}
	})
	t.Run("a record no station served is refused against a CA, saying it carries none", func(t *testing.T) {
		_, errs, code := arb(t, unserved, "verify", "--ca", fp)
		if code != 1 || !strings.Contains(errs, "the record carries no CA of the match's stations") {
			t.Errorf("verify --ca: exit %d, %s", code, errs)
		}
	})
	t.Run("a --ca that is neither a fingerprint nor a file with a certificate is refused saying what to give", func(t *testing.T) {
		_, errs, code := arb(t, db, "verify", "--ca", filepath.Join(dir, "credentials.json.missing"))
		if code != 1 || !strings.Contains(errs, "--ca must be the fingerprint of the match's CA") {
			t.Errorf("verify --ca of a missing file: exit %d, %s", code, errs)
		}
		_, errs, code = arb(t, db, "verify", "--ca", db)
		if code != 1 || !strings.Contains(errs, "holds no CA certificate") {
			t.Errorf("verify --ca of the record itself: exit %d, %s", code, errs)
		}
	})
}

// TestVerifyFindsTheArbitersHeadDeletedAndSaysWhatNoSignatureCovers
// (branch hanchor): deleting the arbiter's latest head signature with
// sqlite3 left a record that verified to his head before (exit 0); now
// verify names the event whose head was deleted. Deleting the last
// events with their signatures leaves an earlier record that verifies, as
// nothing in a file can tell a prefix of it from the record then: verify
// says so plainly on every protected record, naming the head to compare,
// and 'verify --head' with the head printed before fails.
func TestVerifyFindsTheArbitersHeadDeletedAndSaysWhatNoSignatureCovers(t *testing.T) {
	db := protectedMatch(t)
	head, errs, code := arb(t, db, "verify")
	head = strings.TrimSpace(head)
	if code != 0 || !strings.Contains(errs, "nothing in the file vouches for where it ends") || !strings.Contains(errs, "(event 9)") {
		t.Fatalf("verify of the record: exit %d, %s", code, errs)
	}
	copyOf := func(t *testing.T) string {
		b, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "copy.db")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("the arbiter's latest head signature deleted is named at its event", func(t *testing.T) {
		p := copyOf(t)
		sq := rawOpen(t, p)
		if _, err := sq.Exec(`DELETE FROM signatures WHERE kind = 'head' AND seq = (SELECT max(seq) FROM signatures WHERE kind = 'head')`); err != nil {
			t.Fatal(err)
		}
		sq.Close()
		_, errs, code := arb(t, p, "verify")
		if code != 1 || !strings.Contains(errs, "event 9 (move) ends a command the arbiter signed, and the head he signed with it is not in the record (his head signature was deleted)") {
			t.Errorf("verify: exit %d, %s", code, errs)
		}
	})
	t.Run("the last events deleted with their signatures verify, saying what to compare; --head with the head before fails", func(t *testing.T) {
		p := copyOf(t)
		sq := rawOpen(t, p)
		for _, q := range []string{`DELETE FROM signatures WHERE seq >= 8`, `DELETE FROM events WHERE seq >= 8`} {
			if _, err := sq.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		putBack(t, sq) // the careful forger's: a guard missing is an edit itself (record-check-trigger-dropped)
		sq.Close()
		_, errs, code := arb(t, p, "verify")
		if code != 0 || !strings.Contains(errs, "compare the head printed above (event 7) with one written down") {
			t.Errorf("verify: exit %d, %s", code, errs)
		}
		if _, errs, code := arb(t, p, "verify", "--head", head); code != 1 {
			t.Errorf("verify --head: exit %d, %s", code, errs)
		}
	})
}
