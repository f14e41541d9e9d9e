package record

import (
	"strings"
	"unicode/utf8"
)

// Input bounds: the one table of how long an input value may be and how
// many values an input may take. They are checked before any rule reads
// the input (vendor stems and their variants, agency resolution and
// suggestions, keyword parsing), so no request's work grows with what a
// client chose to send: the HTTP parameters (api), the watch requests
// (watch.Structured) and the MCP tool schemas (maxLength, maxItems) all
// read these numbers.
const (
	// MaxNameLen bounds a name: an agency, a vendor, a body, a title, a
	// person, an id given as a filter.
	MaxNameLen = 200
	// MaxTextLen bounds a keyword search (q).
	MaxTextLen = 500
	// MaxRequestTextLen bounds a plain-English watch request or a note.
	MaxRequestTextLen = 600
	// MaxCursorLen bounds an opaque paging cursor.
	MaxCursorLen = 512
	// MaxValues bounds how many values one list input takes (agency=a,b
	// or agency=a&agency=b).
	MaxValues = 50
	// MaxEmailLen bounds an email address (RFC 5321's path limit).
	MaxEmailLen = 254
	// MaxTokenLen bounds a watch token.
	MaxTokenLen = 4096
	// MaxURILen bounds a request's path and query together: a longer one
	// is refused with 414 before routing.
	MaxURILen = 32 << 10
	// MaxRequestIDs bounds how many request ids one search names.
	MaxRequestIDs = 1000
)

// Bound is the limit of one named input: at most MaxLen characters per
// value and, for a list, at most MaxValues values.
type Bound struct {
	MaxLen    int
	MaxValues int
}

// inputBounds names the inputs whose bound is not a name's.
var inputBounds = map[string]Bound{
	"q":           {MaxTextLen, 1},
	"text":        {MaxRequestTextLen, 1},
	"description": {MaxRequestTextLen, 1},
	"note":        {MaxRequestTextLen, 1},
	"cursor":      {MaxCursorLen, 1},
	"email":       {MaxEmailLen, 1},
	"token":       {MaxTokenLen, 1},
	"request_id":  {MaxRequestIDLen, MaxRequestIDs},
}

// InputBound is the bound of the input called name (a name's bound, for
// up to MaxValues values, unless the table says otherwise).
func InputBound(name string) Bound {
	if b, ok := inputBounds[name]; ok {
		return b
	}
	return Bound{MaxNameLen, MaxValues}
}

// CheckInput refuses (EINVALID naming the input) more values than the
// input's bound takes or a value longer than it; it reads each value once
// and stops at the first that is too long.
func CheckInput(name string, values ...string) error {
	b := InputBound(name)
	if len(values) > b.MaxValues {
		return InvalidNote(name, "param.values", name, b.MaxValues, len(values))
	}
	for _, v := range values {
		if err := CheckLen(name, v, b.MaxLen); err != nil {
			return err
		}
	}
	return nil
}

// CheckLen refuses (EINVALID naming the input) a value of more than max
// characters.
func CheckLen(name, v string, max int) error {
	if len(v) <= max { // a character is at least one byte
		return nil
	}
	if len(v) > max*utf8.UTFMax || utf8.RuneCountInString(v) > max {
		return InvalidNote(name, "param.length", name, max)
	}
	return nil
}

// SplitList splits comma-separated values of a list input, trimmed and
// without empty ones, and checks them against the input's bound.
func SplitList(name string, raw []string) ([]string, error) {
	var out []string
	for _, v := range raw {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out, CheckInput(name, out...)
}
