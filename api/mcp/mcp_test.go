package mcp_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/golden"
	"github.com/recordwatch/recordwatch/internal/watch"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/mailer"
)

var fixedNow = time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)

// wantTools is the tool list of each form.
var wantTools = map[int][]string{
	1: {"search_notices", "get_notice", "search_federated", "get_entity_dossier", "get_entity_relationships",
		"retrieve_cited_passages", "get_contract", "browse_contracts", "analyze_contracts", "get_land_project", "browse_land_projects", "get_land_decision_path", "get_meeting", "browse_meetings", "get_person_or_organization", "browse_organizations", "browse_civil_service", "preview_watch", "create_watch", "list_capability_gaps"},
	2: {"search_notices", "get_notice", "preview_watch", "create_watch"},
}

type fixture struct {
	be     *embedded.Backend
	st     *store.Bolt
	deps   *mcp.Deps
	urls   map[int]string
	outbox map[int]string
	mail   map[int]*mailer.Mailer // per form; Flush before reading the outbox
}

var fx fixture

func TestMain(m *testing.M) {
	flag.Parse()
	dir, _ := os.MkdirTemp("", "rw-mcp-*")
	// the sample's notices and land records, loaded once per test binary
	be, err := sampletest.SharedIndex(sampletest.NoticesAndLand, fixedNow)
	if err != nil {
		panic(err)
	}
	cw := entity.DefaultCrosswalk()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		panic(err)
	}
	fx = fixture{be: be, st: st, urls: map[int]string{}, outbox: map[int]string{}, mail: map[int]*mailer.Mailer{}}
	var servers []*httptest.Server
	for _, form := range []int{1, 2} {
		mcfg, err := mailer.ConfigFromEnv(func(string) string { return "" }, filepath.Join(dir, "form"+strconv.Itoa(form)), "http://rw.test", form)
		if err != nil {
			panic(err)
		}
		mcfg.SMTPAddr = ""
		fx.outbox[form] = mcfg.OutboxDir
		mail, err := newMailer(context.Background(), mcfg, mailer.Deps{Store: st, Search: be, Crosswalk: cw, Now: func() time.Time { return fixedNow }})
		if err != nil {
			panic(err)
		}
		fx.mail[form] = mail
		// the service graph, built once as main.go builds it, handed to both surfaces
		now := func() time.Time { return fixedNow }
		d := depsOver(be, cw, form)
		d.Watches = mail.Watches()
		fx.deps = d
		form := form
		srv := api.New(api.Config{Form: form, BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6},
			api.Deps{Search: be, Store: st, Crosswalk: cw, Now: now, Watches: d.Watches, Semantic: d.Semantic, Procure: d.Procure,
				Dossiers: d.Dossiers, Land: d.Land, Meetings: d.Meetings, People: d.People, Federated: d.Federated, Notices: d.Notices,
				MCP:        mcp.Handler(d, form),
				MCPCatalog: func(ctx context.Context) any { return mcp.BuildCatalog(ctx, d, form) }})
		ts := httptest.NewServer(srv)
		servers = append(servers, ts)
		fx.urls[form] = ts.URL
	}
	code := sampletest.Main(m) // closes be
	for _, ts := range servers {
		ts.Close()
	}
	st.Close()
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
		golden.Assert(t, filepath.Join("__toolsnaps__", snapName(tool)), got)
	}
	entries, _ := os.ReadDir("__toolsnaps__")
	if len(entries) != len(mcp.All(fx.deps)) {
		t.Errorf("%d snapshots for %d tools (remove stale snapshots)", len(entries), len(mcp.All(fx.deps)))
	}
}

