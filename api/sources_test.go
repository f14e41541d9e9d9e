package api

import (
	"context"
	"fmt"
	"github.com/recordwatch/recordwatch/api/mcp"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
)

// scheduledEnv serves the sample's notices through a Freshened engine whose
// runs are the default jobs' receipts in st, as main.go wires it.
func scheduledEnv(t *testing.T, receipts ...record.Receipt) (*env, *store.Bolt) {
	t.Helper()
	return scheduledEnvOver(t, sampletest.Notices, receipts...)
}

// scheduledEnvOver is scheduledEnv over corpus c of the bundled sample.
func scheduledEnvOver(t *testing.T, c sampletest.Corpus, receipts ...record.Receipt) (*env, *store.Bolt) {
	t.Helper()
	dir := t.TempDir()
	be, err := sampletest.CopyTo(filepath.Join(dir, "index"), c, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, r := range receipts {
		if err := st.PutReceipt(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	jobs := indexer.DefaultJobs()
	now := func() time.Time { return fixedNow }
	e := search.WithFreshness(be, func(ctx context.Context) (func(string) record.SourceRun, error) {
		return indexer.SourceRuns(ctx, jobs, st)
	}, now)
	cfg := Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6, Engine: "embedded"}
	d := withServices(cfg, Deps{Search: e, Store: st, Crosswalk: entity.DefaultCrosswalk(), Now: now,
		Jobs: func(ctx context.Context) ([]record.JobStatus, error) {
			return indexer.JobStatuses(ctx, jobs, st, ReceiptsListed, fixedNow)
		},
		NeverLoaded: func(ctx context.Context, held []record.SourceCoverage) ([]record.SourceCoverage, error) {
			return indexer.NeverLoaded(ctx, jobs, st, held, fixedNow)
		}})
	d.MCP = mcp.Handler(mcpDepsOf(d, cfg.BaseURL), 1) // the tools read the same freshness
	srv := New(cfg, d)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &env{srv: srv, ts: ts, st: st, be: be}, st
}

func receipt(job string, started time.Time, ok bool) record.Receipt {
	r := record.Receipt{Job: job, Source: job, Window: "test window", Started: started, Finished: started.Add(2 * time.Second),
		RowsRead: 10, Written: 9, Rejected: 1, Reasons: []string{"row 4: no request id"}, Outcome: record.ReceiptOK}
	if !ok {
		r.Outcome, r.Error, r.Written = record.ReceiptFailed, "upstream answered 500", 0
	}
	return r
}

// /api/sources lists every job with its receipts and lateness and every
// source with its freshness; its page and /stats say the same.
func TestSourcesReport(t *testing.T) {
	e, _ := scheduledEnv(t,
		receipt("crol", fixedNow.Add(-10*time.Minute), true),
		receipt("meetings", fixedNow.Add(-5*time.Hour), true), // hourly: late
		receipt("checkbook-spending", fixedNow.Add(-30*time.Hour), true),
		receipt("checkbook-spending", fixedNow.Add(-6*time.Hour), false))
	res, body := get(t, e, "/api/sources")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/api/sources: %d %s", res.StatusCode, body)
	}
	rep := decode[SourcesReport](t, body)
	jobs := map[string]record.JobStatus{}
	for _, j := range rep.Jobs {
		jobs[j.Job] = j
	}
	if len(rep.Jobs) != len(indexer.DefaultJobs()) {
		t.Errorf("%d jobs listed, want every default job", len(rep.Jobs))
	}
	if c := jobs["crol"]; c.Late || c.LastRun == nil || c.LastRun.RowsRead != 10 || len(c.Receipts) != 1 || c.Receipts[0].Reasons[0] != "row 4: no request id" || c.Every != "5m0s" {
		t.Errorf("crol job: %+v", c)
	}
	if m := jobs["meetings"]; !m.Late || !strings.Contains(m.LateNote, "no run since") {
		t.Errorf("meetings job (last run 5 h ago, hourly): %+v", m)
	}
	if p := jobs["payroll"]; p.Late || p.LastRun != nil || !strings.Contains(p.LateNote, "never run") {
		t.Errorf("payroll job (never run): %+v", p)
	}
	if cb := jobs["checkbook-spending"]; cb.LastRun.Outcome != record.ReceiptFailed || cb.LastOK == nil || len(cb.Receipts) != 2 {
		t.Errorf("checkbook-spending job: %+v", cb)
	}
	if strings.Join(rep.Late, ",") != "meetings" {
		t.Errorf("late: %v", rep.Late)
	}
	var crol *record.SourceCoverage
	for i, c := range rep.Sources {
		if c.Source == record.SourceCROL {
			crol = &rep.Sources[i]
		}
	}
	if crol == nil || crol.State != record.Fresh || crol.MaxAgeSeconds != 3600 || crol.ScheduleEvery != "5m0s" ||
		!crol.ObservedAt.Equal(fixedNow.Add(-10*time.Minute+2*time.Second)) || crol.NewestSourceDate == "" || crol.ObservedAgeSeconds != 598 {
		t.Fatalf("crol freshness: %+v", crol)
	}

	// every source the service loads is listed, held or not: those not
	// held are never_loaded (failing when their live fetch fails), and a
	// source without a schedule says "file only"
	listed := map[string]record.SourceCoverage{}
	for _, c := range rep.Sources {
		listed[c.Source] = c
	}
	for _, src := range indexer.KnownSources(indexer.DefaultJobs()) {
		if _, ok := listed[src]; !ok {
			t.Errorf("/api/sources does not list %s", src)
		}
	}
	if c := listed["legistar"]; c.State != record.NeverLoaded || c.Schedule != record.ScheduleLive {
		t.Errorf("legistar (not held): %+v", c)
	}
	if c := listed["civillist"]; c.State != record.NeverLoaded || c.Schedule != record.ScheduleFileOnly {
		t.Errorf("civillist (not held, file only): %+v", c)
	}
	if c := listed["checkbook"]; c.State != record.Failing || !strings.Contains(c.FreshnessNote, "nothing of this source is held") {
		t.Errorf("checkbook (not held, its live fetch failing): %+v", c)
	}
	if !slices.Contains(rep.NotFresh, "checkbook") {
		t.Errorf("not fresh: %v", rep.NotFresh)
	}

	_, rb := get(t, e, "/readyz")
	ready := decode[struct {
		Status string                  `json:"status"`
		Jobs   map[string]JobReadiness `json:"jobs"`
	}](t, rb)
	if ready.Status != "ready" || ready.Jobs["meetings"].State != "late" || ready.Jobs["crol"].State != "on_time" || ready.Jobs["payroll"].State != "never_run" {
		t.Errorf("/readyz: %+v", ready)
	}

	_, page := get(t, e, "/sources")
	for _, want := range []string{"Sources and their freshness", "<strong>Late:</strong> meetings", "row 4: no request id", "upstream answered 500", "fresh"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("/sources lacks %q", want)
		}
	}
	_, sb := get(t, e, "/stats")
	stats := decode[CoverageStats](t, sb)
	if stats.Live == nil || len(stats.Live.Jobs) != len(rep.Jobs) || strings.Join(stats.Live.Late, ",") != "meetings" {
		t.Fatalf("/stats live: %+v", stats.Live)
	}
	// the lag figures, from the receipts: a 2 s run every 5 minutes
	for _, j := range stats.Live.Jobs {
		if j.Job == "crol" && (j.Lag == nil || j.Lag.PipelineP95Seconds != 2 || j.Lag.SearchableP50Seconds != 152 || j.Lag.SearchableP95Seconds != 287) {
			t.Errorf("/stats crol lag: %+v", j.Lag)
		}
		if j.Job == "payroll" && j.Lag != nil {
			t.Errorf("a job that never ran has lag figures: %+v", j.Lag)
		}
	}
	for _, c := range stats.Sources {
		if c.Source == record.SourceCROL && c.State != record.Fresh {
			t.Errorf("/stats says crol is %q", c.State)
		}
	}
}

