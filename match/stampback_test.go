package match

import (
	"encoding/json"
	"testing"
	"time"
)

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