// snapName names a tool's snapshot; a tool with one variant per form gets
// one snapshot per form.
func snapName(tool mcp.Tool) string {
	n := 0
	for _, other := range mcp.All(fx.deps) {
		if other.Def.Name == tool.Def.Name {
			n++
		}
	}
	if n == 1 {
		return tool.Def.Name + ".snap"
	}
	forms := make([]string, len(tool.Forms))
	for i, f := range tool.Forms {
		forms[i] = strconv.Itoa(f)
	}
	return tool.Def.Name + ".form" + strings.Join(forms, "-") + ".snap"
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

// Semantic and hybrid search through the tool: by meaning, with the
// method in scope, the same filters as keyword search.
func TestSearchNoticesSemantic(t *testing.T) {
	s := connect(t, 2)
	out := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"q": "lift repair in apartment buildings", "mode": "semantic", "limit": 3}))
	if len(out.Results) == 0 || !strings.Contains(strings.ToLower(out.Results[0].Title), "elevator") {
		t.Fatalf("semantic search for lift repair: %+v", out.Results)
	}
	if sc := out.Scope.Searched.Semantic; sc == nil || sc.Mode != "semantic" || sc.VectorsHeld == 0 || out.Scope.RecordsInCorpus == 0 {
		t.Fatalf("scope does not state the semantic method: %+v", out.Scope)
	}
	hy := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"q": "sewer construction", "mode": "hybrid", "lens": []string{"money"}, "limit": 10}))
	if len(hy.Results) == 0 || hy.Scope.Searched.Semantic == nil || hy.Scope.Searched.Semantic.Fusion == "" {
		t.Fatalf("hybrid: %+v", hy.Scope.Searched)
	}
	for _, r := range hy.Results {
		if r.Lens != "money" {
			t.Errorf("hybrid hit %s of lens %s passed the lens filter", r.RequestID, r.Lens)
		}
	}
}

func TestGetNotice(t *testing.T) {
	s := connect(t, 2)
	out := structured[mcp.NoticeOut](t, call(t, s, "get_notice", map[string]any{"request_id": "20140930007"}))
	if out.Status != record.Found || out.Notice == nil || out.Notice.Amount == nil || !out.Notice.Amount.Valid ||
		*out.Notice.Amount.Value != 1158788 || !strings.Contains(out.FullText, "Williamsbridge") ||
		out.Citation.OfficialURL != record.OfficialURL("20140930007") || out.Freshness.SourceObservedAt.IsZero() {
		t.Errorf("found notice %+v", out)
	}
	missing := structured[mcp.NoticeOut](t, call(t, s, "get_notice", map[string]any{"request_id": "20991231999"}))
	if missing.Status != record.NotFound || missing.Notice != nil || !strings.Contains(missing.Message, "No notice") {
		t.Errorf("missing notice %+v", missing)
	}
}

