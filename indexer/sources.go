package indexer

import (
	"cmp"
	"context"
	"errors"
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
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
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
	// Read reads the files of the source under dir.
	Read(fsys fs.FS, dir string) (Batch, []error)
}

// LiveSource is a Source that can also be fetched from its live API
// (-live). Fetch reads what changed since the checkpoint and calls batch
// once per batch read (a page, a date window, a whole roster …), in order,
// with the rows it rejected and why; it stops at the first error, its own
// or batch's. Indexer.RunLive runs every batch through the pipeline that
// file loads take (link → write → observe), and keeps the checkpoint.
type LiveSource interface {
	Source
	Fetch(ctx context.Context, since Checkpoint, cfg LiveConfig, batch func(Batch, []error) error) error
}

// Checkpoint is where a live fetch resumes: when the source's last
// completed load was observed (zero: never, or a full fetch was asked
// for). A source that cannot fetch changes only reads everything.
type Checkpoint struct {
	ObservedAt time.Time
}

// LiveConfig is what the operator configures of live fetches (-live, its
// flags and environment), one struct for every live source; each source
// reads what concerns it. Zero fields take each source's defaults.
type LiveConfig struct {
	// Full fetches everything instead of what changed since the
	// checkpoint.
	Full bool
	// SODAToken is sent as X-App-Token to every NYC Open Data (SODA)
	// request.
	SODAToken string
	// SODAEndpoint is City Record Online's SODA resource (crol.Endpoint
	// when empty): the crol source and the meetings' hearing notices.
	SODAEndpoint string
	// Checkbook NYC: the API endpoint (checkbook.Endpoint when empty), the
	// type of data (Spending when empty) and the first and last day of the
	// fetch (zero: 7 days before now, and now), read one day at a time.
	CheckbookEndpoint string
	CheckbookType     string
	CheckbookFrom     time.Time
	CheckbookTo       time.Time
	// Meetings: the Legistar Web API token, and the addresses of
	// community-board calendars (each must answer the calendar's text).
	LegistarToken string
	CalendarURLs  []string
	// PageSize is the rows asked for per request (0: each source's
	// default).
	PageSize int
	// PLUTOEndpoint is MapPLUTO's SODA resource (zap.PLUTOEndpoint when
	// empty).
	PLUTOEndpoint string
	// Held is the index, for a fetch that asks for what it holds
	// (MapPLUTO: the BBLs held without a lot location); RunLive sets it to
	// the indexer's backend when nil.
	Held search.NoticesAndRecords
	// Client does the requests (nil: fetch.New()).
	Client *fetch.Client
	// Now stamps what is fetched (RunLive sets it to the indexer's clock
	// when nil).
	Now func() time.Time
	// Progress, when set, is called as a fetch that yields one batch at
	// the end (land, meetings) reads its parts (RunLive logs them when
	// nil).
	Progress func(part string, rows int)
}

func (c LiveConfig) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
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
	// Parts are the coverage sources a live fetch of several upstreams
	// read for this batch, each with its own outcome (a fetch of one
	// source states none: the run's outcome is its).
	Parts []Part
	// Windowed says the batch answers a bounded window (rows changed since
	// a checkpoint, a range of days): an upstream that answers it with no
	// rows has nothing new, a good fetch, not a failure.
	Windowed bool
}

// Part is what a live fetch did of one coverage source: the rows it read
// from it, and its error (nil: fetched, also when it answered no rows).
type Part struct {
	Source string
	Rows   int
	Err    error
	// Unread are the documents of the part that could not be read.
	Unread []record.UnreadDocument
}

// Sources is the one list of sources: what -source accepts, what the
// bundled sample is loaded from (notice sources first, then record
// sources, whose link stage reads the notices, in this order) and what the
// README lists.
var Sources = []Source{crolSource{}, checkbookSource{}, contractsSource{}, zapSource{}, payrollSource{}, landSource{}, meetingsSource{}, leadersSource{}, civillistSource{}, plutoSource{}}

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
func (crolSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	return crolSource{}.readBefore(fsys, dir, time.Time{})
}

