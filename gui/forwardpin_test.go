//go:build !nostation

package gui

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"arbiter/cli"
	"arbiter/match"
	"arbiter/service"
)

// joinLaptop invites an operator's laptop to the harness's station (the
// authority, run by the harness's console), joins it as 'station join'
// does, in this process, and opens a console on its record in operator
// mode on the time source now. It returns the laptop's console and record.
func joinLaptop(t *testing.T, h *harness, pin string, now func() time.Time) (*console, *match.App) {
	t.Helper()
	dir := t.TempDir()
	inv := filepath.Join(dir, "laptop.invite")
	g := service.Global{DB: h.dbPath, Role: match.RoleArbiter, PIN: pin}
	if err := service.InviteStation(h.ctx, h.dbPath, "operator", "laptop", inv, g, ""); err != nil {
		t.Fatalf("the laptop's invitation: %v", err)
	}
	laptop := filepath.Join(dir, "laptop.db")
	joinStation(t, inv, laptop)
	core, err := service.OpenReadOnly(h.ctx, laptop)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.DB().Close() })
	fa := test.NewTempApp(t)
	setupApp(fa)
	c := newConsole(h.ctx, fa, core, config{path: laptop, role: match.RoleOperator, now: now, after: h.ft.after, ui: h.ui.do})
	c.now = now
	c.stationRole = "operator"
	// the laptop's station runs on the console's clock, as on the
	// laptop itself: its estimate of the authority's timeline and the
	// console's stamps then move only when the test moves the clock
	sf, ok, err := service.ReadStation(laptop)
	if err != nil || !ok {
		t.Fatalf("the laptop's station file: %v", err)
	}
	t.Cleanup(c.runStation(laptop, sf, now))
	waitRunning(t, laptop)
	c.stationNote = stationNote(laptop, time.Now())
	t.Cleanup(c.closeLink) // before the laptop's station stops
	c.refresh()
	return c, core
}

// joinStation joins the station invited by inv with the record laptop, as
// 'arbiter --db laptop station join inv' does, and stops it once it runs.
func joinStation(t *testing.T, inv, laptop string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int)
	var errb bytes.Buffer
	go func() {
		env := cli.Env{Stdout: &bytes.Buffer{}, Stderr: &errb, Getenv: func(string) string { return "" }, Now: time.Now}
		done <- cli.Run(ctx, []string{"--db", laptop, "station", "join", inv}, env)
	}()
	waitRunning(t, laptop)
	cancel()
	<-done
}

// waitRunning waits until the station of the record db runs.
func waitRunning(t *testing.T, db string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !service.Running(db, time.Now()); {
		if time.Now().After(deadline) {
			t.Fatalf("the station of %s did not start within 60 s", db)
		}
		time.Sleep(10 * time.Millisecond) // polling the station's status file
	}
}

// enterArbiterMode types pin into the console's PIN prompt for arbiter mode
// (Ctrl+M) and waits for the outcome; it returns what the console said.
func enterArbiterMode(t *testing.T, h *harness, c *console, pin string) string {
	t.Helper()
	c.do(actArbiterMode)
	test.Type(topEntries(t, c)[0], pin)
	c.win.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.sent(c)
	said := refusalShown(c)
	if top := c.win.Canvas().Overlays().Top(); top != nil {
		c.win.Canvas().Overlays().Remove(top) // the message read
	}
	return said
}

// authFailsIn is the auth.fail events of a record, read back from the file.
func authFailsIn(t *testing.T, app *match.App) []service.Event {
	t.Helper()
	if err := app.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	evs, err := app.DB().EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []service.Event
	for _, e := range evs {
		if e.Kind == match.KindAuthFail {
			out = append(out, e)
		}
	}
	return out
}

// waitHead waits until the record app holds event seq (its station
// applies the stream in the background).
func waitHead(t *testing.T, app *match.App, seq int64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		if err := app.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		if app.State().Seq >= seq {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the record holds event %d, not %d, after 30 s", app.State().Seq, seq)
		}
		time.Sleep(10 * time.Millisecond) // the station applies the stream in another goroutine
	}
}

