package crol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// rowListKeys are the wrapper keys under which row arrays are found
// ("notices" in cityscroll's snapshots, "rows" in its warehouse lookups).
var rowListKeys = []string{"notices", "rows"}

// observedKeys are wrapper keys that say when the rows were observed, most
// specific first: the date of the bulk snapshot the rows came from, then
// when the wrapper was generated.
var observedKeys = []string{"bulk_snapshot_date", "generated_at", "fetched_at", "as_of", "materialized_at"}

// countKeys are wrapper keys that state how many rows the wrapper holds.
var countKeys = []string{"count", "row_count"}

// ReadJSON reads SODA rows: a bare JSON array of row objects, or a wrapper
// object with the rows under "notices" or "rows". From a wrapper it also
// takes the query ($where equality clauses become Row.Defaults, $select
// becomes Row.Columns), the observation time, and checks a stated row count.
// Values: strings as they are, numbers and booleans as their JSON text,
// lists and objects as compact JSON text; null fields are left out.
func ReadJSON(r io.Reader, file string) ([]Row, []error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, []error{rowErr(file, 0, "reading: %v", err)}
	}
	return parseJSON(data, file)
}

func parseJSON(data []byte, file string) ([]Row, []error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, []error{rowErr(file, 0, "empty JSON file")}
	}
	lines := newLineIndex(data)
	switch trimmed[0] {
	case '[':
		return parseRowArray(data, 0, file, lines, wrapperMeta{})
	case '{':
		return parseWrapper(data, file, lines)
	}
	return nil, []error{rowErr(file, 0, "JSON is neither an array of rows nor a wrapper object")}
}

type wrapperMeta struct {
	defaults   map[string]string
	columns    []string
	observedAt time.Time
}

func parseWrapper(data []byte, file string, lines lineIndex) ([]Row, []error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return nil, []error{rowErr(file, 0, "bad JSON: %v", err)}
	}
	top := map[string]json.RawMessage{}
	var listKey string
	var listOffset int64
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, []error{rowErr(file, lines.at(dec.InputOffset()), "bad JSON: %v", err)}
		}
		key, _ := t.(string)
		off := skipSeparators(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, []error{rowErr(file, lines.at(off), "bad JSON under %q: %v", key, err)}
		}
		top[key] = raw
		if listKey == "" {
			for _, k := range rowListKeys {
				if key == k && len(raw) > 0 && raw[0] == '[' {
					listKey, listOffset = key, off
				}
			}
		}
	}
	if listKey == "" {
		return nil, []error{rowErr(file, 0, "wrapper object has no row list (looked for %s)", strings.Join(rowListKeys, ", "))}
	}
	var meta wrapperMeta
	if q, ok := top["query"]; ok {
		var query map[string]any
		if json.Unmarshal(q, &query) == nil {
			if w, ok := query["$where"].(string); ok {
				meta.defaults = WhereDefaults(w)
			}
			if s, ok := query["$select"].(string); ok {
				meta.columns = selectColumns(s)
			}
		}
	}
	for _, k := range observedKeys {
		var s string
		if raw, ok := top[k]; ok && json.Unmarshal(raw, &s) == nil {
			if t := record.ParseDate(s); !t.IsZero() {
				meta.observedAt = t
				break
			}
		}
	}
	rows, errs := parseRowArray(data, listOffset, file, lines, meta)
	for _, k := range countKeys {
		var n int
		if raw, ok := top[k]; ok && json.Unmarshal(raw, &n) == nil {
			if got := len(rows) + len(errs); n != got {
				errs = append(errs, rowErr(file, 0, "wrapper says %s=%d but holds %d rows", k, n, got))
			}
			break
		}
	}
	return rows, errs
}

