package indexer

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"sort"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Sample directories of the Checkbook NYC answers, registered-contract
// rows and lot locations (each source's Name).
const (
	SampleCheckbookDir = "checkbook"
	SampleContractsDir = "contracts"
	SampleLotsDir      = "zap"
)

// RetiredKinds are record kinds an earlier layout wrote that nothing
// writes or reads any more: the entries ("entry.payment", "entry.payroll",
// "entry.lot") that payments and lots replaced (procure.PaymentKind,
// land.LotKind), and the second copy of contract rows
// ("entry.contract") that contract records replaced. A data directory
// that holds any has them deleted and the bundled sample loaded again
// (EnsureSampleRecords).
var RetiredKinds = []string{"entry.contract", "entry.payment", "entry.payroll", "entry.lot"}

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

// EnsureSampleRecords loads the bundled samples of the record sources
// (Checkbook NYC answers, contract rows, lot locations, land, meetings,
// payroll …) unless every record they give is already held in its
// current layout (after re-linking what an earlier link rule wrote,
// Relink): by source and record kind, at least as many as the
// sample has, and for a versioned kind (search.Kind.Version) only the
// records of the sample's version count. So it completes a data directory
// indexed before a kind existed, a load that was interrupted part way (ids
// are stable, so loading again replaces what is there), and one whose
// records were written in an older layout (they are written again in the
// current one). Records of RetiredKinds are deleted on that reload.
func (ix *Indexer) EnsureSampleRecords(ctx context.Context, sample fs.FS) (bool, error) {
	rs := ix.Backend
	// records written under earlier link rules are re-linked first, from
	// what is held (indexer.Relink): they are then of the current layout
	if _, err := ix.Relink(ctx); err != nil {
		return false, err
	}
	cov, err := rs.RecordCoverage(ctx)
	if err != nil {
		return false, err
	}
	held := map[sampleKey]int{}
	retired := 0
	for _, c := range cov {
		held[sampleKey{Source: c.Source, Kind: c.RecordType}] += c.Records
		if slices.Contains(RetiredKinds, c.RecordType) {
			retired += c.Records
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
	if len(missing) == 0 && retired == 0 {
		return false, nil
	}
	sort.Strings(missing)
	ix.log().Info("records of the bundled sample are missing or of an older layout: loading them", "missing", missing,
		"retired_records", retired)
	if retired > 0 {
		n, err := deleteKinds(ctx, rs, RetiredKinds)
		if err != nil {
			return false, err
		}
		ix.log().Info("deleted the records of retired kinds (their sources are loaded again)", "kinds", RetiredKinds, "deleted", n)
	}
	if err := ix.LoadRecordSamples(ctx, sample); err != nil {
		return false, err
	}
	return true, nil
}

// deleteKinds deletes every record of the given kinds and reports how
// many it deleted.
func deleteKinds(ctx context.Context, rs search.Records, kinds []string) (int, error) {
	n := 0
	for _, kind := range kinds {
		m, err := deleteMatching(ctx, rs, search.RecordQuery{Kinds: []string{kind}})
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// deleteMatching deletes every record that q matches, of the one kind q
// names, and reports how many it deleted.
func deleteMatching(ctx context.Context, rs search.Records, q search.RecordQuery) (int, error) {
	q.Sort, q.Limit = search.RecordSortID, search.MaxRecordLimit
	n := 0
	for {
		p, err := rs.FindRecords(ctx, q)
		if err != nil {
			return n, err
		}
		if len(p.Records) == 0 {
			return n, nil
		}
		ids := make([]string, 0, len(p.Records))
		for _, r := range p.Records {
			ids = append(ids, r.ID)
		}
		if err := rs.DeleteRecords(ctx, q.Kinds[0], ids); err != nil {
			return n, err
		}
		n += len(ids)
	}
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

// sampleCounts counts the distinct records the bundled samples of the
// record sources give, by sampleKey.
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
	}
	counts := map[sampleKey]int{}
	for key, set := range ids {
		counts[key] = len(set)
	}
	return counts
}

// LoadRecordSamples loads the bundled samples of every record source of
// Sources (typed records: their link stage reads the notices already
// held, so they load after the notices), in list order, from the
// directories that exist, whatever is held: record ids are stable, so
// loading twice changes nothing.
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
