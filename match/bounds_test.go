package match

import (
	"context"
	"errors"
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/store"
)

// appendSystem appends a system event of a station at instant at, as the
// station layer does (no command, no credential).
func (r *rig) appendSystem(kind string, at time.Time) {
	r.t.Helper()
	if _, err := r.db.Update(r.ctx, func(tx *store.Tx) error {
		_, err := tx.Append(store.Event{Match: 1, At: at, Received: at, Role: "system", Actor: "Arbiter", Kind: kind, Payload: []byte(`{"station":"appeals"}`)})
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
}

// Presses are bounded by their game's clock events only (docs/stations.md):
// a system event recorded meanwhile with a later instant — a station's
// claim or refusal, a wrong credential — neither refuses a press or a move
// stamped before it nor moves it: the event goes into the log in order
// with the instant it claims, and the clock is charged to the press.
func TestASystemEventRecordedMeanwhileNeitherRefusesNorMovesAPress(t *testing.T) {
	for _, kind := range []string{"station.refused", "station.claim", KindAuthFail} {
		t.Run("a "+kind+" two seconds later", func(t *testing.T) {
			r := newRig(t)
			r.start()
			r.move(time.Minute, "e4")
			pressed := r.now.Add(30 * time.Second) // Deep Blue's press, given at the laptop
			if kind == KindAuthFail {
				r.ok(r.app.AddCredential(r.ctx, r.as(RoleArbiter, 0), CredentialAdd{Role: RoleArbiter, Secret: "the arbiter's passphrase"}))
				c := Cmd{At: pressed.Add(2 * time.Second), Actor: Actor{Role: RoleArbiter, PIN: "not the passphrase"}}
				if err := r.app.Press(r.ctx, c); err == nil {
					t.Fatal("a wrong passphrase was taken")
				}
			} else {
				r.appendSystem(kind, pressed.Add(2*time.Second))
			}
			c := Cmd{At: pressed, Received: pressed.Add(2500 * time.Millisecond), Actor: Actor{Role: RoleOperator, PIN: "the arbiter's passphrase"}}
			if kind != KindAuthFail {
				c.PIN = ""
			}
			if _, err := r.app.Move(r.ctx, c, "e5", false); err != nil {
				t.Fatalf("the press stamped before the %s: %v", kind, err)
			}
			g := r.game()
			if used := g.Clock.Used(clock.Black, pressed.Add(time.Hour)); used != 30*time.Second {
				t.Errorf("Deep Blue is charged %v, want the 30 s up to the press", used)
			}
			evs, _ := r.db.EventsAfter(r.ctx, 0)
			last := evs[len(evs)-1]
			if last.Kind != KindMove || !last.At.Equal(pressed) || !last.Received.Equal(pressed.Add(2500*time.Millisecond)) {
				t.Errorf("the move is recorded at %v, received %v; want %v and 2.5 s later", last.At, last.Received, pressed)
			}
		})
	}
	t.Run("a press before the game's last clock event is still refused", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(time.Minute, "e4")
		err := r.app.Press(r.ctx, Cmd{At: r.now.Add(-time.Second), Actor: Actor{Role: RoleOperator}})
		var me *Error
		if !errors.As(err, &me) || me.Code != CodeBeforeClock {
			t.Fatalf("a press before the last move: %v", err)
		}
	})
	t.Run("a note is still bounded by the record's time, a system event not counted", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.appendSystem("station.refused", r.now.Add(time.Hour))
		if _, err := r.app.Incident(context.Background(), Cmd{At: r.now.Add(time.Second), Actor: Actor{Role: RoleArbiter}}, "note", IncidentArgs{Text: "after the start"}); err != nil {
			t.Fatalf("a note after the start, before a later system event: %v", err)
		}
		if _, err := r.app.Incident(context.Background(), Cmd{At: r.now.Add(-time.Second), Actor: Actor{Role: RoleArbiter}}, "note", IncidentArgs{Text: "before the start"}); err == nil {
			t.Fatal("a note before the game's start was taken")
		}
	})
}

