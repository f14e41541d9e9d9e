// Package indexer is the pipeline fetch → parse → normalize → link → write:
// it turns source rows into notices and passages and writes them in batches
// to the search backend, recording each source's coverage. Re-running it is
// idempotent: the same input gives the same documents under the same ids.
package indexer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
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
	Backend   search.Engine
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
	// Integrity is the engine's account of damaged segments it refused
	// (the embedded engine's; nil: none kept). EnsureSample loads the
	// bundled sample again while it reports damage, then says so.
	Integrity search.Integrity

	vmu            sync.Mutex
	pendingVectors []semantic.NoticeVector
	links          atomic.Int64 // link records written (Links)
}

// Links is how many link records (joins found by the link stage) this
// indexer has written.
func (ix *Indexer) Links() int64 { return ix.links.Load() }

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
	return ix.settle(ctx, what)
}

// settle ends a write of notices: the vectors made since the last write
// are written and the engine refreshed, each retried while the engine is
// unavailable.
func (ix *Indexer) settle(ctx context.Context, what string) error {
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
	ix.vmu.Lock()
	vs := ix.pendingVectors
	ix.pendingVectors = nil
	ix.vmu.Unlock()
	if err := search.Put(ctx, ix.Backend, semantic.NoticeVectorKind, vs); err != nil {
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
// progress bar for people watching when there are several.
func writeBatches[T any](ctx context.Context, ix *Indexer, items []T, what string, write func([]T) error) error {
	size := ix.Batch
	if size <= 0 {
		size = DefaultBatch
	}
	var bar *progressbar.ProgressBar
	if len(items) > size { // a bar for people watching a write of several batches
		bar = ix.bar(len(items), what)
	}
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
	// Parts are the coverage sources a live fetch of several upstreams
	// read, each with its outcome (Batch.Parts, merged per source).
	Parts []Part
	// Windowed says the fetch asked for a bounded window (Batch.Windowed).
	Windowed bool
}

// addParts merges ps into the report's parts, per source.
func (r *Report) addParts(ps []Part) {
	for _, p := range ps {
		i := slices.IndexFunc(r.Parts, func(q Part) bool { return q.Source == p.Source })
		if i < 0 {
			r.Parts = append(r.Parts, p)
			continue
		}
		r.Parts[i].Rows += p.Rows
		r.Parts[i].Err = errors.Join(r.Parts[i].Err, p.Err)
		r.Parts[i].Unread = append(r.Parts[i].Unread, p.Unread...)
	}
}

// nothingNew says the load asked for a bounded window and the upstream
// answered it with no rows and no error: nothing new, a good fetch.
func (r Report) nothingNew() bool {
	return r.Windowed && r.Rows == 0 && len(r.Errors) == 0
}

// ErrNothingRead is the error of a load that kept nothing: no row read
// (a missing directory, an empty answer) or every row rejected. Such a
// load moves no observation: it must not pass for a fresh one.
var ErrNothingRead = errors.New("read nothing it could keep")

// Load runs the pipeline for one source over a directory of fsys (the
// bundled sample, or a dump on disk): read, then the one path of every
// load (pipeline: link, write, observe). The source is observed when the
// files say (the latest observation a batch states), or now.
func (ix *Indexer) Load(ctx context.Context, src Source, fsys fs.FS, dir string) (Report, error) {
	return ix.pipeline(ctx, src, dir, time.Time{}, func(batch func(Batch, []error) error) error {
		return batch(ix.read(src, fsys, dir))
	})
}

// read reads a source's files. City Record's rows without an observation
// time are observed at the latest start date in their file, which must not
// be a future one: they are read with the cutoff of the indexer's clock
// (record.FutureCutoff).
func (ix *Indexer) read(src Source, fsys fs.FS, dir string) (Batch, []error) {
	if c, ok := src.(crolSource); ok {
		return c.readBefore(fsys, dir, record.FutureCutoff(ix.now()))
	}
	return src.Read(fsys, dir)
}

// RunLive fetches a live source since its checkpoint (the source's last
// observation; none with cfg.Full) and runs every batch through the one
// path of every load (pipeline: link, write, observe), as each arrives.
// The source is observed at the time the fetch started, once every batch
// is written: a fetch that fails part way, or keeps nothing, moves no
// observation, so the next one resumes from the same checkpoint.
func (ix *Indexer) RunLive(ctx context.Context, src LiveSource, cfg LiveConfig) (Report, error) {
	started := ix.now()
	var since Checkpoint
	if !cfg.Full {
		cov, err := ix.Backend.Coverage(ctx)
		if err != nil {
			return Report{}, err
		}
		for _, c := range cov {
			if c.Source == src.Name() && !c.ObservedAt.IsZero() {
				since.ObservedAt = c.ObservedAt
			}
		}
	}
	if cfg.Now == nil {
		cfg.Now = ix.now
	}
	if cfg.Held == nil {
		cfg.Held = ix.Backend
	}
	if cfg.Progress == nil {
		cfg.Progress = func(part string, rows int) {
			ix.log().Info("live fetch", "source", src.Name(), "part", part, "rows", rows)
		}
	}
	bar := ix.bar(-1, "fetching "+src.Name()+" rows")
	ix.log().Info("live fetch", "source", src.Name(), "checkpoint", since.ObservedAt, "full", cfg.Full)
	return ix.pipeline(ctx, src, "live", started, func(batch func(Batch, []error) error) error {
		return src.Fetch(ctx, since, cfg, func(b Batch, errs []error) error {
			if bar != nil {
				bar.Add(b.Rows)
			}
			return batch(b, errs)
		})
	})
}

// pipeline is the one path every load takes, from files or live: each
// batch that batches hands over is linked (indexer/link: agency ids,
// vendor stems, base PINs, links to the notices held) and written in
// batches as it comes; once every batch is written, a notice source's
// vectors are written, the engine refreshed, and the source observed (at
// observed, or the latest observation a batch states, or now): that
// observation comes last, so SampleLoaded reads it as the mark of a
// completed load, and a live fetch resumes from it. A load that failed,
// or kept nothing (ErrNothingRead), observes nothing.
func (ix *Indexer) pipeline(ctx context.Context, src Source, from string, observed time.Time,
	batches func(batch func(Batch, []error) error) error) (Report, error) {
	start := time.Now()
	var rep Report
	var stated time.Time
	var writeErr error
	cutoff := record.FutureCutoff(ix.now())
	err := batches(func(b Batch, errs []error) error {
		switch {
		case !b.ObservedAt.Before(cutoff): // a clock or a row dated past tomorrow: never an observation
			ix.log().Warn("a batch states an observation past tomorrow; not taken as the source's", "source", src.Name(),
				"observed_at", b.ObservedAt)
		case b.ObservedAt.After(stated):
			stated = b.ObservedAt
		}
		writeErr = ix.writeBatch(ctx, src, b, errs, &rep)
		return writeErr
	})
	rep.Duration = time.Since(start)
	switch {
	case writeErr != nil:
		return rep, writeErr
	case err != nil:
		return rep, fmt.Errorf("indexer: %s %s: %w", src.Name(), from, err)
	case rep.Indexed == 0 && !rep.nothingNew():
		err := fmt.Errorf("indexer: %s %s: %w", src.Name(), from, ErrNothingRead)
		if rep.Rows > 0 {
			err = fmt.Errorf("%w: all %d rows read were rejected", err, rep.Rows)
		}
		if len(rep.Errors) > 0 {
			err = fmt.Errorf("%w (%d rejected; the first: %w)", err, len(rep.Errors), rep.Errors[0])
		}
		return rep, err
	}
	if src.Holds() == HoldsNotices {
		if err := ix.settle(ctx, src.Name()+" notices"); err != nil {
			return rep, err
		}
		at := cmp.Or(observed, stated, ix.now())
		// observations only move forward: a file older than what is held
		// (its rows are written; their source dates say how old they are)
		// does not take the source's observation back to its date
		if held, err := ix.observedAt(ctx, src.Name()); err != nil {
			return rep, err
		} else if held.After(at) {
			ix.log().Info("source observation kept: the load is older than what is held", "source", src.Name(), "load", at, "held", held)
			at = held
		}
		if err := ix.retry(ctx, "observe "+src.Name(), func() error {
			return ix.Backend.Observe(ctx, search.Observation{Source: src.Name(), Label: src.Label(), RecordType: "notice", ObservedAt: at})
		}); err != nil {
			return rep, err
		}
	}
	rep.Duration = time.Since(start)
	ix.log().Info("source loaded", "source", src.Name(), "from", from, "rows", rep.Rows, "records", rep.Notices, "merged", rep.Merged,
		"indexed", rep.Indexed, "errors", len(rep.Errors), "took", rep.Duration.Round(time.Millisecond))
	return rep, nil
}

// observedAt is when the backend says src was last observed (zero:
// never).
func (ix *Indexer) observedAt(ctx context.Context, src string) (time.Time, error) {
	cov, err := ix.Backend.Coverage(ctx)
	if err != nil {
		return time.Time{}, err
	}
	for _, c := range cov {
		if c.Source == src {
			return c.ObservedAt, nil
		}
	}
	return time.Time{}, nil
}

// writeBatch is the link and write steps of the pipeline for one batch:
// it counts what was read into rep, logs the notes and the rejected rows,
// links the batch and writes its entries, notices and record sets.
func (ix *Indexer) writeBatch(ctx context.Context, src Source, b Batch, errs []error, rep *Report) error {
	rep.Notices += len(b.Notices)
	for _, set := range b.Records {
		rep.Notices += set.Len()
	}
	rep.Rows += b.Rows
	rep.Merged += b.Merged
	rep.Errors = append(rep.Errors, errs...)
	rep.addParts(b.Parts)
	rep.Windowed = rep.Windowed || b.Windowed
	for _, n := range b.Notes {
		ix.log().Info("source file note", "source", src.Name(), "note", n)
	}
	for _, e := range errs {
		ix.log().Warn("row skipped", "source", src.Name(), "err", e)
	}
	linker := link.Linker{Crosswalk: ix.Crosswalk}
	linker.Notices(b.Notices)
	if len(b.Notices) > 0 {
		if err := writeBatches(ctx, ix, b.Notices, "indexing "+src.Name()+" notices", func(batch []record.Notice) error {
			return ix.upsert(ctx, batch, Docs(batch))
		}); err != nil {
			return err
		}
		rep.Indexed += len(b.Notices)
		env := ix.linkEnv()
		if err := link.NoticeSet(ctx, env, b.Notices); err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("%s notices: joins to the records held not found: %w", src.Name(), err))
		}
		// the land projects held that the notices name are linked now, as
		// the notices load, by the rule the land job links them by
		if err := link.NoticeLand(ctx, env, b.Notices); err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("%s notices: links to the land projects held not found: %w", src.Name(), err))
		}
		n, err := ix.writeLinks(ctx, src.Name(), env.Links)
		ix.links.Add(int64(n))
		if err != nil {
			return err
		}
	}
	written, rejected, err := ix.writeRecordSets(ctx, src.Name(), b.Records)
	for _, e := range rejected {
		ix.log().Warn("record rejected", "source", src.Name(), "err", e)
	}
	rep.Errors = append(rep.Errors, rejected...)
	rep.Indexed += written
	return err
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
// observation is written only after every notice of a load (pipeline), so records without it are the remains of an interrupted load.
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

