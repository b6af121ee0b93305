//go:build linux

package timesource

import (
	"time"

	"golang.org/x/sys/unix"
)

// On Linux CLOCK_BOOTTIME counts time asleep and CLOCK_MONOTONIC does not.
var osClocks = platformClocks{
	sinceBoot: func() time.Duration { return clockGettime(unix.CLOCK_BOOTTIME) },
	awake:     func() time.Duration { return clockGettime(unix.CLOCK_MONOTONIC) },
}

func clockGettime(id int32) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return -1
	}
	return time.Duration(ts.Nano())
}
