package indexer

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/checkbook"
	"github.com/recordwatch/recordwatch/indexer/source/leaders"
	"github.com/recordwatch/recordwatch/indexer/source/meetings"
	"github.com/recordwatch/recordwatch/indexer/source/payroll"
	"github.com/recordwatch/recordwatch/indexer/source/zap"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
)

// Job is one scheduled live fetch: a live source, how often it runs, the
// maximum age after which what it feeds is stale, the coverage sources
// its runs feed, and how a run's window is chosen.
type Job struct {
	// Name names the job in receipts, /api/sources and logs.
	Name   string
	Source LiveSource
	Every  time.Duration
	MaxAge time.Duration
	// Feeds are the coverage sources (SourceCoverage.Source) the job's
	// fetch reads (TestJobFeedsAreWhatItsFetchReads): a run marks each by
	// its own part (record.ReceiptPart), and only those it fetched.
	Feeds []string
	// Window sets what one run asks for on cfg, from the last successful
	// run (nil: none) and now, and describes it for the receipt. Nil asks
	// from the checkpoint (RunLive).
	Window func(cfg *LiveConfig, lastOK *record.Receipt, now time.Time) Window
}

// Window is what a run asked for: a description, and its bounds when it
// has dates.
type Window struct {
	What     string
	From, To time.Time
	// Key is What as a note (key and arguments).
	Key record.Note
}

// windowOf is the window n says, with its bounds (zero: none).
func windowOf(n record.Note, from, to time.Time) Window {
	return Window{What: n.String(), Key: n, From: from, To: to}
}

// checkbookWindow asks Checkbook NYC for the days since the last good
// run's last day (that day again: the publisher may have added to it), or
// the 7 days before now on a first run: no day is skipped after a failure,
// because a failed run moves nothing.
func checkbookWindow(typ string) func(*LiveConfig, *record.Receipt, time.Time) Window {
	return func(cfg *LiveConfig, lastOK *record.Receipt, now time.Time) Window {
		from := now.AddDate(0, 0, -7)
		if lastOK != nil && !lastOK.WindowTo.IsZero() {
			from = lastOK.WindowTo.AddDate(0, 0, -1)
		}
		cfg.CheckbookType, cfg.CheckbookFrom, cfg.CheckbookTo = typ, from, now
		return windowOf(record.N("sources.window.by_day", typ, record.NewYorkDay(from), record.NewYorkDay(now)), from, now)
	}
}

// crolWindow: City Record rows updated since the last good run (the
// checkpoint RunLive reads), less LiveOverlap; everything on a first run.
func crolWindow(cfg *LiveConfig, lastOK *record.Receipt, now time.Time) Window {
	if lastOK == nil || cfg.Full {
		return windowOf(record.N("sources.window.every_row"), time.Time{}, now)
	}
	from := lastOK.Started.Add(-LiveOverlap)
	return windowOf(record.N("sources.window.since", from.UTC().Format(time.RFC3339), LiveOverlap), from, now)
}

