package api

import (
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// The surface-equivalence test (issue 46 item 1): one question asked
// through every surface that renders it gets one answer: the same ids in
// the same order, the same count, the same scope (sources searched) and
// the same absence type. A search is asked of /api/search (the site's
// JSON twin: the site renders that route) and MCP search_notices; a
// watch filter of /api/watches/preview, MCP preview_watch, /feed.json and
// the watch's first digest.

// lensAnswer is what a surface answered, reduced to what must agree.
type lensAnswer struct {
	Total    int
	Notices  []string
	Meetings []string
	Land     []string
	Roster   int
	Absence  string
	Sources  []string
}

func (a lensAnswer) String() string {
	b, _ := json.Marshal(a)
	return string(b)
}

// answerJSON is the part of an answer's JSON the surfaces share.
type answerJSON struct {
	Total int `json:"total"`
	Scope struct {
		Sources []struct {
			Source string `json:"source"`
		} `json:"sources"`
		Empty *struct {
			Type string `json:"type"`
		} `json:"empty"`
	} `json:"scope"`
	Hits []struct {
		RequestID string `json:"request_id"`
	} `json:"hits"`
	Results []struct {
		RequestID string `json:"request_id"`
	} `json:"results"`
	Roster   []json.RawMessage `json:"roster"`
	Meetings *struct {
		Meetings []struct {
			ID string `json:"id"`
		} `json:"meetings"`
	} `json:"meetings"`
	Land *struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	} `json:"land_projects"`
}

func (j answerJSON) answer(n int) lensAnswer {
	a := lensAnswer{Total: j.Total, Roster: len(j.Roster)}
	for _, h := range j.Hits {
		a.Notices = append(a.Notices, h.RequestID)
	}
	for _, h := range j.Results {
		a.Notices = append(a.Notices, h.RequestID)
	}
	if j.Meetings != nil {
		for _, m := range j.Meetings.Meetings {
			a.Meetings = append(a.Meetings, m.ID)
		}
	}
	if j.Land != nil {
		for _, it := range j.Land.Items {
			a.Land = append(a.Land, it.ID)
		}
	}
	if j.Scope.Empty != nil {
		a.Absence = j.Scope.Empty.Type
	}
	for _, s := range j.Scope.Sources {
		a.Sources = append(a.Sources, s.Source)
	}
	slices.Sort(a.Sources)
	return a.first(n)
}

// first keeps the first n ids of each list (surfaces list different
// lengths: a preview its first 10).
func (a lensAnswer) first(n int) lensAnswer {
	a.Notices = a.Notices[:min(n, len(a.Notices))]
	a.Meetings = a.Meetings[:min(n, len(a.Meetings))]
	a.Land = a.Land[:min(n, len(a.Land))]
	return a
}

type surfaceEnv struct {
	*watchEnv
	form int
	mcp  *sdk.ClientSession
}

func newSurfaceEnv(t *testing.T, form int) *surfaceEnv {
	t.Helper()
	e := newWatchEnvWith(t, form, sampletest.Full, nil, nil)
	c := sdk.NewClient(&sdk.Implementation{Name: "surfaces-test", Version: "1"}, nil)
	s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("mcp initialize: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return &surfaceEnv{watchEnv: e, form: form, mcp: s}
}

func (e *surfaceEnv) get(t *testing.T, path string, v url.Values) answerJSON {
	t.Helper()
	res, body := httpDo(t, "GET", e.ts.URL+path+"?"+v.Encode(), "", "")
	if res.StatusCode != 200 {
		t.Fatalf("GET %s?%s: %d %s", path, v.Encode(), res.StatusCode, body)
	}
	var out answerJSON
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return out
}

// toolParts calls an MCP tool and follows its continuations: the
// structured content of each part of an answer cut at 64 KiB, in order.
// refused is set when the tool answered with an error (isError).
func toolParts(t *testing.T, s *sdk.ClientSession, name string, args map[string]any) (parts [][]byte, refused bool) {
	t.Helper()
	for cursor := ""; ; {
		call := maps.Clone(args)
		if cursor != "" {
			call["cursor"] = cursor
		}
		res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: call})
		if err != nil {
			t.Fatalf("%s %v: protocol error %v", name, call, err)
		}
		if res.IsError {
			return nil, true
		}
		b, _ := json.Marshal(res.StructuredContent)
		parts = append(parts, b)
		var cont struct {
			Continuation *struct {
				Cursor string `json:"cursor"`
			} `json:"continuation"`
		}
		if err := json.Unmarshal(b, &cont); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cont.Continuation == nil || cont.Continuation.Cursor == "" {
			return parts, false
		}
		cursor = cont.Continuation.Cursor
	}
}