// loadSampleNotices loads the sample's notice sources, through the
// engine's bulk path when it has one and its notice indexes are empty
// (search.BulkLoader): the notices become visible together once every
// notice source is loaded. A load that fails ends the bulk load too, as
// far as it went (what the next start finds and loads again).
func (ix *Indexer) loadSampleNotices(ctx context.Context, sample fs.FS) error {
	bulk, err := ix.Backend.BeginBulk(ctx)
	if err != nil {
		return err
	}
	if bulk {
		ix.log().Info("the notices load through the engine's bulk load path: visible once every notice source is loaded")
	}
	for _, src := range Sources {
		if src.Holds() != HoldsNotices {
			continue
		}
		if _, err = ix.Load(ctx, src, sample, src.Name()); err != nil {
			break
		}
	}
	if bulk {
		err = errors.Join(err, ix.Backend.EndBulk(ctx))
	}
	return err
}

// EnsureSample loads the bundled sample corpus until one load has
// completed. Until then every start loads it again from the beginning, over
// whatever an interrupted start left (ids are stable, so the writes replace
// what they find): the notices, the City Record observation that marks the
// load as complete (SampleLoaded), then the typed records (contracts,
// payments, lots, land, meetings, payroll …). A backend loaded once is
// left as it is, except that missing records, records of an older layout
// and records of retired kinds are put right (EnsureSampleRecords); and
// while the engine reports segments refused as damaged (Integrity), the
// whole sample is loaded again — the refused segments' records among it —
// and the engine told they are repaired. It reports whether the notices
// were (re)loaded.
func (ix *Indexer) EnsureSample(ctx context.Context, sample fs.FS) (bool, error) {
	done, err := ix.SampleLoaded(ctx)
	if err != nil {
		return false, err
	}
	var damaged []search.Damage
	if ix.Integrity != nil {
		damaged = ix.Integrity.Damaged()
	}
	if done && len(damaged) == 0 {
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
	switch {
	case len(damaged) > 0:
		segs := make([]string, 0, len(damaged))
		for _, d := range damaged {
			segs = append(segs, d.Index+"/"+d.Segment)
		}
		ix.log().Warn("segments of the index were refused as damaged: loading the bundled sample again to rebuild their records",
			"segments", segs)
	case held > 0:
		ix.log().Warn("an earlier load of the bundled sample did not finish: loading it again", "records_held", held)
	default:
		ix.log().Info("empty index: loading the bundled sample corpus")
	}
	if err := ix.loadSampleNotices(ctx, sample); err != nil {
		return false, err
	}
	// Typed records load after the notices their link stage reads. They
	// come after the observation that marks the load complete: a start
	// that finds some missing completes them by count
	// (EnsureSampleRecords).
	if err := ix.LoadRecordSamples(ctx, sample); err != nil {
		return false, err
	}
	if len(damaged) > 0 {
		if err := ix.Integrity.Repaired(ctx); err != nil {
			return true, err
		}
		ix.log().Info("the records of the refused segments were loaded again from the bundled sample", "segments", len(damaged))
	}
	return true, nil
}
