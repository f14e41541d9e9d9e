package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"

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

// WriteEntries writes entries in batches, each in its one store
// (search.EncodeEntry: a contract entry as its contract record).
func (ix *Indexer) WriteEntries(ctx context.Context, entries []search.Entry, what string) error {
	eb, err := ix.entityWriter()
	if err != nil {
		return err
	}
	return writeBatches(ctx, ix, entries, what, func(batch []search.Entry) error { return eb.UpsertEntries(ctx, batch) })
}

// LoadCheckbookDir loads Checkbook NYC API answers (*.response.xml) and
// registered-contract rows (the contracts source, *.json) from one
// directory: the two sources, one after the other. One of them finding
// nothing there is not an error; both finding nothing is.
func (ix *Indexer) LoadCheckbookDir(ctx context.Context, fsys fs.FS, dir string) (Report, error) {
	var rep Report
	var nothing []error
	for _, src := range []Source{checkbookSource{}, contractsSource{}} {
		r, err := ix.Load(ctx, src, fsys, dir)
		if errors.Is(err, ErrNothingRead) {
			nothing = append(nothing, err)
			continue
		}
		rep.Notices += r.Notices
		rep.Rows += r.Rows
		rep.Indexed += r.Indexed
		rep.Errors = append(rep.Errors, r.Errors...)
		rep.Duration += r.Duration
		if err != nil {
			return rep, err
		}
	}
	if len(nothing) == 2 {
		return rep, errors.Join(nothing...)
	}
	return rep, nil
}

// LoadLotsDir loads lot locations (MapPLUTO centroids, ZAP portal projects).
func (ix *Indexer) LoadLotsDir(ctx context.Context, fsys fs.FS, dir string) (Report, error) {
	return ix.Load(ctx, zapSource{}, fsys, dir)
}

// EnsureSampleEntries loads the bundled Checkbook NYC answers, contract rows
// and lot locations, and the record sources' samples, unless every record
// they give is already held in its current layout: by source and record
// kind, at least as many as the sample has, and for a versioned kind
// (search.Kind.Version) only the records of the sample's version count.
// So it completes a data directory indexed before entries or a kind
// existed, a load that was interrupted part way (ids are stable, so
// loading again replaces what is there), and one whose records were
// written in an older layout (they are written again in the current one).
// Records of the contract entries' old second copy
// (search.LegacyContractEntryKind) are deleted on that reload. A backend
// that does not hold records is left alone.
func (ix *Indexer) EnsureSampleEntries(ctx context.Context, sample fs.FS) (bool, error) {
	if _, ok := search.Entities(ix.Backend); !ok {
		return false, nil
	}
	rs, ok := ix.Backend.(search.Records)
	if !ok {
		return false, nil
	}
	cov, err := rs.RecordCoverage(ctx)
	if err != nil {
		return false, err
	}
	held := map[sampleKey]int{}
	legacy := 0
	for _, c := range cov {
		held[sampleKey{Source: c.Source, Kind: c.RecordType}] += c.Records
		if c.RecordType == search.LegacyContractEntryKind {
			legacy += c.Records
		}
	}
	var missing []string
	for key, n := range sampleCounts(sample) {
		have := held[sampleKey{Source: key.Source, Kind: key.Kind}]
		if key.Version != "" && have > 0 {
			t, err := rs.RecordTotals(ctx, search.RecordQuery{Kinds: []string{key.Kind}, Sources: []string{key.Source},
				Keys: map[string][]string{search.KeyKindVersion: {key.Version}}}, nil, 0)
			if err != nil {
				return false, err
			}
			have = t.Count
		}
		if have < n {
			missing = append(missing, key.String())
		}
	}
	if len(missing) == 0 && legacy == 0 {
		return false, nil
	}
	sort.Strings(missing)
	ix.log().Info("records of the bundled sample are missing or of an older layout: loading them", "missing", missing,
		"legacy_contract_entries", legacy)
	if legacy > 0 {
		n, err := search.DeleteLegacyContractEntries(ctx, rs)
		if err != nil {
			return false, err
		}
		ix.log().Info("deleted the contract entries of the old layout (contract records are their one store)", "deleted", n)
	}
	if err := ix.LoadEntitySamples(ctx, sample); err != nil {
		return false, err
	}
	if err := ix.LoadRecordSamples(ctx, sample); err != nil {
		return false, err
	}
	return true, nil
}

// sampleKey is what the sample completeness check counts by: a source, a
// record kind and, for a versioned kind, the layout version
// (search.KeyKindVersion) of the sample's records.
type sampleKey struct {
	Source, Kind, Version string
}

func (k sampleKey) String() string {
	s := k.Source + "/" + k.Kind
	if k.Version != "" {
		s += " v" + k.Version
	}
	return s
}

// sampleKeyOf is the sampleKey of a record as the sample encodes it
// (fallback: the source name when the record states none).
func sampleKeyOf(r search.Record, fallback string) sampleKey {
	k := sampleKey{Source: r.Source, Kind: r.Kind}
	if k.Source == "" {
		k.Source = fallback
	}
	if v := r.Keys[search.KeyKindVersion]; len(v) == 1 {
		k.Version = v[0]
	}
	return k
}

// sampleCounts counts the distinct records the bundled samples give, by
// sampleKey: the entries of the entry sources as they are stored
// (search.EncodeEntry: contract rows as contract records) and the records
// of the record sources.
func sampleCounts(sample fs.FS) map[sampleKey]int {
	ids := map[sampleKey]map[string]bool{}
	add := func(k sampleKey, id string) {
		if ids[k] == nil {
			ids[k] = map[string]bool{}
		}
		ids[k][id] = true
	}
	for _, src := range Sources {
		if src.Holds() == HoldsNotices {
			continue
		}
		if _, err := fs.Stat(sample, src.Name()); err != nil {
			continue
		}
		b, _ := src.Read(sample, src.Name())
		for _, set := range b.Records {
			recs, _ := set.Encode()
			for _, r := range recs {
				add(sampleKeyOf(r, src.Name()), r.ID)
			}
		}
		for _, e := range b.Entries {
			r, err := search.EncodeEntry(e)
			if err != nil {
				r = search.Record{Source: e.Source, Kind: search.EntryRecordKind(e.Kind), ID: e.ID}
			}
			add(sampleKeyOf(r, src.Name()), e.ID)
		}
	}
	counts := map[sampleKey]int{}
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
