package indexer

import (
	"context"
	"fmt"
	"strconv"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Re-linking instead of query-time compatibility. When an identity rule of
// the link stage changes (a vendor stem rule, an agency id), the kinds
// whose records carry the derived fields get a new layout version
// (search.Kind.Version: ContractKind 3, PaymentKind 2 when stems stopped
// being widened at query time). Relink finds the records of an older
// version of those kinds held, decodes them, runs the link stage on them
// again (identity fields and joins) and writes them in the current
// layout; when it found any, it re-links the notices held too, writing
// again each notice whose derived fields differ under the current rules.
// So the engines match stems as stored and never widen a filter, and a
// data directory of an earlier rule is put right once, from its own
// records, without fetching the sources again (gitea's VersionedIndexName:
// reindex instead of query-time compatibility). Land events of layout 0,
// read before their joins to land projects were link records, are written
// again with those joins (relinkUnversioned).

// RelinkReport says what Relink rewrote.
type RelinkReport struct {
	Records int // records of an older layout written again
	Notices int // notices whose derived fields changed
	Links   int // link records written again (relinkJoins)
}

// maxRelinkRounds bounds the pages Relink reads of one kind: each page
// written leaves the older version, so a page that comes back again means
// the writes did not take.
const maxRelinkRounds = 100000

// Relink re-links the records of an older layout of the stem-carrying
// kinds and then, if there were any, the notices held.
func (ix *Indexer) Relink(ctx context.Context) (RelinkReport, error) {
	var rep RelinkReport
	n, err := relinkKind(ctx, ix, procure.ContractKind, link.ContractSet)
	rep.Records += n
	if err != nil {
		return rep, err
	}
	n, err = relinkKind(ctx, ix, procure.PaymentKind, link.PaymentSet)
	rep.Records += n
	if err != nil {
		return rep, err
	}
	if rep.Records > 0 {
		rep.Notices, err = ix.relinkNotices(ctx)
		ix.log().Info("re-linked a data directory written under earlier link rules", "records", rep.Records, "notices", rep.Notices)
		if err != nil {
			return rep, err
		}
	}
	// land events of the layout before their joins were link records:
	// written again with their joins to the land projects held
	n, err = relinkUnversioned(ctx, ix, land.EventKind, link.LandEvents)
	rep.Records += n
	if err != nil {
		return rep, err
	}
	rep.Links, err = ix.relinkJoins(ctx)
	return rep, err
}

// relinkJoins writes the joins of the registrations, payments and notices
// held again when joins by PIN of an older link layout (joins.Kind's
// version) are held: every registration, every payment and then every
// notice goes through its link stage again (link.ContractSet,
// link.PaymentSet, link.NoticeSet), a page
// at a time, and the joins by PIN of the older layout that were not
// written again (their records are gone) are deleted. It reports how many
// link records it wrote.
func (ix *Indexer) relinkJoins(ctx context.Context) (int, error) {
	older := search.RecordQuery{Kinds: []string{joins.Kind.Name},
		Keys: map[string][]string{search.KeyKindVersion: olderVersions(joins.Kind.Version), joins.KeyLinkMethod: joins.PINMethods}}
	if len(older.Keys[search.KeyKindVersion]) == 0 {
		return 0, nil
	}
	t, err := ix.Backend.RecordTotals(ctx, older, nil, 0)
	if err != nil || t.Count == 0 {
		return 0, err
	}
	written, err := rejoinKind(ctx, ix, procure.ContractKind, link.ContractSet)
	if err != nil {
		return written, err
	}
	n, err := rejoinKind(ctx, ix, procure.PaymentKind, link.PaymentSet)
	written += n
	if err != nil {
		return written, err
	}
	nq := search.Query{Sort: search.SortOldest, Limit: search.MaxLimit}
	for {
		res, err := ix.Backend.Search(ctx, nq)
		if err != nil {
			return written, err
		}
		ns := make([]record.Notice, 0, len(res.Hits))
		for _, h := range res.Hits {
			ns = append(ns, h.Notice)
		}
		env := ix.linkEnv()
		if err := link.NoticeSet(ctx, env, ns); err != nil {
			ix.log().Warn("re-link joins", "kind", "notice", "err", err)
		}
		n, err := ix.writeLinks(ctx, "re-link", env.Links)
		written += n
		if err != nil {
			return written, err
		}
		if res.NextCursor == "" {
			break
		}
		nq.Cursor = res.NextCursor
	}
	if _, err := deleteMatching(ctx, ix.Backend, older); err != nil {
		return written, err
	}
	ix.log().Info("re-linked the joins of a data directory written under an earlier link layout", "links", written)
	return written, ix.settle(ctx, "re-linked joins")
}

// rejoinKind runs the link stage of every record of kind k held again (a
// page at a time) and writes the link records it finds; it reports how
// many it wrote.
func rejoinKind[T any](ctx context.Context, ix *Indexer, k search.Kind[T], linkWith func(context.Context, link.Env, []T) []error) (int, error) {
	written := 0
	q := search.RecordQuery{Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
	for round := 0; round < maxRelinkRounds; round++ {
		p, err := search.Find(ctx, ix.Backend, k, q)
		if err != nil {
			return written, err
		}
		env := ix.linkEnv()
		for _, e := range linkWith(ctx, env, p.Items) {
			ix.log().Warn("re-link joins", "kind", k.Name, "err", e)
		}
		n, err := ix.writeLinks(ctx, "re-link", env.Links)
		written += n
		if err != nil {
			return written, err
		}
		if p.NextCursor == "" || len(p.Items) == 0 {
			break
		}
		q.Cursor = p.NextCursor
	}
	return written, nil
}

// olderVersions are the KindVersion values below v.
func olderVersions(v int) []string {
	var out []string
	for i := 1; i < v; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// relinkKind re-links the records of k held in an older layout, a page at
// a time, and reports how many it wrote.
func relinkKind[T any](ctx context.Context, ix *Indexer, k search.Kind[T], linkWith func(context.Context, link.Env, []T) []error) (int, error) {
	older := olderVersions(k.Version)
	if len(older) == 0 {
		return 0, nil
	}
	n := 0
	last := ""
	for round := 0; round < maxRelinkRounds; round++ {
		p, err := search.Find(ctx, ix.Backend, k, search.RecordQuery{Keys: map[string][]string{search.KeyKindVersion: older},
			Sort: search.RecordSortID, Limit: search.MaxRecordLimit})
		if err != nil {
			return n, err
		}
		if len(p.Items) == 0 {
			return n, nil
		}
		if first := p.Records[0].Kind + "\x00" + p.Records[0].ID; first == last {
			return n, fmt.Errorf("indexer: re-linking %s: record %s is still of an older layout after it was written again", k.Name, p.Records[0].ID)
		} else {
			last = first
		}
		written, errs, err := relinkPage(ctx, ix, k, linkWith, p.Items)
		n += written
		if err != nil {
			return n, err
		}
		if len(errs) > 0 {
			// a record that no longer encodes is left as it is: stop
			// rather than read it again forever
			return n, fmt.Errorf("indexer: re-linking %s: %d records no longer make valid records (the first: %w)", k.Name, len(errs), errs[0])
		}
	}
	return n, fmt.Errorf("indexer: re-linking %s: more than %d pages", k.Name, maxRelinkRounds)
}

// relinkNotices reads every notice held, oldest first, and writes again
// (with its passages and vector) each one whose agency id or vendor stem
// differs under the current rules; it reports how many it wrote.
func (ix *Indexer) relinkNotices(ctx context.Context) (int, error) {
	linker := link.Linker{Crosswalk: ix.Crosswalk}
	q := search.Query{Sort: search.SortOldest, Limit: search.MaxLimit}
	var changed []record.Notice
	written := 0
	flush := func() error {
		if len(changed) == 0 {
			return nil
		}
		err := writeBatches(ctx, ix, changed, "re-linking notices", func(batch []record.Notice) error {
			return ix.upsert(ctx, batch, Docs(batch))
		})
		written += len(changed)
		changed = nil
		return err
	}
	for {
		res, err := ix.Backend.Search(ctx, q)
		if err != nil {
			return written, err
		}
		for _, h := range res.Hits {
			x := h.Notice
			linker.Notice(&x)
			if x.VendorStem == h.Notice.VendorStem && x.AgencyID == h.Notice.AgencyID {
				continue
			}
			full, err := ix.Backend.Get(ctx, h.Notice.RequestID) // with its raw fields
			if err != nil {
				return written, err
			}
			linker.Notice(&full)
			changed = append(changed, full)
		}
		if len(changed) >= DefaultBatch {
			if err := flush(); err != nil {
				return written, err
			}
		}
		if res.NextCursor == "" {
			break
		}
		q.Cursor = res.NextCursor
	}
	if err := flush(); err != nil {
		return written, err
	}
	return written, ix.settle(ctx, "re-linked notices")
}

// relinkUnversioned re-links the records of k held of layout version 0,
// which carry no KeyKindVersion (a kind whose first layout change is
// version 1), a page at a time, and reports how many it wrote. When every
// record of k held is of the current layout (two counts) it reads none.
func relinkUnversioned[T any](ctx context.Context, ix *Indexer, k search.Kind[T], linkWith func(context.Context, link.Env, []T) []error) (int, error) {
	all, err := ix.Backend.RecordTotals(ctx, search.RecordQuery{Kinds: []string{k.Name}}, nil, 0)
	if err != nil || all.Count == 0 {
		return 0, err
	}
	current, err := ix.Backend.RecordTotals(ctx, search.RecordQuery{Kinds: []string{k.Name},
		Keys: map[string][]string{search.KeyKindVersion: {k.VersionKey()}}}, nil, 0)
	if err != nil || current.Count >= all.Count {
		return 0, err
	}
	n := 0
	q := search.RecordQuery{Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
	for round := 0; round < maxRelinkRounds; round++ {
		p, err := search.Find(ctx, ix.Backend, k, q)
		if err != nil {
			return n, err
		}
		var items []T
		for i, r := range p.Records {
			if len(r.Keys[search.KeyKindVersion]) == 0 {
				items = append(items, p.Items[i])
			}
		}
		if len(items) > 0 {
			written, _, err := relinkPage(ctx, ix, k, linkWith, items)
			n += written
			if err != nil {
				return n, err
			}
		}
		if p.NextCursor == "" || len(p.Items) == 0 {
			return n, ix.settle(ctx, "re-linked "+k.Name)
		}
		q.Cursor = p.NextCursor
	}
	return n, fmt.Errorf("indexer: re-linking %s: more than %d pages", k.Name, maxRelinkRounds)
}

// relinkPage runs the link stage on items of k again and writes them, in
// the current layout, with the link records it found; it reports how many
// records it wrote and the items that no longer make valid records.
func relinkPage[T any](ctx context.Context, ix *Indexer, k search.Kind[T], linkWith func(context.Context, link.Env, []T) []error, items []T) (int, []error, error) {
	env := ix.linkEnv()
	for _, e := range linkWith(ctx, env, items) {
		ix.log().Warn("re-link", "kind", k.Name, "err", e)
	}
	recs, errs := Set[T]{Of: k, Items: items}.Encode()
	for _, e := range errs {
		ix.log().Warn("re-link: record rejected", "kind", k.Name, "err", e)
	}
	if err := ix.retry(ctx, "re-link "+k.Name, func() error { return ix.Backend.PutRecords(ctx, recs) }); err != nil {
		return 0, errs, err
	}
	if _, err := ix.writeLinks(ctx, "re-link", env.Links); err != nil {
		return 0, errs, err
	}
	return len(recs), errs, nil
}
