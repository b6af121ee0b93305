package timesource

import (
	"time"
)

// Source gives the instants of a live session: wall time read once at
// start-up, advanced by the platform's monotonic clock that keeps counting
// while the machine sleeps (Linux CLOCK_BOOTTIME, Windows
// QueryInterruptTimePrecise, macOS mach_continuous_time; see docs/clock.md).
// A step of the wall clock during a game therefore changes no clock reading,
// and a suspended laptop's clocks account for the time that really passed.
type Source struct {
	wall      time.Time
	mono0     time.Time
	clocks    platformClocks
	since0    time.Duration // reading of clocks.sinceBoot at the anchor, or -1
	awake0    time.Duration // reading of clocks.awake at the anchor, or -1
	lastDrift time.Duration
}

// platformClocks are the two readings a Source needs. Each returns a
// duration since an arbitrary fixed point, or -1 when the platform cannot
// give it (then the source falls back to Go's monotonic clock).
type platformClocks struct {
	// sinceBoot keeps counting while the machine is suspended.
	sinceBoot func() time.Duration
	// awake stops while the machine is suspended.
	awake func() time.Duration
}

// New anchors a time source to the wall clock now (anchor).
func New() *Source {
	return anchor(time.Now, osClocks)
}

// anchor reads the wall clock between two readings of the clock that
// counts sleep and takes the midpoint of the two as the wall reading's
// instant on that clock. A thread paused between the two readings (a
// loaded machine) would otherwise anchor the wall clock to a later
// reading: the session's clock would run behind the wall clock by the
// pause for as long as it lives, and a station would refuse another's
// command stamped at its true instant as in the future (at load 10 a
// station test saw 3 and 6 ms). Up to anchorTries brackets are read and
// the narrowest is kept, stopping at one within anchorTight, so the anchor
// is within half that of the wall clock.
func anchor(now func() time.Time, c platformClocks) *Source {
	var best *Source
	var bestSpan time.Duration
	for i := 0; i < anchorTries; i++ {
		before := c.sinceBoot()
		t := now()
		after := c.sinceBoot()
		if before < 0 || after < 0 {
			return newSource(t, c)
		}
		span := after - before
		if best == nil || span < bestSpan {
			best = &Source{wall: t.Round(0).UTC(), mono0: t, clocks: c,
				since0: before + span/2, awake0: c.awake()}
			bestSpan = span
		}
		if span <= anchorTight {
			break
		}
	}
	return best
}

const (
	anchorTries = 8
	anchorTight = 20 * time.Microsecond
)

func newSource(now time.Time, c platformClocks) *Source {
	return &Source{wall: now.Round(0).UTC(), mono0: now, clocks: c,
		since0: c.sinceBoot(), awake0: c.awake()}
}

// Now is the current instant of the session.
func (s *Source) Now() time.Time {
	if s.since0 >= 0 {
		if b := s.clocks.sinceBoot(); b >= 0 {
			return s.wall.Add(b - s.since0)
		}
	}
	return s.wall.Add(time.Since(s.mono0))
}

// Suspended reports how long the machine slept since the last call: the
// growth of the gap between the clock that counts sleep and the one that
// does not. Zero when nothing happened or when the platform cannot tell.
func (s *Source) Suspended() time.Duration {
	if s.since0 < 0 || s.awake0 < 0 {
		return 0
	}
	b, a := s.clocks.sinceBoot(), s.clocks.awake()
	if b < 0 || a < 0 {
		return 0
	}
	drift := (b - s.since0) - (a - s.awake0)
	d := drift - s.lastDrift
	if d < time.Second {
		return 0
	}
	s.lastDrift = drift
	return d
}
