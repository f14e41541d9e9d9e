package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// Defects of issue 13, on the bundled sample: each test failed before the
// procurement and dossier services took the joins out of the API.

func jsonMap(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v: %.300s", err, b)
	}
	return m
}

func at(m any, path ...string) any {
	for _, p := range path {
		mm, ok := m.(map[string]any)
		if !ok {
			return nil
		}
		m = mm[p]
	}
	return m
}

// A matter's sums add only the same procurement: the registrations of
// other vendors that share only the 10-character base PIN are shown with
// their method and confidence and summed apart; no payment held reads as
// absent, not $0.00.
func TestMatterSumsOnlyTheSameProcurement(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, b := get(t, e, "/api/matters/12522P0001001R004")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, b)
	}
	m := jsonMap(t, b)
	// exact: CT112520278800354 (Crown Heights, $738,202); prefix: three
	// sibling contracts of Queens Community House, Merrill Park, Elmcor
	if v := at(m, "totals", "registered", "value"); v != 738202.0 {
		t.Errorf("registered = %v, want 738202 (the exact-PIN registration only)", v)
	}
	if v, d := at(m, "totals", "paid", "value"), at(m, "totals", "paid", "display"); v != nil || d != "no payments held" {
		t.Errorf("paid = %v %q, want null and \"no payments held\"", v, d)
	}
	if v := at(m, "totals", "awarded", "value"); v != 4800000.0 {
		t.Errorf("awarded = %v, want 4800000 (the award and its renewals)", v)
	}
	if v, n := at(m, "totals", "related_by_prefix", "registered", "value"), at(m, "totals", "related_by_prefix", "records"); v != 2667337.0 || n != 3.0 {
		t.Errorf("related by prefix = %v over %v records, want 2667337 over 3", v, n)
	}
	steps, _ := m["timeline"].([]any)
	if len(steps) != 7 {
		t.Fatalf("timeline has %d steps, want 7", len(steps))
	}
	for _, st := range steps {
		method, conf, same := at(st, "link", "method"), at(st, "link", "confidence"), at(st, "link", "same_procurement")
		want := method != "prefix"
		if (conf != "high" && conf != "low") || same != want || (conf == "low") == want {
			t.Errorf("step %v/%v: confidence %v, same_procurement %v", at(st, "step"), method, conf, same)
		}
	}

	// the notice view's joins follow the same rule
	_, b = get(t, e, "/api/notices/20260624018")
	n := jsonMap(t, b)
	if c := at(n, "payments", "totals", "contracts", "count"); c != 1.0 {
		t.Errorf("notice joins sum %v contracts, want 1 (exact PIN only)", c)
	}
	if v := at(n, "payments", "totals", "contracts", "amount", "value"); v != 738202.0 {
		t.Errorf("notice joins registered %v, want 738202", v)
	}
	if v, d := at(n, "payments", "totals", "payments", "amount", "value"), at(n, "payments", "totals", "payments", "amount", "display"); v != nil || d != "no payments held" {
		t.Errorf("notice joins paid %v %q, want null and \"no payments held\"", v, d)
	}
	links, _ := at(n, "payments", "linked").([]any)
	for _, l := range links {
		if at(l, "confidence") == nil || at(l, "method") == "" {
			t.Errorf("joined entry without method and confidence: %v", l)
		}
	}
}

// A shared investigation pins a matter with the count its matter page
// shows.
func TestShareCountsAMatterAsItsPage(t *testing.T) {
	e := newEntityEnv(t, Config{})
	_, b := get(t, e, "/api/matters/12522P0001001R004")
	steps, _ := jsonMap(t, b)["timeline"].([]any)
	created := mustCreateShare(t, e, "192.0.2.20", `{"title": "DFTA center", "items": [{"kind": "matter", "id": "12522P0001001R004"}]}`)
	_, b = get(t, e, "/inv/"+created.ID)
	snap := jsonMap(t, b)
	items, _ := snap["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("items %v", snap["items"])
	}
	if n := at(items[0], "pinned_state", "records"); n != float64(len(steps)) || len(steps) != 7 {
		t.Errorf("the share pins %v records, the matter page shows %d", n, len(steps))
	}
	if j, _ := at(items[0], "links", "json").(string); !strings.HasSuffix(j, "/api/matters/12522P0001001R004") {
		t.Errorf("the share's JSON link %q is not the matter it counts", j)
	}
}

// Form 1 vendor and agency pages read absent payments-dataset records as
// absent, not as empty labels and zeros.
func TestProfilePagesReadAbsentAsAbsent(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/vendors/denville-line-painting/", []string{"no contracts held", "no payments held"}},
		{"/agencies/probation/", []string{"contract records ($", "registered value)", "no payments held"}}, // DDC holds a 2018 payment now
	} {
		res, b := get(t, e, tc.path)
		page := string(b)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", tc.path, res.StatusCode)
		}
		for _, w := range tc.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s: missing %q", tc.path, w)
			}
		}
		for _, bad := range []string{"( registered value)", "payments ()", "<p>0 contract records", "· 0 payments"} {
			if strings.Contains(page, bad) {
				t.Errorf("%s: reads %q", tc.path, bad)
			}
		}
	}
	// the JSON twin says the same
	_, b := get(t, e, "/api/vendors/denville-line-painting")
	v := jsonMap(t, b)
	if d := at(v, "payments", "payments", "amount", "display"); d != "no payments held" {
		t.Errorf("vendor JSON payments display %q", d)
	}
}
