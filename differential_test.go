package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The differential test runs the same requests through a service on each
// engine, over the same data, and compares the answers: ids and their
// order, totals, facets, scope and absence statements, feeds and MCP tool
// results. What may differ is listed in engineDifferences, each with its
// reason (the README's "Engines" section says the same); anything else that
// differs fails the test.

// engineDifferences are the JSON paths (a regexp over "request › path") that
// may differ between the engines, and why.
var engineDifferences = []struct {
	Path, Why string
}{
	{`› (.*\.)?engine$`, "names the engine that answered"},
	{`› (.*\.)?generated_at$`, "the time the answer was made"},
	{`› (.*\.)?score$`, "BM25 scores are computed per shard and segment layout; each engine scores on its own statistics"},
	{`› (.*\.)?observed_age_seconds$`, "a source's age at the instant of the answer (record.Freshen): each engine's service answers at its own instant"},
	{`^/stats › live\.jobs\[\d+\]\.(receipts\[\d+\]\.(started|finished)|next_due|last_run\.(started|finished)|last_ok\.(started|finished)|lag\.\w+)$`, "the service's own scheduled runs (its digest job's receipts): each engine's service runs them at its own instants"},
	{`› (.*\.)?next_cursor$`, "a cursor is the engine's own sort key (opaque to clients, valid only on the engine that issued it); links that carry one are compared with the cursor taken out (decodeBody)"},
}

// differs reports whether a difference at path (for request) is listed.
func listedDifference(request, path string) (string, bool) {
	key := request + " › " + path
	for _, d := range engineDifferences {
		if regexp.MustCompile(d.Path).MatchString(key) {
			return d.Why, true
		}
	}
	return "", false
}

// diffJSON lists the paths at which a and b differ.
func diffJSON(path string, a, b any, out *[]string) {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, path)
			return
		}
		keys := map[string]bool{}
		for k := range av {
			keys[k] = true
		}
		for k := range bv {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			p := k
			if path != "" {
				p = path + "." + k
			}
			diffJSON(p, av[k], bv[k], out)
		}
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			*out = append(*out, path+"[len]")
			if !ok {
				return
			}
		}
		for i := 0; i < min(len(av), len(bv)); i++ {
			diffJSON(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i], out)
		}
	default:
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, path)
		}
	}
}

// approximate requests rank by each engine's own approximate
// nearest-neighbour index (semantic and hybrid search): their first ten
// hits agree on at least nine (compareNearest), their totals within 5%, and
// the rest of the answer is the same.
func approximate(request string) bool {
	return strings.Contains(request, "mode=semantic") || strings.Contains(request, "mode=hybrid") ||
		strings.Contains(request, "mode:semantic") || strings.Contains(request, "mode:hybrid")
}

func compareNearest(t *testing.T, request string, ea, oa any) {
	t.Helper()
	eIDs, eTotal, ok1 := hitIDs(ea)
	oIDs, oTotal, ok2 := hitIDs(oa)
	if !ok1 || !ok2 {
		t.Errorf("%s: no hits to compare", request)
		return
	}
	top := func(ids []string) []string { return ids[:min(10, len(ids))] }
	same := 0
	for _, id := range top(eIDs) {
		if slices.Contains(top(oIDs), id) {
			same++
		}
	}
	if n := len(top(eIDs)); n > 0 && float64(same)/float64(n) < 0.9 || len(top(eIDs)) != len(top(oIDs)) {
		t.Errorf("%s: first ten hits agree on %d\nembedded   %v\nopensearch %v", request, same, top(eIDs), top(oIDs))
	}
	if d := eTotal - oTotal; d > 1+0.05*eTotal || -d > 1+0.05*eTotal {
		t.Errorf("%s: total embedded %v, opensearch %v", request, eTotal, oTotal)
	}
}

// relevance requests order hits by BM25; the engines' scores differ (see
// engineDifferences), so their hits are compared as a set when every hit
// fits one page, and by total only otherwise. Semantic and hybrid
// requests are approximate (approximate).
func byRelevance(request string) bool {
	if strings.HasPrefix(request, "mcp ") {
		return strings.Contains(request, "q:") && !strings.Contains(request, "sort:")
	}
	return strings.Contains(request, "q=") && !strings.Contains(request, "sort=")
}

type engineService struct {
	name string
	base string
	args []string // how it was started: its engine's flags (a reader of the same indexes starts with them)
}

