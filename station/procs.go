package station

import (
	"os"
	"runtime"
	"sync"
)

// A station's process writes in blocking system calls: the record's
// fdatasync at every command it applies or commits, the engine's stream and
// Raft log writes and syncs. Go's runtime hands the P (the right to run Go
// code) of a goroutine inside such a call to another goroutine only once its
// monitor has seen the call last a whole tick (20 µs, up to 10 ms after a
// quiet spell), so with as many Ps as cores, Go's default, two syncs under
// way at once on a two-core machine can leave no P to the goroutines that
// would deliver the stream's next message or apply it while both cores wait
// on the disk. A process that starts a station or an engine therefore runs
// twice the default number of Ps (docs/stations.md, "A station's process",
// and docs/performance.md, tenth pass: the three-holder command's p50 and
// p99 lower with 4 Ps than with 2 on two cores); a GOMAXPROCS set in the
// environment is left as it is, and a process already running more Ps keeps
// them.
var (
	defaultProcs = runtime.GOMAXPROCS(0) // the runtime's own choice, before any station started
	procsOnce    sync.Once
)

func raiseProcs() {
	procsOnce.Do(func() {
		if n := stationProcs(defaultProcs, os.Getenv("GOMAXPROCS")); n > runtime.GOMAXPROCS(0) {
			runtime.GOMAXPROCS(n)
		}
	})
}

// stationProcs is the number of Ps for a station's process whose runtime
// chose procs, env being the GOMAXPROCS environment variable.
func stationProcs(procs int, env string) int {
	if env != "" {
		return procs
	}
	return 2 * procs
}