// DefaultJobs is the default schedule: every live source (LiveSource in
// Sources) on its own interval, with its maximum age. The README's
// loading section lists the same figures.
func DefaultJobs() []Job {
	return []Job{
		{Name: "crol", Source: crolSource{}, Every: 5 * time.Minute, MaxAge: time.Hour, Feeds: []string{record.SourceCROL}, Window: crolWindow},
		{Name: "checkbook-spending", Source: checkbookSource{}, Every: 24 * time.Hour, MaxAge: 3 * 24 * time.Hour,
			Feeds: []string{checkbook.Source}, Window: checkbookWindow(checkbook.TypeSpending)},
		{Name: "checkbook-contracts", Source: checkbookSource{}, Every: 24 * time.Hour, MaxAge: 3 * 24 * time.Hour,
			Feeds: []string{checkbook.Source}, Window: checkbookWindow(checkbook.TypeContracts)},
		{Name: "land", Source: landSource{}, Every: time.Hour, MaxAge: 6 * time.Hour,
			Feeds: []string{land.Source}, // the projects read from the ZAP project and project-BBL tables; the other publishers' events are file only
			Window: func(*LiveConfig, *record.Receipt, time.Time) Window {
				return windowOf(record.N("sources.window.zap"), time.Time{}, time.Time{})
			}},
		{Name: "mappluto", Source: plutoSource{}, Every: 24 * time.Hour, MaxAge: 7 * 24 * time.Hour, Feeds: []string{zap.CentroidSource},
			Window: func(*LiveConfig, *record.Receipt, time.Time) Window {
				return windowOf(record.N("sources.window.pluto", zap.DefaultPLUTOMax), time.Time{}, time.Time{})
			}},
		{Name: "payroll", Source: payrollSource{}, Every: 7 * 24 * time.Hour, MaxAge: 30 * 24 * time.Hour, Feeds: []string{payroll.Source},
			Window: func(*LiveConfig, *record.Receipt, time.Time) Window {
				return windowOf(record.N("sources.window.payroll"), time.Time{}, time.Time{})
			}},
		{Name: "leaders", Source: leadersSource{}, Every: 7 * 24 * time.Hour, MaxAge: 30 * 24 * time.Hour, Feeds: []string{leaders.Source},
			Window: func(*LiveConfig, *record.Receipt, time.Time) Window {
				return windowOf(record.N("sources.window.roster"), time.Time{}, time.Time{})
			}},
		{Name: "meetings", Source: meetingsSource{}, Every: time.Hour, MaxAge: 6 * time.Hour, Feeds: meeting.Sources,
			Window: func(_ *LiveConfig, _ *record.Receipt, now time.Time) Window {
				return windowOf(record.N("sources.window.meetings", meetingsLiveBack, meetingsLiveAhead),
					now.AddDate(0, 0, -meetingsLiveBack), now.AddDate(0, 0, meetingsLiveAhead))
			}},
	}
}

// FileMaxAge is the maximum age of the sources loaded from files only (no
// live fetch yet): rosters and tables published monthly or yearly.
// A source in neither DefaultJobs nor here takes DefaultFileMaxAge.
var FileMaxAge = map[string]time.Duration{
	"leaders":               30 * 24 * time.Hour,
	"civillist":             30 * 24 * time.Hour,
	"payroll":               30 * 24 * time.Hour,
	"contracts":             7 * 24 * time.Hour,
	zap.ZAPSource:           30 * 24 * time.Hour,
	zap.SrcSeed:             30 * 24 * time.Hour,
	meetings.CalendarSource: 7 * 24 * time.Hour,
}

// FileSources are the coverage sources loaded from files only (no live
// fetch, no schedule: their coverage says "file only"): board minutes,
// the civil-service lists, registered-contract rows, ZAP project lots, and the land-use events of borough
// presidents and the Council.
var FileSources = []string{meetings.MinutesSource, "civillist", "contracts", zap.ZAPSource, zap.SrcBKBP, zap.SrcMNBP, zap.SrcCouncil}

