package indexer

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/checkbook"
	"github.com/recordwatch/recordwatch/indexer/source/contracts"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/indexer/source/meetings"
	"github.com/recordwatch/recordwatch/indexer/source/zap"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Source is one source of records, read the same way whatever it holds:
// Read turns the files under a directory into a Batch of raw records (the
// link stage fills agency ids, vendor stems and PIN keys; the pipeline
// writes). Name is the -source value and the directory of the bundled
// sample the source is loaded from.
type Source interface {
	Name() string
	// Label names the source in coverage and in the -source help.
	Label() string
	// Holds is what the source writes: HoldsNotices (full-text notices,
	// observed once a load completes) or HoldsRecords (typed records of
	// search kinds, Batch.Records).
	Holds() string
	// Live reports whether the source can also be fetched from its live
	// API (-live; main.go wires the fetcher).
	Live() bool
	// Read reads the files of the source under dir.
	Read(fsys fs.FS, dir string) (Batch, []error)
}

// What sources hold.
const (
	HoldsNotices = "notices"
	HoldsRecords = "records"
)

// Batch is what a source read: raw records and what the read saw.
type Batch struct {
	Notices []record.Notice
	// Records are typed records (contracts, payments, lots, land
	// projects, meetings, payroll …), one set per kind, linked and
	// written by the pipeline.
	Records []RecordSet
	// Rows is how many source rows were read; Merged how many were folded
	// into another observation of the same record.
	Rows, Merged int
	// ObservedAt is when the files say they were observed (zero: unknown).
	ObservedAt time.Time
	// Notes are things worth logging (repairs, partial answers).
	Notes []string
}

// Sources is the one list of sources: what -source accepts, what the
// bundled sample is loaded from (notice sources first, then record
// sources, whose link stage reads the notices, in this order) and what the
// README lists.
var Sources = []Source{crolSource{}, checkbookSource{}, contractsSource{}, zapSource{}, payrollSource{}, landSource{}, meetingsSource{}, leadersSource{}, civillistSource{}}

// SourceNames lists the names of Sources, in order.
func SourceNames() []string {
	names := make([]string, len(Sources))
	for i, s := range Sources {
		names[i] = s.Name()
	}
	return names
}

