package embedded

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

var _ search.EntityBackend = (*Backend)(nil)

// entryMapping: keyword filters, a keyword date sort key with a sentinel
// for undated entries, the observation time (also a key) for coverage, and
// the whole entry as stored JSON in "doc".
func entryMapping() *mapping.IndexMappingImpl {
	return newMapping(map[string]*mapping.FieldMapping{
		"id":          keywordField(),
		"source":      keywordField(),
		"kind":        keywordField(),
		"agency_raw":  keywordField(),
		"agency_id":   keywordField(),
		"vendor_stem": keywordField(),
		"contract_id": keywordField(),
		"pin":         keywordField(),
		"pin_base":    keywordField(),
		"bbl":         keywordField(),
		"request_id":  keywordField(),
		"date":        dateField(),
		"sort_date":   keywordField(),
		"observed":    keywordField(),
		"doc":         storedOnly(),
	})
}

func entryFields(e search.Entry) (map[string]interface{}, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	d := map[string]interface{}{
		"id":          e.ID,
		"source":      e.Source,
		"kind":        e.Kind,
		"agency_raw":  e.AgencyRaw,
		"agency_id":   e.AgencyID,
		"vendor_stem": e.VendorStem,
		"contract_id": e.ContractID,
		"pin":         entity.NormalizePIN(e.PIN),
		"pin_base":    e.PINBase,
		"bbl":         e.BBL,
		"request_id":  e.RequestID,
		"sort_date":   keyMissingHigh,
		"observed":    keyMissingLow,
		"doc":         string(raw),
	}
	if !e.Date.IsZero() {
		d["date"] = e.Date
		d["sort_date"] = timeKey(e.Date)
	}
	if !e.ObservedAt.IsZero() {
		d["observed"] = timeKey(e.ObservedAt)
	}
	for k, v := range d {
		if s, ok := v.(string); ok && s == "" {
			delete(d, k)
		}
	}
	return d, nil
}

// UpsertEntries writes entries in one batch; an entry with an id already
// held replaces it.
func (b *Backend) UpsertEntries(ctx context.Context, entries []search.Entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer b.stale()
	batch := b.entries.NewBatch()
	for _, e := range entries {
		if e.ID == "" || e.Source == "" || e.Kind == "" {
			return record.Invalid("id", "an entry needs an id, a source and a kind")
		}
		f, err := entryFields(e)
		if err != nil {
			return err
		}
		if err := add(batch, b.entries.Mapping(), e.ID, f); err != nil {
			return err
		}
	}
	if err := b.entries.Batch(batch); err != nil {
		return fmt.Errorf("embedded: write entries: %w", err)
	}
	return nil
}

// DeleteEntries removes entries by id.
func (b *Backend) DeleteEntries(ctx context.Context, ids []string) error {
	defer b.stale()
	batch := b.entries.NewBatch()
	for _, id := range ids {
		batch.Delete(id)
	}
	return b.entries.Batch(batch)
}

func entryQuery(q search.EntryQuery) query.Query {
	bq := bleve.NewBooleanQuery()
	pins := make([]string, 0, len(q.PINs))
	for _, p := range q.PINs {
		pins = append(pins, entity.NormalizePIN(p))
	}
	for _, f := range []struct {
		field  string
		values []string
	}{
		{"kind", q.Kinds}, {"source", q.Sources}, {"id", q.IDs}, {"pin", pins}, {"pin_base", q.PINBases},
		{"contract_id", q.ContractIDs}, {"vendor_stem", q.VendorStems}, {"agency_id", q.AgencyIDs}, {"bbl", q.BBLs},
	} {
		if len(f.values) > 0 {
			bq.AddMust(terms(f.field, f.values))
		}
	}
	if bq.Must == nil {
		bq.AddMust(bleve.NewMatchAllQuery())
	}
	return bq
}

var entrySort = bsearch.SortOrder{keySort("sort_date", false), keySort("id", false)}

func decodeEntry(v interface{}) (search.Entry, error) {
	var e search.Entry
	s, ok := v.(string)
	if !ok {
		return e, &record.Error{Code: record.EUNAVAILABLE, Message: "stored entry is missing"}
	}
	if err := json.Unmarshal([]byte(s), &e); err != nil {
		return e, &record.Error{Code: record.EUNAVAILABLE, Message: "stored entry is unreadable"}
	}
	return e, nil
}

