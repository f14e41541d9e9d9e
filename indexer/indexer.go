// Package indexer is the pipeline fetch → parse → normalize → link → write:
// it turns source rows into notices and passages and writes them in batches
// to the search backend, recording each source's coverage. Re-running it is
// idempotent: the same input gives the same documents under the same ids.
package indexer

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/sourcegraph/conc/iter"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
)

// DefaultBatch is how many notices go to the backend per write. The
// embedded engine writes a call this large in two parts side by side, each
// a Bleve batch of 1,000 notices: on 2 cores that loaded 100k notices at
// 1,781/s where batches of 500 loaded 977/s (BenchmarkIndex, medians), for
// about 300 MB more peak memory (the batches in flight are analyzed in
// memory with their term vectors). A retried batch is sent again whole
// (writes are idempotent upserts).
const DefaultBatch = 2000

// DefaultRetryFor is how long a batch the backend could not take is tried
// again when Indexer.RetryFor is zero.
const DefaultRetryFor = 2 * time.Minute

// CROLLabel names the City Record source in coverage.
const CROLLabel = "City Record Online (NYC Open Data dg92-zbpx; 2014 DCAS export)"

// Indexer writes sources into a backend.
type Indexer struct {
	Backend   search.Backend
	Crosswalk *entity.Crosswalk
	Logger    *slog.Logger
	Now       func() time.Time
	Batch     int
	// Progress receives a progress bar on long runs (nil: none).
	Progress io.Writer
	// RetryFor bounds how long a write the backend refuses as unavailable
	// (record.EUNAVAILABLE: a cluster that lost a node or is electing a
	// new manager, a full write queue) is tried again, with waits of
	// 250 ms doubling up to 5 s, before the load fails. The retried write
	// is the batch that failed: the batches before it were acknowledged
	// and are not sent again (writes are idempotent upserts by id, so a
	// batch the backend took in part is safe to send again). 0 means
	// DefaultRetryFor; a negative value turns retries off.
	RetryFor time.Duration

	vmu            sync.Mutex
	pendingVectors []semantic.NoticeVector
}

func (ix *Indexer) now() time.Time {
	if ix.Now != nil {
		return ix.Now()
	}
	return time.Now()
}

func (ix *Indexer) log() *slog.Logger {
	if ix.Logger != nil {
		return ix.Logger
	}
	return slog.Default()
}

func (ix *Indexer) bar(total int, what string) *progressbar.ProgressBar {
	if ix.Progress == nil {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(ix.Progress),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(ix.Progress) }),
	)
}

// Docs cuts passages for each notice (in parallel) and pairs them up.
func Docs(notices []record.Notice) []search.Doc {
	return iter.Map(notices, func(n *record.Notice) search.Doc {
		return search.Doc{Notice: *n, Passages: crol.Passages(*n)}
	})
}

// Write indexes notices in batches and refreshes the backend.
func (ix *Indexer) Write(ctx context.Context, notices []record.Notice, what string) error {
	if err := writeBatches(ctx, ix, notices, what, func(batch []record.Notice) error {
		return ix.upsert(ctx, batch, Docs(batch))
	}); err != nil {
		return err
	}
	if err := ix.retry(ctx, "write the vectors of "+what, func() error { return ix.FlushVectors(ctx) }); err != nil {
		return err
	}
	return ix.retry(ctx, "refresh after "+what, func() error { return ix.Backend.Refresh(ctx) })
}

// Upsert writes notices as every load does (passages cut in parallel,
// vectors made): the path a caller outside the pipeline (the benchmark's
// loader) uses so it measures what production writes. The caller calls
// FlushVectors once its last batch is written.
func (ix *Indexer) Upsert(ctx context.Context, notices []record.Notice) ([]search.Doc, error) {
	docs := Docs(notices)
	return docs, ix.upsert(ctx, notices, docs)
}

