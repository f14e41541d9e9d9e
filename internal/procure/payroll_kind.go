package procure

import (
	"slices"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Payroll rows are records of the kind "payroll": one per row of the
// Citywide Payroll dataset (record.PayrollRow), written by the payroll
// source.

// Keys of payroll records (besides search.KeyAgencyID and
// search.KeyFiscalYear).
const (
	KeyPayrollName    = "name"         // record.PayrollNameKeys: name words and full names
	KeyPayrollTitle   = "title"        // record.PayrollText of the title
	KeyPayrollBorough = "work_borough" // record.PayrollText of the work location borough
	KeyPayrollFlag    = "flag"         // the row's flag codes
)

// PayrollKind is the typed kind of payroll rows, declared once.
var PayrollKind = search.Kind[record.PayrollRow]{
	Name:  "payroll",
	Index: payrollRecord,
	// 1: the printed agency's body field is agency_as_printed (it was
	// agency_label, the name of the accepted-label argument); rows of an
	// older layout read no printed agency, so the sample is written again
	Version: 1,
}

// payrollRecord is the envelope of a payroll row: keys agency_id,
// fiscal_year, title, name, work_borough and flag; the date is the last
// day of the row's fiscal year; the amount is the regular gross paid as
// printed, valid only when it is a number of zero or more.
func payrollRecord(p record.PayrollRow) search.Record {
	keys := map[string][]string{}
	set := func(k string, vs ...string) {
		var out []string
		for _, v := range vs {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
		if len(out) > 0 {
			keys[k] = out
		}
	}
	set(search.KeyAgencyID, p.AgencyID)
	set(search.KeyAgencyRaw, p.AgencyPrinted) // the printed agency (GET /agencies)
	if p.FiscalYear > 0 {
		set(search.KeyFiscalYear, strconv.Itoa(p.FiscalYear))
	}
	set(KeyPayrollTitle, record.PayrollText(p.Title))
	set(KeyPayrollBorough, record.PayrollText(p.WorkBorough))
	set(KeyPayrollName, p.PayrollNameKeys()...)
	var flags []string
	for _, f := range p.Flags {
		if !slices.Contains(flags, f.Code) {
			flags = append(flags, f.Code)
		}
	}
	set(KeyPayrollFlag, flags...)
	title := strings.TrimSpace(strings.Join(strings.Fields(p.LastName+", "+p.FirstName+" "+p.MidInit), " "))
	if strings.Trim(title, ", ") == "" {
		title = "(name blank as printed)"
	}
	r := search.Record{
		ID: p.ID, Source: p.Source, SourceLabel: p.SourceLabel, ObservedAt: p.ObservedAt, Keys: keys,
		Date: record.PayrollFiscalYearEnd(p.FiscalYear), AmountValid: p.RegularGross.Valid,
		Title: title + " · " + strings.TrimSpace(p.Title),
	}
	if !r.Date.IsZero() {
		r.DateLabel = "fiscal year end"
	}
	if r.AmountValid {
		r.Amount = p.RegularGross.Value
	}
	return r
}

var _ = search.DescribeKind(PayrollKind.Name, search.KindDescription{
	RecordType:   "payroll row (person, agency, title and fiscal year)",
	CountingRule: "one per payroll row held, flagged rows (blank names, negative values, a start date after the fiscal year) included; identical rows are kept apart",
	EvidenceRule: "the end (June 30) of the latest fiscal year among the rows counted: the dataset dates a row by its fiscal year only",
	API:          "/api/payroll",
})
