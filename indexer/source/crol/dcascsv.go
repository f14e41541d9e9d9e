package crol

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// FormatDCASCSV is the 2013 DCAS database export (betaNYC csvexport of
// CityRecordTestSet_2014-08-22).
const FormatDCASCSV = "dcas-csv"

// dcasCSVStartRE is how a record of the comma-separated DCAS export
// begins: an 11-digit Req_ID, a comma and the first publication date.
var dcasCSVStartRE = regexp.MustCompile(`^\d{11},\d{4}-\d\d-\d\d `)

// isDCASCSV reports whether a .csv file is the DCAS export (its header
// starts with Req_ID), not an Open Data CSV.
func isDCASCSV(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), []byte("Req_ID,"))
}

// dcasRename maps the export's column keys to the keys the normalizer
// reads (the Open Data names); other columns keep their own key.
var dcasRename = map[string]string{
	"reqid":                 "requestid",
	"datefirstpubl":         "startdate",
	"datelastpubl":          "enddate",
	"agencydept":            "agencydivision",
	"contactname":           "contactname",
	"contractamount":        "contractamount",
	"additionaldescr":       "additionaldescription",
	"otherinf":              "otherinfo",
	"shorttitle":            "shorttitle",
	"correctiondescription": "correctiondescription",
	"confnumber":            "confirmationnumber",
}

// DCASLookups are the DCAS code tables (crol/dcas_2014/lookups): the
// export writes codes where Open Data writes names.
type DCASLookups struct {
	Agency, NoticeType, Category, Method, Section map[string]string
}

// ReadDCASLookups reads the code tables under dir (agency_master.csv,
// proc_Type_of_Notice.csv, proc_Category.csv, proc_Selection_Method.csv,
// proc_Sections.csv). A table that is missing or unreadable is an error:
// without it the export's codes cannot be named.
func ReadDCASLookups(fsys fs.FS, dir string) (DCASLookups, error) {
	var l DCASLookups
	for _, t := range []struct {
		file, code, name string
		into             *map[string]string
	}{
		{"agency_master.csv", "agency_code", "agency_name", &l.Agency},
		{"proc_Type_of_Notice.csv", "Notice_Code", "Descr", &l.NoticeType},
		{"proc_Category.csv", "Category_Code", "Category_Descr", &l.Category},
		{"proc_Selection_Method.csv", "method_Code", "method_descr", &l.Method},
		{"proc_Sections.csv", "SectionID", "SectionName", &l.Section},
	} {
		data, err := fs.ReadFile(fsys, path.Join(dir, t.file))
		if err != nil {
			return l, fmt.Errorf("DCAS code table: %w", err)
		}
		cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
		cr.FieldsPerRecord = -1
		recs, err := cr.ReadAll()
		if err != nil || len(recs) == 0 {
			return l, fmt.Errorf("DCAS code table %s: unreadable: %v", t.file, err)
		}
		ci, ni := -1, -1
		for i, h := range recs[0] {
			switch h {
			case t.code:
				ci = i
			case t.name:
				ni = i
			}
		}
		if ci < 0 || ni < 0 {
			return l, fmt.Errorf("DCAS code table %s: no %s or %s column", t.file, t.code, t.name)
		}
		m := map[string]string{}
		for _, r := range recs[1:] {
			if len(r) > ci && len(r) > ni {
				m[strings.TrimSpace(r[ci])] = strings.TrimSpace(r[ni])
			}
		}
		*t.into = m
	}
	return l, nil
}