// VectorBatch is how many notice vectors the indexer holds before writing
// them in one Records write. A Records write is visible to reads when it
// returns (on OpenSearch a refresh=wait_for, up to a second), so one per
// notice batch would cost a refresh wait per 500 notices (measured: 100k
// notices loaded at 468/s on OpenSearch instead of about 1,700/s).
const VectorBatch = 20000

// upsert writes notices with their passages and, when the backend holds
// records, makes their semantic vectors (internal/semantic), written every
// VectorBatch notices and by FlushVectors at the end of each load: every
// notice write goes through here. Vectors not yet written when a process
// stops are made again at the next start (semantic.Service.Backfill).
func (ix *Indexer) upsert(ctx context.Context, notices []record.Notice, docs []search.Doc) error {
	if err := ix.Backend.Upsert(ctx, docs); err != nil {
		return err
	}
	if _, ok := ix.Backend.(search.Records); !ok {
		return nil
	}
	m, err := semantic.Default()
	if err != nil {
		return err
	}
	vs := m.Vectors(notices, ix.now())
	ix.vmu.Lock()
	ix.pendingVectors = append(ix.pendingVectors, vs...)
	full := len(ix.pendingVectors) >= VectorBatch
	ix.vmu.Unlock()
	if full {
		return ix.FlushVectors(ctx)
	}
	return nil
}

// FlushVectors writes the vectors made since the last write.
func (ix *Indexer) FlushVectors(ctx context.Context) error {
	rs, ok := ix.Backend.(search.Records)
	if !ok {
		return nil
	}
	ix.vmu.Lock()
	vs := ix.pendingVectors
	ix.pendingVectors = nil
	ix.vmu.Unlock()
	if err := search.Put(ctx, rs, semantic.NoticeVectorKind, vs); err != nil {
		ix.vmu.Lock()
		ix.pendingVectors = append(vs, ix.pendingVectors...) // kept for the next try
		ix.vmu.Unlock()
		return err
	}
	return nil
}

// writeBatches is the one way the indexer writes: items in batches of
// ix.Batch, each batch sent again while the backend is unavailable (retry:
// acknowledged batches are never re-sent and none is skipped), with a
// progress bar for people watching.
func writeBatches[T any](ctx context.Context, ix *Indexer, items []T, what string, write func([]T) error) error {
	size := ix.Batch
	if size <= 0 {
		size = DefaultBatch
	}
	bar := ix.bar(len(items), what)
	for start := 0; start < len(items); start += size {
		end := min(start+size, len(items))
		batch := items[start:end]
		if err := ix.retry(ctx, fmt.Sprintf("write %s, %d-%d of %d", what, start+1, end, len(items)), func() error {
			return write(batch)
		}); err != nil {
			return fmt.Errorf("indexer: write %s: %w", what, err)
		}
		if bar != nil {
			bar.Add(end - start)
		}
	}
	return nil
}

