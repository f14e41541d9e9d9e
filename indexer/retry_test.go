package indexer

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// flaky is the embedded engine behind a backend that refuses writes: fail
// decides, for the n-th Upsert call (from 1), what it answers instead of
// writing (nil: it writes). Every call's first notice id is recorded.
type flaky struct {
	*embedded.Backend
	fail func(n int) error

	mu    sync.Mutex
	calls []string
}

func (b *flaky) Upsert(ctx context.Context, docs []search.Doc) error {
	b.mu.Lock()
	b.calls = append(b.calls, docs[0].Notice.RequestID)
	n := len(b.calls)
	b.mu.Unlock()
	if err := b.fail(n); err != nil {
		return err
	}
	return b.Backend.Upsert(ctx, docs)
}

func unavailable(msg string) error {
	return &record.Error{Code: record.EUNAVAILABLE, Message: msg}
}

// A batch the backend refuses as unavailable is sent again, with backoff,
// until it is taken: the batches before it are not sent again and none is
// skipped. Another error, or one that lasts past RetryFor, fails the load.
func TestWriteRetriesAnUnavailableBatch(t *testing.T) {
	ctx := context.Background()
	corpus, errs := crol.Scan(os.DirFS("../testdata/sample"), "crol", entity.DefaultCrosswalk())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	notices := corpus.Notices[:250]
	const batch = 50 // five batches
	firsts := func(calls ...int) []string {
		var out []string
		for _, c := range calls {
			out = append(out, notices[c*batch].RequestID)
		}
		return out
	}
	errBug := errors.New("mapping rejected the document")
	for _, tc := range []struct {
		name     string
		fail     func(n int) error
		retryFor time.Duration
		calls    []string // first id of each Upsert call, in order
		wantErr  error    // nil: the load succeeds
		minTook  time.Duration
	}{
		{
			name: "third batch refused twice",
			fail: func(n int) error {
				if n == 3 || n == 4 {
					return unavailable("node left")
				}
				return nil
			},
			calls:   firsts(0, 1, 2, 2, 2, 3, 4),
			minTook: 750 * time.Millisecond, // 250 ms + 500 ms
		},
		{
			name:    "not an unavailable backend",
			fail:    func(n int) error { return map[bool]error{true: errBug}[n == 2] },
			calls:   firsts(0, 1),
			wantErr: errBug,
		},
		{
			name:     "unavailable for longer than RetryFor",
			fail:     func(n int) error { return map[bool]error{true: unavailable("cluster down")}[n >= 2] },
			retryFor: 1 * time.Second,
			calls:    firsts(0, 1, 1, 1), // again after 250 and 500 ms; the next wait (1 s) would pass the bound
			wantErr:  errors.New("unavailable"),
			minTook:  750 * time.Millisecond,
		},
		{
			name:     "retries off",
			fail:     func(n int) error { return map[bool]error{true: unavailable("cluster down")}[n == 1] },
			retryFor: -1,
			calls:    firsts(0),
			wantErr:  errors.New("unavailable"),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			emb, err := embedded.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer emb.Close()
			b := &flaky{Backend: emb, fail: tc.fail}
			ix := &Indexer{Backend: b, Batch: batch, RetryFor: tc.retryFor}
			start := time.Now()
			err = ix.Write(ctx, notices, "test notices")
			took := time.Since(start)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("Write = %v, want the refused batch written on a retry", err)
			case tc.wantErr == errBug && !errors.Is(err, errBug):
				t.Fatalf("Write = %v, want %v at once", err, errBug)
			case tc.wantErr != nil && tc.wantErr != errBug && record.ErrorCode(err) != record.EUNAVAILABLE:
				t.Fatalf("Write = %v, want EUNAVAILABLE", err)
			}
			if !slices.Equal(b.calls, tc.calls) {
				t.Errorf("Upsert calls began at %v, want %v", b.calls, tc.calls)
			}
			if took < tc.minTook {
				t.Errorf("Write took %v, want at least the backoff (%v)", took, tc.minTook)
			}
			if tc.wantErr != nil {
				return
			}
			res, err := emb.Search(ctx, search.Query{Limit: 1})
			if err != nil || res.Total != len(notices) {
				t.Errorf("after the load the index holds %d notices (%v), want %d", res.Total, err, len(notices))
			}
		})
	}
}

// flakyRecords refuses its first n record writes as unavailable.
type flakyRecords struct {
	*embedded.Backend
	mu      sync.Mutex
	refuse  int
	refused int
}

func (b *flakyRecords) PutRecords(ctx context.Context, rs []search.Record) error {
	b.mu.Lock()
	if b.refused < b.refuse {
		b.refused++
		b.mu.Unlock()
		return unavailable("node lost")
	}
	b.mu.Unlock()
	return b.Backend.PutRecords(ctx, rs)
}

// Records (registered contracts, payments, lots) are written the way
// notices are: a batch refused as unavailable is sent again until it is
// taken, so a load of their samples survives a short outage whole.
func TestRecordWritesRetryAnUnavailableBatch(t *testing.T) {
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	fb := &flakyRecords{Backend: b, refuse: 3}
	ix := sampleIndexer(fb)
	ix.RetryFor = time.Minute
	sample := os.DirFS("../testdata/sample")
	for _, src := range []Source{checkbookSource{}, contractsSource{}, zapSource{}} {
		if _, err := ix.Load(context.Background(), src, sample, src.Name()); err != nil {
			t.Fatalf("a short outage failed the load: %v", err)
		}
	}
	if fb.refused != 3 {
		t.Fatalf("%d writes refused, want 3", fb.refused)
	}
	got := holdings(t, b).Records
	if got["contracts/contract"] != 552 || got["mappluto/lot"] != 776 || got["checkbook/contract"] != 6 || got["checkbook/payment"] != 1001 {
		t.Errorf("records after the outage: %v", got)
	}
}
