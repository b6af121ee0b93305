//go:build !nostation

package service

import (
	"testing"
	"time"

	"arbiter/match"
)

// A command is stamped on one estimate of the match timeline and states
// that estimate's bound: the authority refuses a stamp later than its
// receipt by more than the bound stated (match.StampTolerance). The
// command line at a station just joined took its offset from its link's
// own time answers (the station had none yet) and was stamped on the
// station's first answer, which came meanwhile, with the link's bound:
// refused as in the future under load (cli's
// TestStationSurvivorOfTwoHoldersGoesOnInANewEpoch, 3 of 4 rows in two
// make test runs at load 16–17). The figures are those of two traced
// failures; the receipt is the authority's own, at the instant the
// command was stamped (none sooner), with the round trip it measured.
func TestACommandStatesTheBoundOfTheEstimateItIsStampedOn(t *testing.T) {
	truth := time.Date(2026, 12, 6, 17, 48, 18, 687_878_000, time.UTC) // the match timeline as the command is stamped
	const holderRTT = 122 * time.Microsecond
	station := func(ahead, bound time.Duration) func() (time.Time, time.Duration, bool) {
		return func() (time.Time, time.Duration, bool) { return truth.Add(ahead), bound, true }
	}
	unknown := func() (time.Time, time.Duration, bool) { return time.Time{}, 0, false }
	linkClock := truth.Add(-5 * time.Millisecond) // the link's clock, 5 ms behind the timeline
	for _, tc := range []struct {
		name    string
		pressed time.Time
		off, r  time.Duration // the link's offset and its round trip, as Link.Offset gave them
		stamped bool          // stamped now (the command line), not given with its instant (the console's key)
		here    func() (time.Time, time.Duration, bool)
		want    time.Time
		wantRTT time.Duration
	}{
		{"a command stamped on the first answer of the station just joined, 2.98 ms ahead, states its bound of 3.12 ms, not the link's 35 µs",
			linkClock, 5*time.Millisecond + 12_796*time.Nanosecond, 69_533 * time.Nanosecond, true,
			station(2_980*time.Microsecond, 3_124*time.Microsecond), truth.Add(2_980 * time.Microsecond), 6_248 * time.Microsecond},
		{"a command stamped on the first answer of the station just joined, 36.3 ms ahead, states its bound of 36.7 ms, not the link's 6.9 ms",
			linkClock, 5*time.Millisecond - 2_802*time.Microsecond, 13_721 * time.Microsecond, true,
			station(36_324*time.Microsecond, 36_683*time.Microsecond), truth.Add(36_324 * time.Microsecond), 73_366 * time.Microsecond},
		{"a command stamped before the station knows the timeline is stamped on the link's own answers with their round trip",
			linkClock, 5 * time.Millisecond, 69_533 * time.Nanosecond, true,
			unknown, truth, 69_533 * time.Nanosecond},
		{"a command given with its instant is stamped at it plus the link's offset with that offset's round trip, whatever the station's estimate",
			linkClock, 5 * time.Millisecond, 69_533 * time.Nanosecond, false,
			station(36*time.Millisecond, 37*time.Millisecond), truth, 69_533 * time.Nanosecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at, rtt := stampOf(tc.pressed, tc.off, tc.r, tc.stamped, tc.here)
			if !at.Equal(tc.want) || rtt != tc.wantRTT {
				t.Errorf("stamped %v stating a round trip of %v, want %v with %v", at, rtt, tc.want, tc.wantRTT)
			}
			// the authority's bound on it: its own receipt, at the
			// instant stamped, with the round trip it measured
			if tol := match.StampTolerance(holderRTT, rtt/2, 0); at.After(truth.Add(tol)) {
				t.Errorf("stamp %v later than its receipt %v by %v, more than the %v stated: an honest command refused as in the future",
					at, truth, at.Sub(truth), tol)
			}
		})
	}
}
