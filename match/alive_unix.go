//go:build unix

package match

import (
	"errors"
	"fmt"
	"syscall"
)

// processAlive reports whether a process with this id runs on this
// machine (signal 0: nothing is sent).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// fileID is the identity of the file at path (its device and inode), the
// same for the file its console wrote and different for any copy of it
// ("" when it cannot be read).
func fileID(path string) string {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
}
