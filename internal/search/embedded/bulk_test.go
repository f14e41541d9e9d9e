package embedded

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// A bulk load starts only on empty notice indexes; what it writes is
// invisible until EndBulk, then the same as a load through the live
// indexes (the whole sample is compared in indexer's
// TestBulkLoadAnswersAsTheIncrementalLoad); the observation made meanwhile
// is recorded with it.
func TestBulkLoadIsVisibleWhenItEnds(t *testing.T) {
	ctx := context.Background()
	docs := searchtest.Fixtures()
	obs := search.Observation{Source: "crol", Label: "City Record", RecordType: "notice", ObservedAt: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ok, err := b.BeginBulk(ctx); err != nil || !ok {
		t.Fatalf("BeginBulk on an empty index: %v %v", ok, err)
	}
	if ok, _ := b.BeginBulk(ctx); ok {
		t.Error("a second BeginBulk started another")
	}
	if err := b.Upsert(ctx, docs[:2]); err != nil {
		t.Fatal(err)
	}
	if err := b.Upsert(ctx, docs[2:]); err != nil {
		t.Fatal(err)
	}
	if err := b.Observe(ctx, obs); err != nil {
		t.Fatal(err)
	}
	if res, _ := b.Search(ctx, search.Query{Limit: 10}); res.Total != 0 {
		t.Errorf("%d notices visible during the bulk load", res.Total)
	}
	if err := b.EndBulk(ctx); err != nil {
		t.Fatal(err)
	}
	if b.Bulk() || b.BulkLoads() != 1 {
		t.Errorf("after EndBulk: running %v, loads %d", b.Bulk(), b.BulkLoads())
	}
	if _, err := os.Stat(filepath.Join(b.dir, bulkDir)); !os.IsNotExist(err) {
		t.Errorf("bulk directory left: %v", err)
	}
	fresh := openWith(t, docs)
	if err := fresh.Observe(ctx, obs); err != nil {
		t.Fatal(err)
	}
	for _, q := range []search.Query{{Limit: 100, Facets: true}, {Text: "services", Limit: 100, Facets: true}, {Sort: search.SortAmount, Limit: 100}} {
		a, errA := b.Search(ctx, q)
		c, errC := fresh.Search(ctx, q)
		ja, _ := json.Marshal(a)
		jc, _ := json.Marshal(c)
		if errA != nil || errC != nil || string(ja) != string(jc) || a.Total == 0 {
			t.Errorf("%+v: bulk %s (%v)\nfresh %s (%v)", q, ja, errA, jc, errC)
		}
	}
	if all, _ := b.Search(ctx, search.Query{Limit: 100}); all.Total != len(docs) {
		t.Errorf("%d notices after the bulk load, want %d", all.Total, len(docs))
	}
	ca, _ := b.Coverage(ctx)
	cc, _ := fresh.Coverage(ctx)
	if !reflect.DeepEqual(ca, cc) || len(ca) == 0 || ca[0].ObservedAt.IsZero() {
		t.Errorf("coverage %+v, want %+v", ca, cc)
	}
	if ok, _ := b.BeginBulk(ctx); ok {
		t.Error("BeginBulk started on an index holding notices")
	}
}

// A notice written twice in one bulk load ends it there: the copy is
// written through the live indexes, replacing the first with its
// passages.
func TestBulkLoadEndsAtANoticeWrittenTwice(t *testing.T) {
	ctx := context.Background()
	docs := searchtest.Fixtures()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ok, err := b.BeginBulk(ctx); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	again := docs[0]
	again.Passages = again.Passages[:1]
	if err := b.Upsert(ctx, []search.Doc{again}); err != nil {
		t.Fatal(err)
	}
	if b.Bulk() || b.BulkLoads() != 1 {
		t.Fatalf("after a repeated notice: running %v, loads %d", b.Bulk(), b.BulkLoads())
	}
	res, err := b.Search(ctx, search.Query{Limit: 100})
	if err != nil || res.Total != len(docs) {
		t.Fatalf("%d notices (%v), want %d", res.Total, err, len(docs))
	}
	ps, err := b.Passages(ctx, search.PassageQuery{RequestID: again.Notice.RequestID, Limit: 100})
	if err != nil || ps.Total != 1 {
		t.Errorf("passages of the notice written again: %d (%v), want 1", ps.Total, err)
	}
	if err := b.EndBulk(ctx); err != nil { // none running: nothing to do
		t.Fatal(err)
	}
}

// A bulk load not ended when the engine closes leaves the indexes as they
// were (empty: the next start loads again) and its files are removed.
func TestBulkLoadStoppedLeavesTheIndexEmpty(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := b.BeginBulk(ctx); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if err := b.Upsert(ctx, searchtest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, bulkDir)); !os.IsNotExist(err) {
		t.Errorf("bulk directory left: %v", err)
	}
	b, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if res, err := b.Search(ctx, search.Query{Limit: 10}); err != nil || res.Total != 0 {
		t.Errorf("%d notices after a stopped bulk load (%v)", res.Total, err)
	}
	// an empty bulk load ends with the indexes empty
	if ok, err := b.BeginBulk(ctx); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if err := b.EndBulk(ctx); err != nil {
		t.Fatal(err)
	}
	if res, err := b.Search(ctx, search.Query{Limit: 10}); err != nil || res.Total != 0 {
		t.Errorf("%d notices after an empty bulk load (%v)", res.Total, err)
	}
}