// readBefore is Read with the future cutoff of the indexer's clock
// (Indexer.read): rows without an observation time are observed at the
// latest start date in their file before it.
func (crolSource) readBefore(fsys fs.FS, dir string, cutoff time.Time) (Batch, []error) {
	c, errs := crol.ReadBefore(fsys, dir, cutoff)
	b := Batch{Notices: c.Notices, Merged: c.Merged, ObservedAt: observedAt(c, time.Time{})}
	for _, f := range c.Files {
		b.Rows += f.Rows
	}
	return b, errs
}

// LiveOverlap re-reads a margin before the checkpoint, because City
// Record rows change in place at the source.
const LiveOverlap = 7 * 24 * time.Hour

// Fetch reads dg92-zbpx live, page by page: every row, or (from a
// checkpoint) the rows updated since it less LiveOverlap. Rows change in
// place (bid extensions keep their start date), so an incremental fetch
// asks by :updated_at. A row that does not normalize is rejected alone.
func (crolSource) Fetch(ctx context.Context, since Checkpoint, cfg LiveConfig, batch func(Batch, []error) error) error {
	f := &crol.Fetcher{Client: cfg.Client, BaseURL: cfg.SODAEndpoint, AppToken: cfg.SODAToken, PageSize: cfg.PageSize, Now: cfg.Now}
	var from time.Time
	if !since.ObservedAt.IsZero() {
		f.SinceField = ":updated_at"
		from = since.ObservedAt.Add(-LiveOverlap)
	}
	n, err := f.Fetch(ctx, from, func(rows []crol.Row) error {
		if err := checkColumns(rows, crolColumns); err != nil {
			return err // nothing of this page is written: a renamed column would blank what is held
		}
		b := Batch{Rows: len(rows), Notices: make([]record.Notice, 0, len(rows))}
		var errs []error
		for _, r := range rows {
			n, err := crol.NormalizeRaw(r)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			b.Notices = append(b.Notices, n)
		}
		return batch(b, errs)
	})
	if err == nil && n == 0 && !from.IsZero() {
		return batch(Batch{Windowed: true}, nil) // nothing updated since the checkpoint: nothing new
	}
	return err
}

// crolColumns are the dg92-zbpx columns (as crol.Row keys them) some row
// of every page must carry: a page without one of them is a schema drift
// (a renamed or dropped column), not rows without that value.
var crolColumns = []string{"requestid", "shorttitle", "startdate"}

// ErrSchemaDrift is the error of a live page whose columns are not the
// ones the source reads: the run stops before writing that page, so a
// renamed column never blanks a held record; the next run that answers
// the columns again resumes from the same checkpoint.
var ErrSchemaDrift = errors.New("schema drift: the source's columns changed; its writes are stopped until they are back")

