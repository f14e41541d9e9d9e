package api

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
	"github.com/recordwatch/recordwatch/internal/store"
)

// checkCoverageStats compares /stats record sets with the backend's own
// count for each section and with want (counted independently).
func checkCoverageStats(t *testing.T, e *env, out CoverageStats, want map[[2]string]search.SectionCoverage) {
	t.Helper()
	if out.Form != 1 || out.Kind != "coverage" || out.CacheSeconds != 900 || len(out.Absence) != 4 {
		t.Errorf("header %+v", out)
	}
	var notices []RecordSet
	for _, rs := range out.RecordSets {
		if rs.RecordKind == "" {
			notices = append(notices, rs)
		}
	}
	if len(notices) != len(want) || out.Totals.RecordSets != len(out.RecordSets) {
		t.Errorf("%d notice record sets, want %d", len(notices), len(want))
	}
	total := 0
	for _, rs := range notices {
		w, ok := want[[2]string{rs.Source, rs.Section}]
		if !ok || rs.Records != w.Records || rs.EvidenceDate != w.LastSourceDate || rs.FirstSourceDate != w.FirstSourceDate {
			t.Errorf("record set %s: %d records, %s..%s; want %+v", rs.ID, rs.Records, rs.FirstSourceDate, rs.EvidenceDate, w)
		}
		// the backend's own count for the same section
		res, err := e.be.Search(context.Background(), search.Query{Sources: []string{rs.Source}, Sections: []string{rs.Section}, Limit: 1,
			Sort: search.SortNewest})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != rs.Records || shareDay(res.Hits[0].Notice.StartDate) != rs.EvidenceDate {
			t.Errorf("record set %s: the backend counts %d, newest %s; stats say %d, %s", rs.ID, res.Total,
				shareDay(res.Hits[0].Notice.StartDate), rs.Records, rs.EvidenceDate)
		}
		if rs.RecordType != "notice" || !strings.HasPrefix(rs.SourceLabel, "City Record Online") || rs.EvidenceRule == "" ||
			!strings.Contains(rs.CountingRule, "distinct request_id") || !strings.Contains(rs.CountingRule, `"`+rs.Section+`"`) ||
			rs.Links["search"] == "" || rs.SourceObservedAt.IsZero() {
			t.Errorf("record set %+v", rs)
		}
		total += rs.Records
	}
	all, err := e.be.Search(context.Background(), search.Query{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if total != all.Total || out.Totals.Notices != all.Total || out.Totals.Passages != all.Scope.PassagesInCorpus {
		t.Errorf("totals %+v; sets add up to %d; the backend holds %d", out.Totals, total, all.Total)
	}
}

func TestStatsForm1MatchesBackendCounts(t *testing.T) {
	e, clk := newFixtureEnv(t, Config{Form: 1}, "")
	res, b := get(t, e, "/stats")
	if res.StatusCode != 200 {
		t.Fatalf("GET /stats: %d %s", res.StatusCode, b)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=900" {
		t.Errorf("Cache-Control %q", cc)
	}
	out := decode[CoverageStats](t, b)
	checkCoverageStats(t, e, out, searchtest.WantSections(searchtest.Fixtures()))
	golden(t, "stats_form1_fixtures.json", b)

	// cached in process: a new notice is not counted for 15 minutes …
	extra := searchtest.Fixtures()[5]
	extra.Notice.RequestID = "20260801001"
	if err := e.be.Upsert(context.Background(), []search.Doc{extra}); err != nil {
		t.Fatal(err)
	}
	clk.Set(fixedNow.Add(10 * time.Minute))
	res, again := get(t, e, "/stats")
	if !bytes.Equal(again, b) || res.Header.Get("Cache-Control") != "public, max-age=300" {
		t.Errorf("within 15 minutes: body changed %v, Cache-Control %q", !bytes.Equal(again, b), res.Header.Get("Cache-Control"))
	}
	// … and is after
	clk.Set(fixedNow.Add(15 * time.Minute))
	res, fresh := get(t, e, "/stats")
	if bytes.Equal(fresh, b) || res.Header.Get("Cache-Control") != "public, max-age=900" {
		t.Fatalf("after 15 minutes the stats were not rebuilt")
	}
	docs := append(searchtest.Fixtures(), extra)
	checkCoverageStats(t, e, decode[CoverageStats](t, fresh), searchtest.WantSections(docs))

	if res, _ := get(t, e, "/stats?form=2"); res.StatusCode != 400 {
		t.Errorf("unknown parameter: %d", res.StatusCode)
	}
}

func TestStatsForm1OverTheSample(t *testing.T) {
	res, b := get(t, shared, "/stats")
	if res.StatusCode != 200 {
		t.Fatalf("GET /stats: %d %s", res.StatusCode, b)
	}
	out := decode[CoverageStats](t, b)
	// an independent count over every notice in the sample
	want := map[[2]string]search.SectionCoverage{}
	var docs []search.Doc
	cursor := ""
	for {
		page, err := shared.be.Search(context.Background(), search.Query{Sort: search.SortNewest, Limit: search.MaxLimit, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range page.Hits {
			docs = append(docs, search.Doc{Notice: h.Notice})
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	want = searchtest.WantSections(docs)
	checkCoverageStats(t, shared, out, want)
	if len(out.RecordSets) < 5 || out.RecordSets[0].Section != record.SectionProcurement {
		t.Errorf("record sets %+v", out.RecordSets)
	}
	golden(t, "stats_form1_sample.json", b)
}

func TestStatsForm2ReportsCounters(t *testing.T) {
	e, clk := newFixtureEnv(t, Config{Form: 2}, "")
	ctx := context.Background()
	at := func(day int) time.Time { return time.Date(2026, 8, day, 9, 0, 0, 0, record.NewYork) }
	// events before the window still count toward active subscriptions
	clk.Set(time.Date(2026, 7, 1, 9, 0, 0, 0, record.NewYork))
	e.srv.countEvent(ctx, store.CounterSubscriptionActive, 1)
	e.srv.countEvent(ctx, store.CounterSubscriptionActive, 1)
	e.srv.countEvent(ctx, store.CounterDigestSent, 7)
	for _, ev := range []struct {
		day     int
		counter string
		delta   int
	}{
		{1, store.CounterSubscriptionActive, 1},
		{1, store.CounterDigestSent, 3},
		{2, store.CounterDigestLinkFollowed, 2},
		{2, store.CounterFeedRequest, 40},
		{3, store.CounterBatchRequest, 5},
		{10, store.CounterSubscriptionActive, -1},
		{14, store.CounterDigestSent, 2},
		{14, store.CounterFeedRequest, 4},
	} {
		clk.Set(at(ev.day))
		e.srv.countEvent(ctx, ev.counter, ev.delta)
	}
	// share activity through the API itself
	clk.Set(at(14))
	created := mustCreateShare(t, e, "192.0.2.60", validPin)
	get(t, e, "/inv/"+created.ID)
	get(t, e, "/inv/"+created.ID)
	get(t, e, "/inv/"+created.ID+"/changes")

	clk.Set(fixedNow)
	res, b := get(t, e, "/stats")
	if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=900" {
		t.Fatalf("GET /stats: %d %s", res.StatusCode, b)
	}
	out := decode[UsageStats](t, b)
	if out.Form != 2 || out.Kind != "usage" || len(out.Days) != StatsWindowDays || out.Window.From != "2026-07-16" ||
		out.Window.To != "2026-08-14" || out.Days[0].Day != "2026-07-16" || out.Days[29].Day != "2026-08-14" {
		t.Fatalf("window %+v, %d days", out.Window, len(out.Days))
	}
	byDay := map[string]UsageDay{}
	for _, d := range out.Days {
		byDay[d.Day] = d
	}
	checks := []struct {
		day       string
		got, want int
		what      string
	}{
		{"2026-07-16", byDay["2026-07-16"].ActiveSubscriptions, 2, "active before the window"},
		{"2026-08-01", byDay["2026-08-01"].ActiveSubscriptions, 3, "active"},
		{"2026-08-09", byDay["2026-08-09"].ActiveSubscriptions, 3, "active"},
		{"2026-08-10", byDay["2026-08-10"].ActiveSubscriptions, 2, "active after an unsubscribe"},
		{"2026-08-01", byDay["2026-08-01"].DigestsSent, 3, "digests"},
		{"2026-08-02", byDay["2026-08-02"].DigestLinksFollowed, 2, "links followed"},
		{"2026-08-02", byDay["2026-08-02"].FeedRequests, 40, "feeds"},
		{"2026-08-03", byDay["2026-08-03"].BatchRequests, 5, "batch"},
		{"2026-08-14", byDay["2026-08-14"].SharesCreated, 1, "shares created"},
		{"2026-08-14", byDay["2026-08-14"].SharesRead, 2, "shares read"},
		{"2026-08-14", byDay["2026-08-14"].ShareChangesRead, 1, "changes read"},
		{"totals", out.Totals.DigestsSent, 5, "digests in the window (not the 7 before it)"},
		{"totals", out.Totals.FeedRequests, 44, "feeds"},
		{"totals", out.Totals.ActiveSubscriptions, 2, "active at the end"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s %s: %d, want %d", c.day, c.what, c.got, c.want)
		}
	}
	if strings.Contains(string(b), "192.0.2.60") {
		t.Error("a client address reached the stats")
	}
	golden(t, "stats_form2.json", b)
}

func TestStatsCountersSurviveRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	e, _ := newFixtureEnv(t, Config{Form: 2}, path)
	ctx := context.Background()
	e.srv.countEvent(ctx, store.CounterDigestSent, 1)
	e.srv.countEvent(ctx, store.CounterDigestSent, 1)
	e.srv.countEvent(ctx, store.CounterSubscriptionActive, 1)
	mustCreateShare(t, e, "192.0.2.70", validPin)
	e.ts.Close()
	e.st.Close() // the process stops …

	e2, _ := newFixtureEnv(t, Config{Form: 2}, path) // … and starts again on the same state file
	res, b := get(t, e2, "/stats")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /stats: %d %s", res.StatusCode, b)
	}
	today := decode[UsageStats](t, b).Days[StatsWindowDays-1]
	if today.DigestsSent != 2 || today.ActiveSubscriptions != 1 || today.SharesCreated != 1 {
		t.Errorf("after a restart: %+v", today)
	}
}

// An index that cannot answer is a 503, never a page of zeros.
func TestStatsUnavailableIsNotCached(t *testing.T) {
	e, _ := newFixtureEnv(t, Config{Form: 1}, "")
	shareEnvClosers[e]()
	res, b := get(t, e, "/stats")
	if res.StatusCode != http.StatusServiceUnavailable || decode[errorBody](t, b).Error.Code != record.EUNAVAILABLE ||
		res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("stats over a closed index: %d %s", res.StatusCode, b)
	}
}

// A batch look-up answered through the API is counted, and Form 2 /stats
// reports it (it never did: nothing incremented the counter).
func TestStatsForm2CountsBatchRequests(t *testing.T) {
	e, clk := newFixtureEnv(t, Config{Form: 2}, "")
	clk.Set(fixedNow)
	for i := 0; i < 2; i++ {
		if res, b := post(t, e, "/batch", "application/json", []byte(`{"names":["Denville Line Painting Inc"]}`)); res.StatusCode != 200 {
			t.Fatalf("batch: %d %s", res.StatusCode, b)
		}
	}
	_, b := get(t, e, "/stats")
	out := decode[UsageStats](t, b)
	if out.Totals.BatchRequests != 2 || out.Days[len(out.Days)-1].BatchRequests != 2 {
		t.Errorf("batch requests: totals %d, today %d; want 2", out.Totals.BatchRequests, out.Days[len(out.Days)-1].BatchRequests)
	}
}