func TestForm1ReadTools(t *testing.T) {
	s := connect(t, 1)
	// this fixture holds notices and land projects only: the meetings
	// collection is searched but reads not ingested, collections not asked for say so
	fed := structured[federated.Page](t, call(t, s, "search_federated", map[string]any{"q": "hearing", "collections": []string{"meetings", "notices"}}))
	if fed.Total == 0 || len(fed.Results) == 0 || len(fed.Coverage) != len(federated.Collections) || fed.Ranking == "" || fed.Scope.RecordsInCorpus == 0 {
		t.Fatalf("federated %+v", fed)
	}
	for _, lc := range fed.Coverage {
		want := federated.StateNotInScope
		switch lc.Collection {
		case federated.CollectionNotices:
			want = federated.StateSearched
		case federated.CollectionMeetings:
			want = federated.StateNotIngested
		}
		if lc.State != want || (want != federated.StateSearched && lc.Returned != 0) || lc.MatchedOn == "" {
			t.Errorf("collection coverage %+v, want state %s", lc, want)
		}
	}
	for _, r := range fed.Results {
		if r.Kind != federated.KindNotice || r.Route != "/api/notices/"+r.ID || r.Permalink != "http://rw.test/#notice/"+r.ID || r.Match.Tier == "" {
			t.Errorf("out-of-scope or unrouted result %+v", r)
		}
	}
	ps := structured[view.PassagePage](t, call(t, s, "retrieve_cited_passages", map[string]any{"q": `"property clerk"`, "limit": 3}))
	if ps.Total == 0 || len(ps.Passages) == 0 || !strings.HasPrefix(ps.Passages[0].Citation, ps.Passages[0].RequestID+"#p") || ps.Scope.PassagesInCorpus == 0 {
		t.Errorf("passages %+v", ps)
	}
	gaps := structured[mcp.GapsOut](t, call(t, s, "list_capability_gaps", map[string]any{}))
	if len(gaps.Gaps) < 2 || gaps.Gaps[0].ID != "civic.outcome.prediction" ||
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
		{"search_notices", map[string]any{"q": "sewers", "mode": "fuzzy"}, "mode"},
		{"search_notices", map[string]any{"q": "sewers", "mode": "semantic", "sort": "newest"}, "sort"},
		{"get_notice", map[string]any{}, "request_id"},
		{"get_notice", map[string]any{"request_id": "../etc/passwd"}, "request_id"},
		{"search_federated", map[string]any{"q": "pier", "scope": []string{"rules"}}, "scope"},
		{"search_federated", map[string]any{"q": "pier", "collections": []string{"money"}}, "collections"},
		{"get_land_project", map[string]any{"id": "2022-M-0258"}, "id"},
		{"browse_land_projects", map[string]any{"bbl": "12345"}, "bbl"},
		{"get_meeting", map[string]any{"id": "zoom:123"}, "id"},
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

// Days the index cannot hold are argument errors naming the argument, not
// an unavailable index.
func TestDateArgumentsOutOfRange(t *testing.T) {
	s := connect(t, 1)
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		param string
	}{
		{"search_notices", map[string]any{"from": "1600-01-01"}, "from"},
		{"search_notices", map[string]any{"to": "2300-01-01"}, "to"},
		{"search_notices", map[string]any{"q": "construction", "to": "9999-12-31"}, "to"},
		{"retrieve_cited_passages", map[string]any{"q": "contract", "from": "1600-01-01"}, "from"},
		{"retrieve_cited_passages", map[string]any{"q": "contract", "to": "2300-01-01"}, "to"},
	} {
		res := call(t, s, tc.tool, tc.args)
		msg := text(res)
		if !res.IsError || !strings.Contains(msg, tc.param+" must be a date from "+record.FirstDay+" to "+record.LastDay) ||
			strings.Contains(msg, "unavailable") {
			t.Errorf("%s %v: %v %s", tc.tool, tc.args, res.IsError, msg)
		}
	}
	for _, tool := range []string{"search_notices", "retrieve_cited_passages"} {
		res := call(t, s, tool, map[string]any{"q": "contract", "from": record.FirstDay, "to": record.LastDay})
		if res.IsError {
			t.Errorf("%s with the first and last days: %s", tool, text(res))
		}
	}
}

// The vendor minimum counts characters, not bytes.
func TestVendorArgumentCountsCharacters(t *testing.T) {
	s := connect(t, 1)
	for _, v := range []string{"Éa", "日本"} {
		res := call(t, s, "search_notices", map[string]any{"vendor": v})
		if !res.IsError || !strings.Contains(text(res), "too short to match by name stem") {
			t.Errorf("vendor %q: %v %s", v, res.IsError, text(res))
		}
	}
	for _, v := range []string{"Éab", "日本語"} {
		if res := call(t, s, "search_notices", map[string]any{"vendor": v}); res.IsError {
			t.Errorf("vendor %q: %s", v, text(res))
		}
	}
}

