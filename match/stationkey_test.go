package match

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"arbiter/internal/forgery"
	"arbiter/store"
)

// testCA is a match's CA as station.NewCA makes one (a test's, so that
// package match need not import package station).
type testCA struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	certPEM []byte
}

func newTestCA(t *testing.T) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Arbiter match CA: test", Organization: []string{"Arbiter"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(10, 0, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return testCA{cert: cert, key: key, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// station is the record key of station name (role) with a certificate of
// this CA, and the certificate its claims carry (as station.Issue and
// match.CertifyStationKey make them).
func (ca testCA) station(t *testing.T, name, role string) (ed25519.PrivateKey, StationCertificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name, OrganizationalUnit: []string{role}, Organization: []string{"Arbiter"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(2, 0, 0), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}, DNSNames: []string{"arbiter-station"},
		EmailAddresses: []string{role + "@station.arbiter"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	k, c, err := CertifyStationKey(ca.certPEM, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), name)
	if err != nil {
		t.Fatal(err)
	}
	return k, c
}

// claimOf is a claim's payload for station name carrying c.
func claimOf(name string, c StationCertificate) string {
	b, _ := json.Marshal(stationClaim{Station: name, StationCertificate: c})
	return string(b)
}

// system appends, as the App's station, an event of kind under the
// system's role, signed by the App's station key (as a station appends
// its own events, match.App.SignSystemEvent).
func (f *fixture) system(kind, payload string) store.Event {
	f.t.Helper()
	f.now = f.now.Add(time.Second)
	evs, err := f.db.Update(f.ctx, func(tx *store.Tx) error {
		e, err := tx.Append(store.Event{Match: 1, Game: 1, At: f.now, Received: f.now, Role: string(RoleSystem), Actor: "Arbiter", Kind: kind, Payload: []byte(payload)})
		if err != nil {
			return err
		}
		return f.app.SignSystemEvent(tx, e)
	})
	f.ok(err)
	f.ok(f.app.Refresh(f.ctx))
	return evs[0]
}

// signedAfter is an event of kind with payload under the system's role
// after the record's last event, its station signature by key.
func signedAfter(evs []store.Event, kind, payload string, key ed25519.PrivateKey) (store.Event, store.Signature) {
	last := evs[len(evs)-1]
	e := last // its match and game
	e.Seq, e.Prev, e.At, e.Received = last.Seq+1, last.Hash, last.At.Add(time.Second), last.Received.Add(time.Second)
	e.Role, e.Actor, e.Kind, e.Payload = string(RoleSystem), "Arbiter", kind, []byte(payload)
	e.Hash = store.EventHash(e)
	return e, store.Signature{Seq: e.Seq, Kind: store.SigStation, Count: 1, Key: forgery.PublicHex(key),
		Sig: hex.EncodeToString(ed25519.Sign(key, StationMessage(e.Hash)))}
}

const (
	suspension = `{"kind":"suspend","text":"the clocks stop","rule":"6.10"}`
	recovery   = `{"away_ms":60000,"running":"white","text":"the console was away"}`
	member     = `{"name":"laptop","role":"operator"}`
)

