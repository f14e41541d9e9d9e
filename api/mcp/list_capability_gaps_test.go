package mcp_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/api/mcp"
)

// The capability gaps come from the source table GET /api/sources
// reports: every source there has its gap (what it does not hold, with
// its dates and the nearest tools), the declared gaps (per-candidate
// civil-service lists, outcome prediction) come first, and the initialize
// instructions of both forms state every gap list_capability_gaps lists.
func TestCapabilityGapsFromSources(t *testing.T) {
	res, err := http.Get(fx.urls[1] + "/api/sources")
	if err != nil {
		t.Fatal(err)
	}
	var rep api.SourcesReport
	if err := json.NewDecoder(res.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if len(rep.Sources) < 2 {
		t.Fatalf("the source table lists %d sources", len(rep.Sources))
	}
	s := connect(t, 1)
	out := structured[mcp.GapsOut](t, call(t, s, "list_capability_gaps", map[string]any{}))
	ids := map[string]bool{}
	for _, g := range out.Gaps {
		if ids[g.ID] || g.Description == "" || len(g.NearestTools) == 0 || g.Kind == "" {
			t.Errorf("gap %+v (repeated or incomplete)", g)
		}
		ids[g.ID] = true
	}
	if !ids["civic.outcome.prediction"] || !ids["civil_service.per_candidate"] || out.SourceTable == "" {
		t.Errorf("declared gaps missing: %v", ids)
	}
	for _, c := range rep.Sources {
		found := false
		for _, g := range out.Gaps {
			if g.Source == c.Source && g.RecordType == c.RecordType && g.FirstSourceDate == c.FirstSourceDate && g.LastSourceDate == c.LastSourceDate {
				found = true
				if c.FirstSourceDate != "" && !strings.Contains(g.Description, "before "+c.FirstSourceDate) {
					t.Errorf("%s %s: %q does not say what is not held", c.Source, c.RecordType, g.Description)
				}
			}
		}
		if !found {
			t.Errorf("source %s (%s) of /api/sources has no gap", c.Source, c.RecordType)
		}
	}
	for _, g := range out.Gaps {
		if g.Source == "" {
			continue
		}
		listed := false
		for _, c := range rep.Sources {
			listed = listed || (c.Source == g.Source && c.RecordType == g.RecordType)
		}
		if !listed {
			t.Errorf("gap %s names a source /api/sources does not list", g.ID)
		}
	}
	// a client of the protocol before 2026-07-28 reads them in initialize
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, fx.urls[1]+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	ires, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var init struct {
		Result struct {
			Instructions string `json:"instructions"`
		} `json:"result"`
	}
	if err := json.NewDecoder(ires.Body).Decode(&init); err != nil {
		t.Fatal(err)
	}
	ires.Body.Close()
	if !strings.Contains(init.Result.Instructions, "\n- "+out.Gaps[len(out.Gaps)-1].Description) {
		t.Errorf("initialize (2025-06-18) instructions: %s", init.Result.Instructions)
	}
	for _, form := range []int{1, 2} {
		instr := connect(t, form).InitializeResult().Instructions
		if !strings.Contains(instr, "GET /api/sources") || strings.Contains(instr, "list_capability_gaps") != (form == 1) {
			t.Errorf("form %d instructions: %s", form, instr)
		}
		for _, g := range out.Gaps {
			if !strings.Contains(instr, "\n- "+g.Description) {
				t.Errorf("form %d: the initialize instructions do not state gap %s", form, g.ID)
			}
		}
	}
}
