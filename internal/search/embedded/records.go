package embedded

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Records live in records.bleve, one document per record (id
// search.RecordDocID): the envelope as keyword, date and numeric fields,
// the keys as one keyword field of "name=value" terms (key names hold no
// '='), keyword sort keys with sentinels for undated records and invalid
// amounts (sortkeys.go), and the whole record as stored JSON in "doc".

var _ search.Records = (*Backend)(nil)

func recordMapping() *mapping.IndexMappingImpl {
	return newMapping(map[string]*mapping.FieldMapping{
		"kind":             keywordField(),
		"id":               keywordField(),
		"source":           keywordField(),
		"keys":             keywordField(),
		"date":             dateField(),
		"amount":           numField(),
		"amount_valid":     boolField(),
		"sort_date_asc":    keywordField(),
		"sort_date_desc":   keywordField(),
		"sort_amount_desc": keywordField(),
		"observed":         keywordField(),
		"doc":              storedOnly(),
		"vec":              storedOnly(),
		"has_vec":          keywordField(),
	})
}

// keyTerm is the term of one key value in the "keys" field.
func keyTerm(name, value string) string { return name + "=" + value }

func recordFields(r search.Record) (map[string]interface{}, error) {
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var keys []string
	for name, vs := range r.Keys {
		for _, v := range vs {
			keys = append(keys, keyTerm(name, v))
		}
	}
	d := map[string]interface{}{
		"kind":             r.Kind,
		"id":               r.ID,
		"source":           r.Source,
		"amount_valid":     r.AmountValid,
		"sort_date_asc":    keyMissingHigh,
		"sort_date_desc":   keyMissingLow,
		"sort_amount_desc": keyMissingLow,
		"observed":         keyMissingLow,
		"doc":              string(raw),
	}
	if len(keys) > 0 {
		d["keys"] = keys
	}
	if !r.Date.IsZero() {
		d["date"] = r.Date
		d["sort_date_asc"] = timeKey(r.Date)
		d["sort_date_desc"] = timeKey(r.Date)
	}
	if r.AmountValid {
		d["amount"] = r.Amount
		d["sort_amount_desc"] = amountKey(r.Amount)
	}
	if !r.ObservedAt.IsZero() {
		d["observed"] = timeKey(r.ObservedAt)
	}
	vectorFields(r, d)
	return d, nil
}

// PutRecords writes records in one batch; a record with the kind and id of
// one held replaces it.
func (b *Backend) PutRecords(ctx context.Context, rs []search.Record) error {
	b.postponeWarmUps()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, r := range rs {
		if err := search.CheckRecord(r); err != nil {
			return err
		}
	}
	defer b.totals.warm(b.records)
	defer b.stale()
	defer b.recordsWritten()
	batch := b.records.NewBatch()
	for _, r := range rs {
		f, err := recordFields(r)
		if err != nil {
			return err
		}
		if err := add(batch, b.records.Mapping(), search.RecordDocID(r.Kind, r.ID), f); err != nil {
			return err
		}
	}
	vecs := slices.ContainsFunc(rs, func(r search.Record) bool { return len(r.Vector) > 0 || b.hasVectors(r.Kind) })
	var stamp uint64
	if vecs {
		stamp = b.nextVectorStamp()
		batch.SetInternal(vectorStampKey, []byte(strconv.FormatUint(stamp, 10)))
	}
	if err := b.records.Batch(batch); err != nil {
		return fmt.Errorf("embedded: write records: %w", err)
	}
	if vecs && !b.deferVectors() { // a bulk load builds the graphs when it ends (bulk.go)
		b.indexVectors(rs, stamp)
	}
	return nil
}

// DeleteRecords removes records of one kind by id.
func (b *Backend) DeleteRecords(ctx context.Context, kind string, ids []string) error {
	b.postponeWarmUps()
	if err := ctx.Err(); err != nil {
		return err
	}
	defer b.totals.warm(b.records)
	defer b.stale()
	defer b.recordsWritten()
	batch := b.records.NewBatch()
	for _, id := range ids {
		batch.Delete(search.RecordDocID(kind, id))
	}
	vecs := b.hasVectors(kind)
	var stamp uint64
	if vecs {
		stamp = b.nextVectorStamp()
		batch.SetInternal(vectorStampKey, []byte(strconv.FormatUint(stamp, 10)))
	}
	if err := b.records.Batch(batch); err != nil {
		return fmt.Errorf("embedded: delete records: %w", err)
	}
	if vecs {
		b.unindexVectors(kind, ids, stamp)
	}
	return nil
}

func decodeRecord(v interface{}) (search.Record, error) {
	var r search.Record
	s, ok := v.(string)
	if !ok {
		return r, &record.Error{Code: record.EUNAVAILABLE, Message: "stored record is missing"}
	}
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return r, &record.Error{Code: record.EUNAVAILABLE, Message: "stored record is unreadable"}
	}
	return r, nil
}

