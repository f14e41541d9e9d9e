package indexer

import (
	"context"
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
	return Set[record.PayrollRow]{Of: procure.PayrollKind, Items: rows, LinkWith: link.PayrollRows}
}

// Fetch reads Citywide Payroll rows from the live SODA API (every row:
// the checkpoint is not used), a batch per page; ids are the dataset's row
// ids, so a page read twice replaces itself. A row that cannot be read is
// rejected alone with its reason; flagged rows are kept and noted.
func (payrollSource) Fetch(ctx context.Context, _ Checkpoint, cfg LiveConfig, batch func(Batch, []error) error) error {
	f := &payroll.Fetcher{Client: cfg.Client, AppToken: cfg.SODAToken, PageSize: cfg.PageSize, Now: cfg.Now}
	_, err := f.Fetch(ctx, func(p payroll.Page) error {
		return batch(Batch{Rows: p.Read, Records: []RecordSet{payrollSet(p.Rows)}, Notes: payroll.FlagNotes(p.URL, p.Rows),
			ObservedAt: p.ObservedAt}, p.Rejected)
	})
	return err
}