// checkColumns returns ErrSchemaDrift naming the columns of want that no
// row of a non-empty page carries.
func checkColumns(rows []crol.Row, want []string) error {
	if len(rows) == 0 {
		return nil
	}
	var missing []string
	for _, col := range want {
		found := false
		for _, r := range rows {
			if _, ok := r.Fields[col]; ok {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, col)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w (no row of a page of %d has %s)", ErrSchemaDrift, len(rows), strings.Join(missing, ", "))
	}
	return nil
}

// checkbookSource: Checkbook NYC API answers (payments, contracts, payroll).
type checkbookSource struct{}

func (checkbookSource) Name() string  { return checkbook.Source }
func (checkbookSource) Label() string { return checkbook.SourceLabel }
func (checkbookSource) Holds() string { return HoldsRecords }
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

// Fetch reads the Checkbook NYC API live, one day of the configured dates
// at a time (checkbook.Fetcher), a batch per answer: a transaction that
// is not readable XML or cannot be normalized is rejected alone, never
// its page. The checkpoint is not used: the dates say what is read.
func (checkbookSource) Fetch(ctx context.Context, _ Checkpoint, cfg LiveConfig, batch func(Batch, []error) error) error {
	endpoint := cmp.Or(cfg.CheckbookEndpoint, checkbook.Endpoint)
	typ := cmp.Or(cfg.CheckbookType, checkbook.TypeSpending)
	now := cfg.now()
	from, to := cfg.CheckbookFrom, cfg.CheckbookTo
	if from.IsZero() {
		from = now.AddDate(0, 0, -7)
	}
	if to.IsZero() {
		to = now
	}
	f := &checkbook.Fetcher{Client: cfg.Client, BaseURL: endpoint, TypeOfData: typ, PageSize: cfg.PageSize, Now: cfg.Now,
		Window: &checkbook.Window{Field: checkbook.WindowField(typ), From: from, To: to, Days: 1}}
	n, err := f.Fetch(ctx, func(p checkbook.Page) error {
		read := len(p.Response.Transactions) + len(p.Response.Rejected)
		where := fmt.Sprintf("%s %s records %d-%d", endpoint, typ, p.Request.RecordsFrom, p.Request.RecordsFrom+read-1)
		rows, errs := checkbook.ReadResponse(p.Response, where, p.ObservedAt)
		b := Batch{Records: checkbookSets(rows), Rows: read, ObservedAt: p.ObservedAt, Windowed: true}
		for _, r := range p.Response.Repairs {
			b.Notes = append(b.Notes, fmt.Sprintf("%s repaired: %s", where, r))
		}
		return batch(b, errs)
	})
	if err == nil && n == 0 {
		return batch(Batch{Windowed: true}, nil) // no transaction on the days asked: nothing new
	}
	return err
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
		b.Records = append(b.Records, Set[land.Event]{Of: land.EventKind, Items: bySource[src], LinkWith: link.LandEvents})
	}
	return b, errs
}

// Fetch reads the land tables live (zap.LandFetcher: Open Data projects
// and project BBLs) and reads what it fetched as the files are read, in
// one batch; what the fetch skipped is rejected with its reason. The
// checkpoint is not used: every fetch reads the tables whole.
func (landSource) Fetch(ctx context.Context, _ Checkpoint, cfg LiveConfig, batch func(Batch, []error) error) error {
	f := &zap.LandFetcher{Client: cfg.Client, AppToken: cfg.SODAToken, PageSize: cfg.PageSize, Now: cfg.Now, Progress: cfg.Progress}
	got, skipped, err := f.Fetch(ctx)
	if err != nil {
		return err
	}
	if got.Rows == 0 {
		return batch(Batch{}, append(skipped, errors.New("land: the Open Data tables answered no rows")))
	}
	b, errs := landSource{}.Read(got.FS, got.Dir)
	return batch(b, append(errs, skipped...))
}

// meetingsSource: Council Legistar events, community-board calendars and
// City Record hearing notices, as meetings (linked to hearing notices).
type meetingsSource struct{}

func (meetingsSource) Name() string  { return meetings.Name }
func (meetingsSource) Label() string { return meetings.Label }
func (meetingsSource) Holds() string { return HoldsRecords }
func (meetingsSource) Read(fsys fs.FS, dir string) (Batch, []error) {
	r, errs := meetings.ReadDir(fsys, dir)
	b := Batch{Rows: r.Total(), Notes: r.Notes, Records: meetingSets(r.Meetings)}
	if len(r.LandEvents) > 0 { // application numbers named in board minutes (method text)
		b.Records = append(b.Records, Set[land.Event]{Of: land.EventKind, Items: r.LandEvents, LinkWith: link.LandEvents})
	}
	return b, errs
}

// The live meetings window: from meetingsLiveBack days ago to
// meetingsLiveAhead days ahead (New York days).
const (
	meetingsLiveBack  = 30
	meetingsLiveAhead = 180
)