// Entries reads a page of entries, oldest first (undated last), and, when
// asked, totals by kind and fiscal year over every match.
func (b *Backend) Entries(ctx context.Context, q search.EntryQuery) (search.EntryResult, error) {
	if err := q.Normalize(); err != nil {
		return search.EntryResult{}, err
	}
	after, err := search.DecodeCursor("entries", q.Cursor)
	if err != nil {
		return search.EntryResult{}, err
	}
	bq := entryQuery(q)
	req := bleve.NewSearchRequestOptions(bq, q.Limit, 0, false)
	req.Fields = []string{"doc"}
	req.SortByCustom(entrySort)
	if after != nil {
		if len(after) != 2 {
			return search.EntryResult{}, record.Invalid("cursor", "cursor is not valid; start again without it")
		}
		req.SearchAfter = after
	}
	res, err := b.entries.SearchInContext(ctx, req)
	if err != nil {
		return search.EntryResult{}, unavailable(err)
	}
	out := search.EntryResult{Entries: []search.Entry{}, Total: int(res.Total)}
	for _, h := range res.Hits {
		e, err := decodeEntry(h.Fields["doc"])
		if err != nil {
			return out, err
		}
		out.Entries = append(out.Entries, e)
	}
	if len(res.Hits) == q.Limit && len(res.Hits) > 0 {
		out.NextCursor = search.EncodeCursor("entries", res.Hits[len(res.Hits)-1].DecodedSort)
	}
	if q.Totals {
		if out.Totals, err = b.entryTotals(ctx, bq); err != nil {
			return out, err
		}
	}
	return out, nil
}

// entryTotals reads every matching entry (up to search.MaxTotalsScan) and
// sums valid amounts by kind and fiscal year.
func (b *Backend) entryTotals(ctx context.Context, q query.Query) ([]search.EntryTotal, error) {
	type key struct {
		kind string
		fy   int
	}
	sums := map[key]*search.EntryTotal{}
	var after []string
	for seen := 0; seen < search.MaxTotalsScan; {
		req := bleve.NewSearchRequestOptions(q, 1000, 0, false)
		req.Fields = []string{"doc"}
		req.SortByCustom(bsearch.SortOrder{keySort("id", false)})
		req.SearchAfter = after
		res, err := b.entries.SearchInContext(ctx, req)
		if err != nil {
			return nil, unavailable(err)
		}
		for _, h := range res.Hits {
			e, err := decodeEntry(h.Fields["doc"])
			if err != nil {
				return nil, err
			}
			k := key{e.Kind, e.FiscalYear}
			t := sums[k]
			if t == nil {
				t = &search.EntryTotal{Kind: e.Kind, FiscalYear: e.FiscalYear}
				sums[k] = t
			}
			t.Count++
			if e.AmountValid {
				t.ValidAmounts++
				t.Amount += e.Amount
			}
		}
		seen += len(res.Hits)
		if len(res.Hits) < 1000 {
			break
		}
		after = []string{res.Hits[len(res.Hits)-1].ID}
	}
	out := make([]search.EntryTotal, 0, len(sums))
	for _, t := range sums {
		t.Amount = search.RoundCents(t.Amount)
		out = append(out, *t)
	}
	search.SortEntryTotals(out)
	return out, nil
}

// EntryCoverage reports, per source and kind, the entries held, their first
// and last dates and the latest observation.
func (b *Backend) EntryCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 0, 0, false)
	req.AddFacet("source", bleve.NewFacetRequest("source", 1000))
	res, err := b.entries.SearchInContext(ctx, req)
	if err != nil {
		return nil, unavailable(err)
	}
	out := []record.SourceCoverage{}
	for _, src := range facetTerms(res, "source") {
		sq := terms("source", []string{src.Term})
		kreq := bleve.NewSearchRequestOptions(sq, 0, 0, false)
		kreq.AddFacet("kind", bleve.NewFacetRequest("kind", 100))
		kres, err := b.entries.SearchInContext(ctx, kreq)
		if err != nil {
			return nil, unavailable(err)
		}
		for _, kind := range facetTerms(kres, "kind") {
			c := record.SourceCoverage{Source: src.Term, RecordType: kind.Term, Records: kind.Count}
			both := bleve.NewConjunctionQuery(sq, terms("kind", []string{kind.Term}))
			first, err := b.entryEdge(ctx, both, "sort_date", false)
			if err != nil {
				return nil, err
			}
			last, err := b.entryEdge(ctx, both, "sort_date", true)
			if err != nil {
				return nil, err
			}
			newest, err := b.entryEdge(ctx, both, "observed", true)
			if err != nil {
				return nil, err
			}
			if first != nil && !first.Date.IsZero() {
				c.FirstSourceDate = first.Date.In(record.NewYork).Format("2006-01-02")
			}
			if last != nil && !last.Date.IsZero() {
				c.LastSourceDate = last.Date.In(record.NewYork).Format("2006-01-02")
			}
			if newest != nil {
				c.ObservedAt = newest.ObservedAt
				c.Label = newest.SourceLabel
			}
			if c.Label == "" { // no entry states when it was observed: the label of any
				if any, err := b.entryEdge(ctx, both, "id", false); err != nil {
					return nil, err
				} else if any != nil {
					c.Label = any.SourceLabel
				}
			}
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Source != out[j].Source {
			return out[i].Source < out[j].Source
		}
		return out[i].RecordType < out[j].RecordType
	})
	return out, nil
}

