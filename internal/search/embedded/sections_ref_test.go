package embedded

import (
	"context"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// sectionsBySearch is Sections as it was computed before it was kept by
// writes (coverage.go): Bleve searches, facets and sorted searches per
// source and section, on every request. The reference the kept answer is
// checked against.
func (b *Backend) sectionsBySearch(ctx context.Context) ([]search.SectionCoverage, error) {
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

// edgeDay is the first (or last) publication day, in New York, of the
// notices matching q that carry a publication date before the future
// cutoff (record.FutureCutoff: a row dated past tomorrow is held but moves
// no coverage date); "" when none do.
func (b *Backend) edgeDay(ctx context.Context, q query.Query, last bool) (string, error) {
	now := time.Now
	if b.Now != nil {
		now = b.Now
	}
	lo, hi := time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC), record.FutureCutoff(now())
	dated := bleve.NewDateRangeQuery(lo, hi) // hi exclusive
	dated.SetField("start_date")
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(q, dated), 1, 0, false)
	field := "sort_start_asc"
	if last {
		field = "sort_start_desc"
	}
	req.SortByCustom(bsearch.SortOrder{keySort(field, last)})
	res, err := b.notices.SearchInContext(ctx, req)
	if err != nil {
		return "", unavailable(err)
	}
	if len(res.Hits) == 0 || len(res.Hits[0].DecodedSort) == 0 {
		return "", nil
	}
	t := keyTime(res.Hits[0].DecodedSort[0])
	if t.IsZero() {
		return "", nil
	}
	return t.In(record.NewYork).Format("2006-01-02"), nil
}

// Sections is kept by writes (coverage.go) and answers as the Bleve
// searches it replaced (sectionsBySearch): after a load with notices of no
// section and one dated past the cutoff, after a notice moves section,
// after deletions, and with no request computing it.
func TestSectionsAreKeptByWrites(t *testing.T) {
	ctx := context.Background()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Now = func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }
	docs := searchtest.Fixtures()
	docs[0].Notice.Section = ""
	docs[5].Notice.Section = ""
	docs[3].Notice.StartDate = time.Date(2027, 1, 5, 0, 0, 0, 0, record.NewYork) // past the cutoff: counted, no date
	check := func(when string) {
		t.Helper()
		runs := b.cov.runs
		got, err := b.Sections(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b.cov.runs != runs {
			t.Errorf("%s: Sections computed the coverage", when)
		}
		want, err := b.sectionsBySearch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || len(got) == 0 {
			t.Errorf("%s: kept %+v\nsearched %+v", when, got, want)
		}
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	check("after the load")
	moved := docs[1]
	moved.Notice.Section = "Special Materials"
	if err := b.Upsert(ctx, []search.Doc{moved}); err != nil {
		t.Fatal(err)
	}
	check("after a notice moved section")
	if err := b.Delete(ctx, []string{docs[2].Notice.RequestID, docs[5].Notice.RequestID}); err != nil {
		t.Fatal(err)
	}
	check("after deletions")
}
