package store

import "golang.org/x/sys/unix"

// lookAtLogShape looks at the file at path as lookAtLog does, asking the
// file system for its identity and size only (statx(2) without
// STATX_MTIME and STATX_CTIME): a look that read the times would give the
// log's next write a fine-grained time, and so a dirty inode that the
// commit's fdatasync writes (stamp.go). Its logLook has no times:
// compared with sameShape.
func lookAtLogShape(path string) logLook {
	var st unix.Statx_t
	for {
		err := unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_TYPE|unix.STATX_INO|unix.STATX_SIZE, &st)
		if err == nil {
			break
		}
		if err == unix.EINTR {
			continue
		}
		if err == unix.ENOSYS { // a kernel before 4.11
			return lookAtLog(path)
		}
		return logLook{gone: err == unix.ENOENT}
	}
	return logLook{dev: unix.Mkdev(st.Dev_major, st.Dev_minor), ino: st.Ino, size: int64(st.Size), looked: true}
}
