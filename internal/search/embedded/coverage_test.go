package embedded

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// coverageByQueries is the coverage as the engine computed it before issue
// 50 (Bleve facet and sort searches on every read after a write): the
// reference the segment path must equal.
func coverageByQueries(ctx context.Context, b *Backend) ([]record.SourceCoverage, error) {
	sources := map[string]*record.SourceCoverage{}
	for _, o := range b.observations() {
		sources[o.Source] = &record.SourceCoverage{Source: o.Source, Label: o.Label, RecordType: o.RecordType, ObservedAt: o.ObservedAt}
	}
	for _, idx := range []bleve.Index{b.notices, b.passages} {
		req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 0, 0, false)
		req.AddFacet("source", bleve.NewFacetRequest("source", 100))
		res, err := idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, err
		}
		if fr := res.Facets["source"]; fr != nil && fr.Terms != nil {
			for _, t := range fr.Terms.Terms() {
				c := sources[t.Term]
				if idx == b.passages {
					if c != nil {
						c.Passages = t.Count
					}
					continue
				}
				if c == nil {
					c = &record.SourceCoverage{Source: t.Term, RecordType: "notice"}
					sources[t.Term] = c
				}
				c.Records = t.Count
			}
		}
	}
	for name, c := range sources {
		if c.Records == 0 {
			continue
		}
		src := bleve.NewTermQuery(name)
		src.SetField("source")
		var err error
		if c.FirstSourceDate, err = b.edgeDay(ctx, src, false); err != nil {
			return nil, err
		}
		if c.LastSourceDate, err = b.edgeDay(ctx, src, true); err != nil {
			return nil, err
		}
	}
	out := make([]record.SourceCoverage, 0, len(sources))
	for _, c := range sources {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out, nil
}

// recordCoverageByQueries is the records' coverage as the engine computed
// it before issue 50 (Bleve facet and sort searches): the reference the
// segment path must equal.
func recordCoverageByQueries(ctx context.Context, b *Backend) ([]record.SourceCoverage, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 0, 0, false)
	req.AddFacet("source", bleve.NewFacetRequest("source", 1000))
	res, err := b.records.SearchInContext(ctx, req)
	if err != nil {
		return nil, unavailable(err)
	}
	out := []record.SourceCoverage{}
	for _, src := range facetTerms(res, "source") {
		sq := terms("source", []string{src.Term})
		kreq := bleve.NewSearchRequestOptions(sq, 0, 0, false)
		kreq.AddFacet("kind", bleve.NewFacetRequest("kind", 1000))
		kres, err := b.records.SearchInContext(ctx, kreq)
		if err != nil {
			return nil, unavailable(err)
		}
		for _, kind := range facetTerms(kres, "kind") {
			c := record.SourceCoverage{Source: src.Term, RecordType: kind.Term, Records: kind.Count}
			both := bleve.NewConjunctionQuery(sq, terms("kind", []string{kind.Term}))
			first, err := recordEdgeByQuery(b, ctx, both, "sort_date_asc", false)
			if err != nil {
				return nil, err
			}
			last, err := recordEdgeByQuery(b, ctx, both, "sort_date_asc", true)
			if err != nil {
				return nil, err
			}
			newest, err := recordEdgeByQuery(b, ctx, both, "observed", true)
			if err != nil {
				return nil, err
			}
			if first != nil && !first.Date.IsZero() {
				c.FirstSourceDate = first.Date.In(record.NewYork).Format("2006-01-02")
			}
			if last != nil && !last.Date.IsZero() {
				c.LastSourceDate = last.Date.In(record.NewYork).Format("2006-01-02")
			}
			if newest != nil {
				c.ObservedAt = newest.ObservedAt
				c.Label = newest.SourceLabel
			} else if any, err := recordEdgeByQuery(b, ctx, both, "id", false); err != nil {
				return nil, err
			} else if any != nil { // no record states when it was observed: the label of the first
				c.Label = any.SourceLabel
			}
			out = append(out, c)
		}
	}
	search.SortRecordCoverage(out)
	return out, nil
}

// recordEdge is the record with the lowest (or highest) value of a keyword
// sort key among those q matches, skipping the missing-value sentinels;
// ties go to the lowest id, then kind.
func recordEdgeByQuery(b *Backend, ctx context.Context, q query.Query, field string, desc bool) (*search.Record, error) {
	bq := bleve.NewBooleanQuery()
	bq.AddMust(q)
	bq.AddMustNot(terms(field, []string{keyMissingLow, keyMissingHigh}))
	req := bleve.NewSearchRequestOptions(bq, 1, 0, false)
	req.Fields = []string{"doc"}
	req.SortByCustom(bsearch.SortOrder{keySort(field, desc), keySort("id", false), keySort("kind", false)})
	res, err := b.records.SearchInContext(ctx, req)
	if err != nil {
		return nil, unavailable(err)
	}
	if len(res.Hits) == 0 {
		return nil, nil
	}
	r, err := decodeRecord(res.Hits[0].Fields["doc"])
	if err != nil {
		return nil, err
	}
	return &r, nil
}

