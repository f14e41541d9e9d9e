package crol

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"
)

// ReadCSV reads an Open Data CSV export of dg92-zbpx. The header may use
// display names ("Request ID", "Additional Description 1") or API names
// ("request_id"); both normalize to the same keys. Quoted fields may hold
// line breaks and stray quotes (LazyQuotes); a UTF-8 byte-order mark is
// dropped; text that is not valid UTF-8 is read as Windows-1252. Empty
// cells are kept as empty values (an empty cell is a null at the source).
// A record whose field count differs from the header is a *RowError.
func ReadCSV(r io.Reader, file string) ([]Row, []error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, []error{rowErr(file, 0, "reading: %v", err)}
	}
	text, _, err := decodeText(data)
	if err != nil {
		return nil, []error{rowErr(file, 0, "%v", err)}
	}
	cr := csv.NewReader(strings.NewReader(text))
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	names, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return nil, []error{rowErr(file, 0, "empty file: no header")}
		}
		return nil, []error{rowErr(file, 1, "header: %v", err)}
	}
	header, dup := headerKeys(names)
	if dup != "" {
		return nil, []error{rowErr(file, 1, "header names column %q twice", dup)}
	}
	var rows []Row
	var errs []error
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				errs = append(errs, rowErr(file, pe.StartLine, "%v", pe.Err))
				continue
			}
			errs = append(errs, rowErr(file, 0, "%v", err))
			break
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			errs = append(errs, rowErr(file, line, "record has %d fields, header has %d", len(rec), len(header)))
			continue
		}
		f := make(map[string]string, len(header))
		for i, k := range header {
			f[k] = rec[i]
		}
		rows = append(rows, Row{Fields: f, File: file, Line: line, Format: FormatCSV, Columns: header})
	}
	return rows, errs
}