// A wrong arbiter's PIN typed at a station's console to enter arbiter mode
// is recorded by the authority as auth.fail — who tried, whose credential,
// never what was typed — and every record holds it; the back-off then
// refuses the next attempt, the right PIN included, in the same words as on
// one machine; once it is over the right PIN gives arbiter mode and writes
// nothing. Before, the console checked the PIN against its replica only: a
// wrong one was refused without trace and could be retried at once.
func TestAWrongPINForArbiterModeAtAStationsConsoleIsRecordedByTheAuthorityAndBacksOff(t *testing.T) {
	const pin = "correct horse battery"
	const wrong = "not the passphrase"
	const offset = 250 * time.Millisecond
	h, lc := stationHarness(t, match.RoleOperator, pin, offset)
	laptop, laptopRec := joinLaptop(t, h, pin, lc.Now)
	waitHead(t, laptopRec, h.lastEvent().Seq)
	m := h.core.State().Match
	const wrongSaid = "The PIN is wrong"

	for _, tc := range []struct {
		name  string
		c     func() *console
		role  match.Role // who tried, as the record names him
		actor string
	}{
		{"at the first station's console (a record holder) in operator mode the attempt is the operator's console's", func() *console { return h.c }, match.RoleOperator, m.Operators[0]},
		{"at the operator's laptop's console the attempt is the operator's, who alone speaks there", func() *console { return laptop }, match.RoleOperator, m.Operators[0]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c()
			before := len(authFailsIn(t, h.core))
			lc.Advance(time.Minute) // any back-off of the case before is over
			tried := lc.Now().Add(offset)

			said := enterArbiterMode(t, h, c, wrong)
			if c.mode != match.RoleOperator || !strings.Contains(said, wrongSaid) {
				t.Fatalf("a wrong PIN: %s mode, the console says %q", c.mode, said)
			}
			fails := authFailsIn(t, h.core)
			if len(fails) != before+1 {
				t.Fatalf("the authority's record holds %d auth.fail events, want %d", len(fails), before+1)
			}
			e := fails[len(fails)-1]
			var p match.AuthFailPayload
			if json.Unmarshal(e.Payload, &p) != nil || p != (match.AuthFailPayload{Credential: "arbiter", Given: "passphrase"}) {
				t.Fatalf("auth.fail payload %s, want the arbiter's credential tried with a passphrase", e.Payload)
			}
			if e.Role != string(tc.role) || e.Actor != tc.actor || !e.At.Equal(tried) {
				t.Fatalf("auth.fail by %s (%s) at %v, want %s (%s) at the instant typed, %v", e.Role, e.Actor, e.At, tc.role, tc.actor, tried)
			}
			for _, rec := range []*match.App{h.core, laptopRec} {
				waitHead(t, rec, e.Seq)
				if got := authFailsIn(t, rec); len(got) != len(fails) || got[len(got)-1].Hash != e.Hash {
					t.Fatalf("the record %s does not hold the authority's auth.fail", rec.DB().Path())
				}
				if b, err := os.ReadFile(rec.DB().Path()); err != nil || bytes.Contains(b, []byte(wrong)) {
					t.Fatalf("the record %s holds the PIN typed (%v)", rec.DB().Path(), err)
				}
			}

			// the back-off as one machine reckons it: 2^(n-1) s after the
			// n-th failure in a row (the right PIN below wrote nothing, so
			// the first case's failure still counts in the second)
			until := laptopRec.State().BackoffUntil("arbiter")
			if want := tried.Add(match.Backoff(len(fails))); !until.Equal(want) || !h.core.State().BackoffUntil("arbiter").Equal(want) {
				t.Fatalf("the back-off ends at %v, want %v", until, want)
			}
			head := h.lastEvent().Seq
			lc.Advance(until.Sub(tried) / 2) // within the back-off
			if said := enterArbiterMode(t, h, c, pin); c.mode != match.RoleOperator || !strings.Contains(said, wrongSaid) {
				t.Fatalf("the right PIN during the back-off: %s mode, the console says %q", c.mode, said)
			}
			if said := enterArbiterMode(t, h, c, wrong); c.mode != match.RoleOperator || !strings.Contains(said, wrongSaid) {
				t.Fatalf("a wrong PIN during the back-off: %s mode, the console says %q", c.mode, said)
			}
			if e := h.lastEvent(); e.Seq != head {
				t.Fatalf("an attempt during the back-off wrote event %d (%s): it is refused without trying", e.Seq, e.Kind)
			}

			lc.Advance(until.Sub(lc.Now().Add(offset))) // the back-off is over
			if said := enterArbiterMode(t, h, c, pin); c.mode != match.RoleArbiter {
				t.Fatalf("the right PIN after the back-off: %s mode, the console says %q", c.mode, said)
			}
			if e := h.lastEvent(); e.Seq != head {
				t.Fatalf("the right PIN wrote event %d (%s)", e.Seq, e.Kind)
			}
			c.toggleMode() // back to operator mode for the next case
		})
	}
}
