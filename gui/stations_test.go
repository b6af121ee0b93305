//go:build !nostation

package gui

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"arbiter/match"
	"arbiter/service"
	"arbiter/station"
)

// makeFirstStation makes the harness's record the match's first station,
// as 'station serve' leaves it (description, CA, credentials), with a
// status file written at the console's now.
func makeFirstStation(t *testing.T, h *harness, st service.StationStatus) {
	t.Helper()
	writeFirstStation(t, h.dbPath, &service.StationFile{Name: st.Station, Role: st.Role, Listen: "127.0.0.1:7422",
		ClientURL: "nats://127.0.0.1:7423", First: true})
	writeStationStatus(t, h, st)
}

// writeFirstStation writes the files 'station serve' leaves beside the
// first station's record db: the match's CA key, the station's
// certificate and its description sf.
func writeFirstStation(t *testing.T, db string, sf *service.StationFile) {
	t.Helper()
	ca, caKey, err := station.NewCA("ACM 1996")
	if err != nil {
		t.Fatal(err)
	}
	creds, err := station.Issue(ca, caKey, sf.Name, sf.Role)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(service.StationDir(db), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(service.StationCAKeyPath(db), caKey, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := service.WriteJSONFile(service.StationCredsPath(db), creds); err != nil {
		t.Fatal(err)
	}
	if err := service.WriteJSONFile(service.StationPath(db), sf); err != nil {
		t.Fatal(err)
	}
}

func writeStationStatus(t *testing.T, h *harness, st service.StationStatus) {
	t.Helper()
	b, _ := json.Marshal(struct {
		service.StationStatus
		WrittenNS int64 `json:"written_ns"`
	}{st, h.ft.Now().UnixNano()})
	if err := os.WriteFile(service.StationStatusPath(h.dbPath), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// stationsShown is what the open Stations dialog shows, a line a label.
func stationsShown(h *harness) string {
	h.t.Helper()
	if h.c.stations == nil {
		h.t.Fatal("the Stations dialog is not open")
	}
	return strings.Join(labelTexts(h.c.stations.box), "\n")
}

func TestStationsDialogOnARecordOfNoStationSaysSoInOneLine(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("40/7200+1800", "")
	h.c.do(actStations)
	if got := labelTexts(h.c.stations.box); len(got) != 1 || !strings.Contains(got[0], "belongs to no station") {
		t.Fatalf("the dialog shows %q, want one line saying the record belongs to no station", got)
	}
	if !strings.Contains(topDialogTexts(h.c), "belongs to no station") {
		t.Errorf("the dialog's labels do not show it:\n%s", topDialogTexts(h.c))
	}
	if !h.c.stations.invite.Disabled() {
		t.Error("Invite… is enabled on a record of no station")
	}
}

func TestStationsDialogShowsMembersAuthorityLagAndClockAndRefreshesWhileOpen(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("40/7200+1800", "")
	st := service.StationStatus{Station: "arbiter", Role: "organiser", Authority: "arbiter", Seq: 7, Head: "00112233445566778899aabbccddeeff",
		OffsetMS: 1.25, UncertaintyMS: 0.5, CanAppend: true, Members: []service.StationMember{
			{Name: "arbiter", Role: "organiser", Up: true}, {Name: "laptop", Role: "operator", Up: true, Lag: 3}}}
	makeFirstStation(t, h, st)
	h.c.do(actStations)
	shown := stationsShown(h)
	for _, want := range []string{
		"This station: arbiter (organiser), running",
		"Authority: arbiter",
		"Record: event 7, head 0011223344556677…",
		"Clock: offset 1.2 ms ± 0.5 ms to the authority",
		"arbiter (organiser): up, 0 events behind · authority",
		"laptop (operator): up, 3 events behind",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, shown)
		}
	}
	if !strings.Contains(topDialogTexts(h.c), "laptop (operator): up, 3 events behind") {
		t.Errorf("the dialog's labels do not show the laptop:\n%s", topDialogTexts(h.c))
	}
	if h.c.stations.invite.Disabled() {
		t.Error("Invite… is disabled on the first station")
	}

	t.Run("the open dialog re-reads the status: a new lag, another authority, an unknown clock", func(t *testing.T) {
		st.Authority, st.UncertaintyMS = "display", -1
		st.Members[1].Lag = 0
		st.Members = append(st.Members, service.StationMember{Name: "display", Role: "display", Up: true})
		writeStationStatus(t, h, st)
		h.ft.advance(stationsEvery)
		shown := stationsShown(h)
		for _, want := range []string{"Authority: display", "laptop (operator): up, 0 events behind", "display (display): up, 0 events behind · authority",
			"Clock: no authority has answered a time request yet"} {
			if !strings.Contains(shown, want) {
				t.Errorf("after a refresh the dialog does not show %q:\n%s", want, shown)
			}
		}
	})
	t.Run("a station whose status file stopped is shown not running and down", func(t *testing.T) {
		h.ft.advance(3 * time.Second)
		shown := stationsShown(h)
		if !strings.Contains(shown, "This station: arbiter (organiser), not running") || !strings.Contains(shown, "arbiter (organiser): down") {
			t.Errorf("the dialog does not show the station stopped:\n%s", shown)
		}
	})
	t.Run("closing the dialog stops the refresh", func(t *testing.T) {
		h.key("Escape")
		h.ft.advance(time.Second)
		if h.c.stations != nil || h.ft.pending() > 1 {
			t.Errorf("the dialog still refreshes after closing (stations %v, %d timers)", h.c.stations != nil, h.ft.pending())
		}
	})
}

func TestStationsInviteWritesAnInvitationTheStationAccepts(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("40/7200+1800", "")
	makeFirstStation(t, h, service.StationStatus{Station: "arbiter", Role: "organiser", Authority: "arbiter", CanAppend: true,
		Members: []service.StationMember{{Name: "arbiter", Role: "organiser", Up: true}}})
	h.c.do(actStations)
	test.Tap(h.c.stations.invite)
	f := h.c.inviting
	if f == nil {
		t.Fatal("Invite… opened no form")
	}
	out := filepath.Join(t.TempDir(), "laptop.json")
	f.role.SetSelected("operator")
	test.Type(f.name, "laptop")
	f.file.SetText(out)
	if err := f.ok(); err != nil {
		t.Fatalf("the invitation was refused: %s", sentence(err))
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var inv service.Invitation
	if err := json.Unmarshal(b, &inv); err != nil {
		t.Fatal(err)
	}
	if inv.Name != "laptop" || inv.Role != "operator" || len(inv.Contacts) == 0 || inv.Contacts[0] != "nats://127.0.0.1:7423" {
		t.Errorf("the invitation names %q (%q) with contacts %v", inv.Name, inv.Role, inv.Contacts)
	}
	if _, err := inv.Credentials.TLSConfig(); err != nil {
		t.Errorf("station join would refuse the invitation's certificate: %v", err)
	}
	// the certificate is the match CA's, for this station and role
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(inv.Credentials.CA)
	blk, _ := pem.Decode(inv.Credentials.Cert)
	cert, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("the certificate is not signed by the match's CA: %v", err)
	}
	if cert.Subject.CommonName != "laptop" || len(cert.Subject.OrganizationalUnit) != 1 || cert.Subject.OrganizationalUnit[0] != "operator" {
		t.Errorf("the certificate is for %q %v", cert.Subject.CommonName, cert.Subject.OrganizationalUnit)
	}

	t.Run("an existing file is refused with one sentence and left as it is", func(t *testing.T) {
		err := service.InviteStation(h.ctx, h.dbPath, "display", "display", out, service.Global{}, "")
		if err == nil || !strings.Contains(err.Error(), "exists already") {
			t.Errorf("got %v", err)
		}
		if after, _ := os.ReadFile(out); string(after) != string(b) {
			t.Error("the invitation file changed")
		}
	})
}

func TestStationsInviteNeedsTheArbitersCredential(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "correct horse battery")
	h.newMatch("40/7200+1800", "correct horse battery")
	makeFirstStation(t, h, service.StationStatus{Station: "arbiter", Role: "organiser", Authority: "arbiter", CanAppend: true})
	h.c.do(actStations)
	test.Tap(h.c.stations.invite)
	f := h.c.inviting
	if f == nil {
		t.Fatal("Invite… opened no form")
	}
	out := filepath.Join(t.TempDir(), "display.json")
	f.role.SetSelected("display")
	test.Type(f.name, "display")
	f.file.SetText(out)

	t.Run("without the PIN the invitation is refused with one sentence and nothing is written", func(t *testing.T) {
		h.c.pin = ""
		err := f.ok()
		if err == nil || !strings.Contains(sentence(err), "arbiter's credential") {
			t.Fatalf("got %v", err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Error("an invitation was written")
		}
	})
	t.Run("an operator's invitation to a protected match needs its station running to make the operator's credential", func(t *testing.T) {
		h.c.pin = "correct horse battery"
		f.role.SetSelected("operator")
		err := f.ok()
		if err == nil || !strings.Contains(h.c.explain(err), "is not running") {
			t.Fatalf("got %v", err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Error("an invitation was written")
		}
	})
	t.Run("with the PIN the display's invitation is written", func(t *testing.T) {
		h.c.pin = "correct horse battery"
		f.role.SetSelected("display")
		if err := f.ok(); err != nil {
			t.Fatalf("refused: %s", sentence(err))
		}
		if _, err := os.Stat(out); err != nil {
			t.Error(err)
		}
	})
}

// A console opened on a station's record (run.go) opens it read only; on
// the mirror's it gives no commands: it says whose replica it is and who
// the authority is, writes nothing, and follows what the station applies.
func TestAConsoleOnTheMirrorsReplicaShowsItAndWritesNothing(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("40/7200+1800", "")
	makeFirstStation(t, h, service.StationStatus{Station: "mirror", Role: "mirror", Authority: "arbiter", UncertaintyMS: 0.4,
		Members: []service.StationMember{{Name: "arbiter", Role: "organiser", Up: true}, {Name: "mirror", Role: "mirror", Up: true}}})
	if !service.IsStation(h.dbPath) {
		t.Fatal("the fixture is no station's record")
	}
	core, err := service.OpenReadOnly(h.ctx, h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.DB().Close() })
	fa := test.NewTempApp(t)
	setupApp(fa)
	c := newConsole(h.ctx, fa, core, config{path: h.dbPath, role: match.RoleArbiter, now: h.ft.Now, after: h.ft.after, ui: h.ui.do})
	c.stationRole = "mirror"
	c.stationNote = stationNote(h.dbPath, h.ft.Now())
	c.refreshWhere()
	if want := "station mirror's replica (read only) · authority arbiter"; !strings.Contains(c.where.Text, want) {
		t.Errorf("the status line %q does not say %q", c.where.Text, want)
	}
	before, _ := os.ReadFile(h.dbPath)
	c.do(actStartGame)
	if !c.banner.obj.Visible() || !strings.Contains(c.banner.text.Text, "the mirror terminal only reads") || !strings.Contains(c.banner.text.Text, "authority arbiter") {
		t.Errorf("a command on the replica is not explained: banner %v %q", c.banner.obj.Visible(), c.banner.text.Text)
	}
	if after, _ := os.ReadFile(h.dbPath); string(after) != string(before) {
		t.Error("the console wrote to the station's record")
	}
	if core.State().CurrentGame() != nil {
		t.Error("a game started on the replica")
	}
	if !strings.Contains(refusalShown(c), "it gives no commands") {
		t.Errorf("the refusal says %q, not why a station's replica gives no commands", refusalShown(c))
	}

	t.Run("the replica's console follows the record the station writes", func(t *testing.T) {
		if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, match.GameStart{}); err != nil {
			t.Fatal(err)
		}
		if err := core.Refresh(h.ctx); err != nil {
			t.Fatal(err)
		}
		if core.State().CurrentGame() == nil {
			t.Error("the replica's console does not see the game the station started")
		}
	})
}

// The status line of a console on a station's replica, in German with a
// long path, must not make the window wider than 1280 pixels.
func TestAConsoleOnAStationsReplicaFits1280PixelsInGerman(t *testing.T) {
	inGerman(t)
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	makeFirstStation(t, h, service.StationStatus{Station: "laptop-des-operators", Role: "operator", Authority: "schiedsrichter"})
	h.c.stationNote = stationNote(h.dbPath, h.ft.Now())
	h.c.cfg.path = "/home/schiedsrichter/wettkampf/acm1996-laptop.db"
	h.c.refresh()
	if !strings.Contains(h.c.where.Text, "Replik der Station laptop-des-operators") {
		t.Fatalf("the status line is %q", h.c.where.Text)
	}
	if w := h.c.win.Content().MinSize().Width + 2*theme.Padding(); w > 1280 {
		t.Errorf("the console needs %.0f px with the station's status line %q", w, h.c.where.Text)
	}
}
