package api

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
)

// Intents and concession awards of the bundled sample that have no vendor
// field but name their vendor in a phrasing whose rule is counted
// (entity.VendorTextCounted: precision ≥ 0.98 on the labelled set) are
// counted under that vendor: the notice view shows the reading, batch
// look-up finds the notice under the name and the vendor profile counts
// it. A reading of a rule that is not counted (between: one reading) is
// shown with its reason and counted nowhere.
func TestVendorFromTextCounted(t *testing.T) {
	e := freshEnv(t)
	cases := []struct {
		id, name, pattern string
		counted           bool
	}{
		{"20141114008", "Cleer Medical LLC", entity.VendorPatternIntentAwardTo, true},
		{"20141119005", "Roche Diagnostics Corporation", entity.VendorPatternIntentWith, true},
		{"20141020015", "Paerdegat Squadron, Inc.", entity.VendorPatternConcessionTo, true},
		{"20141119011", "Deluxe Delivery Service", entity.VendorPatternExtendedWith, true},
		{"20130920018", "Capital One Bank", entity.VendorPatternBetween, false},
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.name)
	}
	body, _ := json.Marshal(BatchRequest{Names: names})
	res, b := post(t, e, "/batch", "application/json", body)
	if res.StatusCode != 200 {
		t.Fatalf("batch: %d %s", res.StatusCode, b)
	}
	batch := map[string]BatchResult{}
	for _, r := range decode[BatchResponse](t, b).Results {
		batch[r.Name] = r
	}
	for _, c := range cases {
		counted := c.counted
		if entity.VendorTextCounted(c.pattern) != counted {
			t.Errorf("%s: rule %s counted %v, want %v (see docs/data-sources.md)", c.id, c.pattern, !counted, counted)
		}
		res, b := get(t, e, "/api/notices/"+c.id)
		nv := decode[NoticeView](t, b)
		r := nv.VendorFromText
		if res.StatusCode != 200 || r == nil || r.Name != c.name || r.Pattern != c.pattern || r.Counted != counted || r.Method != entity.VendorMethodText ||
			r.Precision == nil || (r.UncountedReason == "") != counted || nv.Notice.VendorName != "" {
			t.Fatalf("%s: %d, reading %+v (want %q by %s, counted %v; the vendor field stays absent)", c.id, res.StatusCode, r, c.name, c.pattern, counted)
		}
		// batch: the notice is among the vendor's awards exactly when counted
		br := batch[c.name]
		var ids []string
		for _, h := range br.Awards.Notices {
			ids = append(ids, h.RequestID)
			if h.RequestID == c.id && (h.VendorFromText == nil || h.VendorFromText.Name != c.name || !h.VendorFromText.Counted) {
				t.Errorf("%s: the batch hit does not say its vendor was read from the text: %+v", c.id, h)
			}
		}
		if slices.Contains(ids, c.id) != counted || counted && (br.Awards.Total < 1 || br.Entity == "") {
			t.Errorf("%s (%s): batch awards %d %v, counted %v", c.id, c.name, br.Awards.Total, ids, counted)
		}
		// the vendor profile counts the notice exactly when counted
		res, b = get(t, e, "/api/vendors/"+entity.StemSlug(entity.VendorStem(c.name)))
		if !counted {
			if res.StatusCode == 200 && strings.Contains(string(b), c.id) {
				t.Errorf("%s: an uncounted reading is in the profile: %.300s", c.id, b)
			}
			continue
		}
		v := decode[VendorProfile](t, b)
		var listed []string
		for _, h := range v.Awards.Notices {
			listed = append(listed, h.RequestID)
		}
		if res.StatusCode != 200 || v.Awards.Total != br.Awards.Total || !slices.Contains(listed, c.id) {
			t.Errorf("%s: profile %d, awards %d (batch %d), notices %v", c.id, res.StatusCode, v.Awards.Total, br.Awards.Total, listed)
		}
	}
	// the profile of Roche counts the intent beside its award (one award
	// notice carries the vendor field)
	_, b = get(t, e, "/api/vendors/roche-diagnostics")
	if v := decode[VendorProfile](t, b); v.Awards.Total < 2 {
		t.Errorf("roche: %d awards and intents", v.Awards.Total)
	}
}
