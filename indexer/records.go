package indexer

import (
	"context"
	"fmt"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// RecordSet is a batch of typed records of one kind a source read (land
// projects, meetings, payroll rows …): the pipeline links them (the link
// stage, with the notices already held) and encodes them into
// search.Records. Adding a dataset is a source returning sets of its kind;
// neither the pipeline nor the engines change.
type RecordSet interface {
	// Kind is the record kind (its search.Kind's Name).
	Kind() string
	// Len is how many values the set holds.
	Len() int
	// Link runs the link stage on the values in place: identity fields
	// (agency ids, vendor stems, PIN keys) and links to notices, each with
	// its method and confidence. Errors are values rejected by the stage.
	Link(ctx context.Context, env link.Env) []error
	// Encode turns the values into records; a value that does not make a
	// valid record is rejected with its reason, never the whole set.
	Encode() ([]search.Record, []error)
}

// Set is the RecordSet of a search.Kind: Items, linked by LinkWith (nil:
// the kind has nothing to link).
type Set[T any] struct {
	Of       search.Kind[T]
	Items    []T
	LinkWith func(ctx context.Context, env link.Env, items []T) []error
}

// Kind is the kind's name.
func (s Set[T]) Kind() string { return s.Of.Name }

// Len is the number of items.
func (s Set[T]) Len() int { return len(s.Items) }

// Link runs LinkWith over the items.
func (s Set[T]) Link(ctx context.Context, env link.Env) []error {
	if s.LinkWith == nil {
		return nil
	}
	return s.LinkWith(ctx, env, s.Items)
}

// Encode encodes every item, rejecting (with the reason) those that do not
// make a valid record.
func (s Set[T]) Encode() ([]search.Record, []error) {
	out := make([]search.Record, 0, len(s.Items))
	var errs []error
	for _, v := range s.Items {
		r, err := s.Of.Encode(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s rejected: %w", s.Of.Name, r.ID, err))
			continue
		}
		out = append(out, r)
	}
	return out, errs
}

// writeRecordSets links, encodes and writes the record sets of a batch, in
// batches retried while the engine is unavailable; it returns how many
// records were written and the values rejected, with reasons.
func (ix *Indexer) writeRecordSets(ctx context.Context, src string, sets []RecordSet) (int, []error, error) {
	if len(sets) == 0 {
		return 0, nil, nil
	}
	rs := ix.Backend
	env := ix.linkEnv()
	written := 0
	var rejected []error
	for _, set := range sets {
		rejected = append(rejected, set.Link(ctx, env)...)
		recs, errs := set.Encode()
		rejected = append(rejected, errs...)
		if err := writeBatches(ctx, ix, recs, "indexing "+src+" "+set.Kind()+" records", func(batch []search.Record) error {
			return rs.PutRecords(ctx, batch)
		}); err != nil {
			return written, rejected, err
		}
		written += len(recs)
	}
	n, err := ix.writeLinks(ctx, src, env.Links)
	ix.links.Add(int64(n))
	return written, rejected, err
}

// linkEnv is what the link stage of a batch works with: the identity
// rules, the notices and records held, and a new collector of the link
// records it finds.
func (ix *Indexer) linkEnv() link.Env {
	return link.Env{Linker: link.Linker{Crosswalk: ix.Crosswalk}, Notices: ix.Backend, Records: ix.Backend, Links: &link.Links{}}
}

// writeLinks writes the link records a batch's link stage found (after the
// batch's own records, so a reader never meets a link to a record not yet
// written) and reports how many it wrote.
func (ix *Indexer) writeLinks(ctx context.Context, src string, links *link.Links) (int, error) {
	ls := links.Take()
	if len(ls) == 0 {
		return 0, nil
	}
	recs, errs := Set[record.Link]{Of: joins.Kind, Items: ls}.Encode()
	for _, e := range errs {
		ix.log().Warn("link rejected", "source", src, "err", e)
	}
	err := writeBatches(ctx, ix, recs, "indexing "+src+" links", func(batch []search.Record) error {
		return ix.Backend.PutRecords(ctx, batch)
	})
	return len(recs), err
}
