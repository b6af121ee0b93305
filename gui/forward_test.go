//go:build !nostation

package gui

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	// The authority runs a forwarded command through the command line's
	// commands, which main.go gives the console (gui.Run) as this test
	// does: the one command layer; the console itself never calls cli.
	"arbiter/clock"
	"arbiter/internal/testnet"
	"arbiter/match"
	"arbiter/service"
)

// lockedClock is a time source read by the console and by the station's
// goroutines: it moves only when the test moves it.
type lockedClock = testnet.Clock

// runFirstStation makes the harness's record the match's first station (as
// 'station serve' makes it) and has the console run it in process, as the
// console does on a station's record when no station runs for it, on the
// time source now; it returns when the station runs.
func runFirstStation(t *testing.T, h *harness, now func() time.Time) {
	t.Helper()
	db := h.dbPath
	sf := &service.StationFile{Name: "arbiter", Role: "organiser", Listen: testnet.Listen(t), First: true}
	writeFirstStation(t, db, sf)
	h.c.stationRole = sf.Role
	t.Cleanup(h.c.runStation(db, sf, now))
	t.Cleanup(h.c.closeLink) // before the station stops
	deadline := time.Now().Add(60 * time.Second)
	for !service.Running(db, time.Now()) {
		if time.Now().After(deadline) {
			t.Fatal("the console's station did not start within 60 s")
		}
		time.Sleep(10 * time.Millisecond) // polling the station's goroutine's status file
	}
	h.c.stationNote = stationNote(db, time.Now())
}

// stationHarness is a console on the first station's record of the 1996
// match (pin: the match's arbiter PIN, "" for none), in mode role, which
// runs the station; the console's clock stands still at lc until the test
// moves it, and the authority's timeline runs offset ahead of it.
func stationHarness(t *testing.T, role match.Role, pin string, offset time.Duration) (*harness, *lockedClock) {
	t.Helper()
	h := newHarness(t, role, "")
	h.newMatch("acm1996", pin)
	lc := testnet.NewClock(t0.Add(time.Minute))
	h.c.now = lc.Now
	runFirstStation(t, h, func() time.Time { return lc.Now().Add(offset) })
	return h, lc
}

// whiteSlot is the clock slot White's clock is shown in.
func (h *harness) whiteSlot() int {
	if h.c.sideAt(0) != clock.White {
		return 1
	}
	return 0
}

// lastEvent is the record's last event, read back from the file.
func (h *harness) lastEvent() service.Event {
	h.t.Helper()
	evs, err := h.core.DB().EventsAfter(h.ctx, 0)
	if err != nil || len(evs) == 0 {
		h.t.Fatalf("the record: %v", err)
	}
	return evs[len(evs)-1]
}

