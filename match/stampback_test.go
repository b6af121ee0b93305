package match

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/internal/forgery"
	"arbiter/store"
)

const (
	whitePass   = "Kasparov's own passphrase"
	arbiterPIN  = "the arbiter's passphrase"
	operatorPIN = "the operator's passphrase"
)

// protectedFlagRig is a protected match of one minute a side, game 1
// started: Kasparov (White, with his own credential) to move, his flag
// falling one minute after the start, which it returns; the operator plays
// Deep Blue (Black) with his own.
func protectedFlagRig(t *testing.T) (*rig, time.Time) {
	t.Helper()
	r := newRigTC(t, "60")
	pin := func(d time.Duration) Cmd {
		c := r.as(RoleArbiter, d)
		c.PIN = arbiterPIN
		return c
	}
	r.ok(r.app.AddCredential(r.ctx, r.as(RoleArbiter, time.Second), CredentialAdd{Role: RoleArbiter, Secret: arbiterPIN}))
	r.ok(r.app.AddCredential(r.ctx, pin(time.Second), CredentialAdd{Role: RoleOperator, Secret: operatorPIN}))
	r.ok(r.app.AddCredential(r.ctx, pin(time.Second), CredentialAdd{Role: "player", Player: kasparov, Secret: whitePass}))
	r.now = rigStart
	r.ok(r.app.StartGame(r.ctx, pin(0), 0))
	fell, ok := r.game().Clock.FlagAt(clock.White)
	if !ok || !fell.Equal(rigStart.Add(time.Minute)) {
		t.Fatalf("White's flag falls at %v, want a minute after the start", fell)
	}
	return r, fell
}