// LookupSource returns the source named name; an unknown name is an error
// that lists the available ones.
func LookupSource(name string) (Source, error) {
	for _, s := range Sources {
		if s.Name() == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("unknown source %q (available: %s)", name, strings.Join(SourceNames(), ", "))
}

// crolSource: City Record Online notices (DCAS .psv, Socrata .json/.csv).
type crolSource struct{}

func (crolSource) Name() string  { return "crol" }
func (crolSource) Label() string { return CROLLabel }
func (crolSource) Holds() string { return HoldsNotices }
func (crolSource) Live() bool    { return true }
func (crolSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	c, errs := crol.Read(fsys, dir)
	b := Batch{Notices: c.Notices, Merged: c.Merged, ObservedAt: observedAt(c, time.Time{})}
	for _, f := range c.Files {
		b.Rows += f.Rows
	}
	return b, errs
}

// checkbookSource: Checkbook NYC API answers (payments, contracts, payroll).
type checkbookSource struct{}

func (checkbookSource) Name() string  { return checkbook.Source }
func (checkbookSource) Label() string { return checkbook.SourceLabel }
func (checkbookSource) Holds() string { return HoldsRecords }
func (checkbookSource) Live() bool    { return true }
func (checkbookSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	c, errs := checkbook.ReadDir(fsys, dir)
	b := Batch{Records: checkbookSets(c.Rows)}
	for _, f := range c.Files {
		b.Rows += f.Transactions + f.Rejected // a rejected transaction was read, and is one of errs
		for _, r := range f.Repairs {
			b.Notes = append(b.Notes, fmt.Sprintf("%s repaired: %s", f.File, r))
		}
		if f.RecordCount > f.Transactions {
			b.Notes = append(b.Notes, fmt.Sprintf("%s holds %d of the %d matches at the source", f.File, f.Transactions, f.RecordCount))
		}
	}
	return b, errs
}

// checkbookSets are the record sets of Checkbook NYC rows: registered
// contracts and payments, each linked (agency ids, vendor stems, base
// PINs).
func checkbookSets(r checkbook.Rows) []RecordSet {
	return []RecordSet{
		Set[record.Contract]{Of: procure.ContractKind, Items: r.Contracts, LinkWith: link.ContractSet},
		Set[procure.Payment]{Of: procure.PaymentKind, Items: r.Payments, LinkWith: link.PaymentSet},
	}
}

// contractsSource: registered-contract rows (cityscroll read model).
type contractsSource struct{}

func (contractsSource) Name() string  { return contracts.Source }
func (contractsSource) Label() string { return contracts.Label }
func (contractsSource) Holds() string { return HoldsRecords }
func (contractsSource) Live() bool    { return false }
func (contractsSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	cs, errs := contracts.LoadDir(fsys, dir)
	return Batch{Records: []RecordSet{Set[record.Contract]{Of: procure.ContractKind, Items: cs, LinkWith: link.ContractSet}},
		Rows: len(cs) + len(errs)}, errs
}

// zapSource: ZAP project lots and the MapPLUTO centroids of their lots.
type zapSource struct{}

func (zapSource) Name() string  { return zap.ZAPSource }
func (zapSource) Label() string { return zap.ZAPLabel + "; " + zap.CentroidLabel }
func (zapSource) Holds() string { return HoldsRecords }
func (zapSource) Live() bool    { return false }
func (zapSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	ls, errs := zap.LoadDir(fsys, dir)
	return Batch{Records: []RecordSet{Set[land.LotLocation]{Of: land.LotKind, Items: ls}}, Rows: len(ls) + len(errs)}, errs
}

// landSource: land-use projects (ZAP portal answers, Open Data project
// and BBL rows, MapPLUTO centroids) and other publishers' land-use events
// (borough president recommendations, Council land-use items), linked to
// the notices held.
type landSource struct{}

func (landSource) Name() string  { return "land" }
func (landSource) Label() string { return land.SourceLabel }
func (landSource) Holds() string { return HoldsRecords }
func (landSource) Live() bool    { return true }
func (landSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	l, errs := zap.ReadLand(fsys, dir)
	b := Batch{Rows: l.Rows, Merged: l.Merged, Records: []RecordSet{
		Set[land.Project]{Of: land.ProjectKind, Items: l.Projects, LinkWith: link.LandProjects}}}
	// one set per publisher of events, so each is counted under its source
	bySource := map[string][]land.Event{}
	var order []string
	for _, e := range l.Events {
		if bySource[e.Source] == nil {
			order = append(order, e.Source)
		}
		bySource[e.Source] = append(bySource[e.Source], e)
	}
	for _, src := range order {
		b.Records = append(b.Records, Set[land.Event]{Of: land.EventKind, Items: bySource[src]})
	}
	return b, errs
}

// meetingsSource: Council Legistar events, community-board calendars and
// City Record hearing notices, as meetings (linked to hearing notices).
type meetingsSource struct{}

func (meetingsSource) Name() string  { return meetings.Name }
func (meetingsSource) Label() string { return meetings.Label }
func (meetingsSource) Holds() string { return HoldsRecords }
func (meetingsSource) Live() bool    { return true }
func (meetingsSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	r, errs := meetings.ReadDir(fsys, dir)
	return Batch{Rows: r.Total(), Notes: r.Notes, Records: MeetingSets(r.Meetings)}, errs
}

// MeetingSets are the record sets of meetings, one per source (records
// are counted per source), each linked with the whole batch's hearing
// notices.
func MeetingSets(ms []meeting.Meeting) []RecordSet {
	var sets []RecordSet
	for _, part := range meetings.BySource(ms) {
		sets = append(sets, Set[meeting.Meeting]{Of: meeting.Kind, Items: part,
			LinkWith: func(ctx context.Context, env link.Env, items []meeting.Meeting) []error {
				return link.Meetings(ctx, env, items, ms...)
			}})
	}
	return sets
}
