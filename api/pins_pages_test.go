package api

import (
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"testing"
)

// Every record page kind carries the Pin control (issue 49): land
// project, meeting, organization and person pages, as vendor, agency and
// matter pages did — and what a button pins is a record the shared-list
// service accepts: the list of the four posted to /inv is stored.
func TestPinOnEveryRecordPage(t *testing.T) {
	e := newEntityEnv(t, Config{})
	pinRe := regexp.MustCompile(`<button type="button" class="pin" data-pin-kind="([a-z_]+)" data-pin-id="([^"]+)"`)
	type item struct {
		Kind string `json:"kind"`
		ID   string `json:"id"`
	}
	var items []item
	for _, c := range []struct{ path, kind string }{
		{"/land-projects/2024Q0292", "land_project"},
		{"/meetings/legistar:22632", "meeting"},
		{"/organizations/NYC_GOID_000002/", "organization"},
		{"/people/NYC_GOID_000002%2Fprincipal-officer%2F2026-06-12", "person"},
	} {
		res, body := get(t, e, c.path)
		m := pinRe.FindStringSubmatch(string(body))
		if res.StatusCode != http.StatusOK || m == nil || m[1] != c.kind {
			t.Errorf("%s: %d, pin %v", c.path, res.StatusCode, m)
			continue
		}
		items = append(items, item{m[1], html.UnescapeString(m[2])})
	}
	body, _ := json.Marshal(map[string]any{"title": "Pinned from record pages", "items": items})
	if res, b := postInv(t, e, "198.51.100.49", body, false); res.StatusCode != http.StatusCreated {
		t.Errorf("the pins are not a list the service accepts: %d %s", res.StatusCode, b)
	}
}