// The words read by every index of an engine are kept in one cache within
// one budget (WordCacheBytes), also after a bulk load swaps the notice
// indexes in.
func TestIndexesShareOneWordCache(t *testing.T) {
	ctx := context.Background()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	shared := func(when string) {
		t.Helper()
		if b.topNotices.words.all != b.topPassages.words.all || b.topNotices.words.all != b.topRecords.words.all {
			t.Fatalf("%s: the indexes keep their words in separate caches", when)
		}
	}
	shared("after Open")
	if ok, err := b.BeginBulk(ctx); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if err := b.Upsert(ctx, searchtest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	if err := b.EndBulk(ctx); err != nil {
		t.Fatal(err)
	}
	shared("after a bulk load")
	before := b.topNotices.words.Len()
	if _, err := b.Search(ctx, search.Query{Text: "services", Limit: 5}); err != nil {
		t.Fatal(err)
	}
	afterNotices := b.topNotices.words.Len()
	if _, err := b.Passages(ctx, search.PassageQuery{Text: "services", Limit: 5}); err != nil {
		t.Fatal(err)
	}
	if afterNotices <= before || b.topPassages.words.Len() <= afterNotices {
		t.Errorf("words held: %d, after a notice search %d, after a passage search %d: both should add to the one cache",
			before, afterNotices, b.topPassages.words.Len())
	}
	if got := b.topNotices.words.all.Bytes(); got > WordCacheBytes {
		t.Errorf("%d bytes of words held, over the budget of %d", got, WordCacheBytes)
	}
}

// DiskUsage accounts for the files of a closed engine: each index's
// documents, its stored fields (the notice's "hit", "body", "raw" …) and
// the whole.
func TestDiskUsage(t *testing.T) {
	dir := t.TempDir()
	fresh := func() *Backend {
		b, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := fresh()
	docs := searchtest.Fixtures()
	if err := b.Upsert(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := DiskUsage(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, d := range rep.Indexes {
		sum += d.Bytes
		if d.Segments > d.Bytes || d.Stored > d.Segments {
			t.Errorf("%s: stored %d of segments %d of %d bytes", d.Name, d.Stored, d.Segments, d.Bytes)
		}
	}
	n := rep.Indexes[0]
	if n.Name != indexNames[0] || n.Docs != uint64(len(docs)) || n.Fields["hit"] == 0 || n.Fields["body"] == 0 || n.Fields["raw"] == 0 || n.Stored == 0 {
		t.Errorf("notices: %+v", n)
	}
	if sum == 0 || sum > rep.Total {
		t.Errorf("indexes %d bytes of %d", sum, rep.Total)
	}
}