// entryEdge is the entry with the lowest (or highest) value of a keyword
// sort key among those q matches, skipping the missing-value sentinels.
func (b *Backend) entryEdge(ctx context.Context, q query.Query, field string, desc bool) (*search.Entry, error) {
	bq := bleve.NewBooleanQuery()
	bq.AddMust(q)
	bq.AddMustNot(terms(field, []string{keyMissingLow, keyMissingHigh}))
	req := bleve.NewSearchRequestOptions(bq, 1, 0, false)
	req.Fields = []string{"doc"}
	req.SortByCustom(bsearch.SortOrder{keySort(field, desc), keySort("id", false)})
	res, err := b.entries.SearchInContext(ctx, req)
	if err != nil {
		return nil, unavailable(err)
	}
	if len(res.Hits) == 0 {
		return nil, nil
	}
	e, err := decodeEntry(res.Hits[0].Fields["doc"])
	if err != nil {
		return nil, err
	}
	return &e, nil
}

func facetTerms(res *bleve.SearchResult, name string) []*bsearch.TermFacet {
	fr := res.Facets[name]
	if fr == nil || fr.Terms == nil {
		return nil
	}
	return fr.Terms.Terms()
}

// maxAgencyNames bounds the distinct raw agency strings read per source.
const maxAgencyNames = 100_000

// AgencyNames lists the distinct raw agency strings of the notices and the
// entries, per source.
func (b *Backend) AgencyNames(ctx context.Context) ([]search.AgencyName, error) {
	out, err := agencyFacets(ctx, b.notices)
	if err != nil {
		return nil, err
	}
	names, err := agencyFacets(ctx, b.entries)
	if err != nil {
		return nil, err
	}
	out = append(out, names...)
	search.SortAgencyNames(out)
	return out, nil
}

func agencyFacets(ctx context.Context, idx bleve.Index) ([]search.AgencyName, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 0, 0, false)
	req.AddFacet("source", bleve.NewFacetRequest("source", 1000))
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, unavailable(err)
	}
	var out []search.AgencyName
	for _, src := range facetTerms(res, "source") {
		r := bleve.NewSearchRequestOptions(terms("source", []string{src.Term}), 0, 0, false)
		r.AddFacet("agency", bleve.NewFacetRequest("agency_raw", maxAgencyNames))
		rr, err := idx.SearchInContext(ctx, r)
		if err != nil {
			return nil, unavailable(err)
		}
		for _, t := range facetTerms(rr, "agency") {
			out = append(out, search.AgencyName{Raw: t.Term, Source: src.Term, Records: t.Count})
		}
	}
	return out, nil
}

// NoticeTotals reads every notice q matches (up to search.MaxTotalsScan) and
// sums them overall and per grouping.
func (b *Backend) NoticeTotals(ctx context.Context, q search.Query, groupBy []string, size int) (search.Totals, error) {
	if err := search.CheckGroups(groupBy); err != nil {
		return search.Totals{}, err
	}
	q.Limit, q.Cursor, q.Facets, q.Sort = 0, "", false, search.SortNewest
	k, err := q.Normalize()
	if err != nil {
		return search.Totals{}, err
	}
	acc := search.NewTotalsAccumulator(groupBy)
	bq := noticeQuery(q, k)
	var after []string
	for seen := 0; seen < search.MaxTotalsScan; {
		req := bleve.NewSearchRequestOptions(bq, 1000, 0, false)
		req.Fields = []string{"doc"}
		req.SortByCustom(bsearch.SortOrder{keySort("request_id", false)})
		req.SearchAfter = after
		res, err := b.notices.SearchInContext(ctx, req)
		if err != nil {
			return search.Totals{}, unavailable(err)
		}
		for _, h := range res.Hits {
			n, err := decodeNotice(h.Fields["doc"])
			if err != nil {
				return search.Totals{}, err
			}
			acc.Add(n)
		}
		seen += len(res.Hits)
		if len(res.Hits) < 1000 {
			break
		}
		after = []string{res.Hits[len(res.Hits)-1].ID}
	}
	return acc.Totals(size), nil
}
