package indexer

import (
	"context"
	"fmt"
	"io/fs"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/checkbook"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Sample directories of the sources written as entries (search.Entry):
// Checkbook NYC answers, registered-contract rows and lot locations (each
// source's Name).
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
	return writeBatches(ctx, ix, entries, what, func(batch []search.Entry) error { return eb.UpsertEntries(ctx, batch) })
}

// WriteContracts writes the registered contracts of linked entries (the
// contract entries with a contract ID, search.ContractOf) as records of
// search.ContractKind, in batches, beside the entries they come from. A
// backend that holds no records is left alone.
func (ix *Indexer) WriteContracts(ctx context.Context, entries []search.Entry, what string) error {
	cs := search.ContractsOf(entries)
	if len(cs) == 0 {
		return nil
	}
	rs, ok := ix.Backend.(search.Records)
	if !ok {
		ix.log().Warn("contracts not written: the engine holds no records", "engine", ix.Backend.Name())
		return nil
	}
	return writeBatches(ctx, ix, cs, what, func(batch []record.Contract) error { return search.Put(ctx, rs, search.ContractKind, batch) })
}

// LoadCheckbookDir loads Checkbook NYC API answers (*.response.xml) and
// registered-contract rows (the contracts source, *.json) from one
// directory: the two sources, one after the other.
func (ix *Indexer) LoadCheckbookDir(ctx context.Context, fsys fs.FS, dir string) (Report, error) {
	var rep Report
	for _, src := range []Source{checkbookSource{}, contractsSource{}} {
		r, err := ix.Load(ctx, src, fsys, dir)
		rep.Notices += r.Notices
		rep.Rows += r.Rows
		rep.Indexed += r.Indexed
		rep.Errors = append(rep.Errors, r.Errors...)
		rep.Duration += r.Duration
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// LoadLotsDir loads lot locations (MapPLUTO centroids, ZAP portal projects).
func (ix *Indexer) LoadLotsDir(ctx context.Context, fsys fs.FS, dir string) (Report, error) {
	return ix.Load(ctx, zapSource{}, fsys, dir)
}

// EnsureSampleEntries loads the bundled Checkbook NYC answers, contract rows
// and lot locations unless every entry they hold is already held (by
// source and kind, at least as many as the sample has, and as many
// registered contracts): into a data
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
	if rs, ok := ix.Backend.(search.Records); ok {
		rcov, err := rs.RecordCoverage(ctx)
		if err != nil {
			return false, err
		}
		for _, c := range rcov {
			if c.RecordType == search.ContractKind.Name {
				held[contractCountKey(c.Source)] += c.Records
			} else {
				held[recordCountKey(c.Source, c.RecordType)] += c.Records
			}
		}
	}
	var missing []string
	for key, n := range sampleEntryCounts(sample) {
		if held[key] < n {
			missing = append(missing, key)
		}
	}
	if len(missing) == 0 {
		return false, nil
	}
	ix.log().Info("entries or records of the bundled sample are missing: loading them", "missing", missing)
	if err := ix.LoadEntitySamples(ctx, sample); err != nil {
		return false, err
	}
	if err := ix.LoadRecordSamples(ctx, sample); err != nil {
		return false, err
	}
	return true, nil
}

// contractCountKey is the sampleEntryCounts key of the registered
// contracts (search.ContractKind) of a source.
func contractCountKey(source string) string {
	return source + "/" + search.ContractKind.Name + " records"
}

// sampleEntryCounts counts the distinct entries of the bundled entity
// samples by "source/kind", and the registered contracts they give by
// contractCountKey (a data directory loaded before contracts were written
// as their own kind is completed).
func sampleEntryCounts(sample fs.FS) map[string]int {
	ids := map[string]map[string]bool{}
	counts := map[string]int{}
	for _, src := range Sources {
		if src.Holds() == HoldsNotices {
			continue
		}
		if _, err := fs.Stat(sample, src.Name()); err != nil {
			continue
		}
		b, _ := src.Read(sample, src.Name())
		sampleRecordCounts(counts, src, b)
		for _, e := range b.Entries {
			key := e.Source + "/" + e.Kind
			if ids[key] == nil {
				ids[key] = map[string]bool{}
			}
			ids[key][e.ID] = true
			if c, ok := search.ContractOf(e); ok {
				ck := contractCountKey(e.Source)
				if ids[ck] == nil {
					ids[ck] = map[string]bool{}
				}
				ids[ck][c.ID] = true
			}
		}
	}
	for key, set := range ids {
		counts[key] = len(set)
	}
	return counts
}

// LoadEntitySamples loads the bundled samples of every entry source of
// Sources (Checkbook NYC answers, contract rows, lot locations), in list
// order, from the directories that exist, whatever is held: entry ids are
// stable, so loading twice changes nothing.
func (ix *Indexer) LoadEntitySamples(ctx context.Context, sample fs.FS) error {
	return ix.loadSamples(ctx, sample, HoldsEntries)
}

// LoadRecordSamples loads the bundled samples of every record source of
// Sources (typed records: their link stage reads the notices already
// held, so they load after the notices), in list order.
func (ix *Indexer) LoadRecordSamples(ctx context.Context, sample fs.FS) error {
	return ix.loadSamples(ctx, sample, HoldsRecords)
}

// loadSamples loads the bundled samples of the sources that hold holds.
func (ix *Indexer) loadSamples(ctx context.Context, sample fs.FS, holds string) error {
	for _, src := range Sources {
		if src.Holds() != holds {
			continue
		}
		if _, err := fs.Stat(sample, src.Name()); err != nil {
			continue
		}
		if _, err := ix.Load(ctx, src, sample, src.Name()); err != nil {
			return err
		}
	}
	return nil
}

// RunCheckbookLive fetches from the live Checkbook NYC API and writes every
// page as entries (ids are stable, so a page read twice replaces itself),
// the registered contracts among them also as contract records. The
// report counts the transactions read (Rows), the entries written
// (Indexed) and every transaction rejected, with its reason (Errors): one
// that is not readable XML or cannot be normalized is rejected alone,
// never its page. Each page is logged with its counts, and the progress
// bar (Indexer.Progress) advances by the transactions read.
func (ix *Indexer) RunCheckbookLive(ctx context.Context, f *checkbook.Fetcher) (Report, error) {
	start := time.Now()
	var rep Report
	if _, err := ix.entityWriter(); err != nil {
		return rep, err
	}
	bar := ix.bar(-1, "fetching Checkbook NYC transactions")
	from := f.BaseURL
	if from == "" {
		from = checkbook.Endpoint
	}
	_, err := f.Fetch(ctx, func(p checkbook.Page) error {
		read := len(p.Response.Transactions) + len(p.Response.Rejected)
		where := fmt.Sprintf("%s %s records %d-%d", from, f.TypeOfData, p.Request.RecordsFrom, p.Request.RecordsFrom+read-1)
		entries, errs := checkbook.ReadResponse(p.Response, where, p.ObservedAt)
		for _, e := range errs {
			ix.log().Warn("checkbook transaction rejected", "err", e)
		}
		for _, r := range p.Response.Repairs {
			ix.log().Info("checkbook answer repaired", "page", where, "repair", r)
		}
		rep.Rows += read
		rep.Notices += len(entries)
		rep.Errors = append(rep.Errors, errs...)
		link.Linker{Crosswalk: ix.Crosswalk}.Entries(entries)
		if err := ix.WriteEntries(ctx, entries, "writing Checkbook NYC transactions"); err != nil {
			return err
		}
		if err := ix.WriteContracts(ctx, entries, "writing Checkbook NYC contracts"); err != nil {
			return err
		}
		rep.Indexed += len(entries)
		ix.log().Info("checkbook page written", "page", where, "read", read, "indexed", len(entries), "rejected", len(errs),
			"record_count", p.Response.RecordCount)
		if bar != nil {
			bar.Add(read)
		}
		return nil
	})
	rep.Duration = time.Since(start)
	if err != nil {
		return rep, fmt.Errorf("indexer: checkbook live fetch: %w", err)
	}
	ix.log().Info("checkbook live fetch done", "type", f.TypeOfData, "rows", rep.Rows, "indexed", rep.Indexed, "rejected", len(rep.Errors))
	return rep, nil
}
