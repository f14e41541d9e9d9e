//go:build !linux

package embedded

import "errors"

// madvise gives no hint outside Linux (advise.go).
func madvise([]byte, hint) error { return errors.ErrUnsupported }
