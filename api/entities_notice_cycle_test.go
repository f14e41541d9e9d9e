package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/cycle"
)

// TestNoticePriorCycle: the notice's JSON twin and get_notice (Form 1 and
// 2) show a solicitation's earlier cycles with method, tier, confidence
// and evidence on every match, and say "no earlier cycle found in the
// records held" when there is none; other notices carry no prior cycle.
func TestNoticePriorCycle(t *testing.T) {
	for _, form := range []int{1, 2} {
		e := newWatchEnv(t, form, nil)
		read := func(id string) (int, *cycle.Result) {
			res, body := httpDo(t, "GET", e.ts.URL+"/api/notices/"+id, "", "", "Accept", "application/json")
			var v struct {
				PriorCycle *cycle.Result `json:"prior_cycle"`
			}
			_ = json.Unmarshal([]byte(body), &v)
			return res.StatusCode, v.PriorCycle
		}
		code, pc := read("20260603042") // NYCHA floor tile, 2026
		if code != http.StatusOK || pc == nil || len(pc.Matches) == 0 || pc.NextDue == nil {
			t.Fatalf("form %d: %d %+v", form, code, pc)
		}
		for _, m := range pc.Matches {
			if m.Method == "" || m.Tier == "" || m.Confidence <= 0 || len(m.Evidence) == 0 || !strings.HasPrefix(m.Permalink, e.ts.URL) {
				t.Errorf("form %d: match %+v", form, m)
			}
		}
		if _, pc := read("20260616061"); pc == nil || pc.Summary != cycle.NoneFound || len(pc.Matches) != 0 {
			t.Errorf("form %d: lone solicitation %+v", form, pc)
		}
		if _, pc := read("20141008006"); pc != nil { // an award
			t.Errorf("form %d: award with a prior cycle %+v", form, pc)
		}
		c := sdk.NewClient(&sdk.Implementation{Name: "cycle-test", Version: "1"}, nil)
		s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_notice", Arguments: map[string]any{"request_id": "20260616061"}})
		s.Close()
		if err != nil || out.IsError {
			t.Fatalf("get_notice %v %+v", err, out)
		}
		b, _ := json.Marshal(out.StructuredContent)
		if !strings.Contains(string(b), cycle.NoneFound) {
			t.Errorf("form %d: get_notice %s", form, b)
		}
	}
}
