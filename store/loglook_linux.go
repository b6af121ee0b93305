package store

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// lookAtLogShape looks at the file at path as lookAtLog does, asking the
// file system for its identity and size only (statx(2) without
// STATX_MTIME and STATX_CTIME): a look that read the times would give the
// log's next write a fine-grained time, and so a dirty inode that the
// commit's fdatasync writes (stamp.go). Its logLook has no times:
// compared with sameShape. pathZ is path NUL-terminated (cPath), made
// once: the look allocates nothing (nil: looked at as lookAtLog does).
func lookAtLogShape(path string, pathZ []byte) logLook {
	if pathZ == nil {
		return lookAtLog(path)
	}
	var st unix.Statx_t
	atCWD := unix.AT_FDCWD
	for {
		_, _, e := unix.Syscall6(unix.SYS_STATX, uintptr(atCWD), uintptr(unsafe.Pointer(&pathZ[0])), 0,
			unix.STATX_TYPE|unix.STATX_INO|unix.STATX_SIZE, uintptr(unsafe.Pointer(&st)), 0)
		if e == 0 {
			break
		}
		if e == unix.EINTR {
			continue
		}
		if e == unix.ENOSYS { // a kernel before 4.11
			return lookAtLog(path)
		}
		return logLook{gone: e == unix.ENOENT}
	}
	return logLook{dev: unix.Mkdev(st.Dev_major, st.Dev_minor), ino: st.Ino, size: int64(st.Size), looked: true}
}
