package embedded

import (
	"context"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/recordwatch/recordwatch/internal/search"
)

// The notice aggregations (search.NoticeAggregates): the raw agency
// strings of the notices and NoticeTotals.

var _ search.Engine = (*Backend)(nil)

func facetTerms(res *bleve.SearchResult, name string) []*bsearch.TermFacet {
	fr := res.Facets[name]
	if fr == nil || fr.Terms == nil {
		return nil
	}
	return fr.Terms.Terms()
}

// maxAgencyNames bounds the distinct raw agency strings read per source.
const maxAgencyNames = 100_000

// NoticeAgencyNames lists the distinct raw agency strings of the notices,
// per source.
func (b *Backend) NoticeAgencyNames(ctx context.Context) ([]search.AgencyName, error) {
	out, err := agencyFacets(ctx, b.notices)
	if err != nil {
		return nil, err
	}
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
