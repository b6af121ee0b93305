//go:build !nostation

package cli

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/internal/outside"
	"arbiter/match"
	"arbiter/service"
	"arbiter/station"
)

const (
	signPIN      = "arbiter passphrase"
	signOperator = "operator passphrase"
)

// capturedRequests records every request the authority receives, as it
// came off the wire (decoded, then encoded again: any field it carried is
// in the bytes), while the test runs.
func capturedRequests(t *testing.T) func() []string {
	var mu sync.Mutex
	var got []string
	prev := station.Running
	station.Running = func(req station.Request) {
		b, _ := json.Marshal(req)
		mu.Lock()
		got = append(got, string(b))
		mu.Unlock()
	}
	t.Cleanup(func() { station.Running = prev })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

// signedStation is a protected match served by its first station, with an
// operator's passphrase and a key file for Garry Kasparov (not yet handed out).
func signedStation(t *testing.T) (first, keyFile string, key ed25519.PrivateKey) {
	dir := t.TempDir()
	first = filepath.Join(dir, "arbiter.db")
	mustArb(t, first, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch+` --pin "`+signPIN+`"`))
	mustArb(t, first, "--at", at(time.Second), "--pin", signPIN, "credential", "add", "--role", "operator", "--secret", signOperator)
	keyFile = filepath.Join(dir, "kasparov.key")
	mustArb(t, first, "credential", "keygen", keyFile)
	key, err := service.ReadKeyFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	serveInBackground(t, first, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	return first, keyFile, key
}

func TestForwardedCommandCarriesNoCredential(t *testing.T) {
	requests := capturedRequests(t)
	first, keyFile, key := signedStation(t)
	mustArb(t, first, "--pin", signPIN, "credential", "add", "--role", "player", "--player", "Garry Kasparov", "--key-file", keyFile)
	mustArb(t, first, "--pin", signPIN, "game", "start")
	mustArb(t, first, "--as", "operator", "--secret", signOperator, "move", "e4")
	mustArb(t, first, "--as", "black", "--key-file", keyFile, "move", "c5")
	got := requests()
	if len(got) != 4 {
		t.Fatalf("the authority received %d requests, want 4: %q", len(got), got)
	}
	seed := hex.EncodeToString(key.Seed())
	for _, r := range got {
		t.Run("no passphrase, seed or key file in "+r[:min(len(r), 60)], func(t *testing.T) {
			for _, secret := range []string{signPIN, signOperator, seed, keyFile} {
				if strings.Contains(r, secret) {
					t.Fatalf("the request carries %q: %s", secret, r)
				}
			}
			var req station.Request
			if err := json.Unmarshal([]byte(r), &req); err != nil || req.Sig == "" || req.Signer == "" {
				t.Fatalf("the request is not signed by its role: %s", r)
			}
		})
	}
	t.Run("credential add --key-file sends only the public key", func(t *testing.T) {
		pub := hex.EncodeToString(key.Public().(ed25519.PublicKey))
		if !strings.Contains(got[0], pub) || !strings.Contains(got[0], `"kind":"credential.add"`) {
			t.Fatalf("the request of credential add: %s", got[0])
		}
	})
	t.Run("the operator's passphrase was checked where it was given and the request signed by his credential", func(t *testing.T) {
		var req station.Request
		json.Unmarshal([]byte(got[2]), &req)
		if req.Signer != "operator" || req.Role != "operator" {
			t.Fatalf("the operator's move was signed by %q as %q", req.Signer, req.Role)
		}
	})
}

func TestForwardedCommandsRoleSignatureVerifiesInEveryReplica(t *testing.T) {
	first, keyFile, _ := signedStation(t)
	mustArb(t, first, "--pin", signPIN, "credential", "add", "--role", "player", "--player", "Garry Kasparov", "--key-file", keyFile)
	inv := filepath.Join(filepath.Dir(first), "mirror.invite")
	mustArb(t, first, "--pin", signPIN, "station", "invite", "--role", "mirror", "--name", "mirror", "-o", inv)
	mirror := filepath.Join(filepath.Dir(first), "mirror.db")
	serveInBackground(t, mirror, "station", "join", inv)
	mustArb(t, first, "--pin", signPIN, "game", "start")
	mustArb(t, first, "--as", "operator", "--secret", signOperator, "move", "e4")
	mustArb(t, first, "--as", "black", "--key-file", keyFile, "move", "c5")
	head := strings.TrimSpace(mustArb(t, first, "verify"))
	for _, db := range []string{first, mirror} {
		t.Run("verify of "+filepath.Base(db)+" says the stations' keys are certified by the match's CA from the first claim on", func(t *testing.T) {
			// the station served with its credentials signs with its
			// certified key (service.Serve gives them to it): branch hcert
			deadline := time.Now().Add(10 * time.Second)
			for {
				out, errs, code := arb(t, db, "verify")
				if code == 0 && strings.TrimSpace(out) == head {
					if !strings.Contains(errs, "the stations' keys are certified by the match's CA from event ") {
						t.Fatalf("verify says:\n%s", errs)
					}
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s does not reach head %s: exit %d, %s", db, head, code, errs)
				}
				time.Sleep(20 * time.Millisecond) // the mirror applies the stream in its goroutine
			}
		})
		t.Run("the replica "+filepath.Base(db)+" verifies every request signature to the same head", func(t *testing.T) {
			deadline := time.Now().Add(10 * time.Second)
			for strings.TrimSpace(mustArb(t, db, "verify")) != head {
				if time.Now().After(deadline) {
					t.Fatalf("%s does not reach head %s", db, head)
				}
				time.Sleep(20 * time.Millisecond) // the mirror applies the stream in its goroutine
			}
			rdb, err := openRecordReadOnly(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			defer rdb.Close()
			rep, err := match.VerifyRecord(context.Background(), rdb, "", "")
			if err != nil || !rep.OK {
				t.Fatalf("verify: %v %+v", err, rep)
			}
			_, sigs, err := rdb.Record(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			signers := map[string]bool{}
			for _, s := range sigs {
				if s.Kind == "request" {
					signers[s.Signer] = true
				}
			}
			for _, want := range []string{"arbiter", "operator", "player:Garry Kasparov"} {
				if !signers[want] {
					t.Errorf("no request signed by the %s's credential in %s: %v", want, db, signers)
				}
			}
		})
	}
	t.Run("an edited request row is named by verify", func(t *testing.T) {
		outside.SQL(t, first, `UPDATE signatures SET request = replace(request, '"e4"', '"d4"') WHERE kind = 'request'`)
		out, errs, code := arb(t, first, "verify")
		if code == 0 || !strings.Contains(out+errs, "event") {
			t.Fatalf("verify after editing a request row: exit %d, %s%s", code, out, errs)
		}
	})
}

// stationConn connects to the engine of the running station of db with the
// station's own credentials, as any station's connection could.
func stationConn(t *testing.T, db string) *nats.Conn {
	t.Helper()
	sf, _, err := readStation(db)
	if err != nil {
		t.Fatal(err)
	}
	creds, err := readCreds(db)
	if err != nil {
		t.Fatal(err)
	}
	tlsc, err := creds.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(sf.ClientURL, nats.Secure(tlsc))
	if err != nil {
		t.Fatal(err)
	}
	return nc
}

// submitRaw sends req to the authority of the station's record db as any
// station's connection could, bypassing the signing of the service.
func submitRaw(t *testing.T, db string, req station.Request) station.Reply {
	t.Helper()
	nc := stationConn(t, db)
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rep, err := station.Submit(ctx, nc, req, nil, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// stationNow is the match timeline as the station serving db answers a
// time request (its time source, the clock its receipt of a request is
// read on): a request stamped with it is not in the future when the
// station receives it. This process's clock (time.Now) is not that clock:
// a station's source is the wall clock read once at its start, advanced
// by the monotonic clock read just after (internal/timesource), which a
// busy machine delays by milliseconds; a request stamped with time.Now
// was refused as in the future by 3 ms at load 11 (station tests, branch
// hflake2), before its credential was tried.
func stationNow(t *testing.T, db string) time.Time {
	t.Helper()
	nc := stationConn(t, db)
	defer nc.Close()
	x, ok := station.AskTime(nc, station.SubjectTime, time.Now, 20*time.Second)
	if !ok {
		t.Fatal("the station did not answer a time request")
	}
	return x.At.Add(x.Offset).Round(0).UTC() // the station's answer itself
}

// authFails are the auth.fail payloads of the record at db.
func authFails(t *testing.T, db string) []match.AuthFailPayload {
	t.Helper()
	var out []match.AuthFailPayload
	for _, e := range recordEvents(t, db) {
		if e.Kind == match.KindAuthFail {
			var p match.AuthFailPayload
			json.Unmarshal(e.Payload, &p)
			out = append(out, p)
		}
	}
	return out
}

func TestForgedOrAlteredRequestSignatureIsRefusedAndLogged(t *testing.T) {
	first, keyFile, key := signedStation(t)
	mustArb(t, first, "--pin", signPIN, "credential", "add", "--role", "player", "--player", "Garry Kasparov", "--key-file", keyFile)
	mustArb(t, first, "--pin", signPIN, "game", "start")
	mustArb(t, first, "--as", "operator", "--secret", signOperator, "move", "e4")
	_, other, _ := ed25519.GenerateKey(nil)
	move := func(san string) []byte { return []byte(`{"kind":"move","input":"` + san + `"}`) }
	signed := func(id, signer, role string, k ed25519.PrivateKey, cmd []byte) station.Request {
		r := station.Request{ID: id, From: "intruder", Role: role, At: stationNow(t, first), Command: cmd}
		r.Sign(signer, 0, "", k)
		return r
	}
	altered := signed("altered-1", "player:Garry Kasparov", "black", key, move("c5"))
	altered.Command = move("e5")
	for i, tc := range []struct {
		name string
		req  station.Request
		want match.AuthFailPayload
	}{
		{"a request signed with a key that is not the arbiter's is refused and logged", signed("forged-1", "arbiter", "black", other, move("e5")),
			match.AuthFailPayload{Credential: "arbiter", Given: "signature"}},
		{"a request altered after it was signed is refused and logged", altered,
			match.AuthFailPayload{Credential: "player:Garry Kasparov", Given: "signature"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := submitRaw(t, first, tc.req)
			if rep.Error == "" || rep.Refusal == nil || rep.Refusal.Code != match.CodeWrongCredential {
				t.Fatalf("the authority answered %+v", rep)
			}
			fails := authFails(t, first)
			if len(fails) != i+1 || fails[i] != tc.want {
				t.Fatalf("auth.fail events %+v, want the last %+v", fails, tc.want)
			}
		})
	}
	if out := strings.TrimSpace(mustArb(t, first, "verify")); len(out) != 64 {
		t.Fatalf("the record with the refusals logged does not verify: %s", out)
	}
}

// protectedStationAndLaptop is a protected match served by its first
// station, game 1 started by the arbiter, and an operator's laptop joined
// with the operator's credential its invitation made.
func protectedStationAndLaptop(t *testing.T) (first, laptop string) {
	t.Helper()
	dir := t.TempDir()
	first = filepath.Join(dir, "arbiter.db")
	mustArb(t, first, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch+` --pin "`+signPIN+`"`))
	serveInBackground(t, first, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	// The game starts a minute back (the arbiter's credential records
	// earlier instants): commands given with --at half a minute back follow
	// it.
	mustArb(t, first, "--pin", signPIN, "--at", time.Now().Add(-time.Minute).Format(time.RFC3339Nano), "game", "start")
	inv := filepath.Join(dir, "laptop.invite")
	mustArb(t, first, "--pin", signPIN, "station", "invite", "--role", "operator", "--name", "laptop", "-o", inv)
	laptop = filepath.Join(dir, "laptop.db")
	serveInBackground(t, laptop, "station", "join", inv)
	return first, laptop
}

func TestWrongPassphraseAtTheLaptopIsLoggedAtTheAuthorityWithBackoff(t *testing.T) {
	first, laptop := protectedStationAndLaptop(t)
	// Instants given with --at, half a minute back, after the game's start
	// (the arbiter's credential records earlier instants; nobody a later
	// one): the back-off is reckoned on them, not on how fast this machine
	// runs the commands.
	base := time.Now().Add(-30 * time.Second)
	when := func(d time.Duration) string { return base.Add(d).Format(time.RFC3339Nano) }
	_, errs, code := arb(t, laptop, "--at", when(0), "--pin", "wrong passphrase", "move", "e4")
	if code != 1 || !strings.Contains(strings.ToLower(errs), "wrong credential for the arbiter") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("a wrong arbiter's passphrase at the laptop: exit %d, %q", code, errs)
	}
	t.Run("the authority recorded the attempt: who tried, which credential, no passphrase", func(t *testing.T) {
		fails := authFails(t, first)
		if len(fails) != 1 || fails[0] != (match.AuthFailPayload{Credential: "arbiter", Given: "passphrase"}) {
			t.Fatalf("auth.fail events %+v", fails)
		}
		b, err := os.ReadFile(first)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "wrong passphrase") {
			t.Fatal("the record holds the passphrase tried")
		}
	})
	t.Run("the right passphrase during the back-off is refused", func(t *testing.T) {
		_, errs, code := arb(t, laptop, "--at", when(500*time.Millisecond), "--pin", signPIN, "move", "e4")
		if code != 1 || !strings.Contains(strings.ToLower(errs), "too many wrong credentials") {
			t.Fatalf("exit %d, %q", code, errs)
		}
	})
	t.Run("once the back-off is over the command is signed and committed", func(t *testing.T) {
		mustArb(t, laptop, "--at", when(2*time.Second), "--pin", signPIN, "move", "e4")
		if a, b := strings.TrimSpace(mustArb(t, first, "verify")), strings.TrimSpace(mustArb(t, laptop, "verify")); a != b {
			t.Fatalf("heads differ: %s %s", a, b)
		}
	})
}

// 'credential check' (the command a station's console reports a wrong PIN
// for arbiter mode with) checks the credential given and writes nothing
// when it is right; a wrong one is refused and recorded as auth.fail, and
// the back-off refuses the next try, the right one included, in the same
// words — on one machine, and given with --db of a station's record, where
// the wrong passphrase is reported to the authority without itself.
func TestCredentialCheckRecordsAWrongOneAndBacksOffOnOneMachineAsAtAStation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		station bool
	}{
		{"on one machine", false},
		{"at a station, checked there and a wrong one recorded by the authority", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "arbiter.db")
			mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch+` --pin "`+signPIN+`"`))
			if tc.station {
				serveInBackground(t, db, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
			}
			// Instants given with --at, half a minute back (the
			// arbiter's credential records earlier instants; nobody a
			// later one): the back-off is reckoned on them, not on how
			// fast the commands run.
			base := time.Now().Add(-30 * time.Second)
			when := func(d time.Duration) string { return base.Add(d).Format(time.RFC3339Nano) }
			events := func() int { return len(recordEvents(t, db)) }

			n := events()
			_, errs, code := arb(t, db, "--at", when(0), "--pin", "wrong passphrase", "credential", "check")
			if code != 1 || !strings.Contains(strings.ToLower(errs), "wrong credential for the arbiter: the attempt was recorded") || strings.Count(errs, "\n") != 1 {
				t.Fatalf("a wrong passphrase: exit %d, %q", code, errs)
			}
			if fails := authFails(t, db); events() != n+1 || len(fails) != 1 || fails[0] != (match.AuthFailPayload{Credential: "arbiter", Given: "passphrase"}) {
				t.Fatalf("%d events after %d, auth.fail events %+v: want the attempt recorded once", events(), n, fails)
			}
			for _, pin := range []string{signPIN, "wrong passphrase"} {
				_, errs, code := arb(t, db, "--at", when(500*time.Millisecond), "--pin", pin, "credential", "check")
				if code != 1 || !strings.Contains(strings.ToLower(errs), "too many wrong credentials for the arbiter") {
					t.Fatalf("during the back-off: exit %d, %q", code, errs)
				}
			}
			if events() != n+1 {
				t.Fatal("a try during the back-off was recorded")
			}
			mustArb(t, db, "--at", when(2*time.Second), "--pin", signPIN, "credential", "check")
			if events() != n+1 {
				t.Fatal("the right passphrase wrote an event")
			}
			if b, err := os.ReadFile(db); err != nil || strings.Contains(string(b), "wrong passphrase") {
				t.Fatalf("the record holds the passphrase tried (%v)", err)
			}
		})
	}
}
