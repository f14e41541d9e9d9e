package record

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Freshness states of a source (SourceCoverage.State): the one rule that
// decides them is Freshen.
const (
	// Fresh: its own fetch (live for a scheduled source, its files for a
	// file-only one) succeeded within its maximum age, and its last live
	// fetch did not fail.
	Fresh = "fresh"
	// Stale: past its maximum age (StateSince says since when); an answer
	// from it may be out of date.
	Stale = "stale"
	// NeverLoaded: the service holds nothing of the source.
	NeverLoaded = "never_loaded"
	// Failing: its own live fetch fails since StateSince (LastError says
	// why), whatever its age; the records held are the last good ones.
	Failing = "failing"
)

// Receipt outcomes.
const (
	ReceiptOK     = "ok"
	ReceiptFailed = "failed"
)

// ReceiptReasons bounds the rejection reasons a receipt keeps (the count
// is always whole).
const ReceiptReasons = 20

// Receipt is what one live run of a scheduled job did: the window it
// asked for, the rows it read, wrote and rejected (with the first
// ReceiptReasons reasons), when it started and finished, and its outcome
// (ReceiptOK, or ReceiptFailed with Error).
type Receipt struct {
	Job    string `json:"job"`
	Source string `json:"source"`
	Window string `json:"window"`
	// WindowKey is Window as a note (nil on a receipt written before the
	// notes).
	WindowKey  *Note     `json:"window_key,omitempty"`
	WindowFrom time.Time `json:"window_from,omitzero"`
	WindowTo   time.Time `json:"window_to,omitzero"`
	RowsRead   int       `json:"rows_read"`
	Written    int       `json:"rows_written"`
	Rejected   int       `json:"rows_rejected"`
	Reasons    []string  `json:"rejected_reasons,omitempty"`
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished"`
	Outcome    string    `json:"outcome"`
	Error      string    `json:"error,omitempty"`
	// NewestSourceDate is the newest source date the run wrote, when it
	// wrote any (YYYY-MM-DD).
	NewestSourceDate string `json:"newest_source_date,omitempty"`
	// Parts is what the run did of each coverage source it fetched: a job
	// whose fetch reads several upstreams (meetings: Legistar, City Record
	// hearings, board calendars) states each one's outcome, so one part
	// failing marks that source failing even when the others were written.
	// A source the run did not fetch has no part. Receipts stored before
	// parts existed have none: RunOfSource reads them as the whole run's
	// outcome only for a job that feeds one source.
	Parts []ReceiptPart `json:"parts,omitempty"`
}

// ReceiptPart is one coverage source's share of a run: its outcome
// (ReceiptOK, also for an upstream that answered "nothing new", or
// ReceiptFailed with Error: why, naming the document it rejected), and the
// rows read from it.
type ReceiptPart struct {
	Source   string `json:"source"`
	Outcome  string `json:"outcome"`
	RowsRead int    `json:"rows_read"`
	Error    string `json:"error,omitempty"`
	// Unread are the documents of the part that could not be read (a
	// board's calendar that is a PDF or does not read), each with the
	// body and month it is of and why.
	Unread []UnreadDocument `json:"unread,omitempty"`
}

// UnreadDocument is a document a fetch could not read: its address, the
// body it is of (BodyKey its key as meetings filter by it) and the month
// it covers, each when known before the rejection ("" when not), and why.
// An empty answer for that body and month says so (TypeAbsence).
type UnreadDocument struct {
	Document string `json:"document"`
	Body     string `json:"body,omitempty"`
	BodyKey  string `json:"body_key,omitempty"`
	Month    string `json:"month,omitempty"` // YYYY-MM
	Reason   string `json:"reason"`
}

// covers reports whether the document may hold records of the body keys
// asked (none asked: any) in the days from..to (YYYY-MM-DD, "" open).
func (u UnreadDocument) covers(bodyKeys []string, from, to string) bool {
	if len(bodyKeys) > 0 && !slices.Contains(bodyKeys, u.BodyKey) {
		return false
	}
	if u.Month == "" {
		return true
	}
	return (from == "" || u.Month >= from[:7]) && (to == "" || u.Month <= to[:7])
}

// partOf is what rc says of source: its outcome and error, and whether
// the run fetched it at all. A receipt without parts speaks for every
// source only when its job feeds one (only); otherwise it fetched none
// that can be named.
func (rc Receipt) partOf(source string, only bool) (outcome, err string, fetched bool) {
	if len(rc.Parts) == 0 {
		if only {
			return rc.Outcome, rc.Error, true
		}
		return "", "", false
	}
	for _, p := range rc.Parts {
		if p.Source == source {
			return p.Outcome, p.Error, true
		}
	}
	return "", "", false
}

