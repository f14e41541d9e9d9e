package search_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// counting is the real embedded engine with its notice and passage
// searches counted (only to observe what reaches the engine); during, when
// set, runs inside a search, after the engine answered.
type counting struct {
	search.Engine
	searches, passages, totals, noticeTotals atomic.Int64
	name                                     string
	during                                   func()
	block                                    chan struct{} // when set, a search waits for it to close
}

func (c *counting) Search(ctx context.Context, q search.Query) (search.Result, error) {
	c.searches.Add(1)
	if c.block != nil {
		<-c.block
	}
	res, err := c.Engine.Search(ctx, q)
	if c.during != nil {
		c.during()
	}
	return res, err
}

func (c *counting) NoticeTotals(ctx context.Context, q search.Query, groupBy []string, size int) (search.Totals, error) {
	c.noticeTotals.Add(1)
	return c.Engine.NoticeTotals(ctx, q, groupBy, size)
}

func (c *counting) RecordTotals(ctx context.Context, q search.RecordQuery, groupBy []string, size int) (search.Totals, error) {
	c.totals.Add(1)
	return c.Engine.RecordTotals(ctx, q, groupBy, size)
}

func (c *counting) Passages(ctx context.Context, q search.PassageQuery) (search.PassageResult, error) {
	c.passages.Add(1)
	return c.Engine.Passages(ctx, q)
}

func (c *counting) Name() string {
	if c.name != "" {
		return c.name
	}
	return c.Engine.Name()
}

