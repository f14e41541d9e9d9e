package indexer

import (
	"context"
	"fmt"
	"io/fs"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/checkbook"
	"github.com/recordwatch/recordwatch/indexer/source/lots"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Sample directories of the sources written as entries (search.Entry):
// Checkbook NYC answers, registered-contract rows and lot locations.
const (
	SampleCheckbookDir = "checkbook"
	SampleContractsDir = "contracts"
	SampleLotsDir      = "zap"
)

// entityWriter is the backend as a writer of entries.
func (ix *Indexer) entityWriter() (search.EntityBackend, error) {
	eb, ok := search.Entities(ix.Backend)
	if !ok {
		return nil, fmt.Errorf("indexer: the %s engine does not hold entries (payments, contracts, lots)", ix.Backend.Name())
	}
	return eb, nil
}

// WriteEntries writes entries in batches.
func (ix *Indexer) WriteEntries(ctx context.Context, entries []search.Entry, what string) error {
	eb, err := ix.entityWriter()
	if err != nil {
		return err
	}
	size := ix.Batch
	if size <= 0 {
		size = DefaultBatch
	}
	bar := ix.bar(len(entries), what)
	for start := 0; start < len(entries); start += size {
		end := min(start+size, len(entries))
		if err := eb.UpsertEntries(ctx, entries[start:end]); err != nil {
			return fmt.Errorf("indexer: write %s: %w", what, err)
		}
		if bar != nil {
			bar.Add(end - start)
		}
	}
	return nil
}

// LoadCheckbookDir loads Checkbook NYC API answers (*.response.xml) and
// registered-contract rows (cityscroll read model, *.json) from a directory.
func (ix *Indexer) LoadCheckbookDir(ctx context.Context, fsys fs.FS, dir string) (Report, error) {
	start := time.Now()
	c, errs := checkbook.LoadDir(fsys, dir, ix.Crosswalk)
	rep := Report{Notices: len(c.Entries), Errors: errs}
	for _, f := range c.Files {
		rep.Rows += f.Transactions
		for _, r := range f.Repairs {
			ix.log().Info("checkbook file repaired", "file", f.File, "repair", r)
		}
		if f.RecordCount > f.Transactions {
			ix.log().Info("checkbook answer holds part of its matches", "file", f.File, "record_count", f.RecordCount, "transactions", f.Transactions)
		}
	}
	for _, e := range errs {
		ix.log().Warn("checkbook row skipped", "err", e)
	}
	if err := ix.WriteEntries(ctx, c.Entries, "indexing payments and contracts"); err != nil {
		return rep, err
	}
	rep.Duration = time.Since(start)
	ix.log().Info("checkbook loaded", "dir", dir, "rows", rep.Rows, "entries", rep.Notices, "errors", len(errs),
		"took", rep.Duration.Round(time.Millisecond))
	return rep, nil
}

// LoadLotsDir loads lot locations (MapPLUTO centroids, ZAP portal projects).
func (ix *Indexer) LoadLotsDir(ctx context.Context, fsys fs.FS, dir string) (Report, error) {
	start := time.Now()
	es, errs := lots.LoadDir(fsys, dir)
	for _, e := range errs {
		ix.log().Warn("lot skipped", "err", e)
	}
	rep := Report{Notices: len(es), Rows: len(es) + len(errs), Errors: errs}
	if err := ix.WriteEntries(ctx, es, "indexing lot locations"); err != nil {
		return rep, err
	}
	rep.Duration = time.Since(start)
	ix.log().Info("lots loaded", "dir", dir, "entries", len(es), "errors", len(errs))
	return rep, nil
}

// EnsureSampleEntries loads the bundled Checkbook NYC answers, contract rows
// and lot locations unless every entry they hold is already held (by
// source and kind, at least as many as the sample has): into a data
// directory indexed before entries existed, and over a load that was
// interrupted part way (entry ids are stable, so loading again replaces
// what is there). A backend that does not hold entries is left alone.
func (ix *Indexer) EnsureSampleEntries(ctx context.Context, sample fs.FS) (bool, error) {
	eb, ok := search.Entities(ix.Backend)
	if !ok {
		return false, nil
	}
	cov, err := eb.EntryCoverage(ctx)
	if err != nil {
		return false, err
	}
	held := map[string]int{}
	for _, c := range cov {
		held[c.Source+"/"+c.RecordType] += c.Records
	}
	var missing []string
	for key, n := range sampleEntryCounts(sample, ix.Crosswalk) {
		if held[key] < n {
			missing = append(missing, key)
		}
	}
	if len(missing) == 0 {
		return false, nil
	}
	ix.log().Info("payments, contracts or lots of the bundled sample are missing: loading them", "missing", missing)
	if err := ix.LoadEntitySamples(ctx, sample); err != nil {
		return false, err
	}
	return true, nil
}

// sampleEntryCounts counts the distinct entries of the bundled entity
// samples by "source/kind".
func sampleEntryCounts(sample fs.FS, cw *entity.Crosswalk) map[string]int {
	var all []search.Entry
	for _, dir := range []string{SampleCheckbookDir, SampleContractsDir} {
		if _, err := fs.Stat(sample, dir); err == nil {
			c, _ := checkbook.LoadDir(sample, dir, cw)
			all = append(all, c.Entries...)
		}
	}
	if _, err := fs.Stat(sample, SampleLotsDir); err == nil {
		es, _ := lots.LoadDir(sample, SampleLotsDir)
		all = append(all, es...)
	}
	ids := map[string]map[string]bool{}
	for _, e := range all {
		key := e.Source + "/" + e.Kind
		if ids[key] == nil {
			ids[key] = map[string]bool{}
		}
		ids[key][e.ID] = true
	}
	counts := map[string]int{}
	for key, set := range ids {
		counts[key] = len(set)
	}
	return counts
}

// LoadEntitySamples loads the bundled Checkbook NYC answers, contract rows
// and lot locations (the directories that exist), whatever is held: entry
// ids are stable, so loading twice changes nothing.
func (ix *Indexer) LoadEntitySamples(ctx context.Context, sample fs.FS) error {
	for _, dir := range []string{SampleCheckbookDir, SampleContractsDir} {
		if _, err := fs.Stat(sample, dir); err != nil {
			continue
		}
		if _, err := ix.LoadCheckbookDir(ctx, sample, dir); err != nil {
			return err
		}
	}
	if _, err := fs.Stat(sample, SampleLotsDir); err == nil {
		if _, err := ix.LoadLotsDir(ctx, sample, SampleLotsDir); err != nil {
			return err
		}
	}
	return nil
}

// RunCheckbookLive fetches from the live Checkbook NYC API and writes every
// page as entries (ids are stable, so a page read twice replaces itself).
func (ix *Indexer) RunCheckbookLive(ctx context.Context, f *checkbook.Fetcher) (int, error) {
	if _, err := ix.entityWriter(); err != nil {
		return 0, err
	}
	bar := ix.bar(-1, "fetching Checkbook NYC transactions")
	written := 0
	_, err := f.Fetch(ctx, func(p checkbook.Page) error {
		entries, errs := checkbook.NormalizeResponse(p.Response, f.BaseURL, ix.Crosswalk, p.ObservedAt)
		for _, e := range errs {
			ix.log().Warn("checkbook transaction skipped", "err", e)
		}
		if err := ix.WriteEntries(ctx, entries, "writing Checkbook NYC transactions"); err != nil {
			return err
		}
		written += len(entries)
		if bar != nil {
			bar.Add(len(p.Response.Transactions))
		}
		return nil
	})
	if err != nil {
		return written, fmt.Errorf("indexer: checkbook live fetch: %w", err)
	}
	ix.log().Info("checkbook live fetch done", "type", f.TypeOfData, "entries", written)
	return written, nil
}