// GetRecord returns one record by kind and id.
func (b *Backend) GetRecord(ctx context.Context, kind, id string) (search.Record, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery([]string{search.RecordDocID(kind, id)}), 1, 0, false)
	req.Fields = []string{"doc"}
	res, err := b.records.SearchInContext(ctx, req)
	if err != nil {
		return search.Record{}, unavailable(err)
	}
	if len(res.Hits) == 0 {
		if b.lost("records", search.RecordDocID(kind, id)) {
			return search.Record{}, lostError(kind, id)
		}
		return search.Record{}, record.Errorf(record.ENOTFOUND, "no %s with id %q is held", kind, id)
	}
	return decodeRecord(res.Hits[0].Fields["doc"])
}

// validRecordCursor checks the first cursor value against the layout of
// the sort's key.
func validRecordCursor(name string, vals []string) bool {
	want := 2 // id, kind
	if field, _ := recordOrder(name); field != "" {
		want = 3 // the key first
	}
	if len(vals) != want {
		return false
	}
	switch name {
	case search.RecordSortDate, search.RecordSortDateDesc:
		return validCursorKey(search.SortNewest, vals[0])
	case search.RecordSortAmount:
		return validCursorKey(search.SortAmount, vals[0])
	}
	return true
}

// FindRecords reads a page of records in the query's order.
func (b *Backend) FindRecords(ctx context.Context, q search.RecordQuery) (search.RecordPage, error) {
	if err := q.Normalize(); err != nil {
		return search.RecordPage{}, err
	}
	after, err := search.DecodeCursor(q.CursorSort(), q.Cursor)
	if err != nil {
		return search.RecordPage{}, err
	}
	if after != nil && !validRecordCursor(q.Sort, after) {
		return search.RecordPage{}, record.Invalid("cursor", "cursor is not valid; start again without it")
	}
	snap, err := indexSnapshot(b.records)
	if err != nil {
		return search.RecordPage{}, unavailable(err)
	}
	defer snap.Close()
	hits, total, err := b.totals.page(ctx, snap, q, after)
	if err != nil {
		return search.RecordPage{}, unavailable(err)
	}
	out := search.RecordPage{Records: make([]search.Record, 0, len(hits)), Total: total}
	for _, h := range hits {
		r, err := recordDoc(snap, h)
		if err != nil {
			return out, err
		}
		out.Records = append(out.Records, r)
	}
	if len(hits) == q.Limit && len(hits) > 0 {
		last := hits[len(hits)-1]
		vals := []string{last.id, last.kind}
		if field, _ := recordOrder(q.Sort); field != "" {
			vals = append([]string{last.key}, vals...)
		}
		out.NextCursor = search.EncodeCursor(q.CursorSort(), vals)
	}
	return out, nil
}

// RecordCoverage reports, per source and kind, the records held, their
// first and last dates and the latest observation.
func (b *Backend) RecordCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	// kept by every record write (records_coverage.go); computed here
	// only when none is kept (a computation that failed), once however
	// many requests ask
	kept := func() []record.SourceCoverage {
		b.cmu.Lock()
		defer b.cmu.Unlock()
		return slices.Clone(b.recordCoverage)
	}
	if c := kept(); c != nil {
		return c, nil
	}
	b.rcov.Lock()
	defer b.rcov.Unlock()
	if c := kept(); c != nil {
		return c, nil
	}
	b.rcovRuns++
	out, err := b.recordCoverageNow(ctx)
	if err != nil {
		return nil, err
	}
	b.cmu.Lock()
	b.recordCoverage = slices.Clone(out)
	b.cmu.Unlock()
	return out, nil
}
