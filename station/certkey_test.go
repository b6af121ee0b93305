package station

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/assets"
	"arbiter/match"
	"arbiter/store"
)

// TestAForgedSystemEventFromARecordHoldersConnectionIsRefusedByEveryReplicaAndVerify
// (principle 1, branch hcert): whoever holds a record holder's machine —
// the display station beside the spectators — can publish into the
// match's stream. Before this branch a suspension (the clocks stop in a
// game under way) or a claim of authority published there, signed by a
// station key of his own, was taken by every station's replica and
// verified ("a station key is not certified"; station keys were made
// afresh by each process). Now a station served with its credentials
// signs the record with the key its certificate of the match's CA
// certifies, its claims carry that certificate, and such an event is
// refused by the authority's replica and by a client's (the alarm naming
// the problem, in German too, nothing applied) and by verify of the
// record with it. The station's own claim, under its certified key, is
// taken: the record before the forgery verifies (the mirror's replica took
// it), its stations' keys certified from that claim on.
func TestAForgedSystemEventFromARecordHoldersConnectionIsRefusedByEveryReplicaAndVerify(t *testing.T) {
	for _, tc := range []struct {
		name          string
		kind, payload string
		want          match.Code
	}{
		{"a suspension under a key of the forger's own is refused", match.KindIncident, `{"kind":"suspend","text":"the clocks stop","rule":"6.10"}`, match.CodeSystemNotAuthority},
		{"a claim for the forger's station under a key of his own is refused", KindClaim, `{"station":"display"}`, match.CodeStationUncertified},
		{"a claim naming the authority under a key of the forger's own is refused", KindClaim, `{"station":"arbiter"}`, match.CodeStationUncertified},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, path, caCert, caKey := protectedRecordWithCA(t)
			arbiter := credentials(t, caCert, caKey, "arbiter", "organiser")
			db := openDB(t, path)
			s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true, Creds: &arbiter,
				Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js"), TLS: tlsOf(t, arbiter)}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Stop()
			mirrorDB := openDB(t, filepath.Join(dir, "m.db"))
			mirror, err := Start(context.Background(), Config{Name: "mirror", Role: "mirror", DB: mirrorDB,
				Dial: []string{s.Engine().ClientURL()}, TLS: tlsOf(t, credentials(t, caCert, caKey, "mirror", "mirror"))})
			if err != nil {
				t.Fatal(err)
			}
			defer mirror.Stop()
			submit(t, s, pinReqOn(s, "arbiter", match.GameStart{Game: 1}))
			submit(t, s, pinReqOn(s, "white", match.Move{Input: "e4"}))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			evs, sigs := recordHeld(t, ctx, db, mirror.Replica()) // the authority's claim among it
			last := evs[len(evs)-1]
			if r := verifyWith(t, t.TempDir(), evs, sigs, nil, nil); !r.OK || r.StationsCertifiedFrom == 0 {
				t.Fatalf("verify of the record before the forgery: %q, the stations' keys certified from event %d", r.Problem, r.StationsCertifiedFrom)
			}
			forged, rows := systemEvent(t, evs, tc.kind, tc.payload)
			if r := verifyWith(t, t.TempDir(), evs, sigs, forged, rows); r.OK || r.Why.Code != string(tc.want) || r.BadSeq != forged[0].Seq {
				t.Errorf("verify of the record with the forged event says %q at event %d, want %s at event %d", r.Problem, r.BadSeq, tc.want, forged[0].Seq)
			}
			// the display station's machine: a record holder's certificate
			// of the match's CA, which may publish into the stream
			display, err := Dial([]string{s.Engine().ClientURL()}, "display", tlsOf(t, credentials(t, caCert, caKey, "display", "display")))
			if err != nil {
				t.Fatal(err)
			}
			defer display.Close()
			if _, err := display.Append(ctx, "forged", encodeEvents("forged", forged, rows), uint64(last.Seq)); err != nil {
				t.Fatalf("the display's connection could not publish: %v", err)
			}
			for _, st := range []*Station{s, mirror} {
				name := st.cfg.Name
				wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
				err := st.Replica().WaitFor(wctx, func(r *Replica) bool { return r.seq >= uint64(forged[0].Seq) || r.alarm != nil })
				wcancel()
				if err != nil {
					t.Fatalf("%s: neither applied nor refused within 10 s: %v", name, err)
				}
				status := st.Status()
				if status.AlarmWhy == nil || !strings.HasPrefix(status.Alarm, fmt.Sprintf("event %d from the stream does not fit", forged[0].Seq)) {
					t.Errorf("%s took the forged event: alarm %q", name, status.Alarm)
					continue
				}
				if !names(status.AlarmWhy, tc.want) {
					t.Errorf("%s's alarm %q does not name %s", name, status.Alarm, tc.want)
				}
				if german := assets.Dictionary("de").Say(status.AlarmWhy); strings.Contains(german, "from the stream") || strings.Contains(german, "station key") {
					t.Errorf("%s's alarm in German is %q", name, german)
				}
				if got := st.app.State().Seq; got != last.Seq {
					t.Errorf("%s's state is at event %d, want %d", name, got, last.Seq)
				}
			}
			for _, d := range []struct {
				name string
				seq  int64
			}{{"the authority's record", mustSeq(t, db)}, {"the mirror's record", mustSeq(t, mirrorDB)}} {
				if d.seq != last.Seq {
					t.Errorf("%s is at event %d, want %d", d.name, d.seq, last.Seq)
				}
			}
		})
	}
}

