package station

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"arbiter/match"
)

// A receipt is an instant on the receiving holder's estimate of the match
// timeline, and a new authority continues its predecessor's timeline only
// within the bound of its estimate when it took over: an honest sender's
// stamp may lie after its receipt by those uncertainties as stated, and
// by no more; such a stamp is recorded at its receipt, marked lowered. Before, the authority allowed only the round trip to the
// sender or the sender's uncertainty (at least 1 ms): under load a holder
// whose estimate was a few milliseconds behind received a command first,
// or the new authority's timeline ran a few milliseconds behind the one
// the sender still stamped on, and an honest command was refused as "in
// the future" (the chaos run, 1 of 6 with the machine loaded). The
// station's time source stands still, so every instant here is exact.
func TestAStampIsBoundedByItsReceiptPlusTheReceiptsStatedUncertainty(t *testing.T) {
	s, db, clk := gameOnAStillClock(t)
	ms := time.Millisecond
	pressed := 0 // presses committed, each with its move: White's first, then Black's (the operator's)
	for _, tc := range []struct {
		name string
		// holderBehind: another holder received the request first, its
		// estimate of the timeline this far behind, stating holderUnc for
		// it (0: the authority's own receipt is the first); takeover: the
		// bound of the authority's estimate when it took over; stamp: how
		// far after the true receipt the sender stamped (its clock ahead).
		holderBehind, holderUnc, takeover, stamp time.Duration
		refused                                  bool
	}{
		{"a stamp after another holder's receipt by less than the uncertainty that holder states for its timeline is not refused",
			5 * ms, 6 * ms, 0, 0, false},
		{"a stamp after the new authority's own receipt by less than the bound of the estimate it continued the timeline with is not refused",
			0, 0, 4 * ms, 3 * ms, false},
		{"the receiving holder's and the takeover's uncertainties add up",
			5 * ms, 3 * ms, 4 * ms, 0, false},
		{"a stamp after a holder's receipt by more than its stated uncertainty and the millisecond is refused as in the future",
			5 * ms, 2 * ms, 0, 0, true},
		{"a stamp after the authority's own receipt by more than the takeover's bound and the millisecond is refused as in the future",
			0, 0, 2 * ms, 3500 * time.Microsecond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk.Advance(10 * time.Second)
			s.mu.Lock()
			s.frozenErr = tc.takeover
			s.mu.Unlock()
			r := req([]string{"white", "operator"}[pressed%2], match.Press{})
			now := s.Now()
			r.At = now.Add(tc.stamp)
			received, by := now, "arbiter"
			if tc.holderBehind > 0 {
				received, by = now.Add(-tc.holderBehind), "appeals"
				// the note as a holder publishes it (raw JSON: its fields
				// are the wire's)
				b, _ := json.Marshal(map[string]any{"id": r.ID, "by": by, "at_ns": received.UnixNano(), "unc_ns": int64(tc.holderUnc)})
				if err := s.Link().Conn().Publish(SubjectReceipt, b); err != nil {
					t.Fatal(err)
				}
				waitFor(t, 10*time.Second, "the holder's receipt did not arrive", func() bool {
					s.mu.Lock()
					defer s.mu.Unlock()
					return s.receipts[r.ID].by == by
				})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			rep, err := s.Submit(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			if tc.refused {
				if rep.Refusal == nil || rep.Refusal.Code != match.CodeFuture {
					t.Fatalf("a stamp beyond the stated uncertainties: %+v, want it refused as in the future", rep)
				}
				return
			}
			if rep.Error != "" {
				t.Fatalf("an honest stamp refused: %s", rep.Error)
			}
			p, e := lastPressIn(t, db)
			// a stamp after its receipt is lowered to it, marked, the
			// stamp kept as pressed_ns: no event lies after its receipt
			at, lowered := r.At, r.At.After(received)
			if lowered {
				at = received
			}
			if !e.At.Equal(at) || p.Lowered != lowered || p.PressedNS != r.At.UnixNano() || p.ReceivedNS != received.UnixNano() || p.ReceivedBy != by || p.ReceiptUncertaintyNS != int64(tc.holderUnc+tc.takeover) {
				t.Fatalf("press at %v, payload %s; want it at %v (lowered %v, stamped %v), received %v by %s with the receipt's uncertainty %v",
					e.At, e.Payload, at, lowered, r.At, received, by, tc.holderUnc+tc.takeover)
			}
			// the move the press ended, at the press's instant
			mv := req(r.Role, match.Move{Input: []string{"e4", "c5", "Nf3"}[pressed], Pressed: true})
			mv.At = r.At
			submit(t, s, mv)
			pressed++
		})
	}
}

// A station that has just started has no estimate of the match timeline
// yet (its first time sample comes with its time loop, a quarter second
// later), and its own clock may be any distance from the authority's: a
// command given then was stamped on that clock, and a laptop whose clock
// ran 12 ms ahead of the authority's had its first move refused as "in the
// future" (BenchmarkStationHolders, every run on a quiet machine whose wall
// clock the host had stepped between the stations' starts). It is placed
// on the timeline by asking the authority once. The authority's clock
// stands still, so the instant recorded is exact.
func TestACommandGivenBeforeTheFirstTimeSampleIsPlacedOnTheTimelineNotOnTheStationsClock(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name string
		skew time.Duration
	}{
		{"a station whose clock runs ahead of the authority's records its first command at the authority's instant, not refused as in the future", 30 * ms},
		{"a station whose clock runs behind the authority's records its first command at the authority's instant, not earlier", -30 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, db, clk := gameOnAStillClock(t)
			submit(t, s, req("white", match.Move{Input: "e4"}))
			clk.Advance(10 * time.Second)
			laptop, err := Start(context.Background(), Config{Name: "laptop", Role: "operator", DB: openDB(t, filepath.Join(t.TempDir(), "laptop.db")),
				Dial: []string{s.Engine().ClientURL()}, Now: func() time.Time { return clk.Now().Add(tc.skew) }})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(laptop.Stop)
			if _, u := laptop.Offset(); u >= 0 {
				t.Fatalf("the laptop has a time sample already (uncertainty %v): the test needs one given before it", u)
			}
			rep := submit(t, laptop, req("operator", match.Move{Input: "e5"}))
			if rep.Error != "" || rep.Refusal != nil {
				t.Fatalf("the first command of a station with no time sample: %+v, want it recorded", rep)
			}
			evs, err := db.EventsAfter(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			last := evs[len(evs)-1]
			if last.Kind != "move" || !last.At.Equal(clk.Now()) {
				t.Fatalf("recorded %s at %s, want the move at the authority's instant %s", last.Kind, last.At.Format(time.RFC3339Nano), clk.Now().Format(time.RFC3339Nano))
			}
		})
	}
}