func (s engineService) get(t *testing.T, path string) (int, any, string) {
	t.Helper()
	res, err := http.Get(s.base + path)
	if err != nil {
		t.Fatalf("%s %s: %v", s.name, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, decodeBody(res.Header.Get("Content-Type"), b, s.base), res.Header.Get("Content-Type")
}

func (s engineService) post(t *testing.T, path, body string) (int, any) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", s.name, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, decodeBody(res.Header.Get("Content-Type"), b, s.base)
}

// decodeBody parses JSON; any other body is compared as text, with the
// service's own address taken out.
func decodeBody(ctype string, b []byte, base string) any {
	if strings.Contains(ctype, "calendar") {
		// unfold iCalendar lines (RFC 5545 §3.1) first: a folded line can
		// cut the base address in two, and the two services' addresses
		// differ in length
		b = bytes.ReplaceAll(b, []byte("\r\n "), nil)
		// an event's LAST-MODIFIED is when the service first saw it as it
		// is (feed.Revise): each engine's service sees it at its own instant
		b = eventModified.ReplaceAll(b, []byte("${1}LAST-MODIFIED:…"))
	}
	b = bytes.ReplaceAll(b, []byte(base), []byte("{base}"))
	b = cursorParam.ReplaceAll(b, []byte("cursor=…"))
	if strings.Contains(ctype, "json") {
		var v any
		if err := json.Unmarshal(b, &v); err == nil {
			return v
		}
	}
	return string(b)
}

// eventModified is an event's LAST-MODIFIED line (after its UID; the
// calendar's own, from the data, comes before the first event).
var eventModified = regexp.MustCompile(`(?s)(BEGIN:VEVENT\r\n(?:[^\r]*\r\n)*?)LAST-MODIFIED:[0-9TZ]+`)

// cursorParam is a cursor inside a link (next-page URLs): engine-specific,
// so it is taken out before links are compared.
var cursorParam = regexp.MustCompile(`cursor=[A-Za-z0-9_%=-]+`)

// hitIDs pulls the ids of a search-like answer, for relevance comparisons.
func hitIDs(v any) ([]string, float64, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, 0, false
	}
	if st, ok := m["structured"].(map[string]any); ok { // an MCP tool result
		m = st
	}
	hits, ok := m["hits"].([]any)
	if !ok {
		hits, ok = m["passages"].([]any)
	}
	if !ok {
		hits, ok = m["results"].([]any)
	}
	if !ok {
		return nil, 0, false
	}
	var ids []string
	for _, h := range hits {
		hm, _ := h.(map[string]any)
		switch {
		case hm["request_id"] != nil:
			ids = append(ids, fmt.Sprint(hm["request_id"]))
		case hm["citation"] != nil:
			ids = append(ids, fmt.Sprint(hm["citation"]))
		case hm["id"] != nil:
			ids = append(ids, fmt.Sprint(hm["id"]))
		}
	}
	total, _ := m["total"].(float64)
	return ids, total, true
}

func startEngines(t *testing.T) (engineService, engineService) {
	t.Helper()
	url := endToEndOpenSearch(t)
	prefix := fmt.Sprintf("rwdiff-%d", time.Now().UnixNano())
	t.Cleanup(func() { deleteIndexes(url, prefix) })
	var embLogs, osLogs bytes.Buffer
	// both load the sample at once: OpenSearch indexes in its own process;
	// one client sends every request (the cost fuzz: thousands), so the
	// per-client rate is lifted
	lift := []string{"-rate", "1e6", "-burst", "1000000"}
	ss := startServers(t, serverSpec{t.TempDir(), &embLogs, lift},
		serverSpec{t.TempDir(), &osLogs, ss1args(prefix, lift)})
	t.Cleanup(ss[0].stop)
	t.Cleanup(ss[1].stop)
	return engineService{"embedded", ss[0].base, nil}, engineService{"opensearch", ss[1].base, ss1args(prefix, lift)}
}

// ss1args are the OpenSearch service's engine flags.
func ss1args(prefix string, lift []string) []string {
	return append([]string{"-engine", "opensearch", "-opensearch-index-prefix", prefix}, lift...)
}

