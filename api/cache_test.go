package api

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// The server main.go builds reads through the response cache
// (search.Cached): every surface answers through it exactly as without it,
// a repeat is answered from memory, and a write is seen at once.
func TestResponseCacheBehindEverySurface(t *testing.T) {
	ctx := context.Background()
	be, err := embedded.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	cached := search.Cached(be, false)
	c, ok := cached.(*search.Cache)
	if !ok {
		t.Fatal("the embedded engine is not cached")
	}
	cw := entity.DefaultCrosswalk()
	ix := &indexer.Indexer{Backend: cached, Crosswalk: cw, Now: func() time.Time { return fixedNow }}
	if _, err := ix.LoadCROLDir(ctx, os.DirFS("../testdata/sample"), "crol"); err != nil {
		t.Fatal(err)
	}
	srv := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6, Engine: "embedded"},
		Deps{Search: cached, Store: shared.st, Crosswalk: cw, Now: func() time.Time { return fixedNow }})
	e := &env{srv: srv, ts: httptest.NewServer(srv), be: be}
	defer e.ts.Close()
	// the same index without the cache
	plainSrv := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6, Engine: "embedded"},
		Deps{Search: be, Store: shared.st, Crosswalk: cw, Now: func() time.Time { return fixedNow }})
	plain := &env{srv: plainSrv, ts: httptest.NewServer(plainSrv), be: be}
	defer plain.ts.Close()

	// ranked answers may differ from one read to the next right after
	// indexing (Bleve's merger changes the BM25 statistics), so those are
	// compared read with read on the cached server only
	for _, p := range []struct {
		path   string
		ranked bool
	}{
		{"/api/search?q=construction&lens=money&facets=true", true},
		{"/api/search?lens=property&limit=5", false},
		{"/api/search?lens=money&sort=newest&facets=true", false},
		{"/api/passages?q=sealed+bids", true},
		{"/feed.json?lens=money&min=1000000", false},
		{"/api/vendors/securus-technologies", false},
		{"/api/meetings", false},
		{"/api/search/federated?q=parks", true},
	} {
		_, first := get(t, e, p.path)
		res, again := get(t, e, p.path)
		if res.StatusCode != 200 || string(again) != string(first) {
			t.Errorf("%s: status %d, a repeat differs\n got %.300s\nwant %.300s", p.path, res.StatusCode, again, first)
		}
		if _, want := get(t, plain, p.path); !p.ranked && string(want) != string(first) {
			t.Errorf("%s: answer differs from the uncached server's\n got %.300s\nwant %.300s", p.path, first, want)
		}
	}
	if st := c.Stats(); st.Hits == 0 {
		t.Errorf("nothing answered from the cache: %+v", st)
	}

	// a write between two identical searches: the second sees it
	before := decode[SearchResponse](t, must200(t, e, "/api/search?q=zeppelin"))
	n, err := be.Get(ctx, "20141007014")
	if err != nil {
		t.Fatal(err)
	}
	n.RequestID, n.Title = "20991231001", "ZEPPELIN MOORING MAST"
	if err := cached.Upsert(ctx, []search.Doc{{Notice: n, Passages: crol.Passages(n)}}); err != nil {
		t.Fatal(err)
	}
	after := decode[SearchResponse](t, must200(t, e, "/api/search?q=zeppelin"))
	if before.Total != 0 || after.Total != 1 || after.Hits[0].RequestID != "20991231001" {
		t.Errorf("zeppelin: %d before the write, %d after", before.Total, after.Total)
	}
	// the feed cache too rebuilds a feed after a write through the process
	if body := string(must200(t, e, "/feed.json?lens=entity&kind=vendor&name=Zeppelin+Works")); strings.Contains(body, "20991231002") {
		t.Fatal("the zeppelin vendor's notice is there before it is written")
	}
	n.RequestID, n.VendorName, n.VendorStem = "20991231002", "Zeppelin Works", entity.VendorStem("Zeppelin Works")
	if err := cached.Upsert(ctx, []search.Doc{{Notice: n, Passages: crol.Passages(n)}}); err != nil {
		t.Fatal(err)
	}
	if body := string(must200(t, e, "/feed.json?lens=entity&kind=vendor&name=Zeppelin+Works")); !strings.Contains(body, "20991231002") {
		t.Errorf("the feed does not hold the notice written after its first read:\n%.500s", body)
	}
}

func must200(t *testing.T, e *env, path string) []byte {
	t.Helper()
	res, b := get(t, e, path)
	if res.StatusCode != 200 {
		t.Fatalf("%s: status %d: %s", path, res.StatusCode, b)
	}
	return b
}
