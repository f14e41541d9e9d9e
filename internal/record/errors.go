package record

import (
	"context"
	"errors"
	"fmt"
	"syscall"
)

// Error codes. One table in the API maps each to an HTTP status.
const (
	ENOTFOUND    = "not_found"
	EUNAVAILABLE = "unavailable"
	EINVALID     = "invalid"
	ELIMIT       = "limit"
	ETOOLARGE    = "too_large"
	EINTERNAL    = "internal"
	// ENOSPACE is a write refused for want of space: the data directory's
	// disk is full (ENOSPC) or its owner's quota is spent (EDQUOT).
	ENOSPACE = "insufficient_storage"
)

// Error is an error a caller can act on: a code, a message in plain words and,
// for bad input, the parameter at fault.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Param   string `json:"param,omitempty"`
	// MessageKey is Message as a note (key and arguments), when the
	// service wrote one: a page says it in the reader's language from the
	// message files; Message stays its English.
	MessageKey Note `json:"message_key,omitzero"`
	// Cause is what an engine or store said (hosts, index names, its own
	// words): kept for the log, never in an answer.
	Cause error `json:"-"`
}

func (e *Error) Error() string {
	s := e.Code + ": " + e.Message
	if e.Param != "" {
		s = fmt.Sprintf("%s: %s (%s)", e.Code, e.Message, e.Param)
	}
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Cause }

// CouldNotAnswer is the EUNAVAILABLE error of a part that could not answer
// (what: "the search index"): its message names the part only; the part's
// own error is its Cause, for the log.
func CouldNotAnswer(what string, cause error) *Error {
	return &Error{Code: EUNAVAILABLE, Message: what + " could not answer; this does not mean the record is missing", Cause: cause}
}

// WriteFailure is the error of a write that what ("the state store")
// could not make: ENOSPACE when its disk is full or a quota is spent,
// EUNAVAILABLE for anything else (a read-only data directory, an I/O
// error). Its message names the part and says nothing was stored; the
// part's own error is its Cause, for the log.
func WriteFailure(what string, cause error) *Error {
	if noSpace(cause) {
		return &Error{Code: ENOSPACE, Message: what + " is out of disk space: nothing was stored; try again later", Cause: cause}
	}
	return &Error{Code: EUNAVAILABLE, Message: what + " cannot write right now (its disk may be read-only or failing): nothing was stored; try again later", Cause: cause}
}

// noSpace reports whether err is a file system's "no space" (ENOSPC) or
// "quota exceeded" (EDQUOT).
func noSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// fileSystemFault is the error of an unclassified err that carries a
// file system's refusal to write (no space, quota, read-only file
// system), nil for any other error: no full or read-only disk is ever an
// internal error.
func fileSystemFault(err error) *Error {
	if noSpace(err) || errors.Is(err, syscall.EROFS) {
		return WriteFailure("the service's storage", err)
	}
	return nil
}

// Errorf returns an *Error with the given code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NoteError returns an *Error whose message is the note n (its English in
// Message, the note in MessageKey); param names the parameter at fault,
// if any.
func NoteError(code, param string, n Note) *Error {
	return &Error{Code: code, Param: param, Message: n.String(), MessageKey: n}
}

// InvalidNote is an EINVALID error on param said from the note key with
// args (N): the API publishes it as message_key beside its English, the
// site says it in the reader's language.
func InvalidNote(param, key string, args ...any) *Error {
	return NoteError(EINVALID, param, N(key, args...))
}

// Invalid returns an EINVALID error naming the parameter at fault.
func Invalid(param, format string, args ...any) *Error {
	return &Error{Code: EINVALID, Param: param, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, or EINTERNAL when err is not an *Error.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return EUNAVAILABLE // the request's deadline passed or its client left
	}
	if fe := fileSystemFault(err); fe != nil {
		return fe.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the caller-facing message of err. Internal errors
// never leak their text.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return "the request took longer than this service allows one request; narrow it and try again"
	}
	if fe := fileSystemFault(err); fe != nil {
		return fe.Message
	}
	return "internal error"
}
