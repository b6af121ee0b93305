package match

import (
	"time"

	"golang.org/x/sys/unix"
)

// TimeSource gives the instants of a live session: wall time read once at
// start-up, advanced by the system's boot-time clock (a monotonic clock that
// keeps counting while the machine sleeps). A step of the wall clock during a
// game therefore changes no clock reading, and a suspended laptop's clocks
// account for the time that really passed.
type TimeSource struct {
	wall      time.Time
	boot0     time.Duration
	mono0     time.Time
	lastDrift time.Duration
}

func bootTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return -1
	}
	return time.Duration(ts.Nano())
}

// NewTimeSource anchors a time source to the wall clock now.
func NewTimeSource() *TimeSource {
	now := time.Now()
	return &TimeSource{wall: now.Round(0).UTC(), boot0: bootTime(), mono0: now}
}

// Now is the current instant of the session.
func (s *TimeSource) Now() time.Time {
	if b := bootTime(); b >= 0 && s.boot0 >= 0 {
		return s.wall.Add(b - s.boot0)
	}
	return s.wall.Add(time.Since(s.mono0))
}

// Suspended reports how long the machine slept since the last call: the
// growth of the gap between the boot-time clock (which counts sleep) and the
// monotonic clock (which does not). Zero when nothing happened.
func (s *TimeSource) Suspended() time.Duration {
	b := bootTime()
	if b < 0 || s.boot0 < 0 {
		return 0
	}
	drift := (b - s.boot0) - time.Since(s.mono0)
	d := drift - s.lastDrift
	if d < time.Second {
		return 0
	}
	s.lastDrift = drift
	return d
}