// SourceRun is what the schedule knows of the source a coverage entry
// names: whether a live job feeds it, its maximum age, and its last live
// runs (from the receipts, newest first).
type SourceRun struct {
	// Job is the scheduled job that fetches the source ("" when it is
	// loaded from files only).
	Job    string
	Every  time.Duration
	MaxAge time.Duration
	// LastOK is when the last successful live run finished (zero: none).
	LastOK time.Time
	// FailingSince is when the first of the failed runs since LastOK
	// started (zero: the last run did not fail); LastError is the last
	// failure's error.
	FailingSince time.Time
	LastError    string
	// Unread are the documents the last run that fetched the source
	// could not read (ReceiptPart.Unread).
	Unread []UnreadDocument
}

// RunOf folds a job's receipts (newest first) into a SourceRun, each
// receipt's outcome taken whole (a job that feeds one source).
func RunOf(job string, every, maxAge time.Duration, receipts []Receipt) SourceRun {
	r := SourceRun{Job: job, Every: every, MaxAge: maxAge}
	for _, rc := range receipts {
		if rc.Outcome == ReceiptOK {
			r.LastOK = rc.Finished
			break
		}
		if r.LastError == "" {
			r.LastError = rc.Error
		}
		r.FailingSince = rc.Started
	}
	return r
}

// RunOfSource folds a job's receipts (newest first) into the SourceRun of
// one coverage source it feeds: only the runs that fetched that source
// count (their part for it: Receipt.Parts), so a source is observed by its
// own good fetch and fails by its own failed one, whatever the run's other
// parts did. only says the job feeds that source alone (a receipt without
// parts then speaks for it).
func RunOfSource(job, source string, only bool, every, maxAge time.Duration, receipts []Receipt) SourceRun {
	r := SourceRun{Job: job, Every: every, MaxAge: maxAge}
	first := true
	for _, rc := range receipts {
		outcome, err, fetched := rc.partOf(source, only)
		if !fetched {
			continue
		}
		if first {
			first = false
			for _, p := range rc.Parts {
				if p.Source == source {
					r.Unread = p.Unread
				}
			}
		}
		if outcome == ReceiptOK {
			r.LastOK = rc.Finished
			break
		}
		if r.LastError == "" {
			r.LastError = err
		}
		r.FailingSince = rc.Started
	}
	return r
}

// Schedule values of a source's coverage (SourceCoverage.Schedule): a
// job fetches it live, or it is loaded from files only.
const (
	ScheduleLive     = "live"
	ScheduleFileOnly = "file only"
)

// Freshen is the one freshness rule: it states c's freshness at now from
// what the schedule knows of that source (run: its own fetches, not its
// job's other parts). In order:
//   - its own live fetch failing (the last run that fetched it failed):
//     Failing since the first failure, whatever its age (LastError says
//     why, naming a rejected document);
//   - nothing held: NeverLoaded;
//   - a source a job fetches live (run.Job): Fresh only when its own live
//     fetch succeeded within its maximum age, else Stale (since that
//     success plus the maximum age). Files loaded into it are not a live
//     observation: a source never fetched live is Stale however recent its
//     files;
//   - a source loaded from files only (Schedule "file only"): Fresh when
//     its files were observed within its maximum age, else Stale (held
//     with no observation time: Stale).
//
// It is observed (ObservedAt) at the later of what the engine holds and
// its last good live fetch: observations only move forward.
func Freshen(c SourceCoverage, run SourceRun, now time.Time) SourceCoverage {
	if run.LastOK.After(c.ObservedAt) {
		c.ObservedAt = run.LastOK
	}
	c.NewestSourceDate = c.LastSourceDate
	c.MaxAgeSeconds = int64(run.MaxAge / time.Second)
	c.ScheduleEvery, c.Schedule = "", ScheduleFileOnly
	if run.Job != "" {
		c.Schedule = ScheduleLive
		if run.Every > 0 {
			c.ScheduleEvery = run.Every.String()
		}
	}
	c.ObservedAgeSeconds, c.SourceAgeDays = 0, 0
	if !c.ObservedAt.IsZero() {
		c.ObservedAgeSeconds = int64(now.Sub(c.ObservedAt) / time.Second)
	}
	if d, err := ParseDay("newest_source_date", c.LastSourceDate); err == nil && !d.IsZero() {
		c.SourceAgeDays = int(now.Sub(d).Hours() / 24)
	}
	c.LastError = run.LastError
	c.Unread = run.Unread
	c.StateSince, c.FreshnessNote, c.FreshnessNoteKey = time.Time{}, "", nil
	say := func(n Note) { c.FreshnessNote, c.FreshnessNoteKey = n.String(), &n }
	within := func(t time.Time) bool { return !t.IsZero() && (run.MaxAge <= 0 || now.Sub(t) <= run.MaxAge) }
	switch {
	case !run.FailingSince.IsZero():
		c.State, c.StateSince = Failing, run.FailingSince
		say(observedOn(N("sources.fresh.failing", run.FailingSince.UTC().Format(time.RFC3339)), c.ObservedAt))
		if c.Records == 0 && c.Passages == 0 {
			say(N("sources.fresh.failing.none", run.FailingSince.UTC().Format(time.RFC3339)))
		}
	case c.Records == 0 && c.Passages == 0:
		c.State = NeverLoaded
		say(N("sources.fresh.none"))
	case run.Job != "" && run.LastOK.IsZero():
		c.State = Stale
		say(observedOn(N("sources.fresh.files_not_live"), c.ObservedAt))
	case run.Job != "" && !within(run.LastOK):
		c.State, c.StateSince = Stale, run.LastOK.Add(run.MaxAge)
		say(N("sources.fresh.live_stale", run.LastOK.UTC().Format(time.DateOnly), run.MaxAge))
	case run.Job != "":
		c.State = Fresh
	case c.ObservedAt.IsZero():
		c.State = Stale
		say(N("sources.fresh.files_unobserved"))
	case !within(c.ObservedAt):
		c.State, c.StateSince = Stale, c.ObservedAt.Add(run.MaxAge)
		say(N("sources.fresh.files_stale", c.ObservedAt.UTC().Format(time.DateOnly), run.MaxAge))
	default:
		c.State = Fresh
		say(N("sources.fresh.files", c.ObservedAt.UTC().Format(time.DateOnly)))
	}
	return c
}