// ReadDCASCSV reads the 2013 DCAS export: comma-separated, CRLF, a UTF-8
// byte-order mark, NULL written as text, fields holding a comma quoted
// but fields holding a line break **not quoted**. A record therefore
// starts at a line that begins with an 11-digit Req_ID and a date, and
// runs until the next such line; its fields are split at commas outside
// quotes. A record whose field count is not the header's is rejected with
// its line, never half-read.
//
// NULL cells are left out of Fields (null at the source). Codes are named
// from the code tables (lk) as Defaults (they are not the row's own
// values and stay out of Notice.Raw; the codes do go there): agency,
// notice type, category, selection method and section. A code missing
// from its table leaves the name absent and is noted on the row's error
// list only when it is the agency (a notice without an agency is still a
// notice).
func ReadDCASCSV(data []byte, file string, lk DCASLookups) ([]Row, []error) {
	text := strings.TrimPrefix(string(data), "\uFEFF")
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) == "" {
		return nil, []error{rowErr(file, 0, "empty file: no header")}
	}
	names, ok := splitDCASFields(strings.TrimSuffix(lines[0], "\r"))
	if !ok {
		return nil, []error{rowErr(file, 1, "header is not comma-separated names")}
	}
	header, dup := headerKeys(names)
	if dup != "" {
		return nil, []error{rowErr(file, 1, "header names column %q twice", dup)}
	}
	for i, k := range header {
		if to, ok := dcasRename[k]; ok {
			header[i] = to
		}
	}
	var rows []Row
	var errs []error
	var cur []string
	start := 0
	flush := func() {
		if cur == nil {
			return
		}
		rec := strings.TrimRight(strings.Join(cur, "\n"), "\r\n")
		cur = nil
		vals, ok := splitDCASFields(rec)
		if !ok {
			errs = append(errs, rowErr(file, start, "a quoted field is not closed before the next comma"))
			return
		}
		if len(vals) != len(header) {
			errs = append(errs, rowErr(file, start, "record has %d fields, header has %d (a line break or comma inside an unquoted field)", len(vals), len(header)))
			return
		}
		f := make(map[string]string, len(header))
		for i, k := range header {
			if v := vals[i]; v != "NULL" {
				f[k] = v
			}
		}
		r := Row{Fields: f, File: file, Line: start, Format: FormatDCASCSV, Columns: header, Defaults: map[string]string{}}
		name := func(to string, table map[string]string, code string) {
			if c := strings.TrimSpace(f[code]); c != "" && table[c] != "" {
				r.Defaults[to] = table[c]
			}
		}
		name("agencyname", lk.Agency, "agencycode")
		name("typeofnoticedescription", lk.NoticeType, "typeofnotice")
		name("categorydescription", lk.Category, "procurcategory")
		name("selectionmethoddescription", lk.Method, "selmethod")
		name("sectionname", lk.Section, "section")
		if c := strings.TrimSpace(f["agencycode"]); c != "" && r.Defaults["agencyname"] == "" {
			errs = append(errs, rowErr(file, start, "agency code %q is not in the code table: the notice is kept without an agency name", c))
		}
		rows = append(rows, r)
	}
	for i, line := range lines[1:] {
		n := i + 2
		if dcasCSVStartRE.MatchString(line) {
			flush()
			start = n
		}
		if start == 0 {
			if strings.TrimSpace(line) != "" {
				errs = append(errs, rowErr(file, n, "text before the first record"))
			}
			continue
		}
		cur = append(cur, strings.TrimSuffix(line, "\r"))
	}
	flush()
	return rows, errs
}

// splitDCASFields splits one record at commas outside quotes: a field
// that starts with a quote runs to its closing quote ("" inside is a
// quote) and must end at a comma or the record's end; any other field
// runs to the next comma, line breaks included.
func splitDCASFields(rec string) ([]string, bool) {
	var out []string
	for i := 0; ; {
		if i < len(rec) && rec[i] == '"' {
			var b strings.Builder
			j := i + 1
			for ; j < len(rec); j++ {
				if rec[j] == '"' {
					if j+1 < len(rec) && rec[j+1] == '"' {
						b.WriteByte('"')
						j++
						continue
					}
					break
				}
				b.WriteByte(rec[j])
			}
			if j >= len(rec) {
				return nil, false
			}
			out = append(out, b.String())
			i = j + 1
			if i < len(rec) && rec[i] != ',' {
				return nil, false
			}
		} else {
			j := strings.IndexByte(rec[i:], ',')
			if j < 0 {
				return append(out, rec[i:]), true
			}
			out = append(out, rec[i:i+j])
			i += j
		}
		if i >= len(rec) {
			return out, true
		}
		i++ // the comma
		if i == len(rec) {
			return append(out, ""), true
		}
	}
}
