// Package disk reports how much space is left on the file system holding
// a directory: /readyz reads the data directory's against a threshold, so
// a disk filling up is seen before writes fail.
package disk

import (
	"errors"
	"fmt"
)

// DefaultMinFree is the free space below which the data directory is
// reported short of space (RECORDWATCH_MIN_FREE_MB).
const DefaultMinFree = 256 << 20

// errUnsupported is Free's error on a system where it is not read.
var errUnsupported = errors.New("disk: free space is not read on this system")

// Check reports an error when the file system holding dir has less than
// minFree bytes available to this process (or cannot be read); nil
// otherwise, and on a system where free space cannot be read.
func Check(dir string, minFree uint64) error {
	free, err := Free(dir)
	if err == errUnsupported {
		return nil
	}
	if err != nil {
		return fmt.Errorf("disk: free space of %s unreadable: %w", dir, err)
	}
	if free < minFree {
		return fmt.Errorf("disk: %s has %d MiB free, below the threshold of %d MiB", dir, free>>20, minFree>>20)
	}
	return nil
}
