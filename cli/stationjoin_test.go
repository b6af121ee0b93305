//go:build !nostation

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/service"
)

// 'station join' with an invitation altered on its way, or one of another
// match, says which in one sentence within 15 s (service.JoinDeadline)
// and writes nothing; before, it retried for ever or said that no record
// holder answers.
func TestStationJoinSaysWithinFifteenSecondsWhetherAnInvitationWasAlteredOrIsAnotherMatchs(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "arbiter.db")
	mustArb(t, first, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch))
	serveInBackground(t, first, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	invite := func(db, role, name string) service.Invitation {
		out := filepath.Join(dir, name+".invite")
		mustArb(t, db, "station", "invite", "--role", role, "--name", name, "-o", out)
		var inv service.Invitation
		b, err := os.ReadFile(out)
		if err == nil {
			err = json.Unmarshal(b, &inv)
		}
		if err != nil {
			t.Fatal(err)
		}
		return inv
	}
	laptop := invite(first, "operator", "laptop")
	mirror := invite(first, "mirror", "mirror")

	// Match B's station ran on a port pair that match C's first station
	// serves on now: B's invitation is whole, signed by B's CA, and the
	// record holder at its contact is C's.
	port := freePortPair(t)
	other, another := filepath.Join(dir, "b.db"), filepath.Join(dir, "c.db")
	for _, db := range []string{other, another} {
		mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch))
	}
	stopB := serveInBackground(t, other, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", port))
	otherMatch := invite(other, "operator", "b-laptop")
	stopB()
	serveInBackground(t, another, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", port))

	altered := "has been altered since the arbiter wrote it"
	for _, tc := range []struct {
		name string
		inv  func() service.Invitation
		says []string
	}{
		{"an invitation whose contacts were changed is altered", func() service.Invitation {
			inv := laptop
			inv.Contacts = append([]string{"nats://192.0.2.1:4223"}, inv.Contacts...)
			return inv
		}, []string{altered, "its CA's signature does not cover what it says"}},
		{"an invitation whose role was changed is altered", func() service.Invitation {
			inv := laptop
			inv.Role = "organiser"
			return inv
		}, []string{altered, "it names the station laptop (organiser), its certificate laptop (operator)"}},
		{"an invitation carrying another station's certificate is altered", func() service.Invitation {
			inv := laptop
			inv.Credentials.Cert, inv.Credentials.Key = mirror.Credentials.Cert, mirror.Credentials.Key
			return inv
		}, []string{altered, "its certificate mirror (mirror)"}},
		{"an invitation whose certificate is not its key's is altered", func() service.Invitation {
			inv := laptop
			inv.Credentials.Cert = mirror.Credentials.Cert
			return inv
		}, []string{altered, "its certificate and key do not belong together"}},
		{"an invitation with another match's CA in it is altered", func() service.Invitation {
			inv := laptop
			inv.Credentials.CA = otherMatch.Credentials.CA
			return inv
		}, []string{altered, "its certificate is not signed by its CA"}},
		{"an invitation without the CA's signature is altered", func() service.Invitation {
			inv := laptop
			inv.Signature = nil
			return inv
		}, []string{altered, "its CA's signature does not cover what it says"}},
		{"a whole invitation of another match is another match's", func() service.Invitation {
			return otherMatch
		}, []string{"is from another match", "certificates its CA did not sign"}},
	} {
		t.Run(tc.name+", said in one sentence within 15 s, nothing written", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "invite.json")
			if err := writeJSONFile(path, tc.inv()); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(filepath.Dir(path), "new.db")
			t0 := time.Now()
			_, errs, code := arb(t, db, "station", "join", path)
			if d := time.Since(t0); d > service.JoinDeadline+time.Second {
				t.Errorf("station join took %v", d)
			}
			if code != 1 || strings.Count(errs, "\n") != 1 {
				t.Fatalf("exit %d, %q; want exit 1 and one sentence", code, errs)
			}
			for _, s := range tc.says {
				if !strings.Contains(errs, s) {
					t.Errorf("the sentence %q does not say %q", errs, s)
				}
			}
			if es, _ := os.ReadDir(filepath.Dir(path)); len(es) != 1 {
				t.Errorf("the refused join wrote files: %v", es)
			}
		})
	}
	t.Run("an invitation whose record holders are all gone says so after 15 s, nothing written", func(t *testing.T) {
		gone := filepath.Join(dir, "d.db")
		mustArb(t, gone, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch))
		stop := serveInBackground(t, gone, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
		inv := invite(gone, "mirror", "d-mirror")
		stop()
		path := filepath.Join(t.TempDir(), "invite.json")
		if err := writeJSONFile(path, inv); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		_, errs, code := arb(t, filepath.Join(filepath.Dir(path), "new.db"), "station", "join", path)
		if d := time.Since(t0); d < service.JoinDeadline || d > service.JoinDeadline+5*time.Second {
			t.Errorf("station join gave up after %v, want %v", d, service.JoinDeadline)
		}
		if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "o record holder answers at "+inv.Contacts[0]+", ") {
			t.Fatalf("exit %d, %q; want exit 1 and one sentence saying no record holder answers", code, errs)
		}
		if es, _ := os.ReadDir(filepath.Dir(path)); len(es) != 1 {
			t.Errorf("the refused join wrote files: %v", es)
		}
	})
}