func (b *Backend) coverageRuns() int {
	b.cov.mu.Lock()
	defer b.cov.mu.Unlock()
	return b.cov.runs
}

// Coverage is kept by the writes: every notice write computes it once
// before it returns, reads after it see the new counts and dates without
// computing anything, and it equals what the Bleve searches find, through
// new segments, replaced and deleted notices, a second source, undated and
// future-dated notices and an observation.
func TestCoverageIsKeptByWrites(t *testing.T) {
	ctx := context.Background()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)
	b.Now = func() time.Time { return now }

	docs := searchtest.Fixtures()
	other := make([]search.Doc, 0, 6)
	for i := range 6 {
		d := docs[i]
		d.Notice.RequestID = fmt.Sprintf("X%03d", i)
		d.Notice.Source = "other"
		for j := range d.Passages {
			d.Passages[j].ID = fmt.Sprintf("%s#p%d", d.Notice.RequestID, j+1)
			d.Passages[j].RequestID = d.Notice.RequestID
			d.Passages[j].Source = "other"
		}
		switch i {
		case 0:
			d.Notice.StartDate = time.Time{} // undated: counted, moves no date
		case 1:
			d.Notice.StartDate = now.AddDate(0, 3, 0) // future-dated: counted, moves no date
		}
		other = append(other, d)
	}
	changed := docs[3]
	changed.Notice.StartDate = time.Date(2009, 1, 2, 15, 0, 0, 0, time.UTC)
	changed.Passages = changed.Passages[:min(1, len(changed.Passages))]
	steps := []struct {
		name  string
		write func() error
	}{
		{"first half", func() error { return b.Upsert(ctx, docs[:len(docs)/2]) }},
		{"second half", func() error { return b.Upsert(ctx, docs[len(docs)/2:]) }},
		{"another source", func() error { return b.Upsert(ctx, other) }},
		{"a notice moved to an earlier date", func() error { return b.Upsert(ctx, []search.Doc{changed}) }},
		{"observed", func() error {
			return b.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "City Record Online", RecordType: "notice", ObservedAt: now})
		}},
		{"deleted", func() error {
			return b.Delete(ctx, []string{docs[0].Notice.RequestID, "X001", changed.Notice.RequestID})
		}},
	}
	var prev []record.SourceCoverage
	for _, st := range steps {
		runs := b.coverageRuns()
		if err := st.write(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := b.coverageRuns() - runs; got != 1 {
			t.Errorf("%s: the write computed the coverage %d times, want 1", st.name, got)
		}
		runs = b.coverageRuns()
		got, err := b.Coverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n := b.coverageRuns() - runs; n != 0 {
			t.Errorf("%s: a read after the write computed the coverage %d times", st.name, n)
		}
		want, err := coverageByQueries(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: coverage\n got %+v\nwant %+v", st.name, got, want)
		}
		if reflect.DeepEqual(got, prev) {
			t.Errorf("%s: the coverage did not change: %+v", st.name, got)
		}
		prev = got
	}
	if len(prev) != 2 || prev[0].Records == 0 || prev[0].FirstSourceDate == "" || prev[0].Passages == 0 || prev[1].LastSourceDate == "" {
		t.Errorf("the fixtures did not exercise the counts and dates: %+v", prev)
	}
}

// However many requests ask at once, a coverage not kept (a start, a
// failed computation, a new day moving the future cutoff) is computed
// once, and the value kept is then read without computing.
func TestConcurrentFirstReadsComputeCoverageOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Upsert(ctx, searchtest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := b.coverageRuns(); got != 1 {
		t.Fatalf("opening computed the coverage %d times, want 1", got)
	}
	want, err := coverageByQueries(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	const n = 16
	ask := func(what string) {
		t.Helper()
		var wg sync.WaitGroup
		got := make([][]record.SourceCoverage, n)
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() { got[i], errs[i] = b.Coverage(ctx) })
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil || !reflect.DeepEqual(got[i], want) {
				t.Errorf("%s: request %d: %v %+v, want %+v", what, i, errs[i], got[i], want)
			}
		}
	}
	ask("after the start")
	if got := b.coverageRuns(); got != 1 {
		t.Errorf("%d requests after the start computed the coverage %d times, want none", n, got-1)
	}

	b.cmu.Lock()
	b.coverage = nil // as a failed computation leaves it
	b.cmu.Unlock()
	ask("none kept")
	if got := b.coverageRuns(); got != 2 {
		t.Errorf("%d requests with no coverage kept computed it %d times, want 1", n, got-1)
	}

	later := time.Now().AddDate(0, 0, 3) // the cutoff moves on: a future-dated notice may now count
	b.Now = func() time.Time { return later }
	ask("a new day")
	if got := b.coverageRuns(); got != 3 {
		t.Errorf("%d requests on a new day computed the coverage %d times, want 1", n, got-2)
	}
	ask("the same day")
	if got := b.coverageRuns(); got != 3 {
		t.Errorf("reads of a kept coverage computed it %d times", got-3)
	}
}

