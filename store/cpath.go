package store

import "strings"

// cPath is path NUL-terminated, as a system call takes it; nil for a path
// with a NUL byte in it, which names no file.
func cPath(path string) []byte {
	if strings.IndexByte(path, 0) >= 0 {
		return nil
	}
	b := make([]byte, len(path)+1)
	copy(b, path)
	return b
}
