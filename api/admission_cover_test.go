package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/costtest"
	"github.com/recordwatch/recordwatch/mailer"
)

// admissionThreshold is what a request may allocate past the cheap read
// of its surface (a notice by id: GET /api/notices/:id, the get_notice
// tool) without taking an admission slot. On the sample fixture a profile
// or dossier of one agency is already past it; a keyword search page is
// not.
const admissionThreshold = 256 << 10

// keywordPages are the one read kept outside admission by design although
// it may pass the threshold: a keyword page of notices (bounded by its
// limit) is the service's main read, the one admission protects; with
// facets, an exact count or a semantic or hybrid mode it takes a slot
// (expensiveSearch, toolExpensive; TestExpensiveRequestsQueueCheapOnesDoNot).
var keywordPages = map[string]bool{"GET /api/search": true, "tool search_notices": true}

// csvOnlyRoutes are the list routes that take a slot only for their CSV
// twin (asksCSV): the cover test's sample asks their JSON page, which does
// not; TestExpensiveRequestsQueueCheapOnesDoNot asks their CSV.
var csvOnlyRoutes = map[string]bool{"GET /api/contracts": true, "GET /api/meetings": true, "GET /api/land-projects": true, "GET /api/civil-service": true}

// coverSamples are the requests the admission cover test sends per route
// ("METHOD /path" of the route table): paths and bodies that reach the
// handlers with the sample fixture's real names (names both forms
// resolve). Routes not listed get samplePath.
var coverSamples = map[string]string{
	"GET /agencies/:id/":        "/agencies/parks-and-recreation/",
	"GET /vendors/*stem":        "/vendors/denville-line-painting/",
	"GET /api/agencies/*id":     "/api/agencies/Parks%20and%20Recreation",
	"GET /api/vendors/*stem":    "/api/vendors/DENVILLE%20LINE%20PAINTING%20INC",
	"GET /api/matters/*pin":     "/api/matters/84614B0025",
	"GET /api/search":           "/api/search?q=parks",
	"GET /property-locations":   "/property-locations",
	"GET /api/contracts":        "/api/contracts?agency=parks",
	"GET /contracts/analysis":   "/contracts/analysis",
	"GET /api/payroll":          "/api/payroll?name=smith",
	"GET /api/rows":             "/api/rows?agency=parks",
	"GET /rows":                 "/rows?agency=parks",
	"GET /api/passages":         "/api/passages?q=parks",
	"GET /api/search/federated": "/api/search/federated?q=parks",
}

// coverTools are the arguments of each tool in the cover test (others: {}).
var coverTools = map[string]string{
	"search_notices": `{"q":"parks"}`, "get_notice": `{"request_id":"20140930007"}`,
	"search_federated": `{"q":"parks"}`, "retrieve_cited_passages": `{"q":"parks"}`,
	"get_entity_dossier":       `{"kind":"agency","name":"Parks and Recreation"}`,
	"get_entity_relationships": `{"kind":"agency","name":"Parks and Recreation"}`,
	"preview_watch":            `{"lens":"all","q":"parks"}`,
	"get_contract":             `{"id":"20140930007"}`, "get_meeting": `{"id":"20140930007"}`,
	"get_land_project": `{"id":"C 250001 ZMK"}`, "get_land_decision_path": `{"id":"C 250001 ZMK"}`,
	"get_person_or_organization": `{"id":"parks-and-recreation"}`,
}