// observedOn is n with its last argument the day t (a note inside it when
// t is unknown: "at an unknown date").
func observedOn(n Note, t time.Time) Note {
	if t.IsZero() {
		n.Inner = []Part{{Key: "sources.fresh.unknown_date"}}
		return n
	}
	n.Args = append(n.Args, t.UTC().Format(time.DateOnly))
	return n
}

// StaleSources lists the sources of a scope that are not fresh (stale or
// failing): what a banner names.
func (s Scope) StaleSources() []SourceCoverage {
	var out []SourceCoverage
	for _, c := range s.Sources {
		if c.State == Stale || c.State == Failing {
			out = append(out, c)
		}
	}
	return out
}

// StaleBehind lists the sources behind the answer (those of the kinds and
// sources it read, as the absence rule takes them) that are not fresh:
// what a page's banner names. A scope that names no kind is behind every
// source.
func (s Scope) StaleBehind() []SourceCoverage {
	var out []SourceCoverage
	for _, c := range s.relevant() {
		if c.State == Stale || c.State == Failing {
			out = append(out, c)
		}
	}
	return out
}

// JobStatus is what /api/sources, its page, /stats and /readyz say of a
// scheduled job: its interval and maximum age, the sources it feeds, its
// last run and last good run, whether it is late (Late), and its latest
// receipts (newest first).
type JobStatus struct {
	Job      string    `json:"job"`
	Source   string    `json:"source"`
	Every    string    `json:"every"`
	MaxAge   string    `json:"max_age"`
	Feeds    []string  `json:"feeds"`
	LastRun  *Receipt  `json:"last_run,omitempty"`
	LastOK   *Receipt  `json:"last_ok,omitempty"`
	NextDue  time.Time `json:"next_due,omitzero"`
	Late     bool      `json:"late"`
	LateNote string    `json:"late_note,omitempty"`
	// LateNoteKey is LateNote as a note (LateKey).
	LateNoteKey *Note     `json:"late_note_key,omitempty"`
	Receipts    []Receipt `json:"receipts"`
	// Lag is the freshness lag from the receipts (LagOf).
	Lag *Lag `json:"lag,omitempty"`
	// DigestLag is, on the digest job, the lag from a City Record row's
	// appearance upstream to a digest mail (DigestLagOf).
	DigestLag *DigestLag `json:"digest_lag,omitempty"`
}

// LateAfter is how many intervals without a receipt make a job late.
const LateAfter = 2

// Late is the one lateness rule of a scheduled job: it is late when its
// last run started more than LateAfter intervals before now. A job that
// never ran is not late (live fetching may be off); it says so instead.
func Late(lastStarted time.Time, every time.Duration, now time.Time) (bool, string) {
	late, n := LateKey(lastStarted, every, now)
	if n == nil {
		return late, ""
	}
	return late, n.String()
}

