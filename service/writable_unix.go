//go:build unix

package service

import "golang.org/x/sys/unix"

// canWrite asks the system whether this process may write the file at
// path, without opening it.
func canWrite(path string) bool { return unix.Access(path, unix.W_OK) == nil }