// Argument names match exactly: a case variant of a known argument is an
// unknown argument, named in the error, never read as the argument.
func TestArgumentNamesAreCaseSensitive(t *testing.T) {
	type argCase struct {
		tool string
		args map[string]any
		bad  string
	}
	both := []argCase{
		{"search_notices", map[string]any{"Q": "construction"}, "Q"},
		{"search_notices", map[string]any{"q": "construction", "Vendor": "Éa"}, "Vendor"},
		{"get_notice", map[string]any{"Request_ID": "20140930007"}, "Request_ID"},
		{"get_notice", map[string]any{"request_id": "20140930007", "REQUEST_ID": "20140930007"}, "REQUEST_ID"},
		{"preview_watch", map[string]any{"Lens": "money"}, "Lens"},
	}
	perForm := map[int][]argCase{
		1: {
			{"retrieve_cited_passages", map[string]any{"Q": "contract"}, "Q"},
			{"search_federated", map[string]any{"q": "pier", "Limit": 1}, "Limit"},
			{"get_entity_dossier", map[string]any{"Kind": "vendor", "Name": "Denville Line Painting"}, "Kind"},
			{"list_capability_gaps", map[string]any{"Anything": 1}, "Anything"},
			{"get_contract", map[string]any{"ID": "CT100220268808241"}, "ID"},
			{"browse_contracts", map[string]any{"Fiscal_Year": 2026}, "Fiscal_Year"},
		},
		2: {{"preview_watch", map[string]any{"Request": "construction awards"}, "Request"}},
	}
	for _, form := range []int{1, 2} {
		s := connect(t, form)
		for _, tc := range append(slices.Clone(both), perForm[form]...) {
			res := call(t, s, tc.tool, tc.args)
			if !res.IsError || !strings.Contains(text(res), `"`+tc.bad+`"`) {
				t.Errorf("form %d %s %v: error %v %.300s", form, tc.tool, tc.args, res.IsError, text(res))
			}
		}
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
		c.Freshness.CorpusObservedAt == "" {
		t.Errorf("catalog %+v", c)
	}
	if o := res.Header.Get("Access-Control-Allow-Origin"); o != "" {
		t.Errorf("the catalog allows cross-site reads: Access-Control-Allow-Origin %q", o)
	}
	for _, tool := range c.Tools {
		if tool.InputSchema == nil || tool.OutputSchema == nil || len(tool.Examples) == 0 || tool.Class == "" {
			t.Errorf("catalog tool %s incomplete", tool.Name)
		}
	}
	const page = "../../docs/mcp.md"
	readme, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- tools:begin -->\n", "<!-- tools:end -->"
	i, j := strings.Index(string(readme), begin), strings.Index(string(readme), end)
	if i < 0 || j < i {
		t.Fatal("docs/mcp.md lacks the generated tool list markers")
	}
	gen := mcp.Markdown(fx.deps)
	if string(readme[i+len(begin):j]) != gen {
		if golden.Update() {
			out := string(readme[:i+len(begin)]) + gen + string(readme[j:])
			os.WriteFile(page, []byte(out), 0o644)
			return
		}
		t.Errorf("docs/mcp.md tool list is stale; run go test ./api/mcp -update")
	}
}

func TestEntityTools(t *testing.T) {
	s := connect(t, 1)
	dos := structured[mcp.DossierOut](t, call(t, s, "get_entity_dossier", map[string]any{"kind": "vendor", "name": "DENVILLE LINE PAINTING INCORPORATED"}))
	if dos.Status != "found" || dos.Vendor == nil || dos.Vendor.Stem != "DENVILLE LINE PAINTING" || dos.Agency != nil || len(dos.Provenance) == 0 {
		t.Fatalf("vendor dossier %+v", dos)
	}
	if aw := dos.Vendor.Awards; aw.Total != 3 || aw.Amount.Value == nil || *aw.Amount.Value != 26895000 || len(aw.Notices) != 3 || aw.Notices[0].Permalink == "" {
		t.Errorf("Denville awards %+v", aw)
	}
	none := structured[mcp.DossierOut](t, call(t, s, "get_entity_dossier", map[string]any{"kind": "vendor", "name": "Zzyzx Nonexistent Widgets LLC"}))
	if none.Status != "not_found" || none.Vendor != nil || !strings.Contains(none.Message, "search_notices") {
		t.Errorf("unknown vendor %+v", none)
	}
	ag := structured[mcp.DossierOut](t, call(t, s, "get_entity_dossier", map[string]any{"kind": "agency", "name": "DEPT OF PARKS & RECREATION"}))
	if ag.Status != "found" || ag.Agency == nil || ag.Agency.ID != "parks-and-recreation" || ag.Agency.Awards.WithoutValidAmount != 14 { // with the 2013 export's Parks awards and intents
		t.Errorf("agency by legacy spelling %+v", ag.Status)
	}
	rel := structured[mcp.RelationsOut](t, call(t, s, "get_entity_relationships", map[string]any{"kind": "vendor", "name": "Denville Line Painting, Inc"}))
	var agencies, matters int
	for _, r := range rel.Relations {
		switch r.TargetKind {
		case "agency":
			agencies++
			if r.TargetID != "transportation" || r.Count != 3 || r.Provenance == "" {
				t.Errorf("relation %+v", r)
			}
		case "matter":
			matters++
		}
	}
	if agencies != 1 || matters == 0 {
		t.Errorf("vendor relations %+v", rel.Relations)
	}
	arel := structured[mcp.RelationsOut](t, call(t, s, "get_entity_relationships", map[string]any{"kind": "agency", "name": "parks-and-recreation"}))
	if arel.Leaders == nil || arel.Leaders.State != "unknown" || len(arel.Relations) == 0 {
		t.Errorf("agency relations %+v", arel)
	}
	if res := call(t, s, "get_entity_dossier", map[string]any{"kind": "contract", "name": "x"}); !res.IsError || !strings.Contains(text(res), "kind") {
		t.Errorf("bad kind: %s", text(res))
	}
}

var confirmRE = regexp.MustCompile(`/confirm/([A-Za-z0-9_.~-]+)`)

func outboxFiles(t *testing.T, form int) []string {
	t.Helper()
	fx.mail[form].Flush() // mail is sent off the request path
	entries, _ := os.ReadDir(fx.outbox[form])
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".eml") {
			b, _ := os.ReadFile(filepath.Join(fx.outbox[form], e.Name()))
			out = append(out, string(b))
		}
	}
	return out
}