// openCached is the fixture corpus on a real embedded engine, counted,
// behind a response cache.
func openCached(t testing.TB) (*search.Cache, *counting) {
	t.Helper()
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	eng := &counting{Engine: b}
	c := search.NewCache(eng)
	if err := c.Upsert(ctx, searchtest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	if err := c.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "City Record Online", RecordType: "notice",
		ObservedAt: time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	return c, eng
}

func mustSearch(t testing.TB, r search.Reader, q search.Query) search.Result {
	t.Helper()
	res, err := r.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	return res
}

func js(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCacheServesRepeats(t *testing.T) {
	c, eng := openCached(t)
	first := mustSearch(t, c, search.Query{Text: "parks", Facets: true})
	if first.Total == 0 {
		t.Fatal("fixture query finds nothing")
	}
	// the same query, normalized the same way: the default limit and sort
	again := mustSearch(t, c, search.Query{Text: "parks", Facets: true, Limit: search.DefaultLimit, Sort: search.SortRelevance})
	if n := eng.searches.Load(); n != 1 {
		t.Errorf("engine searched %d times for one query asked twice", n)
	}
	if js(t, again) != js(t, first) {
		t.Errorf("cached answer differs\n got %s\nwant %s", js(t, again), js(t, first))
	}
	// another query, another page, the exact count: each its own entry
	mustSearch(t, c, search.Query{Text: "parks", Facets: true, ExactCount: true})
	mustSearch(t, c, search.Query{Text: "parks", Facets: true, Cursor: first.NextCursor, Limit: 1})
	if n := eng.searches.Load(); n != 3 {
		t.Errorf("engine searched %d times, want 3", n)
	}
	// passages too
	for range 3 {
		if _, err := c.Passages(context.Background(), search.PassageQuery{Text: "calculating machines"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := eng.passages.Load(); n != 1 {
		t.Errorf("engine searched passages %d times for one query asked thrice", n)
	}
	// errors are never cached
	for range 2 {
		if _, err := c.Search(context.Background(), search.Query{Limit: 1000}); record.ErrorCode(err) != record.EINVALID {
			t.Fatalf("limit 1000: %v", err)
		}
	}
	if st := c.Stats(); st.Hits != 3 || st.Entries != 4 {
		t.Errorf("stats %+v, want 3 hits and 4 entries", st)
	}
}

// A caller that changes what it got back changes nothing for the next.
func TestCacheAnswersAreCopies(t *testing.T) {
	c, _ := openCached(t)
	q := search.Query{Text: "parks", Facets: true, Sections: []string{"Procurement"}}
	want := js(t, mustSearch(t, c, q)) // the engine's answer; the cache keeps a copy
	for range 2 {
		res := mustSearch(t, c, q)
		res.Hits[0].Notice.Title = "CHANGED"
		res.Hits[0].Notice.Lenses[0] = "changed"
		res.Hits = append(res.Hits[:0], res.Hits[1:]...)
		res.Facets[search.FacetLens][0].Count = -1
		res.Scope.Searched.Filters["section"] = "changed"
		res.Scope.Sources[0].Records = -1
		res.Scope.Absence[0] = "changed"
	}
	if got := js(t, mustSearch(t, c, q)); got != want {
		t.Errorf("a caller's change reached the cache\n got %s\nwant %s", got, want)
	}
	if record.AbsenceRules[0] == "changed" {
		t.Error("a caller's change reached record.AbsenceRules")
	}
}

// A write through the cache between two identical searches: the second
// sees it, whatever the write.
func TestCacheSeesWrites(t *testing.T) {
	ctx := context.Background()
	c, eng := openCached(t)
	q := search.Query{Text: "zeppelin"}
	if res := mustSearch(t, c, q); res.Total != 0 {
		t.Fatalf("zeppelin before: %d", res.Total)
	}
	d := searchtest.Fixtures()[0]
	d.Notice.RequestID, d.Notice.Title, d.Passages = "20990101001", "ZEPPELIN HANGAR REPAIRS", nil
	if err := c.Upsert(ctx, []search.Doc{d}); err != nil {
		t.Fatal(err)
	}
	if res := mustSearch(t, c, q); res.Total != 1 || res.Hits[0].Notice.RequestID != "20990101001" {
		t.Fatalf("zeppelin after upsert: %d hits", res.Total)
	}
	if err := c.Delete(ctx, []string{"20990101001"}); err != nil {
		t.Fatal(err)
	}
	if res := mustSearch(t, c, q); res.Total != 0 {
		t.Fatalf("zeppelin after delete: %d", res.Total)
	}
	obs := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	if err := c.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "City Record Online", RecordType: "notice", ObservedAt: obs}); err != nil {
		t.Fatal(err)
	}
	if res := mustSearch(t, c, q); !res.Scope.CorpusObservedAt.Equal(obs) {
		t.Errorf("scope after observe: %v", res.Scope.CorpusObservedAt)
	}
	before := c.Generation()
	if err := c.PutRecords(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if c.Generation() != before+2 {
		t.Errorf("generation %d after two writes from %d", c.Generation(), before)
	}
	if n := eng.searches.Load(); n != 4 {
		t.Errorf("engine searched %d times, want 4 (every search after a write)", n)
	}
	// record deletes go through the cache's Records too
	g := c.Generation()
	if err := c.DeleteRecords(ctx, "payment", []string{"nothing-held"}); err != nil {
		t.Fatal(err)
	}
	if c.Generation() == g {
		t.Error("a record delete did not bump the generation")
	}
}

// A search that was running when a write came in is not kept: its answer
// may be from before the write.
func TestCacheDropsAnswersRacingAWrite(t *testing.T) {
	ctx := context.Background()
	c, eng := openCached(t)
	q := search.Query{Text: "marina"}
	eng.during = func() {
		eng.during = nil
		if err := c.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "City Record Online", RecordType: "notice",
			ObservedAt: time.Date(2026, 9, 2, 0, 0, 0, 0, time.UTC)}); err != nil {
			t.Error(err)
		}
	}
	mustSearch(t, c, q)
	res := mustSearch(t, c, q)
	if n := eng.searches.Load(); n != 2 {
		t.Errorf("engine searched %d times, want 2: the first answer raced a write", n)
	}
	if !res.Scope.CorpusObservedAt.Equal(time.Date(2026, 9, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("stale scope %v", res.Scope.CorpusObservedAt)
	}
}

// Concurrent misses of one query share one engine call, and each caller
// gets its own copy.
func TestCacheSharesConcurrentMisses(t *testing.T) {
	c, eng := openCached(t)
	release := make(chan struct{})
	eng.block = release
	const n = 8
	q := search.Query{Text: "parks", Facets: true}
	results := make([]search.Result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.Search(context.Background(), q)
			if err != nil {
				t.Error(err)
			}
			results[i] = res
		}()
	}
	for c.Stats().Misses < n { // every caller waits on the one call
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if got := eng.searches.Load(); got != 1 {
		t.Errorf("%d concurrent misses made %d engine calls, want 1", n, got)
	}
	want := js(t, results[0])
	results[0].Hits[0].Notice.Title = "changed by one caller"
	for i, r := range results[1:] {
		if js(t, r) != want {
			t.Errorf("caller %d got another answer", i+1)
		}
	}
}

func TestCacheBounds(t *testing.T) {
	c, eng := openCached(t)
	c.MaxEntries = 2
	for _, w := range []string{"marina", "pest", "marina", "parks", "pest"} {
		mustSearch(t, c, search.Query{Text: w})
	}
	// marina, pest, (marina hit), parks evicts pest (least recently used), pest again
	if n := eng.searches.Load(); n != 4 {
		t.Errorf("engine searched %d times, want 4", n)
	}
	if st := c.Stats(); st.Entries != 2 || st.Bytes <= 0 {
		t.Errorf("stats %+v", st)
	}
	c.MaxEntries = 100
	c.MaxBytes = c.Stats().Bytes / 2 * 8 // room for about one answer of this size (an entry is at most MaxBytes/8)
	mustSearch(t, c, search.Query{Text: "inmate"})
	mustSearch(t, c, search.Query{Text: "williamsbridge"})
	if st := c.Stats(); st.Bytes > c.MaxBytes {
		t.Errorf("%d bytes held, bound %d", st.Bytes, c.MaxBytes)
	}
}

func TestCacheTTL(t *testing.T) {
	c, eng := openCached(t)
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)
	c.Now = func() time.Time { return now }
	c.TTL = 10 * time.Second
	q := search.Query{Text: "marina"}
	mustSearch(t, c, q)
	now = now.Add(9 * time.Second)
	mustSearch(t, c, q)
	now = now.Add(time.Second)
	mustSearch(t, c, q)
	if n := eng.searches.Load(); n != 2 {
		t.Errorf("engine searched %d times, want 2 (one expiry)", n)
	}
	// the default: no TTL for an engine one process holds (embedded);
	// SharedEngineTTL for an engine others may write to
	b := search.Cached(eng, false).(*search.Cache)
	if b.TTL != 0 {
		t.Errorf("embedded TTL %v", b.TTL)
	}
	shared := search.Cached(&counting{Engine: eng.Engine, name: "opensearch"}, true).(*search.Cache)
	if shared.TTL != search.SharedEngineTTL {
		t.Errorf("opensearch TTL %v", shared.TTL)
	}
}

// Concurrent searches and writes (run with -race): every answer is whole,
// and once the writes are done the cache answers with all of them.
func TestCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	c, _ := openCached(t)
	c.MaxEntries = 8
	words := []string{"marina", "pest", "parks", "inmate", "williamsbridge", "zeppelin", "renewal", "market", "construction", "phone"}
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				res, err := c.Search(ctx, search.Query{Text: words[(g+i)%len(words)], Facets: i%2 == 0})
				if err != nil {
					t.Error(err)
					return
				}
				if len(res.Scope.Absence) != 4 || res.Total != len(res.Hits) {
					t.Errorf("answer incomplete: total %d, %d hits", res.Total, len(res.Hits))
				}
				if len(res.Hits) > 0 {
					res.Hits[0].Notice.Title = "changed by a reader" // never reaches another reader
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 10 {
			d := searchtest.Fixtures()[0]
			d.Notice.RequestID, d.Notice.Title, d.Passages = fmt.Sprintf("2099010100%d", i), "ZEPPELIN HANGAR", nil
			if err := c.Upsert(ctx, []search.Doc{d}); err != nil {
				t.Error(err)
			}
		}
	}()
	wg.Wait()
	res := mustSearch(t, c, search.Query{Text: "zeppelin"})
	if res.Total != 10 {
		t.Errorf("zeppelin after the writes: %d, want 10", res.Total)
	}
	for _, h := range mustSearch(t, c, search.Query{Text: "marina"}).Hits {
		if h.Notice.Title == "changed by a reader" {
			t.Error("a reader's change reached the cache")
		}
	}
}

// go test ./internal/search/ -run '^$' -bench Cache: a repeated query
// answered by the engine each time vs from the cache.
func BenchmarkCache(b *testing.B) {
	c, eng := openCached(b)
	q := search.Query{Text: "parks services", Facets: true}
	b.Run("uncached", func(b *testing.B) {
		for b.Loop() {
			mustSearch(b, eng, q)
		}
	})
	b.Run("cached", func(b *testing.B) {
		mustSearch(b, c, q)
		for b.Loop() {
			mustSearch(b, c, q)
		}
	})
}

// The cache copies answers field by field (cache.go cloneResult,
// clonePassageResult): these are every slice, map and pointer an answer
// holds. A new one fails here until the clones copy it too.
func TestCacheClonesEveryField(t *testing.T) {
	want := []string{
		"Result.Facets", "Result.Facets[]", "Result.Hits", "Result.Hits[].Notice.DocumentLinks", "Result.Hits[].Notice.Lenses",
		"Result.Hits[].Notice.Raw", "Result.Scope.Absence", "Result.Scope.SourceTypes", "Result.Scope.Sources", "Result.Scope.Sources[].Unread",
		"Result.Scope.Searched.Excluded", "Result.Scope.Searched.Filters", "Result.Scope.Searched.Lenses",
		"Result.Scope.Searched.Phrases", "Result.Scope.Searched.Synonyms", "Result.Scope.Searched.Synonyms[]",
		"Result.Scope.Searched.Terms", "Result.Scope.Searched.Semantic",
		"Result.Scope.Empty", "Result.Scope.Empty[].Sources", "Result.Scope.NotFresh",
		"PassageResult.Passages", "PassageResult.Passages[].Passage.Lenses", "PassageResult.Scope.Absence",
		"PassageResult.Scope.SourceTypes", "PassageResult.Scope.Sources", "PassageResult.Scope.Sources[].Unread", "PassageResult.Scope.Searched.Excluded",
		"PassageResult.Scope.Searched.Filters", "PassageResult.Scope.Searched.Lenses", "PassageResult.Scope.Searched.Phrases",
		"PassageResult.Scope.Searched.Synonyms", "PassageResult.Scope.Searched.Synonyms[]", "PassageResult.Scope.Searched.Terms",
		"PassageResult.Scope.Searched.Semantic",
		"PassageResult.Scope.Empty", "PassageResult.Scope.Empty[].Sources", "PassageResult.Scope.NotFresh",
		// the notes (record.Note: key, arguments and inner notes, which hold notes)
		"Result.Scope.AbsenceKeys[].Inner", "Result.Scope.AbsenceKeys[].Inner[].Args", "Result.Scope.AbsenceKeys[].Inner[].Inner", "Result.Scope.Empty[].NoteKey.Inner", "Result.Scope.Empty[].NoteKey.Inner[].Args", "Result.Scope.Empty[].NoteKey.Inner[].Inner", "Result.Scope.Searched.Semantic[].FusionKey[].Inner", "Result.Scope.Searched.Semantic[].FusionKey[].Inner[].Args", "Result.Scope.Searched.Semantic[].FusionKey[].Inner[].Inner", "Result.Scope.Searched.Semantic[].NoteKeys[].Inner", "Result.Scope.Searched.Semantic[].NoteKeys[].Inner[].Args", "Result.Scope.Searched.Semantic[].NoteKeys[].Inner[].Inner", "PassageResult.Scope.AbsenceKeys[].Inner", "PassageResult.Scope.AbsenceKeys[].Inner[].Args", "PassageResult.Scope.AbsenceKeys[].Inner[].Inner", "PassageResult.Scope.Empty[].NoteKey.Inner", "PassageResult.Scope.Empty[].NoteKey.Inner[].Args", "PassageResult.Scope.Empty[].NoteKey.Inner[].Inner", "PassageResult.Scope.Searched.Semantic[].FusionKey[].Inner", "PassageResult.Scope.Searched.Semantic[].FusionKey[].Inner[].Args", "PassageResult.Scope.Searched.Semantic[].FusionKey[].Inner[].Inner", "PassageResult.Scope.Searched.Semantic[].NoteKeys[].Inner", "PassageResult.Scope.Searched.Semantic[].NoteKeys[].Inner[].Args", "PassageResult.Scope.Searched.Semantic[].NoteKeys[].Inner[].Inner",
		"Result.Scope.AbsenceKeys", "Result.Scope.AbsenceKeys[].Args", "Result.Scope.Empty[].NoteKey.Args", "Result.Scope.Searched.Semantic[].FusionKey", "Result.Scope.Searched.Semantic[].FusionKey[].Args", "Result.Scope.Searched.Semantic[].NoteKeys", "Result.Scope.Searched.Semantic[].NoteKeys[].Args",
		"PassageResult.Scope.AbsenceKeys", "PassageResult.Scope.AbsenceKeys[].Args", "PassageResult.Scope.Empty[].NoteKey.Args", "PassageResult.Scope.Searched.Semantic[].FusionKey", "PassageResult.Scope.Searched.Semantic[].FusionKey[].Args", "PassageResult.Scope.Searched.Semantic[].NoteKeys", "PassageResult.Scope.Searched.Semantic[].NoteKeys[].Args",
		// a source's freshness note
		"Result.Scope.Sources[].FreshnessNoteKey", "Result.Scope.Sources[].FreshnessNoteKey[].Args", "Result.Scope.Sources[].FreshnessNoteKey[].Inner", "Result.Scope.Sources[].FreshnessNoteKey[].Inner[].Args", "Result.Scope.Sources[].FreshnessNoteKey[].Inner[].Inner",
		"PassageResult.Scope.Sources[].FreshnessNoteKey", "PassageResult.Scope.Sources[].FreshnessNoteKey[].Args", "PassageResult.Scope.Sources[].FreshnessNoteKey[].Inner", "PassageResult.Scope.Sources[].FreshnessNoteKey[].Inner[].Args", "PassageResult.Scope.Sources[].FreshnessNoteKey[].Inner[].Inner",
	}
	var got []string
	onPath := map[reflect.Type]bool{} // a type that holds itself (record.Part) is walked once
	var walk func(path string, t reflect.Type)
	walk = func(path string, ty reflect.Type) {
		switch ty.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
			got = append(got, path)
			if ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map || ty.Kind() == reflect.Pointer {
				walk(path+"[]", ty.Elem())
			}
		case reflect.Struct:
			if ty == reflect.TypeOf(time.Time{}) || onPath[ty] {
				return
			}
			onPath[ty] = true
			defer delete(onPath, ty)
			for i := range ty.NumField() {
				if f := ty.Field(i); f.IsExported() {
					walk(path+"."+f.Name, f.Type)
				}
			}
		}
	}
	walk("Result", reflect.TypeOf(search.Result{}))
	walk("PassageResult", reflect.TypeOf(search.PassageResult{}))
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("reference fields of an answer changed: copy the new ones in cache.go's clones, then list them here\n got %q\nwant %q", got, want)
	}
}