// TestASystemEventIsTakenOnlyUnderTheKeyTheMatchsCACertifiedForTheAuthority
// (principle 1, branch hcert): on a protected match served by stations
// with their credentials, an event without a command's signature (a
// suspension, a recovery note, a station's event) is taken only when
// signed by the key the latest claim certified with the station's
// certificate of the match's CA, and a claim only with its own station's
// certificate for the key that signs it. Each forgery is written after
// the record's end by another writer, as whoever writes into a station's
// stream would put it there, and refused alike by verify of the closed
// record, by the watch of a core running on it and by a replica's walk
// (IncomingWalk, which station.Replica advances command by command), at
// the forged event; before this branch all three took each of them (a
// station key was certified by nothing). What the authority itself
// appends is taken, and so is a record whose claims certify no key (made
// before the branch) as before.
func TestASystemEventIsTakenOnlyUnderTheKeyTheMatchsCACertifiedForTheAuthority(t *testing.T) {
	type made struct {
		ca                 testCA
		arbiter, display   ed25519.PrivateKey
		arbiterC, displayC StationCertificate
		operator           ed25519.PrivateKey // the operator's credential, which signs at the laptop
	}
	for _, tc := range []struct {
		name string
		// old: the record's claim carries no certificate (before hcert)
		old bool
		// write appends to f's record (through the App, the authority) or
		// returns events and rows another writer appends after its end
		write func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature)
		want  Code // "": taken
	}{
		{"a suspension under a key of the forger's own is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			e, s := signedAfter(evs, KindIncident, suspension, forgery.NewKey())
			return []store.Event{e}, []store.Signature{s}
		}, CodeSystemNotAuthority},
		{"a recovery note under a key of the forger's own is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			e, s := signedAfter(evs, KindRecovery, recovery, forgery.NewKey())
			return []store.Event{e}, []store.Signature{s}
		}, CodeSystemNotAuthority},
		{"a station's event under a key of the forger's own is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			e, s := signedAfter(evs, "station.member", member, forgery.NewKey())
			return []store.Event{e}, []store.Signature{s}
		}, CodeSystemNotAuthority},
		{"a suspension under another record holder's certified key, while it is not the authority, is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			e, s := signedAfter(evs, KindIncident, suspension, m.display)
			return []store.Event{e}, []store.Signature{s}
		}, CodeSystemNotAuthority},
		{"a claim under a key of the forger's own without a certificate is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			k := forgery.NewKey()
			e, s := signedAfter(evs, KindStationClaim, claimOf("display", StationCertificate{Key: forgery.PublicHex(k)}), k)
			return []store.Event{e}, []store.Signature{s}
		}, CodeStationUncertified},
		{"a claim naming the authority, its certificate copied, for a key of the forger's own is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			k, c := forgery.NewKey(), m.arbiterC
			c.Key = forgery.PublicHex(k)
			e, s := signedAfter(evs, KindStationClaim, claimOf("arbiter", c), k)
			return []store.Event{e}, []store.Signature{s}
		}, CodeStationUncertified},
		{"a claim naming the authority with another holder's certificate is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			e, s := signedAfter(evs, KindStationClaim, claimOf("arbiter", m.displayC), m.display)
			return []store.Event{e}, []store.Signature{s}
		}, CodeStationUncertified},
		{"a claim with a certificate of another CA is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			k, c := newTestCA(t).station(t, "display", "display")
			e, s := signedAfter(evs, KindStationClaim, claimOf("display", c), k)
			return []store.Event{e}, []store.Signature{s}
		}, CodeStationUncertified},
		{"a claim for a mirror's certificate is refused: only a record holder holds authority", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			k, c := m.ca.station(t, "mirror", "mirror")
			e, s := signedAfter(evs, KindStationClaim, claimOf("mirror", c), k)
			return []store.Event{e}, []store.Signature{s}
		}, CodeStationUncertified},
		{"a command given at another station, appended by a record holder that is not the authority under its certified key, is refused", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			// the operator's request, taken from the commands' subject by
			// the display's machine and run on its copy of the record
			// before the authority could (its events then its own)
			other := filepath.Join(t.TempDir(), "display.db")
			f.ok(f.db.Backup(f.ctx, other))
			db, err := store.Open(f.ctx, other)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			app, err := New(f.ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			app.UseStationKey(m.display)
			g := &fixture{t: t, ctx: f.ctx, db: db, app: app, now: f.now}
			f.ok(givenAtLaptop(g, m.operator, g.at(10*time.Second).At, "e4", time.Millisecond, 2*time.Millisecond))
			oevs, osigs, err := db.Record(f.ctx)
			if err != nil {
				t.Fatal(err)
			}
			var rows []store.Signature
			for _, s := range osigs {
				if s.Seq > int64(len(evs)) {
					rows = append(rows, s)
				}
			}
			return oevs[len(evs):], rows
		}, CodeRequestNotAuthority},
		{"a command given at another station and appended by the authority is taken", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			f.ok(givenAtLaptop(f, m.operator, f.at(10*time.Second).At, "e4", time.Millisecond, 2*time.Millisecond))
			return nil, nil
		}, ""},
		{"the authority's suspension, recovery note and station's event under its certified key are taken", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			f.ok(f.app.LogSuspend(f.ctx, f.now.Add(time.Second), time.Minute))
			f.system(KindRecovery, recovery)
			f.system("station.member", member)
			return nil, nil
		}, ""},
		{"another record holder's claim with its own certificate is taken, and its suspension after it", false, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			c, cs := signedAfter(evs, KindStationClaim, claimOf("display", m.displayC), m.display)
			e, s := signedAfter(append(evs, c), KindIncident, suspension, m.display)
			return []store.Event{c, e}, []store.Signature{cs, s}
		}, ""},
		{"in a record whose claims certify no key, a suspension under a key of the forger's own is taken as before", true, func(t *testing.T, f *fixture, m made, evs []store.Event) ([]store.Event, []store.Signature) {
			e, s := signedAfter(evs, KindIncident, suspension, forgery.NewKey())
			return []store.Event{e}, []store.Signature{s}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, operator := operatorMatch(t)
			m := made{operator: operator}
			m.ca = newTestCA(t)
			m.arbiter, m.arbiterC = m.ca.station(t, "arbiter", "organiser")
			m.display, m.displayC = m.ca.station(t, "display", "display")
			claim := claimOf("arbiter", m.arbiterC)
			if tc.old {
				claim = `{"station":"arbiter"}`
			} else {
				f.app.UseStationKey(m.arbiter)
			}
			c := f.system(KindStationClaim, claim)
			f.system("station.member", `{"name":"arbiter","role":"organiser"}`)
			f.ok(f.app.Watch(f.ctx))
			prior, priorSigs := readRecord(t, f.db.Path())
			_, walk := (&IncomingWalk{}).Check(nil, prior, priorSigs)
			if walk == nil || f.app.Why() != nil {
				t.Fatalf("the record before: %v", f.app.Why())
			}
			added, rows := tc.write(t, f, m, prior)
			if added != nil {
				insertRows(t, f.db.Path(), added, rows)
			}
			evs, sigs := readRecord(t, f.db.Path())
			if len(evs) == len(prior) {
				t.Fatal("nothing was written")
			}
			bad := int64(0)
			if tc.want != "" {
				bad = added[0].Seq
			}
			said := func(who string, r RecordReport) {
				t.Helper()
				switch {
				case tc.want == "" && !r.OK:
					t.Errorf("%s refuses it: %s", who, r.Problem)
				case tc.want != "" && (r.OK || r.Why.Code != string(tc.want) || r.BadSeq != bad):
					t.Errorf("%s says %q at event %d, want %s at event %d", who, r.Problem, r.BadSeq, tc.want, bad)
				}
			}
			r := checkFile(t, f.db.Path(), Anchors{})
			said("verify", r)
			if want := c.Seq; tc.old {
				if r.StationsCertifiedFrom != 0 {
					t.Errorf("verify says the stations' keys are certified from event %d in a record that certifies none", r.StationsCertifiedFrom)
				}
			} else if r.OK && r.StationsCertifiedFrom != want {
				t.Errorf("verify says the stations' keys are certified from event %d, want %d", r.StationsCertifiedFrom, want)
			}
			var after []store.Signature
			for _, s := range sigs {
				if s.Seq > int64(len(prior)) {
					after = append(after, s)
				}
			}
			rep, _ := walk.Check(prior, evs[len(prior):], after)
			said("a replica's walk", rep)
			f.ok(f.app.Watch(f.ctx))
			f.ok(f.app.Watch(f.ctx))
			watched := RecordReport{}
			watched.OK, watched.BadSeq = f.app.Why() == nil, bad
			if p := f.app.Why(); p != nil {
				watched.Why, watched.Problem = p, p.Error()
				watched.BadSeq = f.app.State().Seq + 1
			}
			said("the running core's watch", watched)
		})
	}
}
