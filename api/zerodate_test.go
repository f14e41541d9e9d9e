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
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
)

// A corpus whose source was never observed (what an interrupted first
// load leaves) never shows a zero date ("0001-01-01") on any surface: an
// unknown observation date is left out, not invented.
func TestNoZeroDatesWhenASourceWasNeverObserved(t *testing.T) {
	dir := t.TempDir()
	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	cw := entity.DefaultCrosswalk()
	corpus, _ := crol.Scan(os.DirFS("../testdata/sample"), "crol", cw)
	ix := &indexer.Indexer{Backend: be, Crosswalk: cw}
	if err := ix.Write(context.Background(), corpus.Notices[:500], "part"); err != nil { // no Observe
		t.Fatal(err)
	}
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, form := range []int{1, 2} {
		srv := newServer(Config{Form: form, BaseURL: "http://rw.test", Engine: "embedded", RatePerSecond: 1e6, Burst: 1e6},
			Deps{Search: be, Store: st, Crosswalk: cw, Now: func() time.Time { return fixedNow }})
		e := &env{ts: httptest.NewServer(srv)}
		for _, path := range []string{"/healthz", "/api/search?q=parks", "/api/search?q=zzzqqq", "/api/passages?q=parks",
			"/stats", "/feed.json?lens=property", "/feed.xml?lens=property", "/agencies",
			"/api/notices/" + corpus.Notices[0].RequestID} {
			res, b := get(t, e, path)
			if res.StatusCode >= 500 {
				t.Errorf("form %d %s: %d", form, path, res.StatusCode)
			}
			if strings.Contains(string(b), "0001-01-01") {
				t.Errorf("form %d %s shows a zero date: %.300s", form, path, b)
			}
		}
		e.ts.Close()
	}
}
