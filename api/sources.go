package api

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The sources report: GET /api/sources (JSON) and its page /sources
// (web/templates/sources.html): every scheduled job with its interval,
// maximum age, last runs (receipts) and whether it is late, and every
// source held with its freshness (record.Freshen, the one rule). Both
// forms serve it: it is the operator's and the reader's view of how fresh
// everything is.

// ReceiptsListed is how many receipts per job the report lists.
const ReceiptsListed = 20

// SourcesReport is GET /api/sources.
type SourcesReport struct {
	Kind        string                  `json:"kind"`
	Description string                  `json:"description"`
	GeneratedAt time.Time               `json:"generated_at"`
	Jobs        []record.JobStatus      `json:"jobs"`
	Sources     []record.SourceCoverage `json:"sources"`
	// Late names the late jobs; NotFresh the sources stale or failing.
	Late     []string `json:"late"`
	NotFresh []string `json:"not_fresh"`
	// Unavailable lists the segments of the search index refused as
	// damaged and not yet rebuilt: their records are unavailable (ids
	// listed up to UnavailableIDsListed per segment).
	Unavailable []search.Damage `json:"unavailable"`
	Rules       []string        `json:"rules"`
	// RuleKeys are Rules as notes.
	RuleKeys record.Notes `json:"rule_keys"`
}

// UnavailableIDsListed is how many ids of a refused segment the report
// lists (its records count says how many it held).
const UnavailableIDsListed = 100

// sourcesRuleKeys are the report's rules (Rules: their English).
var sourcesRuleKeys = record.Notes{
	record.N("sources.rule.fresh"),
	record.N("sources.rule.parts"),
	record.N("sources.rule.segments"),
	record.N("sources.rule.late"),
	record.N("sources.rule.receipts"),
}

var sourcesRules = func() []string {
	out := make([]string, len(sourcesRuleKeys))
	for i, n := range sourcesRuleKeys {
		out[i] = n.String()
	}
	return out
}()

func (s *Server) sourceRoutes(r *gin.Engine, api *gin.RouterGroup) {
	api.GET("/sources", s.sourcesJSON)
	r.GET("/sources", s.rateLimit(), s.sourcesPage)
}

// sourcesReport builds the report at now.
func (s *Server) sourcesReport(ctx context.Context, now time.Time) (SourcesReport, error) {
	out := SourcesReport{Kind: "sources", GeneratedAt: now, Jobs: []record.JobStatus{}, Late: []string{}, NotFresh: []string{}, Rules: sourcesRules, RuleKeys: sourcesRuleKeys.Clone(),
		Unavailable: []search.Damage{}, Description: "Every scheduled live fetch with its receipts, and every source held with its freshness."}
	if s.deps.Integrity != nil {
		for _, d := range s.deps.Integrity.Damaged() {
			if len(d.IDs) > UnavailableIDsListed {
				d.IDs = d.IDs[:UnavailableIDsListed]
			}
			out.Unavailable = append(out.Unavailable, d)
		}
	}
	if s.deps.Jobs != nil {
		jobs, err := s.deps.Jobs(ctx)
		if err != nil {
			return out, err
		}
		out.Jobs = jobs
	}
	for _, j := range out.Jobs {
		if j.Late {
			out.Late = append(out.Late, j.Job)
		}
	}
	cov, err := search.WithScope(s.deps.Search, s.deps.Search).Coverage(ctx)
	if err != nil {
		return out, err
	}
	out.Sources = cov
	if s.deps.NeverLoaded != nil { // the sources loaded and not held: never_loaded (or failing)
		none, err := s.deps.NeverLoaded(ctx, cov)
		if err != nil {
			return out, err
		}
		out.Sources = append(slices.Clip(out.Sources), none...)
	}
	if out.Sources == nil {
		out.Sources = []record.SourceCoverage{}
	}
	seen := map[string]bool{}
	for _, c := range record.NewScope(record.Searched{}, out.Sources, 0).StaleSources() {
		if !seen[c.Source] {
			seen[c.Source] = true
			out.NotFresh = append(out.NotFresh, c.Source)
		}
	}
	return out, nil
}

func (s *Server) sourcesJSON(c *gin.Context) {
	if rep, ok := s.readSources(c); ok {
		renderJSON(c, http.StatusOK, rep, noStore, time.Time{})
	}
}

// readSources reads the report for a request that takes no parameter
// (an error is written).
func (s *Server) readSources(c *gin.Context) (SourcesReport, bool) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return SourcesReport{}, false
	}
	rep, err := s.sourcesReport(c.Request.Context(), s.deps.Now())
	if err != nil {
		writeError(c, err)
		return SourcesReport{}, false
	}
	return rep, true
}

func (s *Server) sourcesPage(c *gin.Context) {
	rep, ok := s.readSources(c)
	if !ok {
		return
	}
	web.SecurityHeaders(c.Writer.Header())
	renderPage(c, http.StatusOK, web.Page{Kind: web.Sources, Title: web.Word(c.GetString(langKey), "banner.details"), Home: s.cfg.BaseURL + "/",
		JSON: s.cfg.BaseURL + "/api/sources", Data: rep}, noStore, time.Time{})
}