// Record coverage is kept by the writes, and a read that finds none kept
// (a failed computation) computes it once however many requests ask at
// the same time.
func TestConcurrentRecordCoverageComputedOnce(t *testing.T) {
	ctx := context.Background()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rs := []search.Record{}
	for i := range 20 {
		rs = append(rs, search.Record{Kind: "payroll", ID: fmt.Sprint("row-", i), Source: "payroll", SourceLabel: "Payroll",
			Date: time.Date(2020+i%3, time.June, 30, 0, 0, 0, 0, time.UTC), Body: []byte(`{}`)})
	}
	if err := b.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
	runs := func() int {
		b.rcov.Lock()
		defer b.rcov.Unlock()
		return b.rcovRuns
	}
	ask := func() [][]record.SourceCoverage {
		var wg sync.WaitGroup
		got := make([][]record.SourceCoverage, 16)
		for i := range got {
			wg.Go(func() {
				var err error
				if got[i], err = b.RecordCoverage(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		return got
	}
	before := runs()
	ask()
	if d := runs() - before; d != 0 {
		t.Errorf("16 requests after a record write computed the record coverage %d times, want none", d)
	}
	b.cmu.Lock()
	b.recordCoverage = nil // as a failed computation leaves it
	b.cmu.Unlock()
	before = runs()
	got := ask()
	if d := runs() - before; d != 1 {
		t.Errorf("16 concurrent requests with none kept computed the record coverage %d times, want 1", d)
	}
	for i := range got {
		if len(got[i]) != 1 || got[i][0].Records != len(rs) || got[i][0].FirstSourceDate != rs[0].Date.In(record.NewYork).Format("2006-01-02") {
			t.Errorf("request %d: %+v", i, got[i])
		}
	}
}

// The records' coverage kept by each write equals what the Bleve searches
// find: several sources and kinds, undated records, records that say when
// they were observed and records that do not, replaced and deleted ones,
// over several segments.
func TestRecordCoverageIsKeptByWrites(t *testing.T) {
	ctx := context.Background()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 12, 0, 0, 0, time.UTC) }
	rec := func(source, kind string, id int, date, observed time.Time, label string) search.Record {
		return search.Record{Kind: kind, ID: fmt.Sprintf("%s-%03d", kind, id), Source: source, SourceLabel: label, Date: date, ObservedAt: observed, Body: []byte(`{}`)}
	}
	var batch1, batch2 []search.Record
	for i := range 30 {
		var obs time.Time
		if i%4 != 0 {
			obs = day(2026, 1+i%3, 1) // loads observe many records at once: ties, to the lowest id
		}
		var date time.Time
		if i%5 != 0 {
			date = day(2000+i, 1+i%12, 1+i%28)
		}
		batch1 = append(batch1, rec("checkbook", "payment", i, date, obs, fmt.Sprint("Checkbook ", i)))
		batch2 = append(batch2, rec("zap", []string{"project", "action"}[i%2], i, date, time.Time{}, fmt.Sprint("ZAP ", i)))
	}
	steps := []struct {
		name  string
		write func() error
	}{
		{"first batch", func() error { return b.PutRecords(ctx, batch1) }},
		{"another source, never observed", func() error { return b.PutRecords(ctx, batch2) }},
		{"replaced: earlier date, newer observation", func() error {
			r := batch1[7]
			r.Date, r.ObservedAt, r.SourceLabel = day(1990, 3, 4), day(2026, 12, 31), "Checkbook NYC"
			return b.PutRecords(ctx, []search.Record{r})
		}},
		{"deleted: the first and the newest", func() error {
			return b.DeleteRecords(ctx, "payment", []string{batch1[1].ID, batch1[7].ID, batch1[29].ID})
		}},
		{"deleted: the lowest ids of a kind never observed", func() error {
			return b.DeleteRecords(ctx, "project", []string{batch2[0].ID, batch2[2].ID})
		}},
	}
	var prev []record.SourceCoverage
	for _, st := range steps {
		b.rcov.Lock()
		runs := b.rcovRuns
		b.rcov.Unlock()
		if err := st.write(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := b.RecordCoverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b.rcov.Lock()
		if d := b.rcovRuns - runs; d != 1 {
			t.Errorf("%s: the write and a read computed the record coverage %d times, want 1 (the write's)", st.name, d)
		}
		b.rcov.Unlock()
		want, err := recordCoverageByQueries(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: record coverage\n got %+v\nwant %+v", st.name, got, want)
		}
		if reflect.DeepEqual(got, prev) {
			t.Errorf("%s: the record coverage did not change: %+v", st.name, got)
		}
		prev = got
	}
}