// Fetch reads Council events (Legistar Web API), City Record hearing
// notices with event dates (SODA) and community-board calendars (the
// configured addresses) in the live window, as one batch of meetings. One
// of the first two failing is rejected with its reason and the other is
// written (also when it answered no rows: nothing new); both failing
// fails the fetch. Each upstream is a part of the
// batch (Batch.Parts) with its own outcome, so each coverage source is
// marked by its own fetch: calendars only when some are configured, a
// rejected calendar (a PDF, text that does not read) failing that part
// with its address and reason. The checkpoint is not used: the window
// says what is read.
func (meetingsSource) Fetch(ctx context.Context, _ Checkpoint, cfg LiveConfig, batch func(Batch, []error) error) error {
	n := cfg.now().In(record.NewYork)
	day := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, record.NewYork)
	from, to := day.AddDate(0, 0, -meetingsLiveBack), day.AddDate(0, 0, meetingsLiveAhead)
	progress := func(part string) func(int) {
		return func(done int) {
			if cfg.Progress != nil {
				cfg.Progress(part, done)
			}
		}
	}
	lf := &meetings.LegistarFetcher{Client: cfg.Client, Token: cfg.LegistarToken, PageSize: cfg.PageSize, Now: cfg.Now,
		Progress: progress(meetings.LegistarSource)}
	council, nc, rejected, errC := lf.Fetch(ctx, from, to)
	hearings, nh, rejH, errH := meetings.FetchHearings(ctx, crol.Fetcher{Client: cfg.Client, BaseURL: cfg.SODAEndpoint,
		AppToken: cfg.SODAToken, PageSize: cfg.PageSize, Now: cfg.Now, Progress: progress(meetings.HearingSource)}, from)
	rejected = append(rejected, rejH...)
	parts := []Part{{Source: meetings.LegistarSource, Rows: nc, Err: errC}, {Source: meetings.HearingSource, Rows: nh, Err: errH}}
	if err := errors.Join(errC, errH); errC != nil && errH != nil {
		if berr := batch(Batch{Parts: parts}, nil); berr != nil { // each part's failure, for its own source
			return berr
		}
		return err
	} else if err != nil {
		rejected = append(rejected, fmt.Errorf("meetings: a part of the live fetch failed; the others are written: %w", err))
	}
	b := Batch{Parts: parts, Windowed: true} // a window of days: no meeting in it is nothing new
	var boards []meeting.Meeting
	if len(cfg.CalendarURLs) > 0 { // no calendar configured: cb-calendar is not fetched, and says nothing
		cf := &meetings.CalendarFetcher{Client: cfg.Client, URLs: cfg.CalendarURLs, Now: cfg.Now, Progress: progress(meetings.CalendarSource)}
		read, nb, rejB := cf.Fetch(ctx)
		b.Parts = append(b.Parts, Part{Source: meetings.CalendarSource, Rows: nb, Err: errors.Join(rejB...), Unread: unreadCalendars(rejB)}) // a rejected calendar fails the part, naming it
		boards = read
		b.Rows += nb
		rejected = append(rejected, rejB...)
	}
	ms := append(append(hearings, council...), boards...)
	b.Rows += nc + nh
	b.Records = meetingSets(ms)
	return batch(b, rejected)
}

// unreadCalendars are the rejected calendars as unread documents: each
// with its address, board and month (when known) and why.
func unreadCalendars(errs []error) []record.UnreadDocument {
	var out []record.UnreadDocument
	for _, e := range errs {
		var uc *meetings.UnreadCalendar
		if errors.As(e, &uc) {
			out = append(out, record.UnreadDocument{Document: uc.Document, Body: uc.Body, BodyKey: meeting.BodyKey(uc.Body), Month: uc.Month, Reason: uc.Reason()})
		}
	}
	return out
}

// meetingSets are the record sets of meetings, one per source (records
// are counted per source), each linked with the whole batch's hearing
// notices.
func meetingSets(ms []meeting.Meeting) []RecordSet {
	var sets []RecordSet
	for _, part := range meetings.BySource(ms) {
		sets = append(sets, Set[meeting.Meeting]{Of: meeting.Kind, Items: part,
			LinkWith: func(ctx context.Context, env link.Env, items []meeting.Meeting) []error {
				return link.Meetings(ctx, env, items, ms...)
			}})
	}
	return sets
}
