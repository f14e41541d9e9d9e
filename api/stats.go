package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
)

// StatsWindowDays is how many days of usage Form 2's /stats reports.
const StatsWindowDays = 30

// countEvent adds delta to today's (New York) event counter name, one of
// the store.Counter* names. A failure is logged and never shown to the
// client: counting must not break what is counted.
func (s *Server) countEvent(ctx context.Context, name string, delta int) {
	if s.deps.Store == nil {
		return
	}
	if err := store.CountEvent(ctx, s.deps.Store, name, s.deps.Now(), delta); err != nil {
		s.deps.Logger.Warn("counter not incremented", "counter", name, "err", err)
	}
}

// statsCache keeps the rendered /stats body for cacheStats, in process.
type statsCache struct {
	mu   sync.Mutex
	body []byte
	at   time.Time
}

// stats answers GET /stats (SPEC §4.7): Form 1 served-product coverage,
// Form 2 the service's own usage per day. The body is built at most once
// per cacheStats and served with the remaining lifetime as max-age.
func (s *Server) stats() gin.HandlerFunc {
	cache := &statsCache{}
	return func(c *gin.Context) {
		if err := newParams(c.Request.URL.Query()).err; err != nil {
			writeError(c, err)
			return
		}
		if wantsHTML(c.Request) { // stats_html.go: the page for a browser
			s.statsPage(c)
			return
		}
		addVary(c.Writer.Header(), "Accept")
		now := s.deps.Now()
		cache.mu.Lock()
		defer cache.mu.Unlock()
		if cache.body == nil || now.Before(cache.at) || now.Sub(cache.at) >= cacheStats.maxAge() {
			var v any
			var err error
			if s.cfg.Form == 2 {
				v, err = s.usageStats(c.Request.Context(), now)
			} else {
				v, err = s.coverageStats(c.Request.Context(), now)
			}
			if err != nil {
				writeError(c, err)
				return
			}
			body, err := marshalJSON(v)
			if err != nil {
				writeError(c, err)
				return
			}
			cache.body, cache.at = body, now
		}
		left := max(cacheStats.maxAge()-now.Sub(cache.at), time.Second).Truncate(time.Second)
		render(c, http.StatusOK, "application/json; charset=utf-8", cache.body, cacheProfile(left), cache.at)
	}
}

// CoverageStats is Form 1's /stats: what the service serves, by record set.
type CoverageStats struct {
	Form             int                     `json:"form"`
	Kind             string                  `json:"kind"`
	Description      string                  `json:"description"`
	GeneratedAt      time.Time               `json:"generated_at"`
	CacheSeconds     int                     `json:"cache_seconds"`
	RecordSets       []RecordSet             `json:"record_sets"`
	Sources          []record.SourceCoverage `json:"sources"`
	Totals           CoverageTotals          `json:"totals"`
	CorpusObservedAt time.Time               `json:"corpus_observed_at,omitzero"`
	DateBoundsNote   string                  `json:"date_bounds_note"`
	Absence          []string                `json:"absence_rules"`
	// Live is the scheduled live fetches (absent when none is scheduled):
	// each job's last runs and lateness (sources.go).
	Live *LiveStats `json:"live,omitempty"`
	// DigestRuns is the scheduled digest runs' misses (absent when the
	// service runs no watches; stats_digestruns.go).
	DigestRuns *DigestRunStats `json:"digest_runs,omitempty"`
}

// LiveStats is /stats' part on the live fetches: each job with its last
// receipt (the full list is at /api/sources).
type LiveStats struct {
	Jobs    []record.JobStatus `json:"jobs"`
	Late    []string           `json:"late"`
	Details string             `json:"details"`
	// DigestLag is a City Record row's lag to a digest mail, with the
	// other lag figures (each job's lag): the digest job's, lifted here.
	DigestLag *record.DigestLag `json:"digest_lag,omitempty"`
}

// liveStats is the Live part of /stats (nil when no job is scheduled).
func (s *Server) liveStats(ctx context.Context) (*LiveStats, error) {
	if s.deps.Jobs == nil {
		return nil, nil
	}
	jobs, err := s.deps.Jobs(ctx)
	if err != nil {
		return nil, err
	}
	out := &LiveStats{Jobs: jobs, Late: []string{}, Details: s.cfg.BaseURL + "/api/sources"}
	for i := range out.Jobs {
		out.Jobs[i].Receipts = out.Jobs[i].Receipts[:min(1, len(out.Jobs[i].Receipts))]
		if out.Jobs[i].Late {
			out.Late = append(out.Late, out.Jobs[i].Job)
		}
		if out.Jobs[i].DigestLag != nil {
			out.DigestLag = out.Jobs[i].DigestLag
		}
	}
	return out, nil
}