// Nobody escapes a fallen flag by stamping back (principle 1, Article
// 6.8): on a protected match a party's instant may lie up to 5 s before its
// receipt, but a party's command received after a flag fell never stops
// that clock before the fall by more than the receiving clock's
// uncertainty (none on one machine; at a station the round trip and the
// stated uncertainties, StampTolerance) — a move, a pause, a resignation,
// White's own or the opponent's: refused with its own code, nothing
// written, the flag still down. A command that leaves the clock running is
// taken; so is one received before the flag fell, a press made in time at
// a station within its round trip, and any given with the arbiter's
// credential. Before, White moved 3.4 s after his flag fell, stamped the
// move 4 s back, and escaped the flag: his clock never showed fallen.
func TestNoPartyEscapesAFallenFlagByStampingBack(t *testing.T) {
	white := Actor{Role: RoleWhite, Secret: whitePass}
	operator := Actor{Role: RoleOperator, Secret: operatorPIN}
	move := func(a *App, c Cmd) error { _, err := a.Move(context.Background(), c, "e4", false); return err }
	for _, tc := range []struct {
		name     string
		by       Actor
		run      func(a *App, c Cmd) error
		received time.Duration // after the fall
		back     time.Duration // before the receipt
		refused  bool
	}{
		{"White's move received 3.4 s after his flag fell, stamped 4 s back, is refused", white, move, 3400 * time.Millisecond, 4 * time.Second, true},
		{"White's move stamped 1 ms before his flag fell, received 1 ms after, is refused on one machine", white, move, time.Millisecond, 2 * time.Millisecond, true},
		{"White's pause to call the arbiter stamped back before his fall is refused", white, func(a *App, c Cmd) error {
			return a.Pause(context.Background(), c, "", true)
		}, 2 * time.Second, 3 * time.Second, true},
		{"White's resignation stamped back before his fall is refused", white, func(a *App, c Cmd) error {
			return a.Resign(context.Background(), c, clock.White)
		}, 2 * time.Second, 3 * time.Second, true},
		{"the operator's pause for Black stamped back before White's fall is refused: it would stop White's clock before its flag", operator, func(a *App, c Cmd) error {
			return a.Pause(context.Background(), c, "", true)
		}, 2 * time.Second, 3 * time.Second, true},
		{"White's move stamped at the instant his flag fell is taken, the flag down", white, move, 3 * time.Second, 3 * time.Second, false},
		{"White's move received before his flag fell, stamped 4 s back, is taken", white, move, -time.Second, 4 * time.Second, false},
		{"White's move given with the arbiter's credential is taken", Actor{Role: RoleWhite, PIN: arbiterPIN}, move, 3400 * time.Millisecond, 4 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, fell := protectedFlagRig(t)
			received := fell.Add(tc.received)
			before := r.seq()
			err := tc.run(r.app, Cmd{At: received.Add(-tc.back), Received: received, Actor: tc.by})
			if !tc.refused {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			refused(t, err, CodeBeforeFallenFlag, "White", "15:01:00.000 UTC")
			if r.seq() != before {
				t.Fatalf("the record went from %d to %d events", before, r.seq())
			}
			if f := r.game().Clock.Flag(clock.White, received); !f.Fallen || !f.At.Equal(fell) {
				t.Fatalf("White's flag %+v after the refusal, want fallen at %v", f, fell)
			}
		})
	}
	t.Run("a press made in time at a station, within the round trip of its receipt after the fall, is taken", func(t *testing.T) {
		r, fell := protectedFlagRig(t)
		at := fell.Add(-500 * time.Microsecond)
		c := Cmd{At: at, Actor: white, Stamp: &Stamp{Pressed: at, Received: fell.Add(2 * time.Millisecond), ReceivedBy: "arbiter", RTT: 3 * time.Millisecond}}
		if err := move(r.app, c); err != nil {
			t.Fatal(err)
		}
		if f := r.game().Clock.Flag(clock.White, fell.Add(time.Hour)); f.Fallen {
			t.Fatalf("White's flag %+v: the press came before it fell", f)
		}
	})
	t.Run("the same press stamped back beyond the round trip (an --at at a station) is refused", func(t *testing.T) {
		r, fell := protectedFlagRig(t)
		at := fell.Add(-10 * time.Millisecond)
		c := Cmd{At: at, Actor: white, Stamp: &Stamp{Pressed: at, Received: fell.Add(2 * time.Millisecond), ReceivedBy: "arbiter", RTT: 3 * time.Millisecond}}
		refused(t, move(r.app, c), CodeBeforeFallenFlag, "White")
	})
	t.Run("the operator's acceptance for Black of White's draw offer, stamped back before White's fall, is refused: the draw would stop White's clock before its flag", func(t *testing.T) {
		r, fell := protectedFlagRig(t)
		w := clock.White
		r.ok(r.app.DrawOffer(r.ctx, Cmd{At: rigStart.Add(10 * time.Second), Actor: white}, &w))
		before := r.seq()
		received := fell.Add(3400 * time.Millisecond)
		refused(t, r.app.DrawAnswer(r.ctx, Cmd{At: received.Add(-4 * time.Second), Received: received, Actor: operator}, true), CodeBeforeFallenFlag, "White")
		if r.seq() != before || r.game().Over() {
			t.Fatalf("the record went from %d to %d events, game over %v", before, r.seq(), r.game().Over())
		}
	})
	t.Run("a command that leaves the clock running (White's note) is taken", func(t *testing.T) {
		r, fell := protectedFlagRig(t)
		received := fell.Add(3 * time.Second)
		if _, err := r.app.Incident(r.ctx, Cmd{At: received.Add(-4 * time.Second), Received: received, Actor: white}, "note", IncidentArgs{Text: "my flag"}); err != nil {
			t.Fatal(err)
		}
		if f := r.game().Clock.Flag(clock.White, received); !f.Fallen || !f.At.Equal(fell) {
			t.Fatalf("White's flag %+v", f)
		}
	})
}