// tool calls an MCP tool, reading an answer cut at 64 KiB with its
// continuations: the record lists of its parts joined.
func (e *surfaceEnv) tool(t *testing.T, name string, args map[string]any) answerJSON {
	t.Helper()
	parts, refused := toolParts(t, e.mcp, name, args)
	if refused {
		t.Fatalf("%s %v: refused", name, args)
	}
	var all answerJSON
	for i, b := range parts {
		var out answerJSON
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if i == 0 {
			all = out
			continue
		}
		all.Hits = append(all.Hits, out.Hits...)
		all.Results = append(all.Results, out.Results...)
		all.Roster = append(all.Roster, out.Roster...)
		if out.Meetings != nil {
			if all.Meetings == nil {
				all.Meetings = out.Meetings
			} else {
				all.Meetings.Meetings = append(all.Meetings.Meetings, out.Meetings.Meetings...)
			}
		}
		if out.Land != nil {
			if all.Land == nil {
				all.Land = out.Land
			} else {
				all.Land.Items = append(all.Land.Items, out.Land.Items...)
			}
		}
	}
	return all
}

// feed is /feed.json's answer: its items' ids by kind, its scope.
func (e *surfaceEnv) feed(t *testing.T, v url.Values, n int) lensAnswer {
	t.Helper()
	res, body := httpDo(t, "GET", e.ts.URL+"/feed.json?"+v.Encode(), "", "")
	if res.StatusCode != 200 {
		t.Fatalf("feed %s: %d %s", v.Encode(), res.StatusCode, body)
	}
	var out struct {
		Items []struct {
			Ext map[string]any `json:"_recordwatch"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	var a lensAnswer
	for _, it := range out.Items {
		switch {
		case it.Ext["request_id"] != nil:
			a.Notices = append(a.Notices, it.Ext["request_id"].(string))
		case it.Ext["project_id"] != nil:
			a.Land = append(a.Land, it.Ext["id"].(string))
		case it.Ext["id"] != nil:
			a.Meetings = append(a.Meetings, it.Ext["id"].(string))
		}
	}
	return a.first(n)
}

// digest is what the watch's first digest matched: a watch made through
// the API on this filter, its baseline forgotten, its window run.
func (e *surfaceEnv) digest(t *testing.T, body map[string]any, n int, day int) lensAnswer {
	t.Helper()
	body["email"] = "surface" + strconv.Itoa(day) + "@example.org"
	b, _ := json.Marshal(body)
	if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", string(b)); res.StatusCode != 201 {
		t.Fatalf("create %s: %d %s", b, res.StatusCode, out)
	}
	ctx := context.Background()
	ws, _ := e.st.ListWatches(ctx)
	var w watch.Watch
	for _, x := range ws {
		if x.Email == body["email"] {
			w = x
		}
	}
	if _, err := e.st.DeleteWatch(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	w.Progress, w.ActivatedAt = watch.Progress{}, w.ActivatedAt.Add(-72*time.Hour)
	if err := e.st.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(fixedNow.Add(time.Duration(day) * 24 * time.Hour))
	if _, err := e.m.RunDigests(ctx); err != nil {
		t.Fatal(err)
	}
	ds, err := e.st.Deliveries(ctx, w.ID)
	if err != nil || len(ds) == 0 {
		t.Fatalf("no delivery for the watch: %v", err)
	}
	var a lensAnswer
	for _, id := range ds[0].Matched {
		switch {
		case strings.HasPrefix(id, watch.LandPrefix):
			a.Land = append(a.Land, id)
		case strings.HasPrefix(id, "meeting") || strings.Contains(id, ":"):
			a.Meetings = append(a.Meetings, id)
		default:
			a.Notices = append(a.Notices, id)
		}
	}
	e.clock.Set(fixedNow)
	return a.first(n)
}

func TestOneAnswerOnEverySurface(t *testing.T) {
	for _, form := range []int{1, 2} {
		t.Run("form"+strconv.Itoa(form), func(t *testing.T) {
			e := newSurfaceEnv(t, form)
			type question struct {
				name   string
				search url.Values     // /api/search (and search_notices's arguments)
				filter map[string]any // a watch's structured filter (Form 1)
			}
			questions := []question{
				{"money", url.Values{"lens": {"money"}, "q": {"construction"}}, map[string]any{"lens": "money", "q": "construction"}},
				{"land", url.Values{"lens": {"land"}}, map[string]any{"lens": "land"}},
				{"meetings", url.Values{"lens": {"meetings"}}, map[string]any{"lens": "meetings"}},
				{"people", url.Values{"lens": {"people"}, "agency": {"Parks"}}, map[string]any{"lens": "people", "agency": []string{"Parks"}}},
				{"rules", url.Values{"lens": {"rules"}}, map[string]any{"lens": "rules"}},
				{"property", url.Values{"lens": {"property"}}, map[string]any{"lens": "property"}},
				{"empty", url.Values{"q": {"zzyzxquux"}}, map[string]any{"lens": "money", "q": "zzyzxquux"}},
			}
			for i, qu := range questions {
				// a search: the HTTP JSON (the site's twin) and MCP
				args := map[string]any{"limit": 20}
				for k, v := range qu.search {
					switch k {
					case "lens":
						args["lens"] = v
					case "agency":
						args["agency"] = v[0]
					default:
						args[k] = v[0]
					}
				}
				v := url.Values{"limit": {"20"}}
				for k, vs := range qu.search {
					v[k] = vs
				}
				api := e.get(t, "/api/search", v).answer(20)
				mcp := e.tool(t, "search_notices", args).answer(20)
				if api.String() != mcp.String() {
					t.Errorf("%s: search over HTTP and MCP differ:\n http %s\n  mcp %s", qu.name, api, mcp)
				}
				if form == 2 {
					continue // a Form 2 watch is asked in plain English: its rule is TestRule*'s
				}
				// a watch on the same question: previews, feed, digest
				const n = 10
				pv := url.Values{}
				for k, x := range qu.filter {
					switch x := x.(type) {
					case string:
						pv.Set(k, x)
					case []string:
						pv[k] = x
					}
				}
				preview := e.get(t, "/api/watches/preview", pv).answer(n)
				mcpPreview := e.tool(t, "preview_watch", qu.filter).answer(n)
				if preview.String() != mcpPreview.String() {
					t.Errorf("%s: the watch preview over HTTP and MCP differ:\n http %s\n  mcp %s", qu.name, preview, mcpPreview)
				}
				ids := lensAnswer{Notices: preview.Notices, Meetings: preview.Meetings, Land: preview.Land}
				if f := e.feed(t, pv, n); qu.name != "meetings" && f.String() != ids.String() {
					// (a meetings feed lists its records soonest first,
					// merged with the notices: compared as sets below)
					t.Errorf("%s: the feed and the preview differ:\n preview %s\n    feed %s", qu.name, ids, f)
				} else if qu.name == "meetings" && !sameSet(f.Meetings, ids.Meetings) {
					t.Errorf("%s: the feed's meeting records and the preview's differ:\n preview %v\n    feed %v", qu.name, ids.Meetings, f.Meetings)
				}
				if qu.name == "empty" {
					if preview.Absence == "" || preview.Absence != api.Absence {
						t.Errorf("empty: absence types: search %q, preview %q", api.Absence, preview.Absence)
					}
					continue // no digest of nothing
				}
				d := e.digest(t, qu.filter, n, i+1)
				if !sameSet(d.Notices, ids.Notices) || !sameSet(d.Meetings, ids.Meetings) || !sameSet(d.Land, ids.Land) {
					t.Errorf("%s: the digest and the preview differ:\n preview %s\n  digest %s", qu.name, ids, d)
				}
			}
		})
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// freshAnswer is what a surface says of its sources' freshness and of an
// empty answer.
type freshAnswer struct {
	States  map[string]string // source → state
	Absence string
}

func (a freshAnswer) String() string {
	b, _ := json.Marshal(a)
	return string(b)
}

// scopeFresh reads the freshness part of a scope (search, preview, MCP).
func scopeFresh(t *testing.T, body []byte) freshAnswer {
	t.Helper()
	var out struct {
		Scope struct {
			Sources []struct {
				Source string `json:"source"`
				State  string `json:"state"`
			} `json:"sources"`
			Empty *struct {
				Type string `json:"type"`
			} `json:"empty"`
		} `json:"scope"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	a := freshAnswer{States: map[string]string{}}
	for _, s := range out.Scope.Sources {
		a.States[s.Source] = s.State
	}
	if out.Scope.Empty != nil {
		a.Absence = out.Scope.Empty.Type
	}
	return a
}

// TestOneAnswerWhenASourceIsStaleOrFailing: with City Record's live fetch
// failing, or its last good fetch past its maximum age, the same question
// says the same of its sources and of an empty answer through
// /api/search, MCP search_notices, the HTTP and MCP watch previews and
// the JSON feed.
func TestOneAnswerWhenASourceIsStaleOrFailing(t *testing.T) {
	cases := []struct {
		name     string
		receipts []record.Receipt
		want     string
	}{
		{"failing", []record.Receipt{receipt("crol", fixedNow.Add(-3*time.Hour), true), receipt("crol", fixedNow.Add(-20*time.Minute), false)}, record.Failing},
		{"stale", []record.Receipt{receipt("crol", fixedNow.Add(-5*time.Hour), true)}, record.Stale},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _ := scheduledEnv(t, c.receipts...)
			cl := sdk.NewClient(&sdk.Implementation{Name: "surfaces-test", Version: "1"}, nil)
			s, err := cl.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tool := func(name string, args map[string]any) freshAnswer {
				res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
				if err != nil || res.IsError {
					t.Fatalf("%s: %v %+v", name, err, res)
				}
				b, _ := json.Marshal(res.StructuredContent)
				return scopeFresh(t, b)
			}
			httpAnswer := func(path string) freshAnswer {
				res, body := get(t, e, path)
				if res.StatusCode != 200 {
					t.Fatalf("%s: %d %s", path, res.StatusCode, body)
				}
				return scopeFresh(t, []byte(body))
			}
			feedAnswer := func(path string) freshAnswer {
				res, body := get(t, e, path)
				if res.StatusCode != 200 {
					t.Fatalf("%s: %d %s", path, res.StatusCode, body)
				}
				var out struct {
					Ext struct {
						Sources []struct {
							Source string `json:"source"`
							State  string `json:"state"`
						} `json:"sources"`
						AbsenceType string `json:"absence_type"`
					} `json:"_recordwatch"`
				}
				if err := json.Unmarshal([]byte(body), &out); err != nil {
					t.Fatal(err)
				}
				a := freshAnswer{States: map[string]string{}, Absence: out.Ext.AbsenceType}
				for _, s := range out.Ext.Sources {
					a.States[s.Source] = s.State
				}
				return a
			}
			for _, q := range []struct {
				name, search, feed string
				tool, preview      map[string]any
			}{
				{"some", "/api/search?lens=rules", "/feed.json?lens=rules",
					map[string]any{"lens": []string{"rules"}}, map[string]any{"lens": "rules"}},
				{"none", "/api/search?lens=rules&q=zzyzxquux", "/feed.json?lens=rules&q=zzyzxquux",
					map[string]any{"lens": []string{"rules"}, "q": "zzyzxquux"}, map[string]any{"lens": "rules", "q": "zzyzxquux"}},
			} {
				pq := url.Values{}
				for k, v := range q.preview {
					pq.Set(k, v.(string))
				}
				answers := map[string]freshAnswer{
					"http search":  httpAnswer(q.search),
					"mcp search":   tool("search_notices", q.tool),
					"http preview": httpAnswer("/api/watches/preview?" + pq.Encode()),
					"mcp preview":  tool("preview_watch", q.preview),
					"feed":         feedAnswer(q.feed),
				}
				first := answers["http search"]
				if first.States[record.SourceCROL] != c.want {
					t.Errorf("%s: City Record reads %q, want %q: %s", q.name, first.States[record.SourceCROL], c.want, first)
				}
				if (q.name == "none") != (first.Absence != "") {
					t.Errorf("%s: absence %q", q.name, first.Absence)
				}
				for name, a := range answers {
					if a.States[record.SourceCROL] != first.States[record.SourceCROL] || a.Absence != first.Absence {
						t.Errorf("%s: %s says %s, /api/search says %s", q.name, name, a, first)
					}
				}
			}
		})
	}
}

