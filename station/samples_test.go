package station

import (
	"testing"
	"time"
)

func TestTheTimeSampleWithTheSmallestErrorBoundGivesTheOffset(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	ms := time.Millisecond
	for _, tc := range []struct {
		name    string
		samples []TimeSample
		want    time.Duration // the offset of the best sample
		wantErr time.Duration // its bound at the newest sample's instant
	}{
		{"the shortest round trip wins among fresh samples",
			[]TimeSample{{Offset: 1 * ms, RTT: 8 * ms, At: at(0)}, {Offset: 2 * ms, RTT: 2 * ms, At: at(250 * ms)}, {Offset: 3 * ms, RTT: 6 * ms, At: at(500 * ms)}},
			2 * ms, 1*ms + 25*time.Microsecond},
		{"a sample from seconds ago outweighs the long round trips of a loaded moment",
			[]TimeSample{{Offset: 1 * ms, RTT: 2 * ms, At: at(0)}, {Offset: 400 * ms, RTT: 900 * ms, At: at(10 * time.Second)}, {Offset: -300 * ms, RTT: 800 * ms, At: at(10*time.Second + 250*ms)}},
			1 * ms, 1*ms + 1025*time.Microsecond},
		{"an old sample loses once its drift bound exceeds its advantage",
			[]TimeSample{{Offset: 1 * ms, RTT: 2 * ms, At: at(0)}, {Offset: 5 * ms, RTT: 3 * ms, At: at(15 * time.Second)}},
			5 * ms, 1500 * time.Microsecond},
		// A new authority continues the timeline only within the bound of
		// its estimate when it took over: the old authority's answers
		// estimate another clock, and their small bounds do not bound the
		// error on the new one's (before, a station went on stating them
		// after a failover).
		{"a new authority's first answer replaces the old authority's better samples",
			[]TimeSample{{Offset: 1 * ms, RTT: 100 * time.Microsecond, Claim: 1, At: at(0)}, {Offset: 1 * ms, RTT: 200 * time.Microsecond, Claim: 1, At: at(250 * ms)},
				{Offset: -4 * ms, RTT: 6 * ms, Claim: 9, At: at(5 * time.Second)}},
			-4 * ms, 3 * ms},
		{"a deposed authority's answer (an earlier claim) is not kept",
			[]TimeSample{{Offset: -4 * ms, RTT: 6 * ms, Claim: 9, At: at(0)}, {Offset: 1 * ms, RTT: 100 * time.Microsecond, Claim: 1, At: at(250 * ms)}},
			-4 * ms, 3 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ss Samples
			for _, x := range tc.samples {
				ss.Add(x)
			}
			best, u, ok := ss.Best()
			if !ok || best.Offset != tc.want || u != tc.wantErr {
				t.Fatalf("best offset %v ± %v (ok %v), want %v ± %v", best.Offset, u, ok, tc.want, tc.wantErr)
			}
		})
	}
	t.Run("no sample gives no offset", func(t *testing.T) {
		if _, _, ok := (Samples{}).Best(); ok {
			t.Fatal("an offset from no sample")
		}
	})
	t.Run("only the last 64 samples are kept", func(t *testing.T) {
		var ss Samples
		ss.Add(TimeSample{Offset: 7 * ms, RTT: time.Microsecond, At: at(0)})
		for i := 1; i <= keptSamples; i++ {
			ss.Add(TimeSample{Offset: 9 * ms, RTT: 5 * ms, At: at(time.Duration(i) * 250 * ms)})
		}
		if len(ss) != keptSamples {
			t.Fatalf("%d samples kept, want %d", len(ss), keptSamples)
		}
		if best, _, _ := ss.Best(); best.Offset != 9*ms {
			t.Fatalf("the sample that fell out still gives the offset %v", best.Offset)
		}
	})
}

// A station's timeline and the uncertainty it states are those of one
// estimate (Station.Timeline, what a command given in its process is
// stamped with): the best sample's offset with that sample's bound, also
// when a new authority's first answer, poorer, replaced better ones; the
// authority's own timeline with none; nothing while it knows none.
func TestAStationsTimelineComesWithTheBoundOfTheEstimateItIsReadOn(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 17, 48, 18, 0, time.UTC)
	ms := time.Millisecond
	for _, tc := range []struct {
		name    string
		samples []TimeSample
		auth    bool
		frozen  time.Duration
		wantOK  bool
		want    time.Duration // the timeline's offset to the station's clock
		wantUnc time.Duration
	}{
		{"a station that has no answer and no timeline of its own knows none", nil, false, 0, false, 0, 0},
		{"the timeline is the best answer's offset with its bound",
			[]TimeSample{{Offset: 3 * ms, RTT: 6 * ms, Claim: 2, At: t0}, {Offset: 40 * ms, RTT: 80 * ms, Claim: 2, At: t0.Add(250 * ms)}},
			false, 0, true, 3 * ms, 3*ms + 25*time.Microsecond},
		{"a new authority's first answer gives the timeline and its larger bound",
			[]TimeSample{{Offset: 3 * ms, RTT: 100 * time.Microsecond, Claim: 2, At: t0}, {Offset: 36 * ms, RTT: 73 * ms, Claim: 9, At: t0.Add(250 * ms)}},
			false, 0, true, 36 * ms, 36500 * time.Microsecond},
		{"the authority's timeline is the offset it continues, with none", nil, true, 7 * ms, true, 7 * ms, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := t0.Add(250 * ms)
			s := newStation(Config{Name: "appeals", Role: "organiser", Now: func() time.Time { return clock }})
			for _, x := range tc.samples {
				s.samples.Add(x)
				s.timeKnown = true
			}
			s.isAuth, s.frozen, s.timeKnown = tc.auth, tc.frozen, s.timeKnown || tc.auth
			now, unc, ok := s.Timeline()
			if ok != tc.wantOK || (ok && (!now.Equal(clock.Add(tc.want)) || unc != tc.wantUnc)) {
				t.Fatalf("timeline %v ± %v (known %v), want %v ± %v (known %v)", now.Sub(clock), unc, ok, tc.want, tc.wantUnc, tc.wantOK)
			}
		})
	}
}
