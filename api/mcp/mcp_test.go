package mcp_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
)

var update = flag.Bool("update", false, "rewrite tool schema snapshots and the README tool list")

var fixedNow = time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)

// wantTools is the tool list of each form.
var wantTools = map[int][]string{
	1: {"search_notices", "get_notice", "search_federated", "retrieve_cited_passages", "list_capability_gaps"},
	2: {"search_notices", "get_notice"},
}

type fixture struct {
	be   *embedded.Backend
	deps *mcp.Deps
	urls map[int]string
}

var fx fixture

func TestMain(m *testing.M) {
	flag.Parse()
	dir, _ := os.MkdirTemp("", "rw-mcp-*")
	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		panic(err)
	}
	cw := entity.DefaultCrosswalk()
	ix := &indexer.Indexer{Backend: be, Crosswalk: cw, Now: func() time.Time { return fixedNow }}
	if _, err := ix.LoadCROLDir(context.Background(), os.DirFS("../../testdata/sample"), "crol"); err != nil {
		panic(err)
	}
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		panic(err)
	}
	fx = fixture{be: be, urls: map[int]string{}}
	var servers []*httptest.Server
	for _, form := range []int{1, 2} {
		d := &mcp.Deps{Search: be, Crosswalk: cw, BaseURL: "http://rw.test", Now: func() time.Time { return fixedNow }, Version: "test"}
		fx.deps = d
		form := form
		srv := api.New(api.Config{Form: form, BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6},
			api.Deps{Search: be, Store: st, Crosswalk: cw, Now: func() time.Time { return fixedNow },
				MCP:        mcp.Handler(d, form),
				MCPCatalog: func(ctx context.Context) any { return mcp.BuildCatalog(ctx, d, form) }})
		ts := httptest.NewServer(srv)
		servers = append(servers, ts)
		fx.urls[form] = ts.URL
	}
	code := m.Run()
	for _, ts := range servers {
		ts.Close()
	}
	st.Close()
	be.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

func connect(t *testing.T, form int) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "recordwatch-test", Version: "1"}, nil)
	s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: fx.urls[form] + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func call(t *testing.T, s *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	return res
}

func structured[T any](t *testing.T, res *sdk.CallToolResult) T {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("structured content: %v\n%s", err, b)
	}
	return v
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestToolsListPerForm(t *testing.T) {
	for form, want := range wantTools {
		s := connect(t, form)
		res, err := s.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tool := range res.Tools {
			got = append(got, tool.Name)
			if tool.Annotations == nil {
				t.Errorf("form %d: %s has no annotations", form, tool.Name)
			}
		}
		want = slices.Sorted(slices.Values(want))
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("form %d tools %v, want %v", form, got, want)
		}
	}
}

func TestEveryToolHasItsClass(t *testing.T) {
	for _, tool := range mcp.All(fx.deps) {
		switch tool.Class {
		case mcp.ClassRead:
			if tool.Def.Annotations == nil || !tool.Def.Annotations.ReadOnlyHint {
				t.Errorf("%s is a read tool without readOnlyHint", tool.Def.Name)
			}
		case mcp.ClassMutation:
			if tool.Def.Annotations == nil || tool.Def.Annotations.ReadOnlyHint || tool.Def.Annotations.DestructiveHint == nil {
				t.Errorf("%s is a mutation without its annotations", tool.Def.Name)
			}
		default:
			t.Errorf("%s has no read/mutation class", tool.Def.Name)
		}
		if len(tool.Forms) == 0 || tool.Def.Description == "" || tool.Def.InputSchema == nil || tool.Def.OutputSchema == nil {
			t.Errorf("%s is incomplete", tool.Def.Name)
		}
	}
}

