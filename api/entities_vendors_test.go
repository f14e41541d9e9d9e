package api

import (
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// freshEnv serves the shared index with its own state store, so per-day
// ceilings (batch) start at zero.
func freshEnv(t *testing.T) *env {
	t.Helper()
	srv := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6}, Deps{Search: shared.be, Store: newStore(t),
		Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &env{srv: srv, ts: ts, be: shared.be}
}

// The vendor minimum counts characters, not bytes: "Éa" (3 bytes, 2
// characters) is refused everywhere a vendor name is taken, "Éab" is not.
func TestVendorMinimumCountsCharacters(t *testing.T) {
	e := freshEnv(t)
	for _, name := range []string{"Éa", "E\u0301a", "日本", "ÉÉ"} {
		q := url.QueryEscape(name)
		for _, tc := range []struct{ path, param string }{
			{"/api/search?vendor=" + q, "vendor"},
			{"/feed.json?lens=entity&kind=vendor&name=" + q, "name"},
			{"/feed.xml?kind=vendor&name=" + q, "name"},
			{"/api/vendors/" + url.PathEscape(name), "stem"},
			{"/api/watches/preview?lens=money&vendor=" + q, "vendor"},
		} {
			res, b := get(t, e, tc.path)
			wantInvalid(t, tc.path, res.StatusCode, b, tc.param)
		}
		if res, b := get(t, e, "/vendors/"+url.PathEscape(name)+"/"); res.StatusCode != 400 {
			t.Errorf("vendor page %q: %d %.200s", name, res.StatusCode, b)
		}
		body := []byte(`{"names": ["Denville Line Painting", "` + name + `"]}`)
		res, b := post(t, e, "/batch", "application/json", body)
		wantInvalid(t, "/batch "+name, res.StatusCode, b, "names[1]")
	}
	for _, name := range []string{"Éab", "日本語", "ÉÉÉ"} {
		q := url.QueryEscape(name)
		for _, path := range []string{"/api/search?vendor=" + q, "/feed.json?lens=entity&kind=vendor&name=" + q,
			"/api/watches/preview?lens=money&vendor=" + q} {
			if res, b := get(t, e, path); res.StatusCode != 200 {
				t.Errorf("%s: %d %.300s", path, res.StatusCode, b)
			}
		}
		// the profile looks the stem up: none is held, which is not a refusal
		res, b := get(t, e, "/api/vendors/"+url.PathEscape(name))
		if res.StatusCode != 404 || decode[errorBody](t, b).Error.Code != record.ENOTFOUND {
			t.Errorf("profile %q: %d %.300s", name, res.StatusCode, b)
		}
		body := []byte(`{"names": ["` + name + `"]}`)
		if res, b := post(t, e, "/batch", "application/json", body); res.StatusCode != 200 {
			t.Errorf("/batch %q: %d %.300s", name, res.StatusCode, b)
		}
	}
}
