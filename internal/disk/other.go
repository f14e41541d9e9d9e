//go:build !(linux || darwin || freebsd)

package disk

// Free is not read on this system: Check reports nothing.
func Free(dir string) (uint64, error) { return 0, errUnsupported }