// LateKey is Late with its note as a note (nil: nothing to say).
func LateKey(lastStarted time.Time, every time.Duration, now time.Time) (bool, *Note) {
	switch {
	case lastStarted.IsZero():
		n := N("sources.late.never_run")
		return false, &n
	case every > 0 && now.Sub(lastStarted) > LateAfter*every:
		n := N("sources.late.no_run", lastStarted.UTC().Format(time.RFC3339), LateAfter, every)
		return true, &n
	}
	return false, nil
}

// Lag is a job's freshness lag from its receipts: the pipeline's own
// share (a good run's start to finish: fetch, link, write, refresh —
// fetched to searchable) at p50 and p95, and the lag from a row's
// appearance upstream to searchable at the job's interval, projected:
// a row appears at a uniform time between two runs, so it waits a
// fraction of the interval (half at p50, 95% at p95) and then a run.
// API, feeds and MCP read the same engine, so a searchable row is in them
// at once (the response cache is bumped by every write).
type Lag struct {
	Runs                 int     `json:"runs"`
	PipelineP50Seconds   float64 `json:"pipeline_p50_seconds"`
	PipelineP95Seconds   float64 `json:"pipeline_p95_seconds"`
	SearchableP50Seconds float64 `json:"searchable_p50_seconds"`
	SearchableP95Seconds float64 `json:"searchable_p95_seconds"`
	Note                 string  `json:"note"`
}

// LagOf is the lag of a job run every interval from its receipts (nil
// when none succeeded).
func LagOf(receipts []Receipt, every time.Duration) *Lag {
	var d []float64
	for _, r := range receipts {
		if r.Outcome == ReceiptOK && !r.Finished.Before(r.Started) {
			d = append(d, r.Finished.Sub(r.Started).Seconds())
		}
	}
	if len(d) == 0 {
		return nil
	}
	p50, p95 := Percentile(d, 50), Percentile(d, 95)
	return &Lag{Runs: len(d), PipelineP50Seconds: p50, PipelineP95Seconds: p95,
		SearchableP50Seconds: 0.5*every.Seconds() + p50, SearchableP95Seconds: 0.95*every.Seconds() + p95,
		Note: fmt.Sprintf("pipeline: measured over the last %d good runs; searchable: projected at this job's interval of %s", len(d), every)}
}

// Percentile is the pth percentile of xs (nearest rank; xs is sorted in
// place).
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	i := int(math.Ceil(p/100*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

// DigestLag is the lag from a row's appearance upstream to a digest mail
// for a matching watch, projected from the receipts: the row's lag to
// searchable (its source job's Lag), then the wait for the next digest
// window (a row turns searchable at a uniform time within a window: half
// a window at p50, 95% at p95), then a digest run (the digest job's own
// runs, start to finish, from its receipts).
type DigestLag struct {
	Runs               int     `json:"runs"`
	RunP50Seconds      float64 `json:"run_p50_seconds"`
	RunP95Seconds      float64 `json:"run_p95_seconds"`
	WindowSeconds      float64 `json:"window_seconds"`
	ToDigestP50Seconds float64 `json:"to_digest_p50_seconds"`
	ToDigestP95Seconds float64 `json:"to_digest_p95_seconds"`
	Note               string  `json:"note"`
}

// DigestLagOf projects the lag to a digest from a source job's lag and the
// digest runs' receipts, with digest windows of window (nil when the
// source has no good run or no digest run sent mail).
func DigestLagOf(searchable *Lag, digestReceipts []Receipt, window time.Duration) *DigestLag {
	var sent []Receipt // the runs that mailed: a run with nothing to send says nothing of a digest's
	for _, r := range digestReceipts {
		if r.Written > 0 {
			sent = append(sent, r)
		}
	}
	runs := LagOf(sent, 0)
	if searchable == nil || runs == nil {
		return nil
	}
	return &DigestLag{Runs: runs.Runs, RunP50Seconds: runs.PipelineP50Seconds, RunP95Seconds: runs.PipelineP95Seconds,
		WindowSeconds:      window.Seconds(),
		ToDigestP50Seconds: searchable.SearchableP50Seconds + 0.5*window.Seconds() + runs.PipelineP50Seconds,
		ToDigestP95Seconds: searchable.SearchableP95Seconds + 0.95*window.Seconds() + runs.PipelineP95Seconds,
		Note: fmt.Sprintf("projected: searchable (%s), then the wait for the next digest window of %s, then a digest run (measured over the last %d good runs)",
			searchable.Note, window, runs.Runs)}
}

// JobLag is the Lag of the job named name among jobs (nil when it is not
// listed or has no good run).
func JobLag(jobs []JobStatus, name string) *Lag {
	for _, j := range jobs {
		if j.Job == name {
			return j.Lag
		}
	}
	return nil
}