// endToEndRun is how the root package's end-to-end tests on OpenSearch
// run (both differential tests and the split roles): .ci/run runs them in
// a step of their own after go test ./..., so the root package stays
// within the suite's per-package time budget.
const endToEndRun = "RECORDWATCH_E2E_OPENSEARCH=1 OPENSEARCH_URL=$(docker/opensearch-local.sh url) " +
	"go test . -run '^(TestEnginesGiveTheSameAnswers|TestEnginesGiveTheSameAnswersOnASyntheticCorpus|TestSplitRolesCooperateOnOpenSearch)$'"

// endToEndOpenSearch is the OpenSearch URL of an end-to-end test on
// OpenSearch, or skips it, saying how it runs.
func endToEndOpenSearch(t *testing.T) string {
	t.Helper()
	url := os.Getenv("OPENSEARCH_URL")
	if url == "" || os.Getenv("RECORDWATCH_E2E_OPENSEARCH") != "1" {
		t.Skip("an end-to-end test on a live OpenSearch node; start one with docker/opensearch-local.sh start and run: " + endToEndRun)
	}
	return url
}

// deleteIndexes removes a test run's indexes (every node of the list gets
// the same request; the first that answers is enough).
func deleteIndexes(urls, prefix string) {
	for _, u := range strings.Split(urls, ",") {
		req, _ := http.NewRequest("DELETE", strings.TrimRight(strings.TrimSpace(u), "/")+"/"+prefix+"-*", nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			return
		}
	}
}

// differentialGETs are requests over the bundled sample: every search
// filter and sort, phrases and exclusions, facets, passages, single reads,
// entities, matters, feeds and public views.
var differentialGETs = []string{
	"/api/search?q=construction",
	"/api/search?q=lift+repair+in+apartment+buildings&mode=semantic&limit=20",
	"/api/search?q=sewer+construction+-sanitary&mode=semantic&lens=money&from=2014-01-01&limit=50",
	"/api/search?q=meals+and+kitchen+supplies+for+inmates&mode=hybrid&limit=100",
	// filters applied inside each engine's nearest-neighbour search
	"/api/search?q=sewer+construction&mode=semantic&agency=environmental-protection&limit=20",
	"/api/search?q=construction+services&mode=semantic&lens=money&min=100k&limit=50",
	"/api/search?q=park+maintenance&mode=hybrid&agency=Parks&from=2014-01-01&limit=50",
	"/api/search?q=construction&sort=newest&limit=50",
	"/api/search?q=construction&lens=money&sort=oldest&limit=100",
	"/api/search?q=%22parks+department%22&sort=newest",
	"/api/search?q=construction+-bronx&sort=newest&limit=100",
	"/api/search?q=-%22public+hearing%22+hearing&sort=newest&limit=100",
	"/api/search?sort=newest&facets=true&limit=5",
	"/api/search?lens=money&facets=true&sort=amount_desc&limit=25",
	"/api/search?lens=meetings&sort=event&limit=25",
	"/api/search?lens=land&sort=newest",
	"/api/search?lens=property&sort=newest",
	"/api/search?lens=rules&sort=newest",
	"/api/search?agency=Parks&sort=newest&limit=100",
	"/api/search?agency=police-department&sort=oldest",
	"/api/search?vendor=Denville+Line+Painting+Inc&sort=newest",
	"/api/search?pin=81626W0043001&sort=newest",
	"/api/search?min=1m&sort=amount_desc&limit=50",
	"/api/search?min=100k&max=500k&sort=newest&limit=50",
	"/api/search?valid_amount=true&sort=amount_desc&limit=20",
	"/api/search?from=2026-06-01&to=2026-06-30&sort=newest&limit=100",
	"/api/search?due_from=2026-01-01&sort=due&limit=50",
	"/api/search?open=true&sort=due&limit=50",
	"/api/search?rolling=true&due_from=2026-01-01&sort=due",
	"/api/search?event_from=2026-08-17&event_to=2026-09-03&sort=event&limit=100",
	"/api/search?type=Award&sort=newest&facets=true&limit=10",
	"/api/search?q=zzzqqq",
	"/api/search?q=zzzqqq&lens=money&agency=Parks",
	"/api/passages?q=construction",
	"/api/passages?q=%22sealed+bids%22&limit=50",
	"/api/passages?q=hearing&agency=Parks&from=2026-01-01",
	"/api/passages?request_id=20140930007",
	"/api/notices/20140930007",
	"/api/notices/20260616012",
	"/api/notices/99999999999",
	"/agencies",
	"/agencies?format=csv",
	"/api/vendors/DENVILLE%20LINE%20PAINTING",
	"/api/agencies/police-department",
	"/api/matters/81626W0043001",
	"/property-locations",
	"/stats",
	"/feed.json?lens=money",
	"/feed.json?lens=money&min=500k",
	"/feed.json?lens=meetings",
	"/feed.json?lens=property&q=lease",
	"/feed.json?lens=entity&kind=vendor&name=Denville+Line+Painting",
	"/feed.json?lens=entity&kind=agency&name=Parks",
	"/feed.xml?lens=rules",
	"/feed.ics?lens=meetings",
}