// On one machine the receipt is this machine's clock: an instant after it
// is refused for every role, the system's included
// (TestNoInstantIsRecordedAfterItsReceipt); on a protected match a party's instant more than LateAfter
// before it is refused, the arbiter's recorded and listed as late.
func TestTheInstantsACommandMayClaim(t *testing.T) {
	r := newRig(t)
	r.start()
	received := r.now.Add(time.Minute)
	for _, tc := range []struct {
		name string
		at   time.Time
		role Role
		want Code
	}{
		{"an instant 1.5 s after its receipt is in the future, for the arbiter too", received.Add(1500 * time.Millisecond), RoleArbiter, CodeFuture},
		{"an instant 1.5 s after its receipt is in the future for the operator", received.Add(1500 * time.Millisecond), RoleOperator, CodeFuture},
		{"an instant before 1900", time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC), RoleArbiter, CodeBefore1900},
		{"an instant before the match began", r.app.State().Match.Created.Add(-time.Second), RoleArbiter, CodeBeforeMatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.app.Incident(r.ctx, Cmd{At: tc.at, Received: received, Actor: Actor{Role: tc.role}}, "note", IncidentArgs{Text: "x"})
			var me *Error
			if !errors.As(err, &me) || me.Code != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
	t.Run("an instant at its receipt is taken", func(t *testing.T) {
		if _, err := r.app.Incident(r.ctx, Cmd{At: received, Received: received, Actor: Actor{Role: RoleArbiter}}, "note", IncidentArgs{Text: "x"}); err != nil {
			t.Fatal(err)
		}
	})
	r.ok(r.app.AddCredential(r.ctx, Cmd{At: received.Add(time.Second), Actor: Actor{Role: RoleArbiter}}, CredentialAdd{Role: RoleArbiter, Secret: "the arbiter's passphrase"}))
	r.ok(r.app.AddCredential(r.ctx, Cmd{At: received.Add(2 * time.Second), Actor: Actor{Role: RoleArbiter, PIN: "the arbiter's passphrase"}}, CredentialAdd{Role: RoleOperator, Secret: "the operator's passphrase"}))
	if _, err := r.app.Move(r.ctx, Cmd{At: received.Add(3 * time.Second), Actor: Actor{Role: RoleArbiter, PIN: "the arbiter's passphrase"}}, "e4", false); err != nil {
		t.Fatal(err)
	}
	late := received.Add(4 * time.Second)
	t.Run("on a protected match the operator's instant 6 s before its receipt is refused", func(t *testing.T) {
		_, err := r.app.Move(r.ctx, Cmd{At: late, Received: late.Add(6 * time.Second), Actor: Actor{Role: RoleOperator, Secret: "the operator's passphrase"}}, "e5", false)
		var me *Error
		if !errors.As(err, &me) || me.Code != CodeTooLate {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("and 5 s before it is taken", func(t *testing.T) {
		if _, err := r.app.Move(r.ctx, Cmd{At: late, Received: late.Add(5 * time.Second), Actor: Actor{Role: RoleOperator, Secret: "the operator's passphrase"}}, "e5", false); err != nil {
			t.Fatal(err)
		}
		if n := len(r.app.State().Late); n != 0 {
			t.Fatalf("%d events recorded late", n)
		}
	})
	t.Run("the arbiter's credential records an instant 10 minutes back, listed as recorded late", func(t *testing.T) {
		at := late.Add(time.Second)
		if _, err := r.app.Move(r.ctx, Cmd{At: at, Received: at.Add(10 * time.Minute), Actor: Actor{Role: RoleWhite, PIN: "the arbiter's passphrase"}}, "Nf3", false); err != nil {
			t.Fatal(err)
		}
		l := r.app.State().Late
		if len(l) != 1 || l[0].Kind != KindMove || !l[0].At.Equal(at) || l[0].Late() != 10*time.Minute {
			t.Fatalf("recorded late: %+v", l)
		}
		if st := r.app.State().StatusAt(at); len(st.RecordedLate) != 1 || st.RecordedLate[0].LateMS != 600_000 {
			t.Fatalf("status: %+v", st.RecordedLate)
		}
	})
}

// Nobody wins a game on time by stamping an instant that has not yet come
// (issue 24, principle 1): no event's instant lies after its receipt. On
// one machine a claim of a flag, or a pause that would record it, stamped
// past the fall but received before it is refused as in the future; at a
// station such a stamp, within the receiving clock's uncertainty, is
// lowered to the receipt, where the flag had not fallen: the claim is
// refused as not fallen, the pause is taken with the flag still up. Once
// the flag has fallen before the receipt the same command is taken.
// Before, Black claimed White's flag 0.4 s before it fell, stamped 0.9 s
// ahead, and won on time (then refused as instant-flag-not-yet-fallen,
// which no instant can reach now).
func TestNoOneWinsOnTimeByStampingAFlagThatHadNotYetFallen(t *testing.T) {
	claim := func(a *App, c Cmd) error {
		_, err := a.Flag(context.Background(), c, "white", false)
		return err
	}
	// atStation is c as the authority takes it from another station:
	// stamped at c.At, first received at received, with a stated
	// uncertainty of a second
	atStation := func(c Cmd, received time.Time) Cmd {
		c.Stamp = &Stamp{Pressed: c.At, Received: received, ReceivedBy: "arbiter", Uncertainty: time.Second}
		return c
	}
	for _, tc := range []struct {
		name  string
		role  Role
		run   func(a *App, c Cmd) error
		pause bool
	}{
		{"Black's claim of White's flag", RoleBlack, claim, false},
		{"the operator's claim of White's flag", RoleOperator, claim, false},
		{"Black's pause to call the arbiter, which would stop White's clock with its flag down", RoleBlack, func(a *App, c Cmd) error {
			return a.Pause(context.Background(), c, "", true)
		}, true},
		{"the arbiter's claim for Black", RoleArbiter, claim, false},
	} {
		t.Run(tc.name+" stamped after the flag but received before it on one machine is refused as in the future and writes nothing", func(t *testing.T) {
			r := newRigTC(t, "60")
			r.start()
			fell := r.now.Add(time.Minute) // Kasparov (White) to move, one minute on his clock
			before := r.seq()
			err := tc.run(r.app, Cmd{At: fell.Add(400 * time.Millisecond), Received: fell.Add(-300 * time.Millisecond), Actor: Actor{Role: tc.role}})
			refused(t, err, CodeFuture)
			if r.seq() != before {
				t.Fatalf("the record went from %d to %d events", before, r.seq())
			}
			if g := r.game(); g.Over() || g.Clock.Flag(clock.White, fell.Add(-time.Millisecond)).Fallen {
				t.Fatalf("game %s (%s) after the refusal", g.Result, g.Termination)
			}
		})
		t.Run(tc.name+" stamped after the flag but received before it at a station is lowered to its receipt, where the flag had not fallen", func(t *testing.T) {
			r := newRigTC(t, "60")
			r.start()
			fell := r.now.Add(time.Minute)
			before := r.seq()
			err := tc.run(r.app, atStation(Cmd{At: fell.Add(400 * time.Millisecond), Actor: Actor{Role: tc.role}}, fell.Add(-300*time.Millisecond)))
			if tc.pause {
				if err != nil {
					t.Fatal(err)
				}
				if f := r.game().Clock.Flag(clock.White, fell.Add(time.Hour)); f.Fallen {
					t.Fatalf("White's flag %+v: the pause came before it fell", f)
				}
				return
			}
			refused(t, err, CodeFlagNotFallen, "White")
			if r.seq() != before || r.game().Over() {
				t.Fatalf("the record went from %d to %d events", before, r.seq())
			}
		})
		t.Run(tc.name+" received 1 ms after the flag fell is taken", func(t *testing.T) {
			r := newRigTC(t, "60")
			r.start()
			fell := r.now.Add(time.Minute)
			if err := tc.run(r.app, Cmd{At: fell.Add(time.Millisecond), Received: fell.Add(time.Millisecond), Actor: Actor{Role: tc.role}}); err != nil {
				t.Fatal(err)
			}
			if f := r.game().Clock.Flag(clock.White, fell.Add(time.Hour)); !f.Fallen || !f.At.Equal(fell) {
				t.Fatalf("White's flag %+v, want fallen at %v", f, fell)
			}
		})
		t.Run(tc.name+" stamped 400 ms after the fall at a station, received 1 ms after it, is taken at its receipt", func(t *testing.T) {
			r := newRigTC(t, "60")
			r.start()
			fell := r.now.Add(time.Minute)
			if err := tc.run(r.app, atStation(Cmd{At: fell.Add(400 * time.Millisecond), Actor: Actor{Role: tc.role}}, fell.Add(time.Millisecond))); err != nil {
				t.Fatal(err)
			}
			if f := r.game().Clock.Flag(clock.White, fell.Add(time.Hour)); !f.Fallen || !f.At.Equal(fell) {
				t.Fatalf("White's flag %+v, want fallen at %v", f, fell)
			}
			if last := r.game().Clock.Last(); !last.Equal(fell.Add(time.Millisecond)) {
				t.Fatalf("the clock's last operation at %v, want the receipt %v", last, fell.Add(time.Millisecond))
			}
		})
	}
	t.Run("a claim stamped 1 ms before the flag fell is refused as not fallen, as before", func(t *testing.T) {
		r := newRigTC(t, "60")
		r.start()
		fell := r.now.Add(time.Minute)
		_, err := r.app.Flag(r.ctx, Cmd{At: fell.Add(-time.Millisecond), Received: fell, Actor: Actor{Role: RoleBlack}}, "white", false)
		refused(t, err, CodeFlagNotFallen)
	})
}
