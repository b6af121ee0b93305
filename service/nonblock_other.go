//go:build !unix

package service

// openNonblocking: Windows has no FIFO that an open waits on.
const openNonblocking = 0