// A browse's totals are the same on every page: the engine sums the
// matches once per generation, whatever page, limit or order is asked,
// and again after a write; each caller gets its own copy.
func TestCacheRecordTotalsOncePerGeneration(t *testing.T) {
	ctx := context.Background()
	c, eng := openCached(t)
	if err := search.Put(ctx, c, searchtest.AwardKind, searchtest.AwardFixtures()); err != nil {
		t.Fatal(err)
	}
	q := search.RecordQuery{Kinds: []string{"test.award"}}
	var first search.Totals
	firstGroups := 0
	for i, page := range []search.RecordQuery{{Limit: 1}, {Limit: 5, Cursor: "x"}, {Limit: 2, Sort: search.RecordSortDate}} {
		page.Kinds = q.Kinds
		got, err := c.RecordTotals(ctx, page, []string{"agency_id"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first, firstGroups = got, len(got.Groups["agency_id"])
			if got.Count == 0 || firstGroups == 0 {
				t.Fatal("no totals")
			}
		} else if got.Count != first.Count || got.Amount != first.Amount || len(got.Groups["agency_id"]) != firstGroups {
			t.Errorf("page %d: %+v, first %+v", i, got, first)
		}
		got.Groups["agency_id"] = nil // a caller's change stays its own
	}
	if n := eng.totals.Load(); n != 1 {
		t.Errorf("engine summed %d times for three pages, want 1", n)
	}
	if err := search.Put(ctx, c, searchtest.AwardKind, searchtest.AwardFixtures()[:1]); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.RecordTotals(ctx, q, []string{"agency_id"}, 0); got.Count != first.Count || len(got.Groups["agency_id"]) == 0 {
		t.Errorf("after a write: %+v", got)
	}
	if n := eng.totals.Load(); n != 2 {
		t.Errorf("after a write the engine summed %d times, want 2", n)
	}
}

// A profile's notice totals are summed once per generation, whatever
// limit, cursor or order the caller's query carried, and again after a
// write; each caller gets its own copy.
func TestCacheNoticeTotalsOncePerGeneration(t *testing.T) {
	ctx := context.Background()
	c, eng := openCached(t)
	groups := []string{search.GroupAgencyID, search.GroupFiscalYear}
	var first search.Totals
	firstAgencies := 0
	for i, q := range []search.Query{{}, {Limit: 5, Sort: search.SortNewest}, {Limit: 3, Facets: true}} {
		got, err := c.NoticeTotals(ctx, q, groups, 0)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if first, firstAgencies = got, len(got.Groups[search.GroupAgencyID]); got.Count == 0 || firstAgencies == 0 {
				t.Fatal("no totals")
			}
		} else if got.Count != first.Count || len(got.Groups[search.GroupAgencyID]) != firstAgencies {
			t.Errorf("call %d: %+v, first %+v", i, got, first)
		}
		got.Groups[search.GroupAgencyID] = nil // a caller's change stays its own
	}
	if n := eng.noticeTotals.Load(); n != 1 {
		t.Errorf("engine summed %d times for three calls, want 1", n)
	}
	if err := c.Upsert(ctx, searchtest.Fixtures()[:1]); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.NoticeTotals(ctx, search.Query{}, groups, 0); got.Count != first.Count || len(got.Groups[search.GroupAgencyID]) == 0 {
		t.Errorf("after a write: %+v", got)
	}
	if n := eng.noticeTotals.Load(); n != 2 {
		t.Errorf("after a write the engine summed %d times, want 2", n)
	}
}

