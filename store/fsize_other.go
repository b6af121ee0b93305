//go:build !linux && !darwin

package store

// writeLimited: no file size limit is looked for here (Windows has none).
func writeLimited(error) (uint64, bool) { return 0, false }
