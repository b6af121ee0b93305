//go:build !nostation

package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTheFirstStationSaysItsCAToWriteDownAndVerifyChecksIt (branch
// hanchor): 'station serve' on a record no station served makes the
// match's CA and says its fingerprint, to be written down as the match id
// and the arbiter's key are; once the station's claim is in the record,
// verify names the same CA and 'verify --ca' with it passes, with another
// fails. Before, nothing outside the record named the CA.
func TestTheFirstStationSaysItsCAToWriteDownAndVerifyChecksIt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	mustArb(t, db, "--at", at(0), "play", writeScript(t, "0:00:00 "+newMatch))
	stop, said := serveInBackgroundSaying(t, db, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	defer stop()
	fp := hexAfter(t, said.String(), "the match's CA: ")
	if len(fp) != 64 || !strings.Contains(said.String(), "write it down") || !strings.Contains(said.String(), "'arbiter verify --ca CA'") {
		t.Fatalf("station serve said:\n%s", said.String())
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		_, errs, code := arb(t, db, "verify")
		if code == 0 && strings.Contains(errs, "('verify --ca' checks it): ") {
			if got := hexAfter(t, errs, "('verify --ca' checks it): "); got != fp {
				t.Fatalf("verify names the CA %s, the station said %s", got, fp)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the station's claim is not in the record after 30 s: exit %d, %s", code, errs)
		}
		time.Sleep(20 * time.Millisecond) // polling for the station's claim in the file
	}
	if _, errs, code := arb(t, db, "verify", "--ca", fp); code != 0 {
		t.Errorf("verify --ca with the CA said: exit %d, %s", code, errs)
	}
	other := strings.Repeat("ab", 32)
	if _, errs, code := arb(t, db, "verify", "--ca", other); code != 1 || !strings.Contains(errs, "re-made under another CA") {
		t.Errorf("verify --ca with another: exit %d, %s", code, errs)
	}
}