// RecordSet is one set of records served, counted: the notices of one
// section of one source, or the records of one kind from one source
// (RecordKind names it).
type RecordSet struct {
	ID               string            `json:"id"`
	Source           string            `json:"source"`
	SourceLabel      string            `json:"source_label"`
	Section          string            `json:"section,omitempty"`
	Lens             string            `json:"lens,omitempty"`
	RecordKind       string            `json:"record_kind,omitempty"`
	RecordType       string            `json:"record_type"`
	Records          int               `json:"records"`
	CountingRule     string            `json:"counting_rule"`
	FirstSourceDate  string            `json:"first_source_date,omitempty"`
	EvidenceDate     string            `json:"evidence_date,omitempty"`
	EvidenceRule     string            `json:"evidence_date_rule"`
	SourceObservedAt time.Time         `json:"source_observed_at,omitzero"`
	Links            map[string]string `json:"links"`
}

// CoverageTotals add the record sets up: Records over every set, Notices
// over the notice sets.
type CoverageTotals struct {
	RecordSets int `json:"record_sets"`
	Records    int `json:"records"`
	Notices    int `json:"notices"`
	Passages   int `json:"passages"`
}

const evidenceRule = "the latest publication (start) date among the records counted in this set; it shows how recent the set is, not that every earlier date is covered"

func (s *Server) coverageStats(ctx context.Context, now time.Time) (CoverageStats, error) {
	cov, err := s.deps.Search.Coverage(ctx)
	if err != nil {
		return CoverageStats{}, err
	}
	secs, err := s.deps.Search.Sections(ctx)
	if err != nil {
		return CoverageStats{}, err
	}
	bySource := map[string]record.SourceCoverage{}
	for _, c := range cov {
		bySource[c.Source] = c
	}
	out := CoverageStats{
		Form: 1, Kind: "coverage", GeneratedAt: now, CacheSeconds: int(cacheStats.maxAge().Seconds()),
		Description: "Served-product coverage: the record sets this service holds — notices by source and section, then every other record kind " +
			"(contracts, payments, payroll …) by source — each with its record type, the rule its count follows and its own evidence date. " +
			"Counts are of records held here, not of everything the sources published.",
		RecordSets: []RecordSet{}, Sources: cov, DateBoundsNote: record.DateBoundsNote, Absence: record.AbsenceRules,
	}
	if out.Sources == nil {
		out.Sources = []record.SourceCoverage{}
	}
	scope := record.NewScope(record.Searched{}, cov, 0)
	out.CorpusObservedAt = scope.CorpusObservedAt
	out.Totals.Passages = scope.PassagesInCorpus
	for _, sc := range secs {
		src := bySource[sc.Source]
		label := src.Label
		if label == "" {
			label = sc.Source
		}
		rtype := src.RecordType
		if rtype == "" {
			rtype = "notice"
		}
		rs := RecordSet{
			ID: sc.Source + "/" + sectionSlug(sc.Section), Source: sc.Source, SourceLabel: label, Section: sc.Section,
			Lens: record.LensesFor(sc.Section, "", "", "")[0], RecordType: rtype, Records: sc.Records,
			FirstSourceDate: sc.FirstSourceDate, EvidenceDate: sc.LastSourceDate, EvidenceRule: evidenceRule,
			SourceObservedAt: src.ObservedAt, Links: map[string]string{},
		}
		if sc.Section == "" {
			rs.CountingRule = fmt.Sprintf("distinct request_id among %s %ss (source %q) that name no section, as held in the notices index",
				label, rtype, sc.Source)
		} else {
			rs.CountingRule = fmt.Sprintf("distinct request_id among %s %ss (source %q) whose section is %q, as held in the notices index",
				label, rtype, sc.Source, sc.Section)
			rs.Links["search"] = s.cfg.BaseURL + "/api/search?section=" + url.QueryEscape(sc.Section)
		}
		out.RecordSets = append(out.RecordSets, rs)
		out.Totals.Records += sc.Records
		out.Totals.Notices += sc.Records
	}
	kinds, err := s.kindRecordSets(ctx)
	if err != nil {
		return CoverageStats{}, err
	}
	for _, rs := range kinds {
		out.RecordSets = append(out.RecordSets, rs)
		out.Totals.Records += rs.Records
	}
	sort.SliceStable(out.RecordSets, func(i, j int) bool {
		a, b := out.RecordSets[i], out.RecordSets[j]
		if (a.RecordKind == "") != (b.RecordKind == "") {
			return a.RecordKind == "" // notices first
		}
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		if a.Records != b.Records {
			return a.Records > b.Records
		}
		return a.Section < b.Section
	})
	out.Totals.RecordSets = len(out.RecordSets)
	if out.Live, err = s.liveStats(ctx); err != nil {
		return CoverageStats{}, err
	}
	if out.DigestRuns, err = s.digestRunStats(ctx); err != nil {
		return CoverageStats{}, err
	}
	return out, nil
}