// KnownSources lists every coverage source the service loads: those the
// jobs fetch live, then the file-only ones (FileSources), each once.
func KnownSources(jobs []Job) []string {
	var out []string
	for _, j := range jobs {
		for _, f := range j.Feeds {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	for _, f := range FileSources {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// NeverLoaded is the coverage of every known source (KnownSources) that
// held does not list, each with its freshness (record.Freshen:
// never_loaded, or failing when its live fetch fails): what /api/sources
// adds so a source the service should hold and does not is listed too.
func NeverLoaded(ctx context.Context, jobs []Job, rs store.Receipts, held []record.SourceCoverage, now time.Time) ([]record.SourceCoverage, error) {
	runs, err := SourceRuns(ctx, jobs, rs)
	if err != nil {
		return nil, err
	}
	var out []record.SourceCoverage
	for _, src := range KnownSources(jobs) {
		if slices.ContainsFunc(held, func(c record.SourceCoverage) bool { return c.Source == src }) {
			continue
		}
		out = append(out, record.Freshen(record.SourceCoverage{Source: src, Label: src}, runs(src), now))
	}
	return out, nil
}

// DefaultFileMaxAge is the maximum age of a file-loaded source not listed
// in FileMaxAge.
const DefaultFileMaxAge = 30 * 24 * time.Hour

// SourceRuns is what the schedule knows of every coverage source: the
// job that feeds it (when several do, the one failing, else the one with
// the latest good run), its maximum age, and its own last fetches (from
// the receipts: the runs that fetched it, each by its part for it,
// record.RunOfSource). A source no job feeds gets its file maximum age. It is the
// input of record.Freshen for every scope.
func SourceRuns(ctx context.Context, jobs []Job, rs store.Receipts) (func(source string) record.SourceRun, error) {
	bySource := map[string]record.SourceRun{}
	for _, j := range jobs {
		var recent []record.Receipt
		if rs != nil {
			var err error
			if recent, err = rs.Receipts(ctx, j.Name, runsRead); err != nil {
				return nil, err
			}
		}
		for _, src := range j.Feeds {
			run := record.RunOfSource(j.Name, src, len(j.Feeds) == 1, j.Every, j.MaxAge, recent)
			prev, ok := bySource[src]
			switch {
			case !ok, !run.FailingSince.IsZero() && prev.FailingSince.IsZero(),
				prev.FailingSince.IsZero() == run.FailingSince.IsZero() && run.LastOK.After(prev.LastOK):
				bySource[src] = run
			}
		}
	}
	return func(source string) record.SourceRun {
		if r, ok := bySource[source]; ok {
			return r
		}
		if d, ok := FileMaxAge[source]; ok {
			return record.SourceRun{MaxAge: d}
		}
		return record.SourceRun{MaxAge: DefaultFileMaxAge}
	}, nil
}

// runsRead is how many receipts of a job SourceRuns reads: enough to find
// the start of a failure, up to a day of 5-minute runs.
const runsRead = 300

// Scheduler runs every job on its own interval through the one pipeline
// (Indexer.RunLive), each job in its own goroutine, one run at a time per
// job, and stores a receipt per run. A failed run is tried again after a
// backoff (RetryBase doubling, never beyond the job's interval); nothing
// moves the checkpoint but a good run, so the next good run fills the gap.
type Scheduler struct {
	Indexer  *Indexer
	Jobs     []Job
	Receipts store.Receipts
	// Config is the operator's live configuration (tokens, endpoints);
	// each run takes a copy and its Window sets the rest.
	Config LiveConfig
	Logger *slog.Logger
	Now    func() time.Time
	// RetryBase is the first wait after a failed run (0: one minute).
	RetryBase time.Duration

	mu      sync.Mutex
	running map[string]time.Time // job → start of the run under way
}

func (s *Scheduler) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Scheduler) log() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// Run runs every job until ctx ends: the first run of each at once, the
// next after its interval (or its backoff after a failure).
func (s *Scheduler) Run(ctx context.Context) error {
	if len(s.Jobs) == 0 {
		return errors.New("indexer: the scheduler has no jobs")
	}
	var wg sync.WaitGroup
	for _, j := range s.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop(ctx, j)
		}()
	}
	s.log().Info("scheduler started", "jobs", len(s.Jobs))
	wg.Wait()
	return nil
}

func (s *Scheduler) loop(ctx context.Context, j Job) {
	failures := 0
	for ctx.Err() == nil {
		rc := s.RunJob(ctx, j)
		wait := j.Every
		if rc.Outcome == record.ReceiptFailed && ctx.Err() == nil {
			failures++
			wait = Backoff(s.RetryBase, failures, j.Every)
			s.log().Warn("live run failed: retrying after a backoff", "job", j.Name, "failures", failures, "wait", wait, "err", rc.Error)
		} else {
			failures = 0
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// Backoff is the wait after the nth failure in a row: base (0: a minute)
// doubling, at most every (the job's interval).
func Backoff(base time.Duration, n int, every time.Duration) time.Duration {
	if base <= 0 {
		base = time.Minute
	}
	w := base
	for i := 1; i < n && w < every; i++ {
		w *= 2
	}
	return min(w, every)
}

// RunJob runs a job once through Indexer.RunLive and stores its receipt
// (a receipt the store refuses is logged: the run itself stands).
func (s *Scheduler) RunJob(ctx context.Context, j Job) record.Receipt {
	started := s.now()
	s.mu.Lock()
	if s.running == nil {
		s.running = map[string]time.Time{}
	}
	s.running[j.Name] = started
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.running, j.Name)
		s.mu.Unlock()
	}()
	cfg := s.Config
	var lastOK *record.Receipt
	if s.Receipts != nil && !cfg.Full {
		recent, err := s.Receipts.Receipts(ctx, j.Name, runsRead)
		if err != nil {
			s.log().Warn("scheduler: receipts unreadable; running from the engine's checkpoint", "job", j.Name, "err", err)
		}
		for i := range recent {
			if recent[i].Outcome == record.ReceiptOK {
				lastOK = &recent[i]
				break
			}
		}
	}
	var w Window
	if j.Window != nil {
		w = j.Window(&cfg, lastOK, started)
	}
	rep, err := s.Indexer.RunLive(ctx, j.Source, cfg)
	rc := record.Receipt{Job: j.Name, Source: j.Source.Name(), Window: w.What, WindowKey: w.keyed(), WindowFrom: w.From, WindowTo: w.To,
		RowsRead: rep.Rows, Written: rep.Indexed, Rejected: len(rep.Errors), Started: started, Finished: s.now(), Outcome: record.ReceiptOK}
	for _, e := range rep.Errors[:min(len(rep.Errors), record.ReceiptReasons)] {
		rc.Reasons = append(rc.Reasons, e.Error())
	}
	if err != nil {
		rc.Outcome, rc.Error = record.ReceiptFailed, err.Error()
	}
	rc.Parts = receiptParts(j, rep, rc, err)
	if s.Receipts != nil {
		// stored even when ctx has ended: the run happened
		if perr := s.Receipts.PutReceipt(context.WithoutCancel(ctx), rc); perr != nil {
			s.log().Error("scheduler: receipt not stored", "job", j.Name, "err", perr)
		}
	}
	return rc
}

// receiptParts is what a run did of each source its job feeds, as its
// receipt states it: a job of one source, the run's outcome; a job of
// several, each part its fetch reported (a part fetched well is failed
// by the run failing after it, its rows not written, but not by the run
// keeping nothing: a part that answered no rows has nothing new), none
// for a source it did not fetch.
func receiptParts(j Job, rep Report, rc record.Receipt, runErr error) []record.ReceiptPart {
	if len(j.Feeds) == 1 {
		return []record.ReceiptPart{{Source: j.Feeds[0], Outcome: rc.Outcome, RowsRead: rc.RowsRead, Error: rc.Error}}
	}
	var out []record.ReceiptPart
	for _, p := range rep.Parts {
		if !slices.Contains(j.Feeds, p.Source) {
			continue
		}
		rp := record.ReceiptPart{Source: p.Source, Outcome: record.ReceiptOK, RowsRead: p.Rows, Unread: p.Unread}
		switch {
		case p.Err != nil:
			rp.Outcome, rp.Error = record.ReceiptFailed, p.Err.Error()
		case runErr != nil && (p.Rows > 0 || !errors.Is(runErr, ErrNothingRead)):
			rp.Outcome, rp.Error = record.ReceiptFailed, rc.Error
		}
		out = append(out, rp)
	}
	return out
}

// JobStatuses is the status of every job at now, from its receipts (the
// latest n of each, newest first).
func JobStatuses(ctx context.Context, jobs []Job, rs store.Receipts, n int, now time.Time) ([]record.JobStatus, error) {
	out := make([]record.JobStatus, 0, len(jobs))
	for _, j := range jobs {
		st, err := JobOf(ctx, rs, j.Name, j.Source.Name(), j.Every, j.MaxAge, j.Feeds, n, now)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// keyed is the window's note, nil when it has none.
func (w Window) keyed() *record.Note {
	if w.Key.IsZero() {
		return nil
	}
	n := w.Key
	return &n
}
