//go:build !linux && !darwin

package broadcast

// raiseFileLimit: this system sets no per-process limit of open sockets
// that the broadcast could read.
func raiseFileLimit(want uint64) (uint64, bool) { return 0, false }
