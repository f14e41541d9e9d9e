// Package crol reads City Record Online notices and turns them into
// record.Notice values.
//
// Three raw shapes are read into the same Row type:
//
//   - the 2014 DCAS database export (.psv): pipe-delimited, CRLF, no quoting,
//     Windows-1252, with records spanning several physical lines (ReadPSV);
//   - NYC Open Data (SODA, dataset dg92-zbpx) JSON: a bare array of row
//     objects or a wrapper object with the rows under "notices" or "rows"
//     (ReadJSON), and live pages from the SODA endpoint (Fetcher);
//   - Open Data CSV exports with display headers ("Request ID") or API
//     headers ("request_id") (ReadCSV).
//
// Column names are normalized by Key, so RequestID, request_id and
// "Request ID" are all "requestid". Normalize is a pure function from a Row
// to a record.Notice; LoadDir reads a directory of files (the bundled sample
// corpus) and keeps the most recently observed version of each notice.
package crol

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Formats a Row can come from.
const (
	FormatPSV  = "dcas-psv"  // 2014 DCAS pipe-delimited export
	FormatJSON = "soda-json" // SODA JSON rows (file or live)
	FormatCSV  = "soda-csv"  // Open Data CSV export
)

// Row is one raw source record. Fields holds the values exactly as read
// (after decoding to UTF-8), keyed by Key(column name); a JSON field that is
// null or absent is not in Fields, a JSON list or object is kept as its
// compact JSON text.
type Row struct {
	Fields map[string]string
	// Defaults are values implied by the predicate that selected the rows
	// (equality clauses of a wrapper's query.$where); Normalize uses them
	// only for fields the row leaves out. They are not source values and do
	// not go into Notice.Raw.
	Defaults map[string]string
	File     string // file name or page URL the row came from
	// Line is the 1-based physical line where the record starts (for JSON,
	// the line of the row object's opening brace).
	Line   int
	Format string
	// ObservedAt is when the source state in this row was observed: the
	// wrapper's snapshot or generation time, the fetch time for live pages,
	// or else the latest start date in the file (a file cannot have been
	// observed before its newest notice was published).
	ObservedAt time.Time
	// Columns are the columns the source was asked for (a file header, or a
	// wrapper's $select); a column in Columns that is missing from Fields was
	// empty at the source. Nil means unknown. AllColumns means every column
	// was asked for (a live SODA page without $select).
	Columns    []string
	AllColumns bool
}

// covers reports whether the row speaks for column k: the row was asked for
// k, so a missing value means the source had none.
func (r Row) covers(k string) bool {
	if r.AllColumns {
		return true
	}
	for _, c := range r.Columns {
		if c == k {
			return true
		}
	}
	return false
}

// Key normalizes a column name: lower-case, letters and digits only
// ("Additional Description 1", "additional_description_1" and
// "AdditionalDescription1" → "additionaldescription1").
func Key(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// RowError is a problem with one record (or a whole file when Line is 0),
// located by file and line. Readers never drop a record silently: a record
// they cannot read becomes a RowError.
type RowError struct {
	File string
	Line int
	Err  error
}

func (e *RowError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }

func rowErr(file string, line int, format string, args ...any) *RowError {
	return &RowError{File: file, Line: line, Err: fmt.Errorf(format, args...)}
}
