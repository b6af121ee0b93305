package store

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// FaultEnv names the environment variable that arms FaultHook for crash
// tests: ARBITER_FAULT=POINT:N kills the process (SIGKILL on Unix,
// TerminateProcess on Windows) the Nth time Update reaches POINT, where POINT
// is one of FaultPoints. Unset (the normal case), it does nothing.
const FaultEnv = "ARBITER_FAULT"

// FaultPoints are the points at which Update calls FaultHook, in order.
var FaultPoints = []string{"before-begin", "after-insert", "before-commit", "after-commit"}

func init() {
	spec, ok := os.LookupEnv(FaultEnv)
	if !ok || spec == "" {
		return
	}
	point, n, err := parseFault(spec)
	if err != nil {
		panic(fmt.Sprintf("store: %s=%q: %v", FaultEnv, spec, err))
	}
	var count atomic.Int64
	FaultHook = func(p string) {
		if p == point && count.Add(1) == int64(n) {
			proc, err := os.FindProcess(os.Getpid())
			if err == nil {
				err = proc.Kill()
			}
			if err == nil {
				select {} // the signal is on its way; never return into Update
			}
			panic(fmt.Sprintf("store: fault %s:%d: could not kill self: %v", point, n, err))
		}
	}
}

// parseFault parses "POINT:N" (N >= 1; ":N" may be omitted for 1).
func parseFault(spec string) (point string, n int, err error) {
	point, count, hasCount := strings.Cut(spec, ":")
	n = 1
	if hasCount {
		n, err = strconv.Atoi(count)
		if err != nil || n < 1 {
			return "", 0, refuse(CodeFaultCount, count)
		}
	}
	for _, p := range FaultPoints {
		if p == point {
			return point, n, nil
		}
	}
	return "", 0, refuse(CodeFaultPoint, point, strings.Join(FaultPoints, ", "))
}
