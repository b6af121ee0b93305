//go:build !unix

package service

import "os"

// canWrite tells from the file's mode whether it may be written (Windows
// maps its read-only attribute to the write bits), without opening it.
func canWrite(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm()&0o200 != 0
}
