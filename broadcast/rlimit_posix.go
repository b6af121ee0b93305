//go:build linux || darwin

package broadcast

import "syscall"

// raiseFileLimit raises this process's limit of open files towards want,
// as far as its hard limit allows, and returns the limit then in force.
func raiseFileLimit(want uint64) (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0, false
	}
	if r.Cur < want && r.Cur < r.Max {
		n := r
		n.Cur = min(want, r.Max)
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &n) == nil {
			r = n
		}
	}
	return uint64(r.Cur), true
}
