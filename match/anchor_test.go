package match

import (
	"fmt"
	"strings"
	"testing"

	"arbiter/assets"
)

// servedRecord is a protected match whose first station claimed authority
// with its certificate of ca (as 'station serve' does with the CA it made):
// the record's path, the claim's seq and the CA's fingerprint.
func servedRecord(t *testing.T, ca testCA) (string, int64, string) {
	t.Helper()
	f, _, _ := operatorMatch(t)
	k, c := ca.station(t, "arbiter", "organiser")
	f.app.UseStationKey(k)
	claim := f.system(KindStationClaim, claimOf("arbiter", c))
	f.system("station.member", `{"name":"arbiter","role":"organiser"}`)
	return f.db.Path(), claim.Seq, CertFingerprint(ca.cert.Raw)
}

// TestARecordReMadeUnderAnotherCAIsRefusedAgainstTheCAWrittenDown
// (principle 1, branch hanchor): the match's CA is taken from the record's
// first claim that carries one, so a record re-made from its start under a
// CA (and an arbiter key) of the forger's own verifies by itself; checked
// against the CA's fingerprint written down when the first station made it
// (verify --ca), it is refused at the claim that anchors the other CA, in
// English and in German; the genuine record passes, and a record that
// carries no CA is refused against any.
func TestARecordReMadeUnderAnotherCAIsRefusedAgainstTheCAWrittenDown(t *testing.T) {
	genuine, _, fp := servedRecord(t, newTestCA(t))
	forged, claim, forgedFP := servedRecord(t, newTestCA(t))
	t.Run("the record re-made under another CA verifies by itself, its CA its own", func(t *testing.T) {
		r := checkFile(t, forged, Anchors{})
		if !r.OK || r.StationsCA != forgedFP || r.StationsCertifiedFrom != claim {
			t.Fatalf("verify: %v %q, CA %s from %d", r.OK, r.Problem, r.StationsCA, r.StationsCertifiedFrom)
		}
	})
	t.Run("checked against the genuine CA's fingerprint it is refused at its anchoring claim, in English and German", func(t *testing.T) {
		r := checkFile(t, forged, Anchors{CA: HexBlocks(fp)})
		want := fmt.Sprintf("event %d (station.claim) anchors the stations' keys to the CA %s, not to the CA %s it is checked against (the record was re-made under another CA)", claim, HexBlocks(forgedFP), HexBlocks(fp))
		if r.OK || r.Why.Code != string(CodeOtherCA) || r.BadSeq != claim || r.Problem != want {
			t.Fatalf("verify --ca: %v at %d: %q\nwant %q", r.OK, r.BadSeq, r.Problem, want)
		}
		de := assets.Dictionary("de").Say(r.Why)
		if wantDE := fmt.Sprintf("Ereignis %d (station.claim) bindet die Schlüssel der Stationen an die CA %s, nicht an die CA %s, gegen die geprüft wird", claim, HexBlocks(forgedFP), HexBlocks(fp)); !strings.HasPrefix(de, wantDE) {
			t.Errorf("German: %q", de)
		}
	})
	t.Run("the genuine record passes its CA's fingerprint, whole or its first 16 digits", func(t *testing.T) {
		for _, want := range []string{fp, HexBlocks(fp), fp[:16]} {
			if r := checkFile(t, genuine, Anchors{CA: want}); !r.OK || r.StationsCA != fp {
				t.Errorf("verify --ca %s: %q", want, r.Problem)
			}
		}
		if r := checkFile(t, genuine, Anchors{CA: fp[:15]}); r.OK {
			t.Error("15 digits of the fingerprint passed")
		}
	})
	t.Run("a record that carries no CA is refused against any", func(t *testing.T) {
		p, _ := protectedRecord(t)
		r := checkFile(t, p, Anchors{CA: fp})
		if r.OK || r.Why.Code != string(CodeNoCA) {
			t.Fatalf("verify --ca of a record of one machine: %v %q", r.OK, r.Problem)
		}
		if de := assets.Dictionary("de").Say(r.Why); !strings.Contains(de, "keine CA der Stationen") {
			t.Errorf("German: %q", de)
		}
	})
}
