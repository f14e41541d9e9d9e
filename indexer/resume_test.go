package indexer

import (
	"context"
	"errors"
	"os"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// interrupted is the real embedded engine with a fault injected: the
// write after the first failAt writes fails, as a kill would stop it.
type interrupted struct {
	*embedded.Backend
	notices, records int // writes allowed before the failure (-1: no limit)
}

var errKilled = errors.New("killed")

func (b *interrupted) Upsert(ctx context.Context, docs []search.Doc) error {
	if b.notices == 0 {
		return errKilled
	}
	b.notices--
	return b.Backend.Upsert(ctx, docs)
}

func (b *interrupted) PutRecords(ctx context.Context, es []search.Record) error {
	if b.notices != 0 && !slices.ContainsFunc(es, func(r search.Record) bool { return r.Kind != joins.Kind.Name }) {
		// the joins between notices are written with the notices, part of
		// the notice load: only a kill in the notices stops them
		return b.Backend.PutRecords(ctx, es)
	}
	if b.records == 0 {
		return errKilled
	}
	b.records--
	return b.Backend.PutRecords(ctx, es)
}

// held is what a backend holds, to compare a repaired load with a clean one.
type held struct {
	Coverage map[string]record.SourceCoverage
	Records  map[string]int // by source/kind
	Sample   []record.Notice
}

func holdings(t *testing.T, b *embedded.Backend) held {
	t.Helper()
	ctx := context.Background()
	cov, err := b.Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h := held{Coverage: map[string]record.SourceCoverage{}, Records: map[string]int{}}
	for _, c := range cov {
		h.Coverage[c.Source] = c
	}
	rcov, err := b.RecordCoverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rcov {
		h.Records[c.Source+"/"+c.RecordType] = c.Records
	}
	res, err := b.Search(ctx, search.Query{Sort: search.SortOldest, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i, hit := range res.Hits {
		if i%9 == 0 { // a sample spread over the corpus, read whole
			n, err := b.Get(ctx, hit.Notice.RequestID)
			if err != nil {
				t.Fatal(err)
			}
			h.Sample = append(h.Sample, n)
		}
	}
	return h
}

func sampleIndexer(b search.Engine) *Indexer {
	return &Indexer{Backend: b, Crosswalk: entity.DefaultCrosswalk(),
		Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
}

// A first load of the bundled sample that is interrupted in the notices
// is loaded again at the next start until it has completed once; one
// interrupted in the records (written after the notices' observation) has
// its records completed. Either then equals a clean load; a completed
// load is not loaded again.
func TestEnsureSampleResumesAnInterruptedFirstLoad(t *testing.T) {
	ctx := context.Background()
	sample := os.DirFS("../testdata/sample")
	clean, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer clean.Close()
	if loaded, err := sampleIndexer(clean).EnsureSample(ctx, sample); err != nil || !loaded {
		t.Fatalf("clean load: %v %v", loaded, err)
	}
	want := holdings(t, clean)
	if want.Coverage[record.SourceCROL].Records < 1000 || want.Coverage[record.SourceCROL].ObservedAt.IsZero() {
		t.Fatalf("clean load holds %+v", want.Coverage)
	}

	for _, tc := range []struct {
		name             string
		notices, records int
		noticesDone      bool
	}{
		{"killed after two notice batches", 2, -1, false},
		{"killed in the records", -1, 1, true},
		{"killed before anything was written", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b, err := embedded.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			killed := sampleIndexer(&interrupted{Backend: b, notices: tc.notices, records: tc.records})
			killed.Batch = 500 // batches smaller than the sample's notices, so two are not all
			if _, err := killed.EnsureSample(ctx, sample); !errors.Is(err, errKilled) {
				t.Fatalf("interrupted load: %v", err)
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			b, err = embedded.Open(dir) // the next start
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			ix := sampleIndexer(b)
			if done, err := ix.SampleLoaded(ctx); err != nil || done != tc.noticesDone {
				t.Fatalf("notices loaded after the interruption: %v (want %v) %v", done, tc.noticesDone, err)
			}
			if loaded, err := ix.EnsureSample(ctx, sample); err != nil || loaded == tc.noticesDone {
				t.Fatalf("restart: notices loaded again %v (want %v), %v", loaded, !tc.noticesDone, err)
			}
			if got := holdings(t, b); !reflect.DeepEqual(got, want) {
				t.Errorf("after the restart:\n got %+v %v\nwant %+v %v", got.Coverage, got.Records, want.Coverage, want.Records)
			}
			if loaded, err := ix.EnsureSample(ctx, sample); err != nil || loaded {
				t.Errorf("a completed load was loaded again: %v %v", loaded, err)
			}
		})
	}
}

// Records cut short in a directory whose notices are loaded are completed.
func TestEnsureSampleCompletesRecords(t *testing.T) {
	ctx := context.Background()
	sample := os.DirFS("../testdata/sample")
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := sampleIndexer(b)
	if _, err := ix.LoadCROLDir(ctx, sample, "crol"); err != nil {
		t.Fatal(err)
	}
	if err := sampleIndexer(&interrupted{Backend: b, notices: -1, records: 1}).LoadRecordSamples(ctx, sample); !errors.Is(err, errKilled) {
		t.Fatalf("interrupted records: %v", err)
	}
	if loaded, err := ix.EnsureSample(ctx, sample); err != nil || loaded {
		t.Fatalf("notices were loaded again: %v %v", loaded, err)
	}
	got := holdings(t, b).Records
	if got["contracts/contract"] != 552 || got["mappluto/lot"] != 776 || got["checkbook/contract"] != 6 {
		t.Errorf("records after completion: %v", got)
	}
}