func TestWatchToolsForm1(t *testing.T) {
	s := connect(t, 1)
	args := map[string]any{"lens": "money", "q": "construction", "agency": []string{"Parks"}, "awards": true}
	pv := structured[mcp.PreviewOut](t, call(t, s, "preview_watch", args))
	if len(pv.Understood.Filter.AgencyIDs) != 1 || pv.Understood.Filter.AgencyIDs[0] != "parks-and-recreation" || pv.Understood.Scope == "" {
		t.Fatalf("preview understood %+v", pv.Understood)
	}
	for _, r := range pv.Results {
		if r.AgencyID != "parks-and-recreation" {
			t.Errorf("preview result from %s", r.AgencyID)
		}
	}
	before, _ := fx.st.CountWatches(context.Background())
	args["email"] = "reporter@example.org"
	out := structured[watch.Created](t, call(t, s, "create_watch", args))
	if out.Status != "active" {
		t.Fatalf("form 1 create %+v", out)
	}
	after, _ := fx.st.CountWatches(context.Background())
	if after != before+1 {
		t.Errorf("watches %d → %d", before, after)
	}
	welcome := false
	for _, m := range outboxFiles(t, 1) {
		if strings.Contains(m, "reporter@example.org") && strings.Contains(m, "List-Unsubscribe") {
			welcome = true
		}
	}
	if !welcome {
		t.Error("no welcome mail with unsubscribe headers in the outbox")
	}
	if res := call(t, s, "create_watch", map[string]any{"email": "not-an-address", "lens": "money"}); !res.IsError || !strings.Contains(text(res), "email") {
		t.Errorf("bad email: %s", text(res))
	}
	if res := call(t, s, "preview_watch", map[string]any{"lens": "weather"}); !res.IsError || !strings.Contains(text(res), "lens") {
		t.Errorf("bad lens: %s", text(res))
	}
}