// No event's instant lies after its receipt (principle 1): on one machine
// the receipt is this machine's clock, the one the instant was read on,
// and an instant later than it is refused, by a millisecond too, whoever
// gives it; at a station a stamp later than its first receipt by a record
// holder within the receiving clock's uncertainty (StampTolerance) is
// lowered to the receipt and marked lowered, the instant stamped kept as
// signed (pressed_ns), and verify takes it; one later still is refused.
// Before, an instant up to a second after its receipt was taken on one
// machine, and a station's stamp within its tolerance was recorded after
// its receipt.
func TestNoInstantIsRecordedAfterItsReceipt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after time.Duration
		role  Role
	}{
		{"on one machine 1 ms after the receipt is refused for the arbiter", time.Millisecond, RoleArbiter},
		{"on one machine 1 µs after the receipt is refused for the operator", time.Microsecond, RoleOperator},
		{"on one machine 0.9 s after the receipt is refused", 900 * time.Millisecond, RoleArbiter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.start()
			received := r.now.Add(time.Minute)
			before := r.seq()
			_, err := r.app.Incident(r.ctx, Cmd{At: received.Add(tc.after), Received: received, Actor: Actor{Role: tc.role}}, "note", IncidentArgs{Text: "x"})
			refused(t, err, CodeFuture)
			if r.seq() != before {
				t.Fatal("the refusal wrote")
			}
		})
	}
	t.Run("on one machine an instant at its receipt is taken", func(t *testing.T) {
		r := newRig(t)
		r.start()
		received := r.now.Add(time.Minute)
		if _, err := r.app.Incident(r.ctx, Cmd{At: received, Received: received, Actor: Actor{Role: RoleArbiter}}, "note", IncidentArgs{Text: "x"}); err != nil {
			t.Fatal(err)
		}
	})
	for _, tc := range []struct {
		name    string
		after   time.Duration
		lowered bool
	}{
		{"a station's stamp 2 ms after its receipt, within the round trip of 3 ms, is lowered to the receipt and verifies", 2 * time.Millisecond, true},
		{"a station's stamp at its receipt is kept", 0, false},
		{"a station's stamp before its receipt is kept", -time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, key := operatorMatch(t)
			at := f.at(30 * time.Second).At
			received := at.Add(-tc.after)
			if err := givenAtLaptop(f, key, at, "e4", -tc.after, 3*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			evs := readEvents(t, f.db.Path())
			e := evs[len(evs)-1]
			var p MovePayload
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatal(err)
			}
			want := at
			if tc.lowered {
				want = received
			}
			if !e.At.Equal(want) || !e.Received.Equal(received) || p.Lowered != tc.lowered || p.PressedNS != at.UnixNano() {
				t.Fatalf("the move at %v received %v, lowered %v, pressed %d; want at %v received %v lowered %v pressed %d",
					e.At, e.Received, p.Lowered, p.PressedNS, want, received, tc.lowered, at.UnixNano())
			}
			if !e.At.After(e.Received) && f.app.State().CurrentGame().Clock.Last().After(received) {
				t.Fatalf("the clock's last operation %v lies after the receipt %v", f.app.State().CurrentGame().Clock.Last(), received)
			}
			if r := checkFile(t, f.db.Path(), Anchors{}); !r.OK {
				t.Fatalf("verify: %v", r.Why)
			}
		})
	}
	t.Run("a station's stamp later than its receipt by more than the round trip is refused", func(t *testing.T) {
		f, _, key := operatorMatch(t)
		at := f.at(30 * time.Second).At
		refused(t, givenAtLaptop(f, key, at, "e4", -5*time.Millisecond, 3*time.Millisecond), CodeFuture)
	})
}

// engineAtLaptop gives the engine's first move (1.e4 for White, Deep
// Blue) read by the bridge at the operator's laptop at read, as the
// authority takes it: a request his key signed, stamped at at, received
// here at received with the round trip rtt.
func engineAtLaptop(f *fixture, key ed25519.PrivateKey, at, read, received time.Time, rtt time.Duration) error {
	st := f.app.State()
	g := st.CurrentGame()
	m := EngineMove{Game: g.Number, Ply: g.Sheet.Ply() + 1, FEN: g.Sheet.FEN(), UCI: "e2e4", Received: read, Eval: "cp 20", Depth: 12,
		EngineTranscript: EngineTranscript{File: "game-1.log", Lines: 20, Bytes: 900, SHA256: strings.Repeat("0f", 32)}}
	b, err := EncodeCommand(m)
	if err != nil {
		return err
	}
	req := &SignedRequest{ID: "laptop/engine", From: "laptop", Role: string(RoleOperator), Signer: "operator", AtNS: at.UnixNano(), Seq: st.Seq, Head: st.Head, Command: b}
	req.Sign(key)
	c := Cmd{At: at, Actor: Actor{Role: RoleOperator, Signed: req},
		Stamp: &Stamp{Pressed: at, Received: received, ReceivedBy: "arbiter", RTT: rtt}}
	_, err = f.app.Do(f.ctx, c, m)
	return err
}