// The one freshness rule: fresh within the maximum age, stale past it
// (since when), failing while the live fetch fails whatever its age,
// never_loaded when nothing is held, and a source no live
// run fetched says it was loaded from files.
func TestFreshenRule(t *testing.T) {
	now := fixedNow
	held := record.SourceCoverage{Source: "crol", Records: 5, LastSourceDate: "2026-08-13", ObservedAt: now.Add(-30 * time.Minute)}
	live := record.SourceRun{Job: "crol", Every: 5 * time.Minute, MaxAge: time.Hour, LastOK: now.Add(-30 * time.Minute)}
	for _, c := range []struct {
		name  string
		cov   record.SourceCoverage
		run   record.SourceRun
		state string
		note  string
	}{
		{"fresh", held, live, record.Fresh, ""},
		{"stale", held, record.SourceRun{Job: "crol", MaxAge: 10 * time.Minute, LastOK: now.Add(-30 * time.Minute)}, record.Stale, "past its maximum age"},
		{"failing", held, record.SourceRun{Job: "crol", MaxAge: time.Hour, LastOK: now.Add(-30 * time.Minute), FailingSince: now.Add(-20 * time.Minute), LastError: "500"}, record.Failing, "fails"},
		{"failing past max age", held, record.SourceRun{Job: "crol", MaxAge: 10 * time.Minute, LastOK: now.Add(-30 * time.Minute), FailingSince: now.Add(-20 * time.Minute), LastError: "500"}, record.Failing, "fails"},
		{"never loaded", record.SourceCoverage{Source: "crol"}, live, record.NeverLoaded, "nothing"},
		{"sample only", held, record.SourceRun{MaxAge: 10 * time.Minute}, record.Stale, "bundled sample"},
		{"no observation", record.SourceCoverage{Source: "x", Records: 3}, record.SourceRun{MaxAge: time.Hour, LastOK: time.Time{}}, record.Stale, "bundled sample"},
	} {
		got := record.Freshen(c.cov, c.run, now)
		if got.State != c.state || !strings.Contains(got.FreshnessNote, c.note) {
			t.Errorf("%s: state %q note %q, want %q with %q", c.name, got.State, got.FreshnessNote, c.state, c.note)
		}
		if c.state == record.Failing && (got.LastError != "500" || !got.StateSince.Equal(c.run.FailingSince)) {
			t.Errorf("%s: %+v", c.name, got)
		}
		if c.name == "stale" && !got.StateSince.Equal(c.cov.ObservedAt.Add(10*time.Minute)) {
			t.Errorf("stale since %v", got.StateSince)
		}
	}
}

