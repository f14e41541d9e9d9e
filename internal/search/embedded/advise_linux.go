//go:build linux

package embedded

import "syscall"

func madvise(b []byte, h hint) error {
	advice := syscall.MADV_RANDOM
	if h == hintSequential {
		advice = syscall.MADV_SEQUENTIAL
	}
	return syscall.Madvise(b, advice)
}