// kindRecordSets are the record sets of every record kind held (contracts,
// payments, payroll, and any kind added later), one per source and record
// kind, from the engine's record coverage: nothing here names a kind, the
// texts come from search.Describe. Every row is held once (a registered
// contract row is one contract record, which the entity views also read),
// so no two sets count the same rows.
func (s *Server) kindRecordSets(ctx context.Context) ([]RecordSet, error) {
	cov, err := s.deps.Search.RecordCoverage(ctx)
	if err != nil {
		return nil, err
	}
	var out []RecordSet
	for _, c := range search.SourceCoverage(cov) {
		rtype := search.ScopeType(c.RecordType)
		key := c.Source + "/" + rtype
		d := search.Describe(c.RecordType)
		label := c.Label
		if label == "" {
			label = c.Source
		}
		set := RecordSet{
			ID: key, Source: c.Source, SourceLabel: label, RecordKind: c.RecordType, RecordType: d.RecordType, Records: c.Records,
			CountingRule: fmt.Sprintf("distinct record id among the %s records (kind %q) of %s (source %q) held in the records index: %s",
				rtype, c.RecordType, label, c.Source, d.CountingRule),
			FirstSourceDate: c.FirstSourceDate, EvidenceDate: c.LastSourceDate, EvidenceRule: d.EvidenceRule,
			SourceObservedAt: c.ObservedAt, Links: map[string]string{},
		}
		if d.API != "" {
			set.Links["api"] = s.cfg.BaseURL + d.API
		}
		out = append(out, set)
	}
	return out, nil
}

func sectionSlug(section string) string {
	if section == "" {
		return "no-section"
	}
	return record.Slug(section)
}

// UsageStats is Form 2's /stats: the service's own usage, per day.
type UsageStats struct {
	Form         int            `json:"form"`
	Kind         string         `json:"kind"`
	Description  string         `json:"description"`
	GeneratedAt  time.Time      `json:"generated_at"`
	CacheSeconds int            `json:"cache_seconds"`
	Window       UsageWindow    `json:"window"`
	Counters     []UsageCounter `json:"counters"`
	Days         []UsageDay     `json:"days"`
	Totals       UsageTotals    `json:"totals"`
	Note         string         `json:"note"`
	// DigestRuns is the scheduled digest runs' misses (as Form 1's).
	DigestRuns *DigestRunStats `json:"digest_runs,omitempty"`
}

// UsageWindow is the days reported.
type UsageWindow struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Days     int    `json:"days"`
	TimeZone string `json:"time_zone"`
}

// UsageCounter explains one reported figure.
type UsageCounter struct {
	Field   string `json:"field"`
	Counter string `json:"counter"`
	Counts  string `json:"counts"`
}

// UsageDay is one New York day's usage.
type UsageDay struct {
	Day                 string `json:"day"`
	ActiveSubscriptions int    `json:"active_subscriptions"`
	DigestsSent         int    `json:"digests_sent"`
	DigestLinksFollowed int    `json:"digest_links_followed"`
	FeedRequests        int    `json:"feed_requests"`
	BatchRequests       int    `json:"batch_requests"`
	SharesCreated       int    `json:"shares_created"`
	SharesRead          int    `json:"shares_read"`
	ShareChangesRead    int    `json:"share_changes_read"`
}

