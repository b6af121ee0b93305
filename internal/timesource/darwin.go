//go:build darwin

package timesource

import (
	"time"

	"golang.org/x/sys/unix"
)

// On macOS, Libc's clock_gettime reads CLOCK_MONOTONIC_RAW from
// mach_continuous_time (counts time asleep, nanoseconds) and CLOCK_UPTIME_RAW
// from mach_absolute_time (stops while asleep). golang.org/x/sys/unix calls
// libSystem without cgo, so this builds with CGO_ENABLED=0. CLOCK_MONOTONIC
// also counts sleep on macOS, but only to the microsecond.
var osClocks = platformClocks{
	sinceBoot: func() time.Duration { return clockGettime(unix.CLOCK_MONOTONIC_RAW) },
	awake:     func() time.Duration { return clockGettime(unix.CLOCK_UPTIME_RAW) },
}

func clockGettime(id int32) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return -1
	}
	return time.Duration(ts.Nano())
}