// retry runs op (one batch) until it succeeds, fails for a reason other
// than the backend being unavailable, or RetryFor has passed since the
// first failure; the backend's last error is returned.
func (ix *Indexer) retry(ctx context.Context, what string, op func() error) error {
	err := op()
	if err == nil || ix.RetryFor < 0 || record.ErrorCode(err) != record.EUNAVAILABLE {
		return err
	}
	limit := ix.RetryFor
	if limit == 0 {
		limit = DefaultRetryFor
	}
	first := time.Now()
	wait := 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		if time.Since(first)+wait > limit {
			ix.log().Error("indexer: backend still unavailable: giving up", "op", what, "attempts", attempt, "for", time.Since(first).Round(time.Millisecond), "err", err)
			return err
		}
		ix.log().Warn("indexer: backend unavailable: sending the batch again", "op", what, "attempt", attempt, "wait", wait, "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (gave up waiting: %w)", err, ctx.Err())
		case <-time.After(wait):
		}
		if err = op(); err == nil {
			ix.log().Info("indexer: batch written after retries", "op", what, "attempts", attempt+1, "after", time.Since(first).Round(time.Millisecond))
			return nil
		}
		if record.ErrorCode(err) != record.EUNAVAILABLE {
			return err
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// Report says what a load did.
type Report struct {
	// Notices counts the records read (notices and typed records);
	// Indexed the typed records written; Errors the
	// rows and records rejected, each with its reason.
	Notices  int
	Indexed  int
	Rows     int
	Merged   int
	Errors   []error
	Duration time.Duration
}

// Load runs the pipeline for one source over a directory of fsys (the
// bundled sample, or a dump on disk): read, link (indexer/link: agency
// ids, vendor stems, base PINs), write in batches. A notice source is
// observed last, once every notice is written (SampleLoaded reads that
// observation as the mark of a completed load).
func (ix *Indexer) Load(ctx context.Context, src Source, fsys fs.FS, dir string) (Report, error) {
	start := time.Now()
	b, errs := src.Read(fsys, dir)
	rep := Report{Notices: len(b.Notices), Rows: b.Rows, Merged: b.Merged, Errors: errs}
	for _, set := range b.Records {
		rep.Notices += set.Len()
	}
	for _, n := range b.Notes {
		ix.log().Info("source file note", "source", src.Name(), "note", n)
	}
	for _, e := range errs {
		ix.log().Warn("row skipped", "source", src.Name(), "err", e)
	}
	linker := link.Linker{Crosswalk: ix.Crosswalk}
	linker.Notices(b.Notices)
	if src.Holds() == HoldsNotices {
		if err := ix.Write(ctx, b.Notices, "indexing "+src.Name()+" notices"); err != nil {
			return rep, err
		}
		observed := b.ObservedAt
		if observed.IsZero() {
			observed = ix.now()
		}
		if err := ix.Backend.Observe(ctx, search.Observation{Source: src.Name(), Label: src.Label(),
			RecordType: "notice", ObservedAt: observed}); err != nil {
			return rep, err
		}
	}
	written, rejected, err := ix.writeRecordSets(ctx, src.Name(), b.Records)
	for _, e := range rejected {
		ix.log().Warn("record rejected", "source", src.Name(), "err", e)
	}
	rep.Errors = append(rep.Errors, rejected...)
	rep.Indexed += written
	if err != nil {
		return rep, err
	}
	rep.Duration = time.Since(start)
	ix.log().Info("source loaded", "source", src.Name(), "dir", dir, "rows", rep.Rows, "records", rep.Notices, "merged", rep.Merged,
		"indexed", rep.Indexed, "errors", len(rep.Errors), "took", rep.Duration.Round(time.Millisecond))
	return rep, nil
}

// LoadCROLDir loads City Record files (DCAS .psv, Socrata .json/.csv) from a
// directory of fsys: the bundled sample, or a dump on disk.
func (ix *Indexer) LoadCROLDir(ctx context.Context, fsys fs.FS, dir string) (Report, error) {
	return ix.Load(ctx, crolSource{}, fsys, dir)
}

// observedAt is when the loaded files were observed at their source: the
// latest observation any file states, or now when none does (now may be
// zero: unknown).
func observedAt(c *crol.Corpus, now time.Time) time.Time {
	var t time.Time
	for _, f := range c.Files {
		if f.ObservedAt.After(t) {
			t = f.ObservedAt
		}
	}
	if t.IsZero() {
		return now
	}
	return t
}

// SampleLoaded reports whether a load of City Record rows has completed
// into the backend: the City Record source has been observed. The
// observation is written only after every notice of a load (LoadCROLDir,
// RunLive), so records without it are the remains of an interrupted load.
func (ix *Indexer) SampleLoaded(ctx context.Context) (bool, error) {
	cov, err := ix.Backend.Coverage(ctx)
	if err != nil {
		return false, err
	}
	for _, c := range cov {
		if c.Source == record.SourceCROL && !c.ObservedAt.IsZero() {
			return true, nil
		}
	}
	return false, nil
}

// EnsureSample loads the bundled sample corpus until one load has
// completed. Until then every start loads it again from the beginning, over
// whatever an interrupted start left (ids are stable, so the writes replace
// what they find): the notices, the City Record observation that marks the
// load as complete (SampleLoaded), then the typed records (contracts,
// payments, lots, land, meetings, payroll …). A backend loaded once is
// left as it is, except that missing records, records of an older layout
// and records of retired kinds are put right (EnsureSampleRecords). It
// reports whether the notices were (re)loaded.
func (ix *Indexer) EnsureSample(ctx context.Context, sample fs.FS) (bool, error) {
	done, err := ix.SampleLoaded(ctx)
	if err != nil {
		return false, err
	}
	if done {
		_, err := ix.EnsureSampleRecords(ctx, sample)
		return false, err
	}
	cov, err := ix.Backend.Coverage(ctx)
	if err != nil {
		return false, err
	}
	held := 0
	for _, c := range cov {
		held += c.Records
	}
	if held > 0 {
		ix.log().Warn("an earlier load of the bundled sample did not finish: loading it again", "records_held", held)
	} else {
		ix.log().Info("empty index: loading the bundled sample corpus")
	}
	for _, src := range Sources {
		if src.Holds() != HoldsNotices {
			continue
		}
		if _, err := ix.Load(ctx, src, sample, src.Name()); err != nil {
			return false, err
		}
	}
	// Typed records load after the notices their link stage reads. They
	// come after the observation that marks the load complete: a start
	// that finds some missing completes them by count
	// (EnsureSampleRecords).
	if _, ok := ix.Backend.(search.Records); ok {
		if err := ix.LoadRecordSamples(ctx, sample); err != nil {
			return false, err
		}
	}
	return true, nil
}

// LiveOverlap re-reads a margin before the last observation, because rows
// change in place at the source.
const LiveOverlap = 7 * 24 * time.Hour

// RunLive fetches City Record rows from the live SODA API (all of them, or
// those changed since the last observation minus LiveOverlap when
// incremental) and writes them page by page.
func (ix *Indexer) RunLive(ctx context.Context, f *crol.Fetcher, incremental bool) (int, error) {
	var since time.Time
	if incremental {
		cov, err := ix.Backend.Coverage(ctx)
		if err != nil {
			return 0, err
		}
		for _, c := range cov {
			if c.Source == record.SourceCROL && !c.ObservedAt.IsZero() {
				since = c.ObservedAt.Add(-LiveOverlap)
			}
		}
	}
	started := ix.now()
	bar := ix.bar(-1, "fetching City Record rows")
	written := 0
	_, err := f.Fetch(ctx, since, func(rows []crol.Row) error {
		notices := make([]record.Notice, 0, len(rows))
		for _, r := range rows {
			n, err := crol.NormalizeRaw(r)
			if err != nil {
				ix.log().Warn("crol row skipped", "err", err)
				continue
			}
			notices = append(notices, n)
		}
		link.Linker{Crosswalk: ix.Crosswalk}.Notices(notices)
		docs := Docs(notices)
		if err := ix.retry(ctx, "write a page of live City Record rows", func() error {
			return ix.upsert(ctx, notices, docs)
		}); err != nil {
			return err
		}
		written += len(notices)
		if bar != nil {
			bar.Add(len(rows))
		}
		return nil
	})
	if err != nil {
		return written, fmt.Errorf("indexer: live fetch: %w", err)
	}
	if err := ix.retry(ctx, "write the vectors of live City Record rows", func() error { return ix.FlushVectors(ctx) }); err != nil {
		return written, err
	}
	if err := ix.Backend.Refresh(ctx); err != nil {
		return written, err
	}
	err = ix.Backend.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: CROLLabel, RecordType: "notice", ObservedAt: started})
	ix.log().Info("crol live fetch done", "since", since, "notices", written)
	return written, err
}
