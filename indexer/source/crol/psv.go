package crol

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// decodeText turns file bytes into UTF-8: bytes that are valid UTF-8 (which
// includes plain ASCII) are kept, anything else is read as Windows-1252, the
// encoding of the DCAS procurement export. A leading UTF-8 byte-order mark is
// dropped. It reports which encoding it used.
func decodeText(data []byte) (string, string, error) {
	if utf8.Valid(data) {
		return strings.TrimPrefix(string(data), "\uFEFF"), "utf-8", nil
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil {
		return "", "", fmt.Errorf("decoding windows-1252: %w", err)
	}
	return string(out), "windows-1252", nil
}

// recordStartRE is how a DCAS record's first line begins: a RequestID
// (YYYYMMDD + sequence) and a pipe.
var recordStartRE = regexp.MustCompile(`^\d{6,}\|`)

// ReadPSV reads a DCAS pipe-delimited export: a header line naming the
// columns, CRLF line ends, no quoting or escaping. A field may contain line
// breaks, so physical lines are gathered until the record has exactly
// (columns-1) pipes; the line breaks inside a field are kept as they were.
// Text is UTF-8 when valid, else Windows-1252.
//
// A record that cannot be completed (too many pipes, or the file ends inside
// it) is returned as a *RowError naming the file and its first line; the
// reader then goes on with the next record.
func ReadPSV(r io.Reader, file string) ([]Row, []error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, []error{rowErr(file, 0, "reading: %v", err)}
	}
	text, _, err := decodeText(data)
	if err != nil {
		return nil, []error{rowErr(file, 0, "%v", err)}
	}

	var rows []Row
	var errs []error
	var header []string
	want := 0 // pipes per record

	var cur strings.Builder
	curStart, curPipes := 0, 0
	prevTerm := ""
	reset := func() { cur.Reset(); curStart, curPipes = 0, 0 }
	emit := func() {
		vals := strings.Split(cur.String(), "|")
		f := make(map[string]string, len(header))
		for i, k := range header {
			f[k] = vals[i]
		}
		rows = append(rows, Row{Fields: f, File: file, Line: curStart, Format: FormatPSV, Columns: header})
		reset()
	}

	lineNo := 0
	for len(text) > 0 {
		lineNo++
		var line, term string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
			term = "\n"
		} else {
			line, text = text, ""
		}
		if strings.HasSuffix(line, "\r") {
			line = line[:len(line)-1]
			term = "\r" + term
		}

		if header == nil {
			var dup string
			header, dup = headerKeys(strings.Split(line, "|"))
			if dup != "" {
				return nil, []error{rowErr(file, lineNo, "header names column %q twice", dup)}
			}
			if len(header) < 2 {
				return nil, []error{rowErr(file, lineNo, "header has no pipe-separated columns")}
			}
			want = len(header) - 1
			prevTerm = term
			continue
		}

		pipes := strings.Count(line, "|")
		switch {
		case curStart == 0:
			if strings.TrimSpace(line) == "" {
				prevTerm = term
				continue // a blank line between records
			}
			cur.WriteString(line)
			curStart, curPipes = lineNo, pipes
		case curPipes+pipes > want:
			// The gathered lines cannot be completed by this line.
			if recordStartRE.MatchString(line) && pipes <= want {
				errs = append(errs, rowErr(file, curStart, "record has %d fields, header has %d", curPipes+1, want+1))
				reset()
				cur.WriteString(line)
				curStart, curPipes = lineNo, pipes
			} else {
				errs = append(errs, rowErr(file, curStart, "record has more than %d fields (lines %d-%d)", want+1, curStart, lineNo))
				reset()
				prevTerm = term
				continue
			}
		default:
			cur.WriteString(prevTerm)
			cur.WriteString(line)
			curPipes += pipes
		}
		prevTerm = term

		if curPipes == want {
			emit()
		} else if curPipes > want {
			errs = append(errs, rowErr(file, curStart, "record has %d fields, header has %d", curPipes+1, want+1))
			reset()
		}
	}
	if header == nil {
		return nil, []error{rowErr(file, 0, "empty file: no header")}
	}
	if curStart != 0 {
		errs = append(errs, rowErr(file, curStart, "file ends inside a record (%d of %d fields)", curPipes+1, want+1))
	}
	return rows, errs
}

// headerKeys normalizes column names; it returns the first name that
// repeats after normalization, if any.
func headerKeys(names []string) ([]string, string) {
	keys := make([]string, len(names))
	seen := map[string]bool{}
	for i, n := range names {
		k := Key(n)
		if k == "" {
			k = fmt.Sprintf("column%d", i+1)
		}
		if seen[k] {
			return nil, n
		}
		seen[k] = true
		keys[i] = k
	}
	return keys, ""
}
