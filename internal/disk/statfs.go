//go:build linux || darwin || freebsd

package disk

import "syscall"

// Free is the space, in bytes, available to an unprivileged process on the
// file system holding dir (statfs: available blocks × block size).
func Free(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
