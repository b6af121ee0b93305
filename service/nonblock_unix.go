//go:build unix

package service

import "syscall"

// openNonblocking opens a FIFO without waiting for a writer (readRegular).
const openNonblocking = syscall.O_NONBLOCK
