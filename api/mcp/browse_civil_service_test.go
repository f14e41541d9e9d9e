package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// Civil-service rows are reachable from MCP: browse_civil_service gives
// the rows GET /api/civil-service gives for the same filters (one service
// call), pages with next_cursor, and refuses what the route refuses.
func TestBrowseCivilService(t *testing.T) {
	ctx := context.Background()
	be, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	cw := entity.DefaultCrosswalk()
	src, err := indexer.LookupSource("civillist")
	if err != nil {
		t.Fatal(err)
	}
	ix := &indexer.Indexer{Backend: be, Crosswalk: cw, Now: func() time.Time { return fixedNow }}
	if _, err := ix.Load(ctx, src, os.DirFS("../../testdata/sample"), "civillist"); err != nil {
		t.Fatal(err)
	}
	d := depsOver(be, cw, 1)
	srv := httptest.NewServer(api.New(api.Config{Form: 1, BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6},
		api.Deps{Search: be, Crosswalk: cw, Now: func() time.Time { return fixedNow }, People: d.People, Procure: d.Procure,
			Dossiers: d.Dossiers, Land: d.Land, Meetings: d.Meetings, Semantic: d.Semantic, Federated: d.Federated,
			MCP: mcp.Handler(d, 1)}))
	t.Cleanup(srv.Close)
	s, err := sdk.NewClient(&sdk.Implementation{Name: "civil-test", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ids := func(p people.CivilPage) []string {
		var out []string
		for _, r := range p.Records {
			out = append(out, r.ID)
		}
		return out
	}
	for _, tc := range []struct {
		args  map[string]any
		query string
	}{
		{map[string]any{"kind": "list", "agency": "police-department"}, "kind=list&agency=police-department"},
		{map[string]any{"exam_number": "7006"}, "exam_number=7006"},
		{map[string]any{"limit": 5}, "limit=5"},
	} {
		got := structured[people.CivilPage](t, call(t, s, "browse_civil_service", tc.args))
		res, err := http.Get(srv.URL + "/api/civil-service?" + tc.query)
		if err != nil {
			t.Fatal(err)
		}
		var want people.CivilPage
		if err := json.NewDecoder(res.Body).Decode(&want); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if got.Total == 0 || got.Total != want.Total || !slices.Equal(ids(got), ids(want)) || got.NextCursor != want.NextCursor || got.Note != people.CivilNote {
			t.Errorf("%v: tool %d %v, route %d %v", tc.args, got.Total, ids(got), want.Total, ids(want))
		}
	}
	first := structured[people.CivilPage](t, call(t, s, "browse_civil_service", map[string]any{"limit": 5}))
	next := structured[people.CivilPage](t, call(t, s, "browse_civil_service", map[string]any{"limit": 5, "cursor": first.NextCursor}))
	if len(next.Records) == 0 || slices.Contains(ids(first), next.Records[0].ID) {
		t.Errorf("the next page repeats or is empty: %v then %v", ids(first), ids(next))
	}
	for _, bad := range []map[string]any{{"kind": "candidate"}, {"limit": 0}, {"name": "x"}} {
		if res := call(t, s, "browse_civil_service", bad); !res.IsError {
			t.Errorf("%v: not refused", bad)
		}
	}
}