// compareAnswers fails on every difference between the engines' answers
// to one request that engineDifferences does not list.
func compareAnswers(t *testing.T, request string, ea, oa any, eStatus, oStatus int) {
	t.Helper()
	if eStatus != oStatus {
		t.Errorf("%s: status embedded %d, opensearch %d", request, eStatus, oStatus)
		return
	}
	if approximate(request) {
		compareNearest(t, request, ea, oa)
		ea, oa = withoutHits(ea), withoutHits(oa)
		for _, m := range []any{ea, oa} {
			if m, ok := m.(map[string]any); ok {
				delete(m, "total")
				if sc, ok := m["scope"].(map[string]any); ok {
					delete(sc, "matched")
				}
			}
		}
	} else if byRelevance(request) {
		eIDs, eTotal, ok1 := hitIDs(ea)
		oIDs, oTotal, ok2 := hitIDs(oa)
		if ok1 && ok2 {
			if eTotal != oTotal {
				t.Errorf("%s: total embedded %v, opensearch %v", request, eTotal, oTotal)
			}
			if float64(len(eIDs)) == eTotal {
				sort.Strings(eIDs)
				sort.Strings(oIDs)
				if !reflect.DeepEqual(eIDs, oIDs) {
					t.Errorf("%s: hit sets differ\nembedded   %v\nopensearch %v", request, eIDs, oIDs)
				}
			}
			// the rest of the answer, hits aside
			ea, oa = withoutHits(ea), withoutHits(oa)
		}
	}
	var paths []string
	diffJSON("", ea, oa, &paths)
	for _, p := range paths {
		if _, ok := listedDifference(request, p); !ok {
			t.Errorf("%s: differs at %s\nembedded   %s\nopensearch %s", request, p, at(ea, p), at(oa, p))
		}
	}
}

// recordKindGETs read the record kinds behind Records (contracts, payroll,
// land projects, meetings, people and organizations, civil service) over
// the bundled sample: each must answer 200 on both engines, and the same.
var recordKindGETs = []string{
	"/api/contracts?limit=50",
	"/api/contracts?agency=design-and-construction&limit=100",
	"/api/contracts/analysis?group_by=agency",
	"/api/contracts/analysis?group_by=amount_band&agency=Design%20and%20Construction",
	"/api/contracts/analysis?group_by=fiscal_year&rank_by=count",
	"/api/payroll?agency=police-department&limit=50",
	"/api/payroll?name=smith",
	"/api/land-projects?limit=50",
	"/api/land-projects?borough=manhattan&limit=50",
	"/api/land-projects/2022M0258",
	"/api/land-projects/2022M0258/decision-path",
	"/api/meetings?from=2026-07-01&to=2026-12-31&limit=100",
	"/api/meetings?from=2026-07-01&to=2026-12-31&time=evening",
	"/meetings.ics?from=2026-07-01&to=2026-12-31",
	"/api/organizations?limit=50",
	"/api/civil-service?limit=50",
}