// Every route and tool whose cost grows with the data takes an admission
// slot: each route of the route table and each tool of both forms is sent
// once with the fixture's real names while the pool is free, its
// allocation measured; whatever allocates more than admissionThreshold
// past the cheap read of its surface (keywordPages aside) must, with every slot and the queue
// taken, be refused 503 with Retry-After (it waits for a slot). And what
// the one list declares (admittedRoutes, admittedTools) is what the server
// does: every declared route and tool mounted is refused with the pool
// full, and nothing else is.
func TestCostlyRoutesAndToolsTakeASlot(t *testing.T) {
	costly := 0
	for _, form := range []int{1, 2} {
		cfg := shared.srv.cfg
		cfg.Form, cfg.RatePerSecond, cfg.Burst, cfg.ExpensiveSlots = form, 1e9, 1<<30, 1
		d := withServices(cfg, shared.srv.deps)
		mcfg := mailer.Config{BaseURL: "http://rw.test", Form: form, SubscribeAddress: "subscribe@rw.test",
			OutboxDir: filepath.Join(t.TempDir(), "outbox"), RequestsPerClient: 1 << 30, RequestsPerDay: 1 << 30}
		m, err := newMailer(context.Background(), mcfg, mailer.Deps{Store: d.Store, Search: d.Search, Crosswalk: d.Crosswalk, Now: d.Now, Logger: quietLog})
		if err != nil {
			t.Fatal(err)
		}
		d.Watches, d.Logger = m.Watches(), quietLog
		mcpDeps := mcpDepsOf(d, "http://rw.test")
		d.MCP = mcp.Handler(mcpDeps, form)
		s := New(cfg, d)

		type probe struct {
			name string // "METHOD /path" or "tool <name>"
			req  badRequest
			tool bool
		}
		var probes []probe
		for _, rt := range s.Router().Routes() {
			key := rt.Method + " " + rt.Path
			target, ok := coverSamples[key]
			if !ok {
				target = samplePath(rt.Path)
			}
			body := ""
			if rt.Method == http.MethodPost {
				body = `{"names":["Parks and Recreation","Denville Line Painting"],"text":"parks"}`
			}
			probes = append(probes, probe{key, badRequest{rt.Method, target, "application/json", body, key}, false})
		}
		for _, tl := range mcp.ForForm(mcp.All(mcpDeps), form) {
			name := tl.Def.Name
			args, ok := coverTools[name]
			if !ok {
				args = `{}`
			}
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
			probes = append(probes, probe{"tool " + name, badRequest{http.MethodPost, "/mcp", "application/json", body, ""}, true})
		}

		// the cheap read of each surface, warm, the least of three
		cheap := func(r badRequest) uint64 {
			var least uint64
			for i := range 3 {
				_, alloc := costtest.Measure(func() { doBad(t, s, r) })
				if i == 0 || alloc < least {
					least = alloc
				}
			}
			return least
		}
		routeBase := cheap(badRequest{"GET", "/api/notices/20140930007", "", "", ""})
		toolBase := cheap(badRequest{"POST", "/mcp", "application/json",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_notice","arguments":{"request_id":"20140930007"}}}`, ""})

		over := map[string]uint64{}
		for _, p := range probes {
			var w *httptest.ResponseRecorder
			// the least of two calls: a cache filled once per index
			// generation (the crosswalk, /stats) is not what it costs
			_, alloc := costtest.Measure(func() { w = doBad(t, s, p.req) })
			if _, again := costtest.Measure(func() { doBad(t, s, p.req) }); again < alloc {
				alloc = again
			}
			base := routeBase
			if p.tool {
				base = toolBase
			}
			if alloc > base+admissionThreshold && !keywordPages[p.name] {
				over[p.name] = alloc - base
				if w.Code >= 400 {
					t.Logf("form %d %s: costly but answered %d %.200s", form, p.name, w.Code, w.Body)
				}
			}
		}

		// with the one slot and the whole queue taken
		release, err := s.gate.enter(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s.gate.queued.Add(s.gate.maxQueue)
		for _, p := range probes {
			w := doBad(t, s, p.req)
			refused := w.Code == http.StatusServiceUnavailable && w.Header().Get("Retry-After") != ""
			declared := false
			if p.tool {
				declared = admittedTools[strings.TrimPrefix(p.name, "tool ")]
			} else if _, ok := admittedRoutes[p.name]; ok {
				declared = !keywordPages[p.name] && !csvOnlyRoutes[p.name] // a keyword page only with facets, a count or a mode; a list only as CSV
			}
			if cost, ok := over[p.name]; ok {
				costly++
				t.Logf("form %d %s: %d KB past the cheap read; admitted %v", form, p.name, cost>>10, refused)
				if !refused {
					t.Errorf("form %d %s allocates %d KB past the cheap read (threshold %d KB) but takes no admission slot: %d",
						form, p.name, cost>>10, admissionThreshold>>10, w.Code)
				}
			}
			if declared != refused {
				t.Errorf("form %d %s: declared admitted %v, refused with the pool full %v (%d %.200s)", form, p.name, declared, refused, w.Code, w.Body)
			}
		}
		s.gate.queued.Add(-s.gate.maxQueue)
		release()
		m.Flush()
	}
	// the threshold catches something on the fixture (profiles, dossiers)
	if costly < 4 {
		t.Errorf("only %d requests over the admission threshold: the cover test proves nothing", costly)
	}
}
