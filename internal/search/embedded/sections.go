package embedded

import (
	"context"
	"sort"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Sections counts notices per source and section, with each set's first
// and last publication dates. Notices without a section (their section is
// not indexed) are counted as the remainder of their source under "".
func (b *Backend) Sections(ctx context.Context) ([]search.SectionCoverage, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 0, 0, false)
	req.AddFacet("source", bleve.NewFacetRequest("source", search.MaxSections))
	res, err := b.notices.SearchInContext(ctx, req)
	if err != nil {
		return nil, unavailable(err)
	}
	out := []search.SectionCoverage{}
	fr := res.Facets["source"]
	if fr == nil || fr.Terms == nil {
		return out, nil
	}
	for _, src := range fr.Terms.Terms() {
		sq := bleve.NewTermQuery(src.Term)
		sq.SetField("source")
		sreq := bleve.NewSearchRequestOptions(sq, 0, 0, false)
		sreq.AddFacet("section", bleve.NewFacetRequest("section", search.MaxSections))
		sres, err := b.notices.SearchInContext(ctx, sreq)
		if err != nil {
			return nil, unavailable(err)
		}
		var named []query.Query
		sectioned := 0
		if f := sres.Facets["section"]; f != nil && f.Terms != nil {
			for _, t := range f.Terms.Terms() {
				tq := bleve.NewTermQuery(t.Term)
				tq.SetField("section")
				named = append(named, tq)
				sectioned += t.Count
				c := search.SectionCoverage{Source: src.Term, Section: t.Term, Records: t.Count}
				if c.FirstSourceDate, c.LastSourceDate, err = b.sectionDates(ctx, sq, tq, nil); err != nil {
					return nil, err
				}
				out = append(out, c)
			}
		}
		if rest := src.Count - sectioned; rest > 0 {
			c := search.SectionCoverage{Source: src.Term, Records: rest}
			if c.FirstSourceDate, c.LastSourceDate, err = b.sectionDates(ctx, sq, nil, named); err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Source != out[j].Source {
			return out[i].Source < out[j].Source
		}
		return out[i].Section < out[j].Section
	})
	return out, nil
}

// sectionDates is the first and last publication day of the notices of
// one source that have section (or, when section is nil, none of named).
func (b *Backend) sectionDates(ctx context.Context, source, section query.Query, named []query.Query) (string, string, error) {
	q := bleve.NewBooleanQuery()
	q.AddMust(source)
	if section != nil {
		q.AddMust(section)
	}
	if len(named) > 0 {
		q.AddMustNot(named...)
	}
	first, err := b.edgeDay(ctx, q, false)
	if err != nil {
		return "", "", err
	}
	last, err := b.edgeDay(ctx, q, true)
	return first, last, err
}