// parseRowArray reads the JSON array that starts at or after offset start.
func parseRowArray(data []byte, start int64, file string, lines lineIndex, meta wrapperMeta) ([]Row, []error) {
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil, []error{rowErr(file, lines.at(start), "expected an array of rows")}
	}
	var rows []Row
	var errs []error
	for dec.More() {
		off := start + dec.InputOffset()
		line := lines.at(skipSeparators(data, off))
		var obj map[string]json.RawMessage
		if err := dec.Decode(&obj); err != nil {
			// A syntax error leaves the decoder unusable: report and stop.
			errs = append(errs, rowErr(file, line, "bad row: %v", err))
			return rows, errs
		}
		if obj == nil {
			errs = append(errs, rowErr(file, line, "row is null, not an object"))
			continue
		}
		fields, err := objectFields(obj)
		if err != nil {
			errs = append(errs, rowErr(file, line, "%v", err))
			continue
		}
		rows = append(rows, Row{
			Fields:     fields,
			Defaults:   meta.defaults,
			File:       file,
			Line:       line,
			Format:     FormatJSON,
			ObservedAt: meta.observedAt,
			Columns:    meta.columns,
		})
	}
	if _, err := dec.Token(); err != nil { // ]
		errs = append(errs, rowErr(file, 0, "row array not closed: %v", err))
	}
	return rows, errs
}

// objectFields turns one row object into Fields.
func objectFields(obj map[string]json.RawMessage) (map[string]string, error) {
	fields := make(map[string]string, len(obj))
	from := make(map[string]string, len(obj))
	for name, raw := range obj {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		var v string
		switch raw[0] {
		case '"':
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, fmt.Errorf("field %q: %v", name, err)
			}
		case '[', '{':
			var b bytes.Buffer
			if err := json.Compact(&b, raw); err != nil {
				return nil, fmt.Errorf("field %q: %v", name, err)
			}
			v = b.String()
		default: // number or boolean: its JSON text
			v = string(raw)
		}
		k := Key(name)
		if prev, ok := from[k]; ok {
			return nil, fmt.Errorf("fields %q and %q are the same column", prev, name)
		}
		from[k] = name
		fields[k] = v
	}
	return fields, nil
}

// skipSeparators moves off past whitespace, a comma or a colon to the next
// value.
func skipSeparators(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int64 // offsets of line starts

func newLineIndex(data []byte) lineIndex {
	idx := lineIndex{0}
	for i, b := range data {
		if b == '\n' {
			idx = append(idx, int64(i+1))
		}
	}
	return idx
}

func (l lineIndex) at(off int64) int {
	lo, hi := 0, len(l)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if l[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

var (
	whereEqRE  = regexp.MustCompile(`^\(?\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*'((?:[^']|'')*)'\s*\)?$`)
	andSplitRE = regexp.MustCompile(`(?i)\s+AND\s+`)
	orRE       = regexp.MustCompile(`(?i)\bOR\b`)
)

// WhereDefaults reads the equality clauses of a SoQL $where predicate
// (column='value', joined by AND) as column defaults keyed by Key: rows
// selected by `section_name='Changes in Personnel' AND short_title='APPOINTED'`
// all have that section and title. Other clauses (ranges, LIKE …) are
// ignored; a predicate with OR implies nothing and gives no defaults.
func WhereDefaults(where string) map[string]string {
	parts := splitOutsideQuotes(where)
	if parts == nil {
		return nil
	}
	var out map[string]string
	for _, p := range parts {
		m := whereEqRE.FindStringSubmatch(strings.TrimSpace(p))
		if m == nil {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[Key(m[1])] = strings.ReplaceAll(m[2], "''", "'")
	}
	return out
}

// splitOutsideQuotes splits a predicate at AND outside string literals. It
// returns nil when the predicate has OR outside literals.
func splitOutsideQuotes(where string) []string {
	// Mask literals so keywords inside them are not seen.
	masked := []byte(where)
	in := false
	for i := 0; i < len(masked); i++ {
		if masked[i] == '\'' {
			if in && i+1 < len(masked) && masked[i+1] == '\'' {
				masked[i], masked[i+1] = 'x', 'x'
				i++
				continue
			}
			in = !in
			continue
		}
		if in {
			masked[i] = 'x'
		}
	}
	if orRE.Match(masked) {
		return nil
	}
	var parts []string
	last := 0
	for _, loc := range andSplitRE.FindAllIndex(masked, -1) {
		parts = append(parts, where[last:loc[0]])
		last = loc[1]
	}
	return append(parts, where[last:])
}

// selectColumns reads a $select list into column keys; "*" or an
// expression with an alias makes the list unknown (nil).
func selectColumns(sel string) []string {
	var cols []string
	for _, c := range strings.Split(sel, ",") {
		c = strings.TrimSpace(c)
		if c == "" || c == "*" || strings.ContainsAny(c, " ()") {
			return nil
		}
		cols = append(cols, Key(c))
	}
	return cols
}
