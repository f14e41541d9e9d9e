package indexer

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/payroll"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// payrollSource: Citywide Payroll Data rows (record kind payroll).
type payrollSource struct{}

func (payrollSource) Name() string  { return payroll.Source }
func (payrollSource) Label() string { return payroll.SourceLabel }
func (payrollSource) Holds() string { return HoldsRecords }
func (payrollSource) Live() bool    { return true }
func (payrollSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	c, errs := payroll.ReadDir(fsys, dir)
	b := Batch{Records: []RecordSet{payrollSet(c.Rows)}, Notes: c.Notes}
	for _, f := range c.Files {
		b.Rows += f.Rows
	}
	return b, errs
}

// payrollSet is the record set of payroll rows: the link stage resolves
// each row's agency with the crosswalk.
func payrollSet(rows []record.PayrollRow) Set[record.PayrollRow] {
	return Set[record.PayrollRow]{Of: procure.PayrollKind, Items: rows,
		LinkWith: func(_ context.Context, env link.Env, items []record.PayrollRow) []error {
			payroll.Link(env.Linker.Crosswalk, items)
			return nil
		}}
}

// RunPayrollLive fetches Citywide Payroll rows from the live SODA API and
// writes every page as payroll records (ids are the dataset's row ids, so
// a page read twice replaces itself). The report counts the rows read,
// the records written and every row rejected with its reason; flagged
// rows are kept and logged by page.
func (ix *Indexer) RunPayrollLive(ctx context.Context, f *payroll.Fetcher) (Report, error) {
	var rep Report
	bar := ix.bar(-1, "fetching Citywide Payroll rows")
	_, err := f.Fetch(ctx, func(p payroll.Page) error {
		rep.Rows += p.Read
		rep.Notices += len(p.Rows)
		for _, e := range p.Rejected {
			ix.log().Warn("payroll row rejected", "err", e)
		}
		rep.Errors = append(rep.Errors, p.Rejected...)
		for _, n := range payroll.FlagNotes(p.URL, p.Rows) {
			ix.log().Info("source page note", "source", payroll.Source, "note", n)
		}
		written, rejected, err := ix.writeRecordSets(ctx, payroll.Source, []RecordSet{payrollSet(p.Rows)})
		rep.Indexed += written
		rep.Errors = append(rep.Errors, rejected...)
		if bar != nil {
			bar.Add(p.Read)
		}
		return err
	})
	if err != nil {
		return rep, fmt.Errorf("indexer: payroll live fetch: %w", err)
	}
	ix.log().Info("payroll live fetch done", "rows", rep.Rows, "indexed", rep.Indexed, "rejected", len(rep.Errors))
	return rep, nil
}
