// Package payroll reads Citywide Payroll Data (NYC Open Data k397-673e):
// one row per person, agency, title and fiscal year, with base salary,
// regular gross paid, overtime and other pay. It reads the dataset's CSV
// exports (the 2016-era columns, whether headed "Fiscal Year" or
// "FiscalYear") and its SODA JSON rows (live.go) into record.PayrollRow
// values of procure.PayrollKind.
//
// Every row that can be read is kept. Blank names (redacted at the
// source), negative values and an agency start date after the row's fiscal
// year are kept and flagged (record.FlagPayroll), and the load's notes list
// them. Only rows that cannot be read (a wrong number of columns, no
// fiscal year) are rejected, each with its file, line and reason.
package payroll

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Source and its coverage label.
const (
	Source      = "payroll"
	SourceLabel = "Citywide Payroll Data (NYC Open Data k397-673e)"
)

// Columns are the dataset's columns this reader maps, by their key
// (columnKey of the header: lower case, letters and digits only), in the
// order of the 2016 export.
var Columns = []string{
	"fiscalyear", "agencyname", "lastname", "firstname", "midinit", "agencystartdate", "worklocationborough",
	"titledescription", "leavestatus", "basesalary", "paybasis", "regularhours", "regulargrosspaid", "othours",
	"totalotpaid", "totalotherpay",
}

// columnKey is the key of a header or SODA field name: "Fiscal Year",
// "FiscalYear" and "fiscal_year" are all "fiscalyear"; the leave status
// column ("Leave Status as of June 30", "…as of July 31") is "leavestatus".
func columnKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimPrefix(name, "\ufeff")) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	k := b.String()
	if strings.HasPrefix(k, "leavestatus") {
		return "leavestatus"
	}
	if k == "id" {
		return ":id"
	}
	return k
}

// FileReport says what one file contributed.
type FileReport struct {
	File     string `json:"file"`
	Rows     int    `json:"rows"`
	Kept     int    `json:"kept"`
	Flagged  int    `json:"flagged"`
	Rejected int    `json:"rejected"`
}

// Corpus is what a read gave: the rows kept (flagged ones included), a
// report per file, and the notes listing the flagged rows.
type Corpus struct {
	Rows  []record.PayrollRow
	Files []FileReport
	Notes []string
}

// Row builds a payroll row from fields keyed by columnKey. file and line
// say where it was read; the error says why a row cannot be read. The
// agency is left to the link stage (Link).
func Row(fields map[string]string, file string, line int, observed time.Time) (record.PayrollRow, error) {
	get := func(k string) string { return strings.TrimSpace(fields[k]) }
	r := record.PayrollRow{
		Source: Source, SourceLabel: SourceLabel, File: file, Line: line, ObservedAt: observed,
		PayrollNumber: get("payrollnumber"),
		AgencyPrinted: get("agencyname"),
		LastName:      get("lastname"), FirstName: get("firstname"), MidInit: get("midinit"),
		AgencyStartRaw: get("agencystartdate"),
		WorkBorough:    get("worklocationborough"),
		Title:          get("titledescription"),
		LeaveStatus:    get("leavestatus"),
		PayBasis:       get("paybasis"),
		BaseSalary:     record.ParsePayValue(fields["basesalary"]),
		RegularHours:   record.ParsePayValue(fields["regularhours"]),
		RegularGross:   record.ParsePayValue(fields["regulargrosspaid"]),
		OTHours:        record.ParsePayValue(fields["othours"]),
		OTPaid:         record.ParsePayValue(fields["totalotpaid"]),
		OtherPay:       record.ParsePayValue(fields["totalotherpay"]),
	}
	fy := get("fiscalyear")
	if fy == "" {
		return r, fmt.Errorf("no fiscal year")
	}
	n, err := strconv.Atoi(fy)
	if err != nil || n < 1900 || n > 2200 {
		return r, fmt.Errorf("fiscal year %q is not a year", fy)
	}
	r.FiscalYear = n
	if r.AgencyStartRaw != "" {
		r.AgencyStart = record.ParseDate(r.AgencyStartRaw)
	}
	if id := get(":id"); id != "" {
		r.ID = "payroll:" + id
	}
	record.FlagPayroll(&r)
	return r, nil
}

