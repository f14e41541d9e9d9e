package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
	"github.com/recordwatch/recordwatch/internal/store"
)

// The serving child's API answers every query of the fixed mix: its
// handler is built with every service the routes use (a missing one
// answered every notice search 500).
func TestOursHandlerAnswersTheMix(t *testing.T) {
	dir := t.TempDir()
	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	if err := be.Upsert(context.Background(), searchtest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(nil)
	defer srv.Close()
	srv.Config.Handler = oursHandler(be, st, srv.URL)
	for _, q := range buildMix("parks-and-recreation", "Securus") {
		res, err := http.Get(srv.URL + q.path(1))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s (%s): %d", q.Name, q.path(1), res.StatusCode)
		}
	}
}
