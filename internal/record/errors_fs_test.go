package record

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"
)

// A file system's refusal to write is never an internal error, wherever
// it comes from: no space or a spent quota is ENOSPACE, a read-only file
// system EUNAVAILABLE, each with a message of this service's own words;
// WriteFailure classifies any failed write the same way and keeps its
// cause.
func TestFileSystemFaults(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code string
	}{
		{&os.PathError{Op: "write", Path: "/data/state.db", Err: syscall.ENOSPC}, ENOSPACE},
		{fmt.Errorf("commit: %w", &os.PathError{Op: "write", Path: "/data/state.db", Err: syscall.EDQUOT}), ENOSPACE},
		{&os.PathError{Op: "open", Path: "/data/outbox/x.eml", Err: syscall.EROFS}, EUNAVAILABLE},
		{errors.New("something else"), EINTERNAL},
	} {
		if got := ErrorCode(tc.err); got != tc.code {
			t.Errorf("ErrorCode(%v) = %q, want %q", tc.err, got, tc.code)
		}
		if msg := ErrorMessage(tc.err); tc.code != EINTERNAL && (msg == "internal error" || msg == "") {
			t.Errorf("ErrorMessage(%v) = %q", tc.err, msg)
		}
	}
	full := &os.PathError{Op: "write", Path: "/data/state.db", Err: syscall.ENOSPC}
	if e := WriteFailure("the state store", full); e.Code != ENOSPACE || !errors.Is(e, syscall.ENOSPC) {
		t.Errorf("WriteFailure(ENOSPC) = %v", e)
	}
	if e := WriteFailure("the state store", errors.New("database not open")); e.Code != EUNAVAILABLE || e.Message == "" {
		t.Errorf("WriteFailure(other) = %v", e)
	}
}