// UsageTotals sum the window's days; active_subscriptions is the count at
// the end of the window.
type UsageTotals struct {
	ActiveSubscriptions int `json:"active_subscriptions"`
	DigestsSent         int `json:"digests_sent"`
	DigestLinksFollowed int `json:"digest_links_followed"`
	FeedRequests        int `json:"feed_requests"`
	BatchRequests       int `json:"batch_requests"`
	SharesCreated       int `json:"shares_created"`
	SharesRead          int `json:"shares_read"`
	ShareChangesRead    int `json:"share_changes_read"`
}

// usageCounters pairs each reported field with its counter.
var usageCounters = []struct {
	field, counter, counts string
	set                    func(d *UsageDay, n int)
}{
	{"active_subscriptions", store.CounterSubscriptionActive, "watches active at the end of the day (a running total of activations minus endings)",
		func(d *UsageDay, n int) { d.ActiveSubscriptions = n }},
	{"digests_sent", store.CounterDigestSent, "digest emails handed to the mail server",
		func(d *UsageDay, n int) { d.DigestsSent = n }},
	{"digest_links_followed", store.CounterDigestLinkFollowed, "digest links (/r/<kind>/<id>) that redirected to a notice",
		func(d *UsageDay, n int) { d.DigestLinksFollowed = n }},
	{"feed_requests", store.CounterFeedRequest, "feed responses served (Atom, JSON Feed, iCalendar)",
		func(d *UsageDay, n int) { d.FeedRequests = n }},
	{"batch_requests", store.CounterBatchRequest, "batch cross-reference requests answered (POST /batch)",
		func(d *UsageDay, n int) { d.BatchRequests = n }},
	{"shares_created", store.CounterShareCreated, "shared investigations stored (POST /inv)",
		func(d *UsageDay, n int) { d.SharesCreated = n }},
	{"shares_read", store.CounterShareRead, "shared investigation snapshots served (GET /inv/<id>)",
		func(d *UsageDay, n int) { d.SharesRead = n }},
	{"share_changes_read", store.CounterShareChangesRead, "comparisons of a snapshot with the current records (GET /inv/<id>/changes)",
		func(d *UsageDay, n int) { d.ShareChangesRead = n }},
}

func (s *Server) usageStats(ctx context.Context, now time.Time) (UsageStats, error) {
	days := store.Days(now, StatsWindowDays)
	out := UsageStats{
		Form: 2, Kind: "usage", GeneratedAt: now, CacheSeconds: int(cacheStats.maxAge().Seconds()),
		Description: "The service's own usage per day: active subscriptions, digests sent, digest links followed, and feed, batch and share activity.",
		Window:      UsageWindow{From: days[0], To: days[len(days)-1], Days: len(days), TimeZone: record.NewYork.String()},
		Counters:    []UsageCounter{}, Days: make([]UsageDay, len(days)),
		Note: "Counts are events per New York day, never people: no address, IP or email is kept with them. " +
			"Feeds and pages served from a cache between the client and this service are not seen here.",
	}
	for i, d := range days {
		out.Days[i].Day = d
	}
	unavailable := &record.Error{Code: record.EUNAVAILABLE, Message: "the state store could not answer"}
	for _, uc := range usageCounters {
		out.Counters = append(out.Counters, UsageCounter{Field: uc.field, Counter: uc.counter, Counts: uc.counts})
		var per map[string]int
		var err error
		if uc.counter == store.CounterSubscriptionActive {
			per, err = store.RunningTotal(ctx, s.deps.Store, uc.counter, days)
		} else {
			per, err = s.deps.Store.Counts(ctx, uc.counter, days[0], days[len(days)-1])
		}
		if err != nil {
			s.deps.Logger.Error("stats counters", "counter", uc.counter, "err", err)
			return UsageStats{}, unavailable
		}
		for i := range out.Days {
			uc.set(&out.Days[i], per[out.Days[i].Day])
		}
	}
	for _, d := range out.Days {
		out.Totals.DigestsSent += d.DigestsSent
		out.Totals.DigestLinksFollowed += d.DigestLinksFollowed
		out.Totals.FeedRequests += d.FeedRequests
		out.Totals.BatchRequests += d.BatchRequests
		out.Totals.SharesCreated += d.SharesCreated
		out.Totals.SharesRead += d.SharesRead
		out.Totals.ShareChangesRead += d.ShareChangesRead
	}
	out.Totals.ActiveSubscriptions = out.Days[len(out.Days)-1].ActiveSubscriptions
	var err error
	if out.DigestRuns, err = s.digestRunStats(ctx); err != nil {
		return UsageStats{}, err
	}
	return out, nil
}