// A station's own event (station.refused, station.member) is recorded at
// the instant the sending station stamped, but never after its receipt: a
// stamp later than the receipt, within the uncertainty a stamp is allowed
// or beyond it, is lowered to the receipt, as a command's is. Before, a
// stamp within that uncertainty was recorded after its receipt.
func TestAStationsOwnEventIsNeverRecordedAfterItsReceipt(t *testing.T) {
	received := time.Date(1996, 2, 10, 15, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	for _, tc := range []struct {
		name    string
		stamped time.Time
		want    time.Time
	}{
		{"a stamp before its receipt is kept", received.Add(-3 * ms), received.Add(-3 * ms)},
		{"a stamp at its receipt is kept", received, received},
		{"a stamp 2 ms after its receipt, within the round trip of 3 ms, is lowered to it", received.Add(2 * ms), received},
		{"a stamp an hour after its receipt is lowered to it", received.Add(time.Hour), received},
		{"a stamp before 1900 is raised to its receipt", time.Date(1899, 1, 1, 0, 0, 0, 0, time.UTC), received},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at, got := SystemInstant(Request{At: tc.stamped, Stamp: &match.Stamp{Pressed: tc.stamped, Received: received, RTT: 3 * ms}})
			if !at.Equal(tc.want) || !got.Equal(received) {
				t.Fatalf("recorded at %v received %v, want at %v received %v", at, got, tc.want, received)
			}
		})
	}
}
