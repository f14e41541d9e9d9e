package record

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Why a file of the data directory could not be opened, one cause each
// (OpenFault): the operator's remedy differs for every one, so the message
// never guesses.
const (
	OpenLocked     = "locked"     // another process holds the file's lock
	OpenPermission = "permission" // this user may not read or write it
	OpenNotDir     = "not_a_dir"  // a file stands where a directory belongs
	OpenReadOnly   = "read_only"  // the file system is mounted read-only
	OpenCorrupt    = "corrupt"    // the file is damaged (checksum, truncation, format)
	OpenOther      = "other"      // anything else: the cause is quoted
)

// OpenFaultError is a part of the data directory that could not be
// opened, with its cause classified (Kind, one of the Open* constants).
type OpenFaultError struct {
	What string // "the search index", "the state store"
	Path string
	Kind string
	Err  error
}

func (e *OpenFaultError) Unwrap() error { return e.Err }

func (e *OpenFaultError) Error() string {
	var why string
	switch e.Kind {
	case OpenLocked:
		why = "it is locked by another process: is another Recordwatch process using this data directory? Stop it, or give this one another -data directory"
	case OpenPermission:
		why = fmt.Sprintf("permission denied: this user (uid %d) may not read and write it; it was probably created by another user "+
			"(one `sudo go run .` is enough). Give it back to this user (sudo chown -R $(id -u):$(id -g) on the data directory) or run as its owner", os.Getuid())
	case OpenNotDir:
		why = "a file stands where a directory belongs: move that file away, or give another -data directory"
	case OpenReadOnly:
		why = "its file system is mounted read-only"
	case OpenCorrupt:
		why = "it is damaged"
	default:
		why = "it could not be opened"
	}
	return fmt.Sprintf("%s at %s: %s (%v)", e.What, e.Path, why, e.Err)
}

// OpenFault classifies err, the failure to open path for what: lockHeld
// says the opener gave up waiting for the file's lock (bbolt's timeout);
// otherwise permission, not-a-directory and read-only file system are
// read from the system error, and anything else is OpenOther. A caller
// that knows the file is damaged builds the error with OpenCorrupt itself.
func OpenFault(what, path string, err error, lockHeld bool) *OpenFaultError {
	kind := OpenOther
	switch {
	case lockHeld:
		kind = OpenLocked
	case errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM):
		kind = OpenPermission
	case errors.Is(err, syscall.ENOTDIR):
		kind = OpenNotDir
	case errors.Is(err, syscall.EROFS):
		kind = OpenReadOnly
	}
	return &OpenFaultError{What: what, Path: path, Kind: kind, Err: err}
}