func TestToolSchemaSnapshots(t *testing.T) {
	for _, tool := range mcp.All(fx.deps) {
		snap := map[string]any{"name": tool.Def.Name, "title": tool.Def.Title, "class": tool.Class, "forms": tool.Forms,
			"description": tool.Def.Description, "annotations": tool.Def.Annotations,
			"inputSchema": tool.Def.InputSchema, "outputSchema": tool.Def.OutputSchema}
		got, _ := json.MarshalIndent(snap, "", "  ")
		got = append(got, '\n')
		path := filepath.Join("__toolsnaps__", tool.Def.Name+".snap")
		if *update {
			os.MkdirAll("__toolsnaps__", 0o755)
			os.WriteFile(path, got, 0o644)
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (go test ./api/mcp -update)", tool.Def.Name, err)
			continue
		}
		if string(want) != string(got) {
			t.Errorf("schema of %s changed; if intended run go test ./api/mcp -update\n%s", tool.Def.Name, got)
		}
	}
	entries, _ := os.ReadDir("__toolsnaps__")
	if len(entries) != len(mcp.All(fx.deps)) {
		t.Errorf("%d snapshots for %d tools (remove stale snapshots)", len(entries), len(mcp.All(fx.deps)))
	}
}

func TestSearchNotices(t *testing.T) {
	s := connect(t, 2)
	out := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"q": "construction", "lens": []string{"money"}, "limit": 5}))
	if out.Total == 0 || len(out.Results) == 0 || len(out.Results) > 5 || out.NextCursor == "" {
		t.Fatalf("search: total %d, %d results", out.Total, len(out.Results))
	}
	if out.Scope.RecordsInCorpus < 1000 || len(out.Scope.Absence) != 4 || out.Scope.Searched.Lenses[0] != "money" {
		t.Errorf("scope %+v", out.Scope)
	}
	for _, r := range out.Results {
		if r.Lens != "money" || r.OfficialURL != record.OfficialURL(r.RequestID) || r.Route != "/api/notices/"+r.RequestID {
			t.Errorf("result %+v", r)
		}
	}
	// the same search through the API gives the same ids: one code path
	next := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"q": "construction", "lens": []string{"money"}, "limit": 5, "cursor": out.NextCursor}))
	if len(next.Results) == 0 || next.Results[0].RequestID == out.Results[0].RequestID {
		t.Errorf("cursor page did not advance")
	}
	// invalid amounts never pass an amount bound
	amt := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"min_amount": 0.01, "limit": 50}))
	for _, r := range amt.Results {
		if r.Amount == nil || !r.Amount.Valid {
			t.Errorf("%s passed min_amount without a valid amount", r.RequestID)
		}
	}
	none := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"q": "zzzqqq"}))
	if none.Total != 0 || none.Scope.RecordsInCorpus == 0 || none.Scope.FirstSourceDate == "" {
		t.Errorf("no-hit search lost its scope: %+v", none.Scope)
	}
}

func TestGetNotice(t *testing.T) {
	s := connect(t, 2)
	out := structured[mcp.NoticeOut](t, call(t, s, "get_notice", map[string]any{"request_id": "20140930007"}))
	if out.Status != record.Found || out.Notice == nil || out.Notice.Amount == nil || !out.Notice.Amount.Valid ||
		*out.Notice.Amount.Value != 1158788 || !strings.Contains(out.FullText, "Williamsbridge") ||
		out.Citation.OfficialURL != record.OfficialURL("20140930007") || out.Freshness.SourceObservedAt == "" {
		t.Errorf("found notice %+v", out)
	}
	missing := structured[mcp.NoticeOut](t, call(t, s, "get_notice", map[string]any{"request_id": "20991231999"}))
	if missing.Status != record.NotFound || missing.Notice != nil || !strings.Contains(missing.Message, "No notice") {
		t.Errorf("missing notice %+v", missing)
	}
}