// listIDs are the ids of the records at a dotted path of an answer, and
// its total.
func listIDs(t *testing.T, body []byte, path string) (ids []string, total float64) {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	total, _ = v["total"].(float64)
	var cur any = v
	for _, k := range strings.Split(path, ".") {
		m, _ := cur.(map[string]any)
		cur = m[k]
	}
	items, _ := cur.([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		for _, k := range []string{"id", "project_id", "request_id", "record_id"} {
			if s, ok := m[k].(string); ok && s != "" {
				ids = append(ids, s)
				break
			}
		}
	}
	return ids, total
}

// TestOneAnswerForEveryCollection: each collection's HTTP route and its
// MCP twin give the same records in the same order and the same total,
// on the full bundled sample.
func TestOneAnswerForEveryCollection(t *testing.T) {
	e := newSurfaceEnv(t, 1)
	for _, c := range []struct {
		route, tool, list string
		args              map[string]any
	}{
		{"/api/contracts?limit=25", "browse_contracts", "contracts", map[string]any{"limit": 25}},
		{"/api/land-projects?limit=25", "browse_land_projects", "projects", map[string]any{"limit": 25}},
		{"/api/meetings?from=2026-07-01&to=2026-09-30&limit=25", "browse_meetings", "meetings", map[string]any{"from": "2026-07-01", "to": "2026-09-30", "limit": 25}},
		{"/api/meetings?from=2026-07-01&to=2026-09-30&borough=queens&limit=25", "browse_meetings", "meetings", map[string]any{"from": "2026-07-01", "to": "2026-09-30", "borough": "queens", "limit": 25}},
		{"/api/organizations?limit=25", "browse_organizations", "rows", map[string]any{"limit": 25}},
		{"/api/civil-service?limit=25", "browse_civil_service", "records", map[string]any{"limit": 25}},
	} {
		res, body := httpDo(t, "GET", e.ts.URL+c.route, "", "")
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", c.route, res.StatusCode, body)
		}
		httpIDs, httpTotal := listIDs(t, []byte(body), c.list)
		// the tool's answer with its continuations (an answer over 64 KiB
		// comes in parts)
		parts, refused := toolParts(t, e.mcp, c.tool, c.args)
		if refused {
			t.Fatalf("%s refused %v", c.tool, c.args)
		}
		var mcpIDs []string
		var mcpTotal float64
		for i, b := range parts {
			ids, total := listIDs(t, b, c.list)
			mcpIDs = append(mcpIDs, ids...)
			if i == 0 {
				mcpTotal = total
			}
		}
		if len(httpIDs) == 0 {
			t.Errorf("%s lists no record: the comparison proves nothing", c.route)
		}
		if !slices.Equal(httpIDs, mcpIDs) || httpTotal != mcpTotal {
			t.Errorf("%s and %s differ:\n http %v (total %v)\n  mcp %v (total %v)", c.route, c.tool, httpIDs, httpTotal, mcpIDs, mcpTotal)
		}
	}
}