// The banner names at most bannerShown sources not fresh (the rest
// counted), says when they are held from the bundled sample, and is
// absent when every source is fresh.
func TestBanner(t *testing.T) {
	var sc record.Scope
	for i := range 7 {
		sc.Sources = append(sc.Sources, record.SourceCoverage{Source: fmt.Sprintf("s%d", i), State: record.Stale,
			FreshnessNote: "loaded from files (the bundled sample unless -source-dir was given)"})
	}
	sc.Sources = append(sc.Sources, record.SourceCoverage{Source: "ok", State: record.Fresh})
	b := bannerOf(sc, "/sources")
	if b == nil || len(b.Sources) != bannerShown || b.More != 2 || !b.Sample || b.Sources[0] != (web.BannerSource{Source: "s0", Name: "s0", State: record.Stale}) {
		t.Fatalf("banner: %+v", b)
	}
	if bannerOf(record.Scope{Sources: []record.SourceCoverage{{Source: "ok", State: record.Fresh}}}, "/sources") != nil {
		t.Error("a banner when every source is fresh")
	}
}

// /readyz reads the jobs' receipts at most once per ReadyJobsTTL, however
// often it is probed.
func TestReadyzReadsJobsOncePerTTL(t *testing.T) {
	reads := 0
	srv := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6},
		Deps{Search: shared.be, Store: shared.st, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow },
			Jobs: func(context.Context) ([]record.JobStatus, error) {
				reads++
				return []record.JobStatus{{Job: "crol", Late: true}}, nil
			}})
	for i := 0; i < 5; i++ {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"late"`) {
			t.Fatalf("/readyz: %d %s", w.Code, w.Body)
		}
	}
	if reads != 1 {
		t.Errorf("five probes read the jobs %d times, want once", reads)
	}
}

// A board calendar the last meetings run could not read: /api/sources
// lists it with its reason (the run's receipt part and the source's
// coverage), and the empty meetings answer for that board and month is
// upstream_failing naming the document and why; another month of the
// board does not name it.
func TestUnreadCalendarOnSourcesAndInTheEmptyAnswer(t *testing.T) {
	doc := "https://cb.example/cal/bronx-cb-10-november-2026.txt"
	reason := "bronx-cb-10-november-2026.txt: rejected whole: line 40: \"Borough Board Meeting\" sits between two day columns"
	rc := record.Receipt{Job: "meetings", Source: "meetings", Window: "test window", Started: fixedNow.Add(-time.Hour), Finished: fixedNow.Add(-time.Hour + time.Minute),
		Outcome: record.ReceiptOK, Parts: []record.ReceiptPart{{Source: "cb-calendar", Outcome: record.ReceiptFailed, Error: doc + ": " + reason,
			Unread: []record.UnreadDocument{{Document: doc, Body: "Bronx Community Board 10", BodyKey: "bronx-community-board-10", Month: "2026-11", Reason: reason}}}}}
	e, _ := scheduledEnvOver(t, sampletest.Full, rc)
	var rep SourcesReport
	getJSON(t, e, "/api/sources", &rep)
	listed := false
	for _, c := range rep.Sources {
		if c.Source == "cb-calendar" {
			listed = len(c.Unread) == 1 && c.Unread[0].Document == doc && c.Unread[0].Reason == reason && c.Unread[0].Month == "2026-11"
		}
	}
	if !listed {
		t.Errorf("/api/sources does not list the unread calendar: %+v", rep.Sources)
	}
	inReceipt := false
	for _, j := range rep.Jobs {
		for _, r := range j.Receipts {
			for _, p := range r.Parts {
				inReceipt = inReceipt || (len(p.Unread) == 1 && p.Unread[0].Document == doc)
			}
		}
	}
	if !inReceipt {
		t.Error("/api/sources' receipts do not name the unread calendar")
	}
	if _, page := get(t, e, "/sources"); !strings.Contains(string(page), "Could not be read:") || !strings.Contains(string(page), doc) {
		t.Error("the sources page does not name the unread calendar")
	}
	var nov, oct struct {
		Scope record.Scope `json:"scope"`
	}
	getJSON(t, e, "/api/meetings?body=Bronx+Community+Board+10&from=2026-11-01&to=2026-11-30", &nov)
	if nov.Scope.Empty == nil || nov.Scope.Empty.Type != record.UpstreamFailing {
		t.Fatalf("the board's November, empty: %+v", nov.Scope.Empty)
	}
	named := false
	for _, a := range nov.Scope.Empty.Sources {
		named = named || (a.Source == "cb-calendar" && a.Type == record.UpstreamFailing && strings.Contains(a.Note, doc) && strings.Contains(a.Note, "sits between two day columns") && strings.Contains(a.Note, "could not be read") && strings.Contains(a.Note, "Bronx Community Board 10 2026-11"))
	}
	if !named {
		t.Errorf("the empty answer does not name the document and why: %+v", nov.Scope.Empty)
	}
	getJSON(t, e, "/api/meetings?body=Bronx+Community+Board+10&from=2026-10-01&to=2026-10-31", &oct)
	if oct.Scope.Empty != nil {
		for _, a := range oct.Scope.Empty.Sources {
			if strings.Contains(a.Note, "could not be read") {
				t.Errorf("October names November's calendar: %+v", a)
			}
		}
	}
}