func TestWatchToolsForm2RoundTrip(t *testing.T) {
	s := connect(t, 2)
	req := "email me about Parks construction awards over $1 million"
	pv := structured[mcp.PreviewOut](t, call(t, s, "preview_watch", map[string]any{"request": req}))
	if pv.Understood.Filter.Lens != "money" || pv.Understood.Filter.MinAmount == nil || *pv.Understood.Filter.MinAmount != 1e6 || len(pv.Understood.Notes) == 0 {
		t.Fatalf("plain-English preview %+v", pv.Understood)
	}
	before, _ := fx.st.CountWatches(context.Background())
	out := structured[watch.Created](t, call(t, s, "create_watch", map[string]any{"email": "resident@example.org", "request": req}))
	if out.Status != "awaiting_confirmation" {
		t.Fatalf("form 2 create %+v", out)
	}
	if n, _ := fx.st.CountWatches(context.Background()); n != before {
		t.Fatalf("form 2 stored a watch before confirmation (%d → %d)", before, n)
	}
	var token string
	for _, m := range outboxFiles(t, 2) {
		if strings.Contains(m, "resident@example.org") {
			if mm := confirmRE.FindStringSubmatch(strings.ReplaceAll(m, "=\r\n", "")); mm != nil {
				token = mm[1]
			}
		}
	}
	if token == "" {
		t.Fatal("no confirmation link in the outbox")
	}
	res, err := http.Post(fx.urls[2]+"/confirm/"+token, "application/x-www-form-urlencoded", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("confirm: %d", res.StatusCode)
	}
	if n, _ := fx.st.CountWatches(context.Background()); n != before+1 {
		t.Errorf("confirmation did not make the watch active (%d → %d)", before, n)
	}
	if r := call(t, s, "create_watch", map[string]any{"email": "resident@example.org", "request": strings.Repeat("parks ", 200)}); !r.IsError || !strings.Contains(text(r), "request") {
		t.Errorf("oversized request: %s", text(r))
	}
}

// Tool arguments carry the same bounds as the HTTP parameters
// (record.InputBound): a vendor name of 2,000 words is refused before any
// rule reads it, by the schema the tool lists.
func TestToolArgumentsBounded(t *testing.T) {
	s := connect(t, 1)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"search_notices", map[string]any{"vendor": strings.Repeat("acme ", 2000)}},
		{"search_notices", map[string]any{"q": strings.Repeat("acme ", 2000)}},
		{"browse_contracts", map[string]any{"vendor": strings.Repeat("acme ", 2000)}},
		{"analyze_contracts", map[string]any{"agency": strings.Repeat("x", 100000)}},
	} {
		res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err == nil && !res.IsError {
			t.Errorf("%s: an argument past its bound was accepted", c.tool)
		}
	}
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tl := range tools.Tools {
		for name, p := range argSchemas(tl) {
			if p.Type == "string" {
				checked++
			}
			if p.Type == "string" && p.MaxLength == nil && p.Enum == nil && p.Pattern == "" {
				t.Errorf("%s.%s: a string argument without maxLength, enum or pattern", tl.Name, name)
			}
			if p.MaxLength != nil && name != "id" && *p.MaxLength > record.InputBound(name).MaxLen {
				t.Errorf("%s.%s: maxLength %d is past the HTTP bound %d", tl.Name, name, *p.MaxLength, record.InputBound(name).MaxLen)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d string arguments read from the tool schemas", checked)
	}
}
