package api

import (
	"net/http"
	"testing"
)

// Knowing an address reveals nothing (SPEC §4.10, §5): a create request
// for an address that already has a watch is answered exactly as one for
// an address that has none, in both forms.
func TestSubscribingAnAddressWithWatchesRevealsNothing(t *testing.T) {
	for _, form := range []int{1, 2} {
		e := newWatchEnv(t, form, nil)
		body := func(email string) string {
			if form == 1 {
				return `{"email":"` + email + `","lens":"money","q":"construction"}`
			}
			return `{"email":"` + email + `","text":"construction contracts"}`
		}
		// known@ has a watch (Form 1: active; Form 2: a confirmation pending)
		if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body("known@example.org")); res.StatusCode >= 300 {
			t.Fatalf("form %d: first create %d %s", form, res.StatusCode, out)
		}
		known, kb := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body("known@example.org"))
		fresh, fb := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body("fresh@example.org"))
		if known.StatusCode != fresh.StatusCode || kb != fb {
			t.Errorf("form %d: an address with a watch answers %d %s\nan address without one answers %d %s", form, known.StatusCode, kb, fresh.StatusCode, fb)
		}
		if known.StatusCode != http.StatusCreated && known.StatusCode != http.StatusAccepted {
			t.Errorf("form %d: %d", form, known.StatusCode)
		}
	}
}