// TestTheInstantTheEnginesMoveWasReadIsLoweredToItsReceiptAsAPressIs
// (principle 1: nobody records an instant that has not yet come; htrust's
// leftover): the instant the bridge read the engine's move, given at a
// station later than the command's first receipt by no more than the
// receipt's uncertainty, is lowered to the receipt and marked, the instant
// read kept as signed (engine.move's "read"), as a press's stamp is; verify
// takes it so, and takes no other: a received instant changed in the file
// under a station key of the forger's (neither the one signed nor lowered
// to the receipt) is named as another move than the one signed. Before,
// the read was recorded 2 ms after its receipt, and verify checked nothing
// of an engine's move given at another station.
func TestTheInstantTheEnginesMoveWasReadIsLoweredToItsReceiptAsAPressIs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		after   time.Duration // the read after the receipt
		lowered bool
	}{
		{"read 2 ms after its receipt, within the round trip of 3 ms, is lowered to the receipt and verifies", 2 * time.Millisecond, true},
		{"read at its receipt is kept", 0, false},
		{"read before its receipt is kept", -time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, key := operatorMatch(t)
			at := f.at(30 * time.Second).At
			received := at
			read := received.Add(tc.after)
			if err := engineAtLaptop(f, key, at, read, received, 3*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			evs := readEvents(t, f.db.Path())
			e := evs[len(evs)-1]
			var p EngineMovePayload
			if err := json.Unmarshal(e.Payload, &p); err != nil || e.Kind != KindEngineMove {
				t.Fatalf("the last event %s: %v", e.Kind, err)
			}
			want, wantRead := read, ""
			if tc.lowered {
				want, wantRead = received, read.UTC().Format(time.RFC3339Nano)
			}
			got, _ := time.Parse(time.RFC3339Nano, p.Received)
			if !got.Equal(want) || p.Lowered != tc.lowered || p.Read != wantRead || got.After(e.Received) {
				t.Fatalf("the engine's move read %s (read %q, lowered %v), received %v; want %v (read %q, lowered %v)", p.Received, p.Read, p.Lowered, e.Received, want, wantRead, tc.lowered)
			}
			if r := checkFile(t, f.db.Path(), Anchors{}); !r.OK {
				t.Fatalf("verify: %v", r.Why)
			}
		})
	}
	t.Run("a read instant changed under a station key of the forger's is named by verify", func(t *testing.T) {
		f, _, key := operatorMatch(t)
		at := f.at(30 * time.Second).At
		if err := engineAtLaptop(f, key, at, at.Add(-time.Second), at, 3*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		seq := f.app.State().Seq
		forged := filepath.Join(t.TempDir(), "forged.arbiter")
		if _, err := forgery.ResignTail(f.ctx, f.db.Path(), forged, seq, func(e *store.Event) {
			var p map[string]json.RawMessage
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatal(err)
			}
			p["received"], _ = json.Marshal(at.Add(-5 * time.Second).UTC().Format(time.RFC3339Nano))
			e.Payload, _ = json.Marshal(p)
		}); err != nil {
			t.Fatal(err)
		}
		if r := checkFile(t, forged, Anchors{}); r.OK || r.Why.Code != string(CodeRequestOtherMove) || r.BadSeq != seq {
			t.Fatalf("verify says %q at event %d, want %s at event %d", r.Problem, r.BadSeq, CodeRequestOtherMove, seq)
		}
	})
}

// TestADrawOfferStampedBackBeforeTheOfferersFlagFellDecidesNothing
// (Article 6.8 with 5.2c and 9.1, as the match's older edition words them;
// htrust's leftover, looked at and kept): a flag is fallen when the
// arbiter observes it or a player validly claims it, and until then the
// game goes on and an agreed draw ends it. So an offer made after the
// offerer's own flag fell is a valid offer, and one stamped back before the
// fall (a party's instant may lie up to 5 s before its receipt) decides
// nothing the same offer made at its receipt would not: accepted at the
// opponent's own instant it draws as that one does, and the opponent's
// claim of the flag wins as over that one. It is no hole and is taken; the
// record keeps both its instants (the one claimed, the receipt), and an
// acceptance stamped back before the fall is refused
// (TestNoPartyEscapesAFallenFlagByStampingBack).
func TestADrawOfferStampedBackBeforeTheOfferersFlagFellDecidesNothing(t *testing.T) {
	white := Actor{Role: RoleWhite, Secret: whitePass}
	operator := Actor{Role: RoleOperator, Secret: operatorPIN}
	outcome := func(t *testing.T, back time.Duration, answer func(r *rig, at time.Time) error) (string, store.Event) {
		r, fell := protectedFlagRig(t)
		w := clock.White
		received := fell.Add(3400 * time.Millisecond)
		r.ok(r.app.DrawOffer(r.ctx, Cmd{At: received.Add(-back), Received: received, Actor: white}, &w))
		evs := readEvents(t, r.db.Path())
		offer := evs[len(evs)-1]
		r.ok(answer(r, fell.Add(5*time.Second)))
		if offer.Kind != KindDrawOffer {
			t.Fatalf("the last event is %s", offer.Kind)
		}
		return r.game().Result, offer
	}
	for _, tc := range []struct {
		name   string
		answer func(r *rig, at time.Time) error
		want   string
	}{
		{"accepted at the opponent's instant after the fall it draws as the offer made at its receipt", func(r *rig, at time.Time) error {
			return r.app.DrawAnswer(r.ctx, Cmd{At: at, Received: at, Actor: operator}, true)
		}, "1/2-1/2"},
		{"the opponent's claim of the flag wins over it as over the offer made at its receipt", func(r *rig, at time.Time) error {
			_, err := r.app.Do(r.ctx, Cmd{At: at, Received: at, Actor: operator}, Flag{Side: "white"})
			return err
		}, "0-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			back, offerBack := outcome(t, 4*time.Second, tc.answer)
			atReceipt, _ := outcome(t, 0, tc.answer)
			if back != tc.want || atReceipt != tc.want {
				t.Fatalf("stamped back the game ends %q, made at its receipt %q; want %q both", back, atReceipt, tc.want)
			}
			if offerBack.Received.Sub(offerBack.At) != 4*time.Second {
				t.Errorf("the offer records %v and its receipt %v", offerBack.At, offerBack.Received)
			}
		})
	}
}

