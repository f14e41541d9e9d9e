package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// The same-rule tests (issue 13 item 5): one rule, asked through every
// surface — /api/search, /feed.json, /api/watches/preview, MCP
// search_notices and preview_watch, the digest redirect — gives the same
// answer. Each surface is called for real: httptest, the embedded engine
// over the sample corpus, the MCP SDK client.

// surfaceHit is one notice as a surface returned it.
type surfaceHit struct {
	ID        string
	AgencyID  string
	Permalink string
}

// surfaceAnswer is a surface's answer: its hits and total, or its refusal.
type surfaceAnswer struct {
	Refused string // error code, when refused
	Total   int
	Hits    []surfaceHit
}

func (a surfaceAnswer) ids() []string {
	var out []string
	for _, h := range a.Hits {
		out = append(out, h.ID)
	}
	sort.Strings(out)
	return out
}

func (a surfaceAnswer) agencies() []string {
	var out []string
	for _, h := range a.Hits {
		if !slices.Contains(out, h.AgencyID) {
			out = append(out, h.AgencyID)
		}
	}
	sort.Strings(out)
	return out
}

type ruleEnv struct {
	*watchEnv
	mcp *sdk.ClientSession
}

func newRuleEnv(t *testing.T) *ruleEnv {
	t.Helper()
	e := newWatchEnv(t, 1, nil)
	c := sdk.NewClient(&sdk.Implementation{Name: "rules-test", Version: "1"}, nil)
	s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("mcp initialize: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return &ruleEnv{watchEnv: e, mcp: s}
}

// getJSON calls a GET route; a 4xx answer is a refusal.
func (e *ruleEnv) getJSON(t *testing.T, path string, v url.Values, out any) string {
	t.Helper()
	res, body := httpDo(t, "GET", e.ts.URL+path+"?"+v.Encode(), "", "")
	if res.StatusCode >= 400 && res.StatusCode < 500 {
		var eb struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.Unmarshal([]byte(body), &eb)
		return eb.Error.Code
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s?%s: %d %s", path, v.Encode(), res.StatusCode, body)
	}
	if err := json.Unmarshal([]byte(body), out); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return ""
}

type hitsJSON struct {
	Total int              `json:"total"`
	Hits  []view.LinkedHit `json:"hits"`
}

func fromHitViews(total int, hs []view.LinkedHit) surfaceAnswer {
	a := surfaceAnswer{Total: total}
	for _, h := range hs {
		a.Hits = append(a.Hits, surfaceHit{h.RequestID, h.AgencyID, h.Links.Permalink})
	}
	return a
}

func (e *ruleEnv) apiSearch(t *testing.T, v url.Values) surfaceAnswer {
	var out hitsJSON
	if code := e.getJSON(t, "/api/search", v, &out); code != "" {
		return surfaceAnswer{Refused: code}
	}
	return fromHitViews(out.Total, out.Hits)
}

func (e *ruleEnv) watchPreview(t *testing.T, v url.Values) surfaceAnswer {
	var out hitsJSON
	if code := e.getJSON(t, "/api/watches/preview", v, &out); code != "" {
		return surfaceAnswer{Refused: code}
	}
	return fromHitViews(out.Total, out.Hits)
}

func (e *ruleEnv) feedJSON(t *testing.T, v url.Values) surfaceAnswer {
	var out struct {
		Items []struct {
			URL string         `json:"url"`
			Ext view.LinkedHit `json:"_recordwatch"`
		} `json:"items"`
	}
	if code := e.getJSON(t, "/feed.json", v, &out); code != "" {
		return surfaceAnswer{Refused: code}
	}
	a := surfaceAnswer{Total: len(out.Items)}
	for _, it := range out.Items {
		if it.URL != it.Ext.Links.Permalink {
			t.Errorf("feed item url %s, its permalink %s", it.URL, it.Ext.Links.Permalink)
		}
		a.Hits = append(a.Hits, surfaceHit{it.Ext.RequestID, it.Ext.AgencyID, it.URL})
	}
	return a
}

// tool calls an MCP tool; an isError result is a refusal (its code is not
// carried, so refusals compare as "invalid" when the text says so). An
// answer cut at 64 KiB is read with its continuations.
func (e *ruleEnv) tool(t *testing.T, name string, args map[string]any) surfaceAnswer {
	t.Helper()
	parts, refused := toolParts(t, e.mcp, name, args)
	if refused {
		return surfaceAnswer{Refused: record.EINVALID}
	}
	var a surfaceAnswer
	for _, b := range parts {
		var out struct {
			Total   int `json:"total"`
			Results []struct {
				RequestID string `json:"request_id"`
				AgencyID  string `json:"agency_id"`
				Permalink string `json:"permalink"`
			} `json:"results"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a.Total = out.Total
		for _, r := range out.Results {
			a.Hits = append(a.Hits, surfaceHit{r.RequestID, r.AgencyID, r.Permalink})
		}
	}
	return a
}

// TestRuleAgencyResolution: the same agency input resolves to the same
// agencies (or the same refusal) through /api/search, /feed.json, MCP
// search_notices and preview_watch, and /api/watches/preview.
func TestRuleAgencyResolution(t *testing.T) {
	e := newRuleEnv(t)
	inputs := []struct {
		in   string
		want []string // agency ids of the hits; nil: refused
	}{
		{"Parks", []string{"parks-and-recreation"}},
		{"DPR", []string{"parks-and-recreation"}},
		{"parks-and-recreation", []string{"parks-and-recreation"}},
		{"Dept of Parks & Recreation", []string{"parks-and-recreation"}},
		{"Police", []string{"police-department"}},
		{"POLICE DEPARTMENT", []string{"police-department"}},
		{"NYPD", []string{"police-department"}},
		{"Department of Nonexistent Affairs", nil},
	}
	found := 0
	for _, c := range inputs {
		// every notice of the agency: /api/search and MCP search_notices
		api := e.apiSearch(t, url.Values{"agency": {c.in}, "limit": {"50"}})
		mcp := e.tool(t, "search_notices", map[string]any{"agency": c.in, "limit": 50})
		// the money lens (open solicitations): feed, watch previews
		feed := e.feedJSON(t, url.Values{"lens": {"money"}, "agency": {c.in}})
		prev := e.watchPreview(t, url.Values{"lens": {"money"}, "agency": {c.in}})
		mprev := e.tool(t, "preview_watch", map[string]any{"lens": "money", "agency": []string{c.in}})
		all := map[string]surfaceAnswer{"/api/search": api, "search_notices": mcp, "/feed.json": feed,
			"/api/watches/preview": prev, "preview_watch": mprev}
		for name, a := range all {
			if c.want == nil {
				if a.Refused != record.EINVALID {
					t.Errorf("%q through %s: not refused (%d hits)", c.in, name, a.Total)
				}
				continue
			}
			if a.Refused != "" {
				t.Errorf("%q through %s: refused %s", c.in, name, a.Refused)
				continue
			}
			if got := a.agencies(); len(got) > 0 && !slices.Equal(got, c.want) {
				t.Errorf("%q through %s: agencies %v, want %v", c.in, name, got, c.want)
			}
		}
		if c.want == nil {
			continue
		}
		// the agency profile (its JSON twin) names the same agency
		if len(c.want) == 1 {
			res, body := httpDo(t, "GET", e.ts.URL+"/api/agencies/"+url.PathEscape(c.in), "", "")
			var prof struct {
				ID string `json:"id"`
			}
			if res.StatusCode != 200 || json.Unmarshal([]byte(body), &prof) != nil || prof.ID != c.want[0] {
				t.Errorf("%q through /api/agencies/: %d id %q, want %s", c.in, res.StatusCode, prof.ID, c.want[0])
			}
		}
		found += api.Total
		if api.Total != mcp.Total || !slices.Equal(api.ids(), mcp.ids()) {
			t.Errorf("%q: /api/search %d %v, search_notices %d %v", c.in, api.Total, api.ids(), mcp.Total, mcp.ids())
		}
		if feed.Total != prev.Total || prev.Total != mprev.Total || !slices.Equal(prev.ids(), mprev.ids()) {
			t.Errorf("%q: money lens: feed %d, /api/watches/preview %d %v, preview_watch %d %v", c.in, feed.Total, prev.Total, prev.ids(), mprev.Total, mprev.ids())
		}
		// the same agency answers the same whatever it was called
		first := e.apiSearch(t, url.Values{"agency": {inputs[0].in}, "limit": {"50"}})
		if slices.Equal(c.want, inputs[0].want) && !slices.Equal(api.ids(), first.ids()) {
			t.Errorf("%q and %q find different notices", c.in, inputs[0].in)
		}
	}
	if found == 0 {
		t.Fatal("no input found any notice: the test compares nothing")
	}
}

// TestRuleOpen: "open" means the same through /api/search?open=true, MCP
// search_notices open=true, the money-lens feed and both watch previews;
// and every notice each returns is open by view.IsOpen.
func TestRuleOpen(t *testing.T) {
	e := newRuleEnv(t)
	api := e.apiSearch(t, url.Values{"open": {"true"}, "limit": {"50"}})
	mcp := e.tool(t, "search_notices", map[string]any{"open": true, "limit": 50})
	feed := e.feedJSON(t, url.Values{"lens": {"money"}})
	prev := e.watchPreview(t, url.Values{"lens": {"money"}})
	mprev := e.tool(t, "preview_watch", map[string]any{"lens": "money"})
	if api.Refused != "" || mcp.Refused != "" || feed.Refused != "" || prev.Refused != "" || mprev.Refused != "" {
		t.Fatalf("refused: %+v %+v %+v %+v %+v", api, mcp, feed, prev, mprev)
	}
	if api.Total == 0 {
		t.Fatal("no open notice in the sample: the test compares nothing")
	}
	if api.Total > 50 {
		t.Fatalf("%d open notices: raise the limit so whole sets compare", api.Total)
	}
	want := api.ids()
	for name, a := range map[string]surfaceAnswer{"search_notices": mcp, "/feed.json": feed} {
		if !slices.Equal(a.ids(), want) {
			t.Errorf("open through %s: %v, /api/search?open=true: %v", name, a.ids(), want)
		}
	}
	for name, a := range map[string]surfaceAnswer{"/api/watches/preview": prev, "preview_watch": mprev} {
		if a.Total != api.Total {
			t.Errorf("open through %s: total %d, /api/search?open=true: %d", name, a.Total, api.Total)
		}
		for _, id := range a.ids() {
			if !slices.Contains(want, id) {
				t.Errorf("open through %s: %s is not open by /api/search", name, id)
			}
		}
	}
	for _, id := range want {
		n, err := e.be.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if !view.IsOpen(n, fixedNow) {
			t.Errorf("%s (%s, due %v, rolling %v) is returned as open but IsOpen says no", id, n.NoticeType, n.DueDate, n.DueRolling)
		}
	}
	// the day boundary: late on the day a solicitation is due, it is still
	// open (from the start of today, New York) on every surface
	var dueToday record.Notice
	for _, id := range want {
		n, _ := e.be.Get(context.Background(), id)
		if !n.DueRolling && !n.DueDate.IsZero() && (dueToday.RequestID == "" || n.DueDate.Before(dueToday.DueDate)) {
			dueToday = n
		}
	}
	if dueToday.RequestID == "" {
		t.Fatal("no dated open solicitation to test the day boundary with")
	}
	y, m, d := dueToday.DueDate.In(record.NewYork).Date()
	late := time.Date(y, m, d, 23, 59, 0, 0, record.NewYork)
	e2 := newRuleEnv(t)
	e2.clock.Set(late)
	for name, a := range map[string]surfaceAnswer{
		"/api/search":          e2.apiSearch(t, url.Values{"open": {"true"}, "limit": {"50"}}),
		"search_notices":       e2.tool(t, "search_notices", map[string]any{"open": true, "limit": 50}),
		"/feed.json":           e2.feedJSON(t, url.Values{"lens": {"money"}}),
		"/api/watches/preview": e2.watchPreview(t, url.Values{"lens": {"money"}}),
		"preview_watch":        e2.tool(t, "preview_watch", map[string]any{"lens": "money"}),
	} {
		if !slices.Contains(a.ids(), dueToday.RequestID) {
			t.Errorf("at %v, %s (due %v) is not open through %s", late, dueToday.RequestID, dueToday.DueDate, name)
		}
	}
	if !view.IsOpen(dueToday, late) || view.IsOpen(dueToday, late.Add(time.Minute)) {
		t.Errorf("IsOpen does not end at the end of the due day")
	}
	// open is solicitations: another type is refused, not silently empty
	if a := e.apiSearch(t, url.Values{"open": {"true"}, "type": {"Award"}}); a.Refused != record.EINVALID {
		t.Errorf("open with type=Award: %+v, want refused", a)
	}
}

// TestRulePermalink: the same notice has the same permalink in /api/search,
// the feed item, MCP search_notices, the watch previews, and where the
// digest link /r/<kind>/<id> redirects.
func TestRulePermalink(t *testing.T) {
	e := newRuleEnv(t)
	api := e.apiSearch(t, url.Values{"open": {"true"}, "limit": {"50"}})
	if len(api.Hits) == 0 {
		t.Fatal("no notice to compare")
	}
	perma := map[string]string{}
	for _, h := range api.Hits {
		perma[h.ID] = h.Permalink
		if h.Permalink != e.ts.URL+"/#notice/"+h.ID {
			t.Errorf("%s: permalink %s", h.ID, h.Permalink)
		}
	}
	for name, a := range map[string]surfaceAnswer{
		"search_notices":       e.tool(t, "search_notices", map[string]any{"open": true, "limit": 50}),
		"/feed.json":           e.feedJSON(t, url.Values{"lens": {"money"}}),
		"/api/watches/preview": e.watchPreview(t, url.Values{"lens": {"money"}}),
		"preview_watch":        e.tool(t, "preview_watch", map[string]any{"lens": "money"}),
	} {
		if len(a.Hits) == 0 {
			t.Errorf("%s: no hits", name)
		}
		for _, h := range a.Hits {
			if p, ok := perma[h.ID]; ok && h.Permalink != p {
				t.Errorf("%s through %s: permalink %s, /api/search: %s", h.ID, name, h.Permalink, p)
			}
		}
	}
	// the digest link redirects to the same permalink
	id := api.Hits[0].ID
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(e.ts.URL + "/r/money/" + id)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); loc != perma[id] {
		t.Errorf("digest link /r/money/%s redirects to %q, permalink %q", id, loc, perma[id])
	}
}
