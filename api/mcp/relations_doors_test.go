package mcp_test

import (
	"testing"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/dossier"
)

// Relations come from every link held: a vendor with registered contract
// rows and payments but few or no award notices has its agencies through
// them, each edge with its method, confidence and source rows; the
// dossier carries the same relations.
func TestRelationsFromRegistrationsAndPayments(t *testing.T) {
	s := connectFull(t)
	for name, want := range map[string][]string{
		"Rising Ground": {dossier.ContractedWith},
		"WSP USA Inc":   {dossier.ContractedWith, dossier.PaidBy},
	} {
		out := structured[mcp.RelationsOut](t, call(t, s, "get_entity_relationships", map[string]any{"kind": "vendor", "name": name}))
		if out.Status != "found" || len(out.Relations) == 0 {
			t.Errorf("%s: status %s, %d relations", name, out.Status, len(out.Relations))
			continue
		}
		types := map[string]bool{}
		for _, r := range out.Relations {
			types[r.Type] = true
			if r.Method == "" || r.Confidence == "" || r.Count == 0 || r.Provenance == "" {
				t.Errorf("%s: relation without method, confidence, count or provenance: %+v", name, r)
			}
			if (r.Method == dossier.MethodRegistration || r.Method == dossier.MethodPayee || r.Method == dossier.MethodPaymentContract) &&
				(len(r.SourceRows) == 0 || len(r.SourceRows) > dossier.MaxSourceRows || r.Rows == "") {
				t.Errorf("%s: %s edge without its source rows: %+v", name, r.Method, r)
			}
		}
		for _, w := range want {
			if !types[w] {
				t.Errorf("%s: no %s relation among %v", name, w, types)
			}
		}
		d := structured[mcp.DossierOut](t, call(t, s, "get_entity_dossier", map[string]any{"kind": "vendor", "name": name}))
		if d.Vendor == nil || len(d.Vendor.Relations) != len(out.Relations) {
			t.Errorf("%s: the dossier's relations differ from get_entity_relationships", name)
		}
	}
}