// A brief answer (Query.Brief) is kept apart from the whole one: asking
// for whole notices after brief ones reaches the engine and gets the text.
func TestCacheKeepsBriefApart(t *testing.T) {
	c, eng := openCached(t)
	ctx := context.Background()
	q := search.Query{Text: "services", Limit: 5}
	bq := q
	bq.Brief = true
	brief, err := c.Search(ctx, bq)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := c.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if n := eng.searches.Load(); n != 2 {
		t.Fatalf("the engine answered %d searches, want 2 (brief and whole)", n)
	}
	if len(whole.Hits) == 0 || len(whole.Hits) != len(brief.Hits) {
		t.Fatalf("%d whole hits, %d brief", len(whole.Hits), len(brief.Hits))
	}
	for i, h := range whole.Hits {
		b := brief.Hits[i].Notice
		if h.Notice.Body == "" || h.Notice.Brief.TextLeftOut || b.Body != "" || !b.Brief.TextLeftOut {
			t.Errorf("%s: whole body %d bytes (brief %v), brief body %d bytes (brief %v)", h.Notice.RequestID,
				len(h.Notice.Body), h.Notice.Brief.TextLeftOut, len(b.Body), b.Brief.TextLeftOut)
		}
	}
}

// The cache passes a bulk load to its engine, and the end of one starts a
// new generation (its indexes replace those read before).
func TestCachePassesBulkLoads(t *testing.T) {
	ctx := context.Background()
	e := &bulkEngine{}
	c := search.NewCache(e)
	if ok, err := c.BeginBulk(ctx); err != nil || !ok || e.begun != 1 {
		t.Fatalf("BeginBulk: %v %v (%d)", ok, err, e.begun)
	}
	g := c.Generation()
	if err := c.EndBulk(ctx); err != nil || e.ended != 1 || c.Generation() == g {
		t.Errorf("EndBulk: %v, ended %d, generation %d then %d", err, e.ended, g, c.Generation())
	}
}

type bulkEngine struct {
	search.Engine
	begun, ended int
}

func (b *bulkEngine) BeginBulk(context.Context) (bool, error) { b.begun++; return true, nil }
func (b *bulkEngine) EndBulk(context.Context) error           { b.ended++; return nil }