func TestEnginesGiveTheSameAnswers(t *testing.T) {
	t.Parallel() // its own data directories, ports and index prefix
	emb, osb := startEngines(t)
	compare := compareAnswers
	for _, path := range differentialGETs {
		es, ea, _ := emb.get(t, path)
		ost, oa, _ := osb.get(t, path)
		compare(t, path, ea, oa, es, ost)
	}
	for _, path := range recordKindGETs {
		es, ea, _ := emb.get(t, path)
		ost, oa, _ := osb.get(t, path)
		if es != 200 {
			t.Errorf("%s: embedded answered %d, want 200", path, es)
		}
		compare(t, path, ea, oa, es, ost)
	}
	// cursors: each engine follows its own cursors; the pages hold the same ids
	for _, start := range []string{"/api/search?q=construction&sort=newest&limit=7", "/api/search?lens=money&sort=amount_desc&limit=9",
		"/api/passages?agency=Parks&limit=11"} {
		ep, op := pages(t, emb, start, 4), pages(t, osb, start, 4)
		if !reflect.DeepEqual(ep, op) {
			t.Errorf("%s: pages differ\nembedded   %v\nopensearch %v", start, ep, op)
		}
	}
	// batch look-up
	body := `{"names":["Denville Line Painting Inc","Dell Marketing L.P.","Nobody Such Vendor"]}`
	es, ea := emb.post(t, "/batch", body)
	ost, oa := osb.post(t, "/batch", body)
	compare(t, "POST /batch", ea, oa, es, ost)
	// MCP tools
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"search_notices", map[string]any{"q": "construction", "sort": "newest", "limit": 20}},
		{"search_notices", map[string]any{"agency": "Parks", "min": 100000, "sort": "amount_desc"}},
		{"get_notice", map[string]any{"request_id": "20140930007"}},
		{"get_notice", map[string]any{"request_id": "99999999999"}},
		{"search_federated", map[string]any{"q": "construction"}},
		{"retrieve_cited_passages", map[string]any{"q": "sealed bids"}},
		{"get_entity_dossier", map[string]any{"kind": "vendor", "name": "Denville Line Painting"}},
		{"get_entity_relationships", map[string]any{"kind": "agency", "name": "Parks"}},
		{"browse_contracts", map[string]any{"limit": 50}},
		{"analyze_contracts", map[string]any{"group_by": "vendor", "agency": "Design and Construction"}},
		{"browse_land_projects", map[string]any{"limit": 25}},
		{"get_land_decision_path", map[string]any{"id": "2024Q0292"}},
		{"browse_meetings", map[string]any{"from": "2026-07-01", "to": "2026-12-31"}},
		{"browse_organizations", map[string]any{"limit": 25}},
		{"browse_civil_service", map[string]any{"limit": 25}},
	} {
		request := "mcp " + c.tool + fmt.Sprint(c.args)
		ea, oa := callTool(t, emb, c.tool, c.args), callTool(t, osb, c.tool, c.args)
		compare(t, request, ea, oa, 200, 200)
	}
	// the cost fuzz on OpenSearch too: every route and every tool, of
	// both forms (Form 2: an API role over the same indexes)
	costFuzzOver(t, osb, append(append([]string{}, differentialGETs...), recordKindGETs...), 1)
	var logs2 bytes.Buffer
	f2 := startServers(t, serverSpec{t.TempDir(), &logs2, append([]string{"-target=api", "-form", "2"}, osb.args...)})[0]
	defer f2.stop()
	costFuzzOver(t, engineService{"opensearch form 2", f2.base, nil}, differentialGETs, 2)
}

// pages follows next_cursor from start for at most n pages and lists ids.
func pages(t *testing.T, s engineService, start string, n int) [][]string {
	t.Helper()
	var out [][]string
	path := start
	for i := 0; i < n; i++ {
		_, v, _ := s.get(t, path)
		ids, _, _ := hitIDs(v)
		out = append(out, ids)
		m, _ := v.(map[string]any)
		next, _ := m["next_cursor"].(string)
		if next == "" {
			break
		}
		path = start + "&cursor=" + next
	}
	return out
}

func withoutHits(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	c := map[string]any{}
	for k, x := range m {
		switch k {
		case "hits", "passages", "results", "next_cursor":
		case "structured":
			c[k] = withoutHits(x)
		default:
			c[k] = x
		}
	}
	return c
}

// at renders the value at a diff path, shortened.
func at(v any, path string) string {
	for _, part := range strings.Split(strings.ReplaceAll(path, "[", ".["), ".") {
		if part == "" || part == "[len]" {
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			var i int
			fmt.Sscanf(part, "[%d]", &i)
			if i < len(x) {
				v = x[i]
			}
		}
	}
	b, _ := json.Marshal(v)
	if len(b) > 300 {
		b = append(b[:300], "…"...)
	}
	return string(b)
}

func callTool(t *testing.T, s engineService, tool string, args map[string]any) any {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "differential", Version: "1"}, nil)
	sess, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: s.base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("%s initialize: %v", s.name, err)
	}
	defer sess.Close()
	res, err := sess.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %s: %v", s.name, tool, err)
	}
	b, _ := json.Marshal(map[string]any{"isError": res.IsError, "structured": res.StructuredContent})
	return decodeBody("application/json", b, s.base)
}