// hashID is the id of a row without one: the SHA-256 of its fields as
// printed, and, for the second and later of identical rows in one read,
// their rank ("-2", "-3" …), so identical rows stay apart and a read of
// the same file gives the same ids.
func hashID(fields map[string]string, seen map[string]int) string {
	h := sha256.New()
	for _, k := range Columns {
		fmt.Fprintf(h, "%s=%s\n", k, strings.TrimSpace(fields[k]))
	}
	id := "payroll:" + hex.EncodeToString(h.Sum(nil))[:20]
	seen[id]++
	if n := seen[id]; n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	return id
}

// ReadCSV reads one CSV export. Rows that cannot be read are returned as
// errors naming the file and line; the rest are kept.
func ReadCSV(data []byte, file string, observed time.Time) ([]record.PayrollRow, int, []error) {
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	header, err := cr.Read()
	if err != nil {
		return nil, 0, []error{fmt.Errorf("%s: no header: %w", file, err)}
	}
	keys := make([]string, len(header))
	have := map[string]bool{}
	for i, h := range header {
		keys[i] = columnKey(h)
		have[keys[i]] = true
	}
	if !have["fiscalyear"] || !have["agencyname"] || !have["lastname"] {
		return nil, 0, []error{fmt.Errorf("%s: not a Citywide Payroll export (header %q)", file, strings.Join(header, ","))}
	}
	var rows []record.PayrollRow
	var errs []error
	seen := map[string]int{}
	n := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		n++
		if err != nil {
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			errs = append(errs, fmt.Errorf("%s:%d: row rejected: not readable CSV: %v", file, line, err))
			continue
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(keys) {
			errs = append(errs, fmt.Errorf("%s:%d: row rejected: %d fields where the header has %d", file, line, len(rec), len(keys)))
			continue
		}
		fields := make(map[string]string, len(keys))
		for i, k := range keys {
			fields[k] = rec[i]
		}
		r, err := Row(fields, file, line, observed)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: row rejected: %w", file, line, err))
			continue
		}
		if r.ID == "" {
			r.ID = hashID(fields, seen)
		}
		rows = append(rows, r)
	}
	return rows, n, errs
}

// ReadDir reads every .csv under dir (recursively), in name order.
func ReadDir(fsys fs.FS, dir string) (*Corpus, []error) {
	c := &Corpus{}
	var names []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(strings.ToLower(d.Name()), ".csv") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return c, []error{fmt.Errorf("payroll: %s: %w", dir, err)}
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rows, n, ferrs := ReadCSV(data, name, time.Time{})
		rep := FileReport{File: name, Rows: n, Kept: len(rows), Rejected: len(ferrs)}
		for _, r := range rows {
			if len(r.Flags) > 0 {
				rep.Flagged++
			}
		}
		c.Rows = append(c.Rows, rows...)
		c.Files = append(c.Files, rep)
		c.Notes = append(c.Notes, FlagNotes(name, rows)...)
		errs = append(errs, ferrs...)
	}
	return c, errs
}

// FlagNotes lists the flagged rows of a read, one note per flag code with
// the count and every line ("file: 105 rows kept and flagged name_blank
// (…): lines 17, 45 …").
func FlagNotes(file string, rows []record.PayrollRow) []string {
	lines := map[string][]string{}
	var codes []string
	for _, r := range rows {
		done := map[string]bool{}
		for _, f := range r.Flags {
			if done[f.Code] {
				continue
			}
			done[f.Code] = true
			if lines[f.Code] == nil {
				codes = append(codes, f.Code)
			}
			at := strconv.Itoa(r.Line)
			if r.Line == 0 {
				at = r.ID
			}
			lines[f.Code] = append(lines[f.Code], at)
		}
	}
	sort.Strings(codes)
	var out []string
	for _, c := range codes {
		out = append(out, fmt.Sprintf("%s: %d rows kept and flagged %s (%s): lines %s", file, len(lines[c]), c, FlagMeaning[c],
			strings.Join(lines[c], ", ")))
	}
	return out
}

// FlagMeaning says what each flag means, for notes and API answers.
var FlagMeaning = map[string]string{
	record.FlagNameBlank:        "last or first name blank as printed; the dataset redacts some names",
	record.FlagNegative:         "a negative amount or hour count, kept as printed and never added to sums",
	record.FlagStartAfterFY:     "an agency start date after the end of the row's fiscal year",
	record.FlagUnreadableAmount: "an amount or hour count that is not a number, kept as printed",
}
