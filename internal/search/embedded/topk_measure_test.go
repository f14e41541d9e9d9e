package embedded

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/recordwatch/recordwatch/internal/search"
)

func TestMeasureTopK(t *testing.T) {
	path := os.Getenv("RW_TOPK_INDEX")
	if path == "" {
		t.Skip()
	}
	idx, err := bleve.OpenUsing(path, map[string]interface{}{"read_only": true})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ti := newTopIndex(idx)
	ctx := context.Background()
	min1M := 1e6
	for _, q := range []search.Query{
		{Text: "construction"}, {Text: "services"}, {Text: "bridge"}, {Text: "asbestos"},
		{Text: "asbestos abatement demolition elevator roofing"},
		{Text: "services construction bridge repair school"},
		{Text: "construction -demolition"},
		{Text: "services", AgencyIDs: []string{os.Getenv("RW_AGENCY")}, MinAmount: &min1M},
		{Text: "services", Facets: true},
		{Text: `"sealed bids"`},
		{VendorStems: []string{os.Getenv("RW_VENDOR")}},
		{VendorStems: []string{os.Getenv("RW_VENDOR")}, Facets: true},
		{Lenses: []string{"money"}, MinAmount: &min1M},
		{Lenses: []string{"money"}},
	} {
		k, err := q.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		spec, err := noticeSpec(idx, q, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ds []time.Duration
		var res topResult
		for range 9 {
			s := time.Now()
			res, err = ti.search(ctx, spec)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(s))
		}
		sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
		t.Logf("%q %v %v %v: total %d scored %d; best %v median %v", q.Text, q.AgencyIDs, q.VendorStems, q.Lenses, res.total, res.scored, ds[0], ds[4])
		if q.Facets {
			t.Logf("agency facet: %v", res.facets[search.FacetAgency][:3])
		}
	}
	pidx, err := bleve.OpenUsing(os.Getenv("RW_TOPK_PASSAGES"), map[string]interface{}{"read_only": true})
	if err != nil {
		t.Fatal(err)
	}
	defer pidx.Close()
	tp := newTopIndex(pidx)
	for _, q := range []search.PassageQuery{{Text: "bid documents"}, {Text: "sealed bids"}} {
		k, err := q.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		spec, err := passageSpec(pidx, q, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ds []time.Duration
		var res topResult
		for range 9 {
			s := time.Now()
			res, err = tp.search(ctx, spec)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(s))
		}
		sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
		t.Logf("passages %q: total %d scored %d; first %v best %v median %v", q.Text, res.total, res.scored, ds[8], ds[0], ds[4])
	}
}