// A console on a station's record sends its commands to the authority,
// stamped where they were given (the console's time source plus the
// station's offset to the authority), as the actor who gives them, and
// shows the result once its record holds it; the authority's refusals are
// said in the console's words (issue 17).
func TestTheConsoleOnAStationsRecordSendsItsCommandsToTheAuthority(t *testing.T) {
	// The authority's timeline runs 250 ms ahead of the console's clock:
	// the console's stamps must carry that offset.
	const offset = 250 * time.Millisecond
	h, lc := stationHarness(t, match.RoleOperator, "", offset)
	if !h.c.forwards() {
		t.Fatal("the console on the first station's record does not send its commands")
	}
	send := func(f func()) service.Event {
		t.Helper()
		f()
		h.wait()
		return h.lastEvent()
	}

	t.Run("the arbiter's start of the game is run by the authority", func(t *testing.T) {
		e := send(h.c.startGame)
		if e.Kind != match.KindGameStart || e.Role != string(match.RoleArbiter) {
			t.Fatalf("last event %s by %s, want the game's start by the arbiter", e.Kind, e.Role)
		}
		if g := h.game(); g == nil || !g.Live() {
			t.Fatal("the console does not show the game started")
		}
		if !strings.Contains(h.c.where.Text, "Unprotected match") {
			t.Errorf("the arbiter's action on an unprotected match is not warned of: %q", h.c.where.Text)
		}
	})

	t.Run("a press is stamped where it was given, with the offset to the authority (the human's, in operator mode the arbiter's)", func(t *testing.T) {
		lc.Advance(time.Second)
		given := lc.Now()
		slot := h.whiteSlot()
		e := send(func() { h.c.pressSlot(slot) })
		var p match.SidePayload
		if e.Kind != match.KindPress || json.Unmarshal(e.Payload, &p) != nil {
			t.Fatalf("last event %s %s, want the press", e.Kind, e.Payload)
		}
		if e.Role != string(match.RoleArbiter) || !e.At.Equal(given.Add(offset)) || p.PressedNS != given.Add(offset).UnixNano() || p.Raised || p.Correction {
			t.Fatalf("press by %s at %v, payload %s; want the arbiter's press at %v", e.Role, e.At, e.Payload, given.Add(offset))
		}
		if h.c.mode != match.RoleOperator {
			t.Errorf("after the human's press the console is in %s mode, want operator mode", h.c.mode)
		}
		if g := h.game(); g.Pressed == nil || *g.Pressed != clock.White {
			t.Fatal("the console does not show White's press")
		}
	})

	t.Run("the move completing the human's press needs arbiter mode too", func(t *testing.T) {
		e := send(func() { h.typeMove("e4") })
		if e.Kind != match.KindMove || e.Role != string(match.RoleArbiter) || h.ply() != 1 || h.c.moveEntry.Text != "" {
			t.Fatalf("last event %s by %s, ply %d, move field %q", e.Kind, e.Role, h.ply(), h.c.moveEntry.Text)
		}
	})

	t.Run("the operator's move presses the computer's clock stamped where it was given", func(t *testing.T) {
		lc.Advance(2 * time.Second)
		given := lc.Now()
		e := send(func() { h.typeMove("c5") })
		var p match.MovePayload
		if e.Kind != match.KindMove || json.Unmarshal(e.Payload, &p) != nil || !p.Press {
			t.Fatalf("last event %s %s, want a move that presses", e.Kind, e.Payload)
		}
		if e.Role != string(match.RoleOperator) || !e.At.Equal(given.Add(offset)) || p.PressedNS != e.At.UnixNano() {
			t.Fatalf("move by %s at %v, payload %s; want the operator's at %v", e.Role, e.At, e.Payload, given.Add(offset))
		}
		if h.ply() != 2 {
			t.Fatalf("the console shows ply %d, want 2", h.ply())
		}
	})

	t.Run("the authority's refusal is shown in the move field and nothing is written", func(t *testing.T) {
		before := h.lastEvent().Seq
		e := send(func() { h.typeMove("Ke3") }) // no king reaches e3
		if e.Seq != before {
			t.Fatalf("a refused move wrote event %d (%s)", e.Seq, e.Kind)
		}
		if got := h.c.moveErr.Text; !strings.Contains(got, "Ke3") {
			t.Fatalf("the move field says %q", got)
		}
		h.c.moveEntry.SetText("")
	})

	t.Run("a refusal the console words itself is said in the console's words, in German too", func(t *testing.T) {
		send(h.c.callArbiter) // the operator calls the arbiter on Kasparov's turn
		if g := h.game(); g.State != match.Paused {
			t.Fatal("the call did not stop the clocks")
		}
		h.c.mode = match.RoleArbiter
		before := h.lastEvent().Seq
		send(func() { h.typeMove("Nf3") })
		if got := h.c.moveErr.Text; !strings.Contains(got, "Ctrl+R") || strings.Contains(got, "'resume'") {
			t.Fatalf("the move field says %q, want the console's words for stopped clocks", got)
		}
		inGerman(t)
		h.c.moveEntry.SetText("")
		e := send(func() { h.typeMove("Nf3") })
		if got := h.c.moveErr.Text; !strings.Contains(got, "Die Uhren sind angehalten") || !strings.Contains(got, "Strg+R") {
			t.Fatalf("the move field says %q, want the German words", got)
		}
		if e.Seq != before {
			t.Fatalf("a refused move wrote event %d", e.Seq)
		}
	})
}

// The mirror's console gives no commands; every other station's console
// sends them.
func TestOnlyTheMirrorsConsoleSendsNoCommands(t *testing.T) {
	for _, tc := range []struct {
		role string
		want bool
	}{{"", false}, {"mirror", false}, {"operator", true}, {"organiser", true}, {"display", true}} {
		t.Run(tc.role, func(t *testing.T) {
			c := &console{stationRole: tc.role}
			if got := c.forwards(); got != tc.want {
				t.Errorf("a console on a %q station's record forwards: %v, want %v", tc.role, got, tc.want)
			}
		})
	}
}

