package embedded_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// BenchmarkResultPage measures one search page of 20 hits for a common
// word ("services") through Backend.Search, over RECORDWATCH_PAGE_N
// (default 20,000) synthetic notices indexed afresh (not timed):
// "whole" reads each hit's whole notice (what every search page decoded
// before format 10), "brief" asks search.Query.Brief (what /api/search
// and MCP search_notices ask: no full text decoded). It reports the
// index's size on disk (index-bytes, notices-bytes: notices.bleve alone).
//
//	go test -run '^$' -bench ResultPage -benchmem ./internal/search/embedded/
func BenchmarkResultPage(b *testing.B) {
	n := 20_000
	if s := os.Getenv("RECORDWATCH_PAGE_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("RECORDWATCH_PAGE_N=%q: want a positive number", s)
		}
	}
	ctx := context.Background()
	dir := b.TempDir()
	st, err := build(ctx, nil, dir, benchModel(b), n)
	if err != nil {
		b.Fatal(err)
	}
	noticeBytes, err := dirSize(filepath.Join(dir, "notices.bleve"))
	if err != nil {
		b.Fatal(err)
	}
	be, err := embedded.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	// the warm-up after Open (warm.go) reads in the background: let it
	// finish, so its allocations are not counted as the pages'
	for range 20 {
		if _, err := be.Search(ctx, search.Query{Text: "services", Limit: 20}); err != nil {
			b.Fatal(err)
		}
	}
	time.Sleep(2 * time.Second)
	runtime.GC()
	for _, brief := range []bool{false, true} {
		name := "whole"
		if brief {
			name = "brief"
		}
		b.Run(name, func(b *testing.B) {
			q := search.Query{Text: "services", Limit: 20}
			q.Brief = brief
			b.ReportAllocs()
			for b.Loop() {
				res, err := be.Search(ctx, q)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Hits) != q.Limit {
					b.Fatalf("%d hits", len(res.Hits))
				}
			}
			b.ReportMetric(float64(st.bytes), "index-bytes")
			b.ReportMetric(float64(noticeBytes), "notices-bytes")
		})
	}
}
