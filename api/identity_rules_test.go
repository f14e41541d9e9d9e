package api

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/recordwatch/recordwatch/internal/notices"
)

// Vendor identity rules through the API on the bundled sample: a short
// name keeps one profile for every suffix variant (IBM Corp. awards of
// 2014), a hyphen inside a word resolves by name and by slug, and the old
// "~" permalink still works and redirects.
func TestVendorIdentityRules(t *testing.T) {
	e := newEntityEnv(t, Config{}) // notices and payments-dataset records
	var total int
	for i, path := range []string{"/api/vendors/ibm", "/api/vendors/IBM%20Corp.", "/api/vendors/IBM%20Corporation", "/api/vendors/I.B.M.%20Inc",
		"/api/vendors/ibm-corp"} {
		res, b := get(t, e, path)
		if res.StatusCode != 200 {
			t.Errorf("%s: %d %.300s", path, res.StatusCode, b)
			continue
		}
		v := decode[VendorProfile](t, b)
		if v.Stem != "IBM" || v.Slug != "ibm" || v.Awards.Total == 0 || i > 0 && v.Awards.Total != total {
			t.Errorf("%s: stem %q slug %q awards %d (first %d)", path, v.Stem, v.Slug, v.Awards.Total, total)
		}
		if i == 0 {
			total = v.Awards.Total
		}
	}
	for _, path := range []string{"/api/vendors/skanska-trevcon-jv", "/api/vendors/skanska~trevcon-jv", "/api/vendors/" + url.PathEscape("Skanska-Trevcon JV"),
		"/api/vendors/" + url.PathEscape("SKANSKA TREVCON JV")} {
		res, b := get(t, e, path)
		if res.StatusCode != 200 {
			t.Errorf("%s: %d %.300s", path, res.StatusCode, b)
			continue
		}
		v := decode[VendorProfile](t, b)
		// its two contract rows are pending (not registered): counted apart
		if v.Stem != "SKANSKA TREVCON JV" || v.Payments == nil || v.Payments.ContractsNotRegistered == nil || v.Payments.ContractsNotRegistered.Count != 2 {
			t.Errorf("%s: stem %q payments %+v", path, v.Stem, v.Payments)
		}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for path, want := range map[string]string{
		"/vendors/skanska~trevcon-jv/": "/vendors/skanska-trevcon-jv/",
		"/vendors/ibm-corp/":           "/vendors/ibm/",
	} {
		r, err := client.Get(e.ts.URL + path)
		if err != nil || r.StatusCode != 301 || r.Header.Get("Location") != want {
			t.Errorf("%s: %v %v", path, r, err)
		}
	}
	// a search by vendor finds the same awards
	res, b := get(t, e, "/api/search?vendor="+url.QueryEscape("IBM Inc")+"&limit=50")
	if res.StatusCode != 200 || decode[struct {
		Total int `json:"total"`
	}](t, b).Total != total {
		t.Errorf("search by vendor: %d %.300s", res.StatusCode, b)
	}
}

// A plain-English preview reads an amount in a request for bids as a bid
// watch, a time window as dates and a category as a filter.
func TestWatchPreviewPlainEnglishFilters(t *testing.T) {
	e := freshEnv(t)
	res, b := get(t, e, "/api/watches/preview?text="+url.QueryEscape("construction bids over $1 million due in the next 3 months"))
	if res.StatusCode != 200 {
		t.Fatalf("%d %.300s", res.StatusCode, b)
	}
	f := decode[notices.Preview](t, b).Understood.Filter
	if f.Awards || !f.Bids || f.MinAmount == nil || *f.MinAmount != 1e6 || f.Within != "3 months" || len(f.Categories) != 1 || len(f.AnyOf) != 0 {
		t.Errorf("filter %+v", f)
	}
}
