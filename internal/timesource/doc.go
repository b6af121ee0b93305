// Package timesource gives a live session its instants: the wall clock read
// once at start-up, advanced by the platform's monotonic clock that keeps
// counting while the machine sleeps (Linux CLOCK_BOOTTIME, Windows
// QueryInterruptTimePrecise, macOS mach_continuous_time).
//
// It is a leaf: it imports nothing of Arbiter, so that the console
// (through package service), a station and the command line take their
// "now" from the same [Source] without depending on one another.
// docs/clock.md, "The live time source", explains the mechanism.
package timesource
