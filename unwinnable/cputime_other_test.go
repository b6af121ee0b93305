//go:build !unix

package unwinnable

import "time"

// cpuTime is the CPU time the process has used: not read here (the speed
// benchmarks' cpu-µs/row is then 0; the wall time a row still stands).
func cpuTime() time.Duration { return 0 }