// TestALoweredPressIsNeverRecordedBeforeTheClocksPreviousPress (Article
// 6.7, principle 2: time is exact; hharden's leftover): a station's press
// stamped later than its receipt is lowered to the receipt, and the
// receipt — an estimate of the match timeline by whichever holder took
// the request first — can lie milliseconds before the clock's previous
// press, received later by another holder. The press is then recorded at
// that previous press, no earlier (a move of no time on the scoresheet,
// never a negative one), marked clamped beside lowered, its stamp kept as
// signed; verify takes it. A press whose stamp itself lies before the
// previous press is refused as before (instant-before-clock). Before, the
// lowered press was refused as before the clock's last operation, where
// its stamp was after it.
func TestALoweredPressIsNeverRecordedBeforeTheClocksPreviousPress(t *testing.T) {
	for _, tc := range []struct {
		name     string
		stamp    time.Duration // the laptop's stamp after the previous press
		received time.Duration // its receipt after the previous press
		clamped  bool
		refused  bool
	}{
		{"stamped 1 ms after the previous press and received 1 ms before it, it is recorded at the previous press and marked", time.Millisecond, -time.Millisecond, true, false},
		{"stamped 2 ms after the previous press and received 1 ms after it, it is lowered to its receipt as before", 2 * time.Millisecond, time.Millisecond, false, false},
		{"stamped 1 ms before the previous press, it is refused as before the clock's last operation", -time.Millisecond, -2 * time.Millisecond, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, pin, key := operatorMatch(t)
			if err := givenAtLaptop(f, key, f.at(30*time.Second).At, "e4", 2*time.Millisecond, 3*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			prev := f.at(30 * time.Second).At
			if _, err := f.app.Move(f.ctx, pin(Cmd{At: prev, Actor: Actor{Role: RoleBlack}}), "c5", false); err != nil {
				t.Fatal(err)
			}
			before := f.app.State().Seq
			err := givenAtLaptop(f, key, prev.Add(tc.stamp), "Nf3", tc.received-tc.stamp, 3*time.Millisecond)
			if tc.refused {
				refused(t, err, CodeBeforeClock)
				if f.app.State().Seq != before {
					t.Fatal("the refusal wrote")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			evs := readEvents(t, f.db.Path())
			e := evs[len(evs)-1]
			var p MovePayload
			if err := json.Unmarshal(e.Payload, &p); err != nil || e.Kind != KindMove {
				t.Fatalf("the last event %s: %v", e.Kind, err)
			}
			want := prev.Add(tc.received)
			if tc.clamped {
				want = prev
			}
			if !e.At.Equal(want) || !p.Lowered || p.Clamped != tc.clamped || p.PressedNS != prev.Add(tc.stamp).UnixNano() || !e.Received.Equal(prev.Add(tc.received)) {
				t.Fatalf("Nf3 recorded at %v (received %v, lowered %v, clamped %v, pressed %d); want at %v, lowered, clamped %v, pressed %d",
					e.At, e.Received, p.Lowered, p.Clamped, p.PressedNS, want, tc.clamped, prev.Add(tc.stamp).UnixNano())
			}
			g := f.app.State().CurrentGame()
			for _, en := range g.Sheet.Entries() {
				if en.Elapsed < 0 {
					t.Fatalf("%s took %v on the scoresheet", en.SAN, en.Elapsed)
				}
			}
			if g.Clock.Last().Before(prev) {
				t.Fatalf("the clock's last operation %v lies before the previous press %v", g.Clock.Last(), prev)
			}
			if r := checkFile(t, f.db.Path(), Anchors{}); !r.OK {
				t.Fatalf("verify: %v", r.Why)
			}
		})
	}
}
