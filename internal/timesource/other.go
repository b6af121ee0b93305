//go:build !linux && !darwin && !windows

package timesource

import "time"

// Elsewhere no sleep-counting clock is wired: Now follows Go's monotonic
// clock and Suspended reports nothing.
var osClocks = platformClocks{
	sinceBoot: func() time.Duration { return -1 },
	awake:     func() time.Duration { return -1 },
}