// The console's invitation of an operator to a protected match carries the
// operator's credential, made and registered through the authority with
// the arbiter's PIN the console holds, as 'station invite --role operator'
// makes it; a second one needs that credential's key file.
func TestTheConsolesOperatorInvitationToAProtectedMatchCarriesTheOperatorsCredential(t *testing.T) {
	const pin = "correct horse battery"
	h := newHarness(t, match.RoleArbiter, pin)
	h.newMatch("acm1996", pin)
	h.c.pin = pin
	runFirstStation(t, h, time.Now)
	h.c.do(actStations)
	invite := func(name, keyFile string) (string, error) {
		h.c.inviting = nil
		test.Tap(h.c.stations.invite)
		f := h.c.inviting
		if f == nil {
			t.Fatal("Invite… opened no form")
		}
		out := filepath.Join(t.TempDir(), name+".json")
		f.role.SetSelected("operator")
		test.Type(f.name, name)
		f.file.SetText(out)
		f.opKey.SetText(keyFile)
		err := f.ok()
		if err == nil {
			f.d.Hide()
		}
		return out, err
	}
	out, err := invite("laptop", "")
	if err != nil {
		t.Fatalf("refused: %s", h.c.explain(err))
	}
	var inv service.Invitation
	if b, err := os.ReadFile(out); err != nil || json.Unmarshal(b, &inv) != nil {
		t.Fatalf("the invitation cannot be read: %v", err)
	}
	key, err := match.ParseKeyFile([]byte(inv.OperatorKey))
	if err != nil {
		t.Fatalf("the invitation carries no operator's key: %v (%q)", err, inv.OperatorKey)
	}
	if err := h.core.Refresh(h.ctx); err != nil {
		t.Fatal(err)
	}
	cred := h.core.State().Credential("operator")
	if cred == nil || cred.PublicKey != hex.EncodeToString(key.Public().(ed25519.PublicKey)) {
		t.Fatalf("the match's operator's credential %+v is not the invitation's key", cred)
	}
	if e := h.lastEvent(); e.Role != string(match.RoleArbiter) {
		t.Errorf("the credential was registered by %s, want the arbiter", e.Role)
	}

	t.Run("a second operator's invitation needs the operator's key file", func(t *testing.T) {
		_, err := invite("laptop2", "")
		if err == nil || !strings.Contains(h.c.explain(err), "give its key file as the operator's key file") {
			t.Fatalf("got %v", err)
		}
		kf := filepath.Join(t.TempDir(), "operator.key")
		if err := os.WriteFile(kf, []byte(inv.OperatorKey+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := invite("laptop3", kf); err != nil {
			t.Fatalf("with the key file: %s", h.c.explain(err))
		}
	})
}

// A press that reaches the authority late (after a failover, from a laptop
// that slept) is recorded as a correction of the clocks, and the console
// says so on its status line (issue 17).
func TestTheConsoleShowsALatePressAsACorrectionOfTheClocks(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	lc := testnet.NewClock(t0.Add(time.Minute))
	h.c.now = lc.Now
	runFirstStation(t, h, lc.Now)
	h.c.startGame()
	h.wait()
	lc.Advance(10 * time.Second)
	// White's press, stamped 1.5 s before the authority runs it, given at
	// another station (the command line on this record).
	late := lc.Now().Add(-1500 * time.Millisecond)
	_, err := service.Forward(h.ctx, h.dbPath, service.StationCommand{Cmd: match.Press{}, RoleGiven: true,
		G: service.Global{DB: h.dbPath, Role: match.RoleWhite, At: late, AtSet: true}})
	if err != nil {
		t.Fatal(err)
	}
	var p match.SidePayload
	e := h.lastEvent()
	if e.Kind != match.KindPress || json.Unmarshal(e.Payload, &p) != nil || !p.Correction {
		t.Fatalf("last event %s %s, want a press recorded as a correction", e.Kind, e.Payload)
	}
	// Stamped before the receipt minus the round trip the holder measured,
	// the press counts at that bound (docs/stations.md): the round trip is
	// measured, so the instant is read back from the record.
	if bound := time.Unix(0, p.ReceivedNS).Add(-time.Duration(p.RTTNS)); !e.At.Equal(bound) {
		t.Fatalf("the press counts at %s, want the bound %s (receipt minus round trip)", e.At, bound)
	}
	if strings.Contains(h.c.where.Text, "corrected the clocks") {
		t.Fatal("the status line tells of a correction before the console read it")
	}
	if err := h.core.Refresh(h.ctx); err != nil { // the console's poll
		t.Fatal(err)
	}
	h.c.refresh()
	want := "A late press corrected the clocks: Garry Kasparov's press at 20:01:08.500 UTC reached the authority 1.5 s later and counts at " +
		e.At.UTC().Format("15:04:05.000") + " UTC."
	if !strings.Contains(h.c.where.Text, want) {
		t.Fatalf("the status line is %q, want it to say %q", h.c.where.Text, want)
	}
	h.c.refresh()
	if strings.Count(h.c.where.Text, "corrected the clocks") != 1 {
		t.Fatalf("the status line is %q", h.c.where.Text)
	}
}

// The arbiter's record of a fallen flag, sent to the authority, shows the
// 6.9 verdict the record holds once the station's record holds it, as a
// flag recorded at the console does (6.8, 6.9).
func TestTheConsolesFlagSentToTheAuthorityShowsTheVerdict(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("60", "") // one minute sudden death
	lc := testnet.NewClock(t0.Add(time.Minute))
	h.c.now = lc.Now
	runFirstStation(t, h, lc.Now)
	h.c.startGame()
	h.wait()
	lc.Advance(time.Minute + time.Second)
	h.c.win.Canvas().Unfocus()
	h.c.do(actFlagWhite)
	if got := topDialogTexts(h.c); !strings.Contains(got, "6.9") {
		t.Fatalf("no question before the flag: %q", got)
	}
	h.key(fyne.KeyReturn)
	h.wait()
	if g := h.game(); g.Result != "0-1" {
		t.Fatalf("result %q after the flag, want 0-1", g.Result)
	}
	if e := h.lastEvent(); e.Role != string(match.RoleArbiter) {
		t.Errorf("the flag was recorded by %s, want the arbiter", e.Role)
	}
	if !strings.Contains(topDialogTexts(h.c), "(6.9)") {
		t.Errorf("the verdict is not shown: %q", topDialogTexts(h.c))
	}
}

// On a protected match the console sends its commands with the PIN it
// holds, as it gives local ones: the arbiter's with his, the operator's
// press with the PIN the arbiter gave at this console; a dialog's command
// (the arbiter's result) goes to the authority when its form is confirmed.
func TestTheConsoleSendsItsCommandsWithTheCredentialItHolds(t *testing.T) {
	const pin = "correct horse battery"
	h := newHarness(t, match.RoleArbiter, pin)
	h.newMatch("acm1996", pin)
	h.c.pin, h.c.hallPIN = pin, pin
	lc := testnet.NewClock(t0.Add(time.Minute))
	h.c.now = lc.Now
	runFirstStation(t, h, lc.Now)
	h.c.startGame()
	h.wait()
	if e := h.lastEvent(); e.Kind != match.KindGameStart {
		t.Fatalf("last event %s, want the game's start: %s", e.Kind, refusalShown(h.c))
	}

	t.Run("the operator's press carries the PIN the arbiter gave at this console", func(t *testing.T) {
		lc.Advance(time.Second)
		h.c.pressSlot(h.whiteSlot()) // Kasparov's, in arbiter mode
		h.wait()
		h.typeMove("e4")
		h.wait()
		h.c.mode = match.RoleOperator
		lc.Advance(time.Second)
		h.c.pressSlot(1 - h.whiteSlot())
		h.wait()
		if e := h.lastEvent(); e.Kind != match.KindPress || e.Role != string(match.RoleOperator) {
			t.Fatalf("last event %s by %s, want the operator's press: %s", e.Kind, e.Role, refusalShown(h.c))
		}
		h.typeMove("e5")
		h.wait()
		h.c.mode = match.RoleArbiter
	})

	t.Run("the arbiter's result from its dialog is recorded by the authority", func(t *testing.T) {
		h.c.do(actResult)
		var res *widget.Select
		var reason *formEntry
		for _, o := range overlayWidgets(h) {
			switch w := o.(type) {
			case *widget.Select:
				res = w
			case *formEntry:
				reason = w
			}
		}
		if res == nil || reason == nil {
			t.Fatal("the result dialog has no result or reason")
		}
		res.SetSelected("1/2-1/2")
		test.Type(reason, "both players agreed")
		h.key(fyne.KeyReturn)
		h.wait()
		if g := h.game(); g.Result != "1/2-1/2" {
			t.Fatalf("result %q, want 1/2-1/2: %s", g.Result, refusalShown(h.c))
		}
		if e := h.lastEvent(); e.Role != string(match.RoleArbiter) {
			t.Errorf("the result was recorded by %s, want the arbiter", e.Role)
		}
	})
}

// One station per record: the console that runs its record's station
// holds the record's station lock, so 'station serve' (or a second
// console) for that record is refused while it runs, and a console opened
// while a station runs for its record uses that one and says nothing.
func TestTheConsolesStationIsTheRecordsOnlyOne(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	runFirstStation(t, h, time.Now)
	_, err := service.LockStation(h.dbPath)
	var busy *service.BusyError
	if !errors.As(err, &busy) || busy.PID != os.Getpid() {
		t.Fatalf("a second station for the record: %v, want it refused as running in this process", err)
	}
	sf, _, err := service.ReadStation(h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	before := len(h.c.win.Canvas().Overlays().List())
	h.c.runStation(h.dbPath, sf, time.Now)() // a second console's: returns at once, nothing to stop
	if len(h.c.win.Canvas().Overlays().List()) != before {
		t.Fatalf("the console said %q, want it to use the running station silently", refusalShown(h.c))
	}
}

// The console keeps one link to the authority for its session and unlocks
// the arbiter's credential once, when it opens on a station's record with
// the PIN (or when the PIN is given): its presses then reach the authority
// with nothing slow between the key and the request, and are recorded at
// the instant given plus the offset, not raised (issue 17). The console's
// clock and the authority's stand still (250 ms apart) except that each
// unlock with a passphrase moves them by 100 ms (argon2id's cost, on the
// match's clock): an unlock between a press and its request would have it
// reach the authority 100 ms late, raised.
func TestTheConsoleUnlocksItsKeyOnceAndItsPressesAreNotRaised(t *testing.T) {
	const pin = "correct horse battery"
	const offset = 250 * time.Millisecond
	h := newHarness(t, match.RoleArbiter, pin)
	h.newMatch("acm1996", pin)
	h.c.pin, h.c.hallPIN = pin, pin
	lc := testnet.NewClock(t0.Add(time.Minute))
	h.c.now = lc.Now
	var unlocks atomic.Int32
	prev := service.UnlockCredential
	service.UnlockCredential = func(cr *match.Credential, pass string, key ed25519.PrivateKey) (ed25519.PrivateKey, bool) {
		if pass != "" {
			unlocks.Add(1)
			lc.Advance(100 * time.Millisecond)
		}
		return prev(cr, pass, key)
	}
	t.Cleanup(func() { service.UnlockCredential = prev })
	runFirstStation(t, h, func() time.Time { return lc.Now().Add(offset) })
	h.c.prepareLink() // as the console does when it opens on a station's record
	h.wait()
	if n := unlocks.Load(); n != 1 {
		t.Fatalf("opening the console unlocked the arbiter's key %d times, want once", n)
	}
	h.c.startGame()
	h.wait()
	if e := h.lastEvent(); e.Kind != match.KindGameStart {
		t.Fatalf("last event %s, want the game's start: %s", e.Kind, refusalShown(h.c))
	}
	stamped := func(t *testing.T, e service.Event, kind string, given time.Time) {
		t.Helper()
		var p match.PressStamp
		if e.Kind != kind || json.Unmarshal(e.Payload, &p) != nil {
			t.Fatalf("last event %s %s, want %s: %s", e.Kind, e.Payload, kind, refusalShown(h.c))
		}
		if want := given.Add(offset); p.Raised || p.PressedNS != want.UnixNano() || !e.At.Equal(want) {
			t.Fatalf("recorded at %v, payload %s; want it at the instant given plus the offset, %v, not raised", e.At, e.Payload, want)
		}
	}

	t.Run("White's press given in operator mode with the PIN the console holds is recorded at its instant", func(t *testing.T) {
		h.c.mode = match.RoleOperator
		slot := h.whiteSlot()
		lc.Advance(time.Second)
		given := lc.Now()
		h.c.pressSlot(slot)
		h.wait()
		stamped(t, h.lastEvent(), match.KindPress, given)
		h.typeMove("e4")
		h.wait()
	})

	t.Run("the operator's move that presses the computer's clock is recorded at its instant", func(t *testing.T) {
		lc.Advance(2 * time.Second)
		given := lc.Now()
		h.typeMove("c5")
		h.wait()
		stamped(t, h.lastEvent(), match.KindMove, given)
	})

	t.Run("the arbiter's key was unlocked once for the console's session", func(t *testing.T) {
		h.c.prepareLink() // the PIN given again: the key is at hand already
		h.wait()
		if n := unlocks.Load(); n != 1 {
			t.Fatalf("the arbiter's key was unlocked %d times in the session, want once", n)
		}
	})
}