// mustSeq is the seq of the last event db holds.
func mustSeq(t *testing.T, db *store.DB) int64 {
	t.Helper()
	seq, _, err := db.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

// TestAnAuthorityRestartedSignsUnderItsClaimAndOneInvitedAgainClaimsAnewFirst
// (branch hcert): a record holder named by the latest claim signs, when it
// starts again, with the key derived from its certificate's, so that a
// restart with its credentials runs commands under the same claim; one
// invited again under its name (a new certificate of the match's CA) signs
// with another key than the claim certified and claims anew with its
// certificate before it runs a command. Either way the record verifies.
// Without the new claim the station ran the command as the authority
// under a key no claim certified, and verify (and every replica) refused
// the command's events (record-check-request-not-authority).
func TestAnAuthorityRestartedSignsUnderItsClaimAndOneInvitedAgainClaimsAnewFirst(t *testing.T) {
	for _, tc := range []struct {
		name  string
		again bool // invited again: a new certificate
	}{
		{"restarted with its certificate, it runs commands under its claim", false},
		{"invited again under its name with a new certificate, it claims anew before it runs a command", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, path, caCert, caKey := protectedRecordWithCA(t)
			start := func(c Credentials) (*Station, *store.DB) {
				t.Helper()
				db := openDB(t, path)
				s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true, Creds: &c,
					Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js"), TLS: tlsOf(t, c)}})
				if err != nil {
					t.Fatal(err)
				}
				return s, db
			}
			creds := credentials(t, caCert, caKey, "arbiter", "organiser")
			s, db := start(creds)
			submit(t, s, pinReqOn(s, "arbiter", match.GameStart{Game: 1}))
			first := s.Replica().ClaimKey()
			_, claimed := s.Replica().Authority()
			s.Stop()
			db.Close()

			if tc.again {
				creds = credentials(t, caCert, caKey, "arbiter", "organiser")
			}
			s, db = start(creds)
			defer s.Stop()
			submit(t, s, pinReqOn(s, "white", match.Move{Input: "e4"}))
			_, now := s.Replica().Authority()
			switch k := s.Replica().ClaimKey(); {
			case tc.again && (k == first || k == ""):
				t.Errorf("the station runs commands under the claim that certified its old key %s", first)
			case !tc.again && (k != first || now != claimed):
				t.Errorf("the station restarted with its certificate claimed again (event %d, key %s; its claim was event %d, key %s)", now, k, claimed, first)
			}
			r, err := match.VerifyRecord(context.Background(), db, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if !r.OK || r.StationsCertifiedFrom == 0 {
				t.Fatalf("verify: %s (the stations' keys certified from event %d)", r.Problem, r.StationsCertifiedFrom)
			}
		})
	}
}

// recordHeld reads db's record once rep holds its last event.
func recordHeld(t *testing.T, ctx context.Context, db *store.DB, rep *Replica) ([]store.Event, []store.Signature) {
	t.Helper()
	evs, sigs, err := db.Record(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.WaitSeq(ctx, uint64(evs[len(evs)-1].Seq)); err != nil {
		t.Fatalf("the replica did not take the record's last event %d: %v", evs[len(evs)-1].Seq, err)
	}
	return evs, sigs
}

// protectedRecordWithCA makes a protected record a.db in a new folder, and
// the match's CA.
func protectedRecordWithCA(t *testing.T) (dir, path string, caCert, caKey []byte) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "a.db")
	newProtectedRecord(t, path)
	caCert, caKey, err := NewCA("ACM Chess Challenge")
	if err != nil {
		t.Fatal(err)
	}
	return dir, path, caCert, caKey
}
