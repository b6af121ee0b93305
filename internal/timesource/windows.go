//go:build windows

package timesource

import (
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows the interrupt time counts time asleep and hibernated; the
// unbiased interrupt time does not. Both are in units of 100 ns. The
// *Precise functions (Windows 10 and later) read the timer hardware; they are
// looked up lazily, and where they are missing (Windows 7 and 8, Wine 8) the
// source falls back to what every Windows has: Go's own monotonic clock,
// which on Windows is the interrupt time to the last clock tick, and
// QueryUnbiasedInterruptTime.
var osClocks = platformClocks{
	sinceBoot: firstProc(goMonotonic, "QueryInterruptTimePrecise"),
	awake:     firstProc(unbiasedInterruptTime, "QueryUnbiasedInterruptTimePrecise"),
}

var processStart = time.Now()

// goMonotonic is Go's monotonic clock since the process started; the
// runtime reads it from the interrupt time in KUSER_SHARED_DATA.
func goMonotonic() time.Duration { return time.Since(processStart) }

func findProc(name string) *windows.LazyProc {
	for _, dll := range []string{"kernelbase.dll", "kernel32.dll"} {
		if p := windows.NewLazySystemDLL(dll).NewProc(name); p.Find() == nil {
			return p
		}
	}
	return nil
}

// firstProc reads the VOID f(PULONGLONG) function name, or calls fallback
// when the system does not have it.
func firstProc(fallback func() time.Duration, name string) func() time.Duration {
	p := findProc(name)
	if p == nil {
		return fallback
	}
	return func() time.Duration {
		var t uint64
		p.Call(uintptr(unsafe.Pointer(&t)))
		return time.Duration(t) * 100
	}
}

var queryUnbiased = findProc("QueryUnbiasedInterruptTime")

// unbiasedInterruptTime is QueryUnbiasedInterruptTime (Windows 7 and later),
// which returns a BOOL; -1 when it fails or is missing.
func unbiasedInterruptTime() time.Duration {
	if queryUnbiased == nil {
		return -1
	}
	var t uint64
	if ok, _, _ := queryUnbiased.Call(uintptr(unsafe.Pointer(&t))); ok == 0 {
		return -1
	}
	return time.Duration(t) * 100
}
