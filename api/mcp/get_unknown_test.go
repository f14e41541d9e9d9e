package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
)

// Unknown ids in the get_* tools come back as results a client cannot
// miss: every get tool's output schema requires a status, and an unknown
// id answers status not_found (never found, never an empty success).
func TestGetToolsUnknownIDsAreExplicit(t *testing.T) {
	unknown := map[string]map[string]any{
		"get_contract":               {"id": "CT0000000000000000"},
		"get_entity_dossier":         {"kind": "vendor", "name": "Zzyzx Nonexistent Widgets LLC"},
		"get_entity_relationships":   {"kind": "vendor", "name": "Zzyzx Nonexistent Widgets LLC"},
		"get_land_decision_path":     {"id": "2099M9999"},
		"get_land_project":           {"id": "2099M9999"},
		"get_meeting":                {"id": "legistar:0"},
		"get_notice":                 {"request_id": "20991231999"},
		"get_person_or_organization": {"id": "NYC_GOID_999999"},
	}
	for _, form := range []int{1, 2} {
		s := connect(t, form)
		tools, err := s.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools.Tools {
			args, ok := unknown[tool.Name]
			if len(tool.Name) < 4 || tool.Name[:4] != "get_" {
				continue
			}
			if !ok {
				t.Errorf("form %d: get tool %s has no unknown-id case here", form, tool.Name)
				continue
			}
			b, _ := json.Marshal(tool.OutputSchema)
			var sch struct {
				Required   []string                   `json:"required"`
				Properties map[string]json.RawMessage `json:"properties"`
			}
			if err := json.Unmarshal(b, &sch); err != nil || !slices.Contains(sch.Required, "status") || sch.Properties["status"] == nil {
				t.Errorf("form %d %s: output schema does not require status: %s", form, tool.Name, b)
			}
			res := call(t, s, tool.Name, args)
			if res.IsError {
				continue // an error result cannot be missed either
			}
			out, _ := json.Marshal(res.StructuredContent)
			var st struct {
				Status string `json:"status"`
			}
			if json.Unmarshal(out, &st) != nil || st.Status != "not_found" {
				t.Errorf("form %d %s with an unknown id: status %q: %s", form, tool.Name, st.Status, out)
			}
		}
	}
}
