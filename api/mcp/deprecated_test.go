package mcp_test

import (
	"reflect"
	"testing"
)

// The deprecated twins of renamed or moved fields (docs/api.md, Change
// log) carry the values of the fields that replaced them, so an older
// reader reads the same answer: the printed agency, the matter's totals
// and step links, a notice's joined payments, a federated notice result.
func TestDeprecatedTwinsCarryTheirReplacementsValues(t *testing.T) {
	s := connectFull(t)
	obj := func(v any, path ...string) map[string]any {
		for _, k := range path {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		m, _ := v.(map[string]any)
		return m
	}
	same := func(what string, old, cur any) {
		t.Helper()
		if cur == nil || !reflect.DeepEqual(old, cur) {
			t.Errorf("%s: deprecated %v, current %v", what, old, cur)
		}
	}

	c := call(t, s, "get_contract", map[string]any{"id": "CT185020151429177"}).StructuredContent
	same("contract.agency_label", obj(c, "contract")["agency_label"], obj(c, "contract")["agency_as_printed"])
	m := obj(c, "matter")
	for _, k := range []string{"awarded", "registered", "paid"} {
		same("matter."+k, m[k], obj(m, "totals")[k])
	}
	steps, _ := m["timeline"].([]any)
	if len(steps) == 0 {
		t.Fatal("the matter has no steps: the test proves nothing")
	}
	for _, st := range steps {
		for k, in := range map[string]string{"method": "method", "confidence": "confidence", "same_procurement": "same_procurement"} {
			same("matter.timeline[]."+k, obj(st)[k], obj(st, "link")[in])
		}
	}

	n := call(t, s, "get_notice", map[string]any{"request_id": "20260624018"}).StructuredContent
	p := obj(n, "payments")
	linked, _ := p["linked"].([]any)
	var paid []any
	for _, l := range linked {
		if obj(l, "entry")["kind"] == "payment" {
			paid = append(paid, obj(l, "entry")["id"])
		}
	}
	list, _ := p["payments"].([]any)
	var ids []any
	for _, x := range list {
		ids = append(ids, obj(x)["id"])
	}
	if list == nil || len(ids) != len(paid) || (len(paid) > 0 && !reflect.DeepEqual(ids, paid)) || p["total"] != float64(len(paid)) {
		t.Errorf("payments.payments %v, total %v; linked payments %v", ids, p["total"], paid)
	}
	same("payments.registered_vs_paid", p["registered_vs_paid"], obj(p, "totals")["registered_vs_paid"])

	f := call(t, s, "search_federated", map[string]any{"q": "20140930007"}).StructuredContent
	results, _ := obj(f)["results"].([]any)
	if len(results) == 0 {
		t.Fatal("no federated result for a notice id")
	}
	r := obj(results[0])
	same("results[].request_id", r["request_id"], r["id"])
	same("results[].published", r["published"], r["date"])
	if r["summary"] == nil || r["agency"] == nil {
		t.Errorf("federated notice result without its flat notice fields: %v", r)
	}
	for _, cv := range obj(f)["lens_coverage"].([]any) {
		if (obj(cv)["state"] == "searched") != (obj(cv)["searched"] == true) {
			t.Errorf("lens_coverage[].searched %v for state %v", obj(cv)["searched"], obj(cv)["state"])
		}
	}
}