// feedSource is a scope's source as every feed states it, with its
// freshness.
func feedSource(c record.SourceCoverage) feed.Source {
	return feed.Source{Source: c.Source, Label: c.Label, ObservedAt: c.ObservedAt, FirstSourceDate: c.FirstSourceDate,
		LastSourceDate: c.LastSourceDate, Records: c.Records, NewestSourceDate: c.NewestSourceDate, State: c.State,
		StateSince: c.StateSince, FreshnessNote: c.FreshnessNote, LastError: c.LastError}
}

// meetingFeedSources are the meeting sources of a page (its Coverage) as
// feeds state them, with their freshness from the page's scope.
func meetingFeedSources(pg meeting.Page) []feed.Source {
	var out []feed.Source
	for _, c := range pg.Coverage {
		fs := feedSource(record.SourceCoverage{Source: c.Source, Label: c.Label, ObservedAt: c.ObservedAt,
			FirstSourceDate: c.FirstSourceDate, LastSourceDate: c.LastSourceDate, Records: c.Records})
		for _, sc := range pg.Scope.Sources {
			if sc.Source == c.Source && sc.RecordType == meeting.Kind.Name {
				fs = feedSource(sc)
			}
		}
		out = append(out, fs)
	}
	return out
}

// bannerKey holds, in a request's context, how its page finds its
// freshness banner (renderPage asks only when it renders a page).
const bannerKey = "rw.freshness-banner"

// freshnessBanner lets every page state the sources behind it that are
// not fresh (stale or failing), as the scope of every answer does: the
// banner is built only when a page is rendered (pageSearched: the kinds a
// page reads).
func (s *Server) freshnessBanner(c *gin.Context) {
	c.Set(bannerKey, func() *web.Banner {
		cov, err := search.WithScope(s.deps.Search, s.deps.Search).Coverage(c.Request.Context())
		if err != nil {
			return nil
		}
		return bannerOf(record.NewScope(pageSearched(c.FullPath()), cov, 0), s.cfg.BaseURL+"/sources")
	})
	c.Next()
}

// bannerShown bounds the sources a banner names (the rest are counted).
const bannerShown = 5

// bannerOf is the banner of a scope: each source behind it not fresh
// (record.Scope.StaleBehind) with its state and since when, at most bannerShown named (nil when every source
// is fresh).
func bannerOf(sc record.Scope, details string) *web.Banner {
	b := &web.Banner{Details: details}
	seen := map[string]bool{}
	for _, c := range sc.StaleBehind() {
		if seen[c.Source] {
			continue
		}
		seen[c.Source] = true
		b.Sample = b.Sample || strings.Contains(c.FreshnessNote, "bundled sample")
		if len(b.Sources) == bannerShown {
			b.More++
			continue
		}
		s := web.BannerSource{Source: c.Source, Name: cmp.Or(c.Label, c.Source), State: c.State, RecordType: c.RecordType}
		if !c.StateSince.IsZero() {
			s.Since = c.StateSince.UTC().Format("2006-01-02 15:04") + " UTC"
		}
		b.Sources = append(b.Sources, s)
	}
	if len(b.Sources) == 0 {
		return nil
	}
	return b
}

// JobReadiness is what /readyz says of a scheduled job: "on_time",
// "late" or "never_run", with the lateness note. A late job does not make
// the process unready: it serves the last good data, with its freshness.
type JobReadiness struct {
	State string `json:"state"`
	Note  string `json:"note,omitempty"`
}

// ReadyJobsTTL is how long /readyz reuses the jobs' lateness it read: a
// probe every second or two must not read every job's receipts each time
// (on OpenSearch about eight searches), and lateness moves in minutes.
const ReadyJobsTTL = 5 * time.Second

// readyJobs is /readyz's last reading of the jobs.
type readyJobs struct {
	mu   sync.Mutex
	at   time.Time // wall clock: the probes' pace, not the data's clock
	jobs map[string]JobReadiness
}

// jobsReadiness is /readyz's "jobs": every scheduled job's lateness (an
// empty map when none is scheduled or the receipts are unreadable, which
// is logged), read at most once per ReadyJobsTTL.
func (s *Server) jobsReadiness(ctx context.Context) map[string]JobReadiness {
	s.ready.mu.Lock()
	defer s.ready.mu.Unlock()
	if s.ready.jobs != nil && time.Since(s.ready.at) < ReadyJobsTTL {
		return s.ready.jobs
	}
	out := map[string]JobReadiness{}
	if s.deps.Jobs == nil {
		return out
	}
	jobs, err := s.deps.Jobs(ctx)
	if err != nil {
		s.deps.Logger.Warn("readyz: job receipts unreadable", "err", err)
		return out
	}
	for _, j := range jobs {
		r := JobReadiness{State: "on_time", Note: j.LateNote}
		switch {
		case j.Late:
			r.State = "late"
		case j.LastRun == nil:
			r.State = "never_run"
		}
		out[j.Job] = r
	}
	s.ready.jobs, s.ready.at = out, time.Now()
	return out
}

// feedAbsence types an empty feed by the one rule (record's
// TypeAbsence) over the scope its items were read from: that scope's own
// type, or, when the scope matched records the feed does not carry, the
// type the same sources give an empty answer.
func feedAbsence(sc *feed.Scope, from record.Scope) {
	if sc.Items > 0 {
		return
	}
	if from.Empty == nil {
		from.Matched = 0
		from.TypeAbsence()
	}
	sc.AbsenceType, sc.AbsenceNote = from.Empty.Type, from.Empty.Note
}