func TestForm1ReadTools(t *testing.T) {
	s := connect(t, 1)
	fed := structured[mcp.FederatedOut](t, call(t, s, "search_federated", map[string]any{"q": "hearing", "scope": []string{"meetings", "rules"}}))
	if fed.Total == 0 || len(fed.Lenses) != 6 {
		t.Fatalf("federated %+v", fed)
	}
	for _, lc := range fed.Lenses {
		inScope := lc.Lens == "meetings" || lc.Lens == "rules"
		if lc.Searched != inScope || (!inScope && lc.Matched != 0) {
			t.Errorf("lens coverage %+v", lc)
		}
	}
	for _, r := range fed.Results {
		if r.Lens != "meetings" && r.Lens != "rules" && r.Lens != "land" {
			t.Errorf("out-of-scope result %s in lens %s", r.RequestID, r.Lens)
		}
	}
	ps := structured[mcp.PassagesOut](t, call(t, s, "retrieve_cited_passages", map[string]any{"q": `"property clerk"`, "limit": 3}))
	if ps.Total == 0 || len(ps.Passages) == 0 || !strings.HasPrefix(ps.Passages[0].Citation, ps.Passages[0].RequestID+"#p") || ps.Scope.PassagesInCorpus == 0 {
		t.Errorf("passages %+v", ps)
	}
	gaps := structured[mcp.GapsOut](t, call(t, s, "list_capability_gaps", map[string]any{}))
	if len(gaps.Gaps) != 1 || gaps.Gaps[0].ID != "civic.outcome.prediction" ||
		!slices.Equal(gaps.Gaps[0].NearestTools, []string{"get_land_project", "get_land_decision_path"}) {
		t.Errorf("gaps %+v", gaps)
	}
}

func TestBadArgumentsAreToolErrors(t *testing.T) {
	s := connect(t, 1)
	cases := []struct {
		tool  string
		args  map[string]any
		param string
	}{
		{"search_notices", map[string]any{"limit": "ten"}, "limit"},
		{"search_notices", map[string]any{"colour": "red"}, "colour"},
		{"search_notices", map[string]any{"q": strings.Repeat("x", 600)}, "q"},
		{"search_notices", map[string]any{"limit": 500}, "limit"},
		{"search_notices", map[string]any{"cursor": "beyond-the-end"}, "cursor"},
		{"search_notices", map[string]any{"from": "yesterday"}, "from"},
		{"search_notices", map[string]any{"lens": []string{"weather"}}, "lens"},
		{"search_notices", map[string]any{"vendor": "A"}, "vendor"},
		{"get_notice", map[string]any{}, "request_id"},
		{"get_notice", map[string]any{"request_id": "../etc/passwd"}, "request_id"},
		{"search_federated", map[string]any{"q": "pier", "scope": []string{"contracts"}}, "scope"},
		{"search_federated", map[string]any{"q": "-pier"}, "q"},
		{"retrieve_cited_passages", map[string]any{"q": 7}, "q"},
		{"list_capability_gaps", map[string]any{"anything": 1}, "anything"},
	}
	for _, tc := range cases {
		res := call(t, s, tc.tool, tc.args)
		if !res.IsError {
			t.Errorf("%s %v: not an error", tc.tool, tc.args)
			continue
		}
		if !strings.Contains(text(res), tc.param) {
			t.Errorf("%s %v: error does not name %q: %s", tc.tool, tc.args, tc.param, text(res))
		}
	}
	// a cursor past the last page: the last page has no next_cursor
	out := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"q": "marina", "limit": 50}))
	if out.NextCursor != "" {
		t.Errorf("a short result offers another page")
	}
}

func TestCatalogAndReadme(t *testing.T) {
	res, err := http.Get(fx.urls[1] + "/mcp/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var c mcp.Catalog
	if err := json.NewDecoder(res.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	if c.Delivery.Endpoint != "http://rw.test/mcp" || c.Delivery.Transport != "streamable-http" || len(c.Tools) != len(wantTools[1]) ||
		c.Freshness.CorpusObservedAt == "" || res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("catalog %+v", c)
	}
	for _, tool := range c.Tools {
		if tool.InputSchema == nil || tool.OutputSchema == nil || len(tool.Examples) == 0 || tool.Class == "" {
			t.Errorf("catalog tool %s incomplete", tool.Name)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- tools:begin -->\n", "<!-- tools:end -->"
	i, j := strings.Index(string(readme), begin), strings.Index(string(readme), end)
	if i < 0 || j < i {
		t.Fatal("README lacks the generated tool list markers")
	}
	gen := mcp.Markdown(fx.deps)
	if string(readme[i+len(begin):j]) != gen {
		if *update {
			out := string(readme[:i+len(begin)]) + gen + string(readme[j:])
			os.WriteFile("../../README.md", []byte(out), 0o644)
			return
		}
		t.Errorf("README tool list is stale; run go test ./api/mcp -update")
	}
}
