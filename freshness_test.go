package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/servicetest"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// One source's freshness, read through every surface: City Record's live
// fetch fails since ten minutes ago (its last good run was 30 minutes
// ago), and the search API, the site's banner, the JSON and Atom feeds,
// an MCP tool and a digest all state it as failing since the same time,
// as main.go wires them (one rule, record.Freshen, over the receipts).
func TestFreshnessStatedOnEverySurface(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	clock := func() time.Time { return now }
	dir := t.TempDir()
	be, err := sampletest.CopyTo(filepath.Join(dir, "index"), sampletest.Notices, now)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	failedAt := now.Add(-10 * time.Minute)
	for _, r := range []record.Receipt{
		{Job: "crol", Source: "crol", Started: now.Add(-30 * time.Minute), Finished: now.Add(-29 * time.Minute), Outcome: record.ReceiptOK, RowsRead: 5, Written: 5},
		{Job: "crol", Source: "crol", Started: failedAt, Finished: failedAt.Add(time.Second), Outcome: record.ReceiptFailed, Error: "upstream answered 500"},
	} {
		if err := st.PutReceipt(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	jobs := indexer.DefaultJobs()
	e := search.WithFreshness(be, func(ctx context.Context) (func(string) record.SourceRun, error) {
		return indexer.SourceRuns(ctx, jobs, st)
	}, clock)
	cw := entity.DefaultCrosswalk()
	cfg := Config{Form: 1, BaseURL: "http://rw.test"}
	svc := buildServices(e, cw, cfg, clock)
	mcpDeps := svc.mcpDeps(mcp.Deps{Search: e, Crosswalk: cw, BaseURL: cfg.BaseURL, Now: clock, Version: version})
	apiDeps := svc.apiDeps(api.Deps{Search: e, Store: st, Crosswalk: cw, Now: clock})
	apiDeps.MCP = mcp.Handler(mcpDeps, cfg.Form)
	ts := httptest.NewServer(api.New(api.Config{Form: 1, BaseURL: cfg.BaseURL, Engine: "embedded", RatePerSecond: 1e6, Burst: 1e6}, apiDeps))
	defer ts.Close()
	get := func(path string) string {
		t.Helper()
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", path, res.StatusCode, b)
		}
		return string(b)
	}
	since := failedAt.Format(time.RFC3339)
	crolOf := func(where string, sources []record.SourceCoverage) {
		t.Helper()
		for _, c := range sources {
			if c.Source == record.SourceCROL {
				if c.State != record.Failing || !c.StateSince.Equal(failedAt) || c.LastError != "upstream answered 500" || c.NewestSourceDate == "" {
					t.Errorf("%s: crol %+v", where, c)
				}
				return
			}
		}
		t.Errorf("%s lists no crol source", where)
	}

	// API: an empty search and a full one
	for _, q := range []string{"zzzqqqnothing", "construction"} {
		var res struct {
			Scope record.Scope `json:"scope"`
		}
		if err := json.Unmarshal([]byte(get("/api/search?q="+q)), &res); err != nil {
			t.Fatal(err)
		}
		crolOf("/api/search?q="+q, res.Scope.Sources)
	}
	// site: the banner of every page
	// (the banner names each source, says its state through the
	// freshness_state labels and since when: api/web's layout)
	if page := get("/"); !regexp.MustCompile(`data-source="crol">[^<]+</span> failing \(the last good rows are served\) since ` +
		regexp.QuoteMeta(failedAt.UTC().Format("2006-01-02 15:04")+" UTC")).MatchString(page) {
		t.Errorf("the home page states no failing crol banner")
	}
	// feeds
	var jf struct {
		Ext struct {
			Sources []record.SourceCoverage `json:"sources"`
		} `json:"_recordwatch"`
	}
	body := get("/feed.json?lens=money&q=construction")
	if err := json.Unmarshal([]byte(body), &jf); err != nil {
		t.Fatal(err)
	}
	if len(jf.Ext.Sources) == 0 {
		t.Fatalf("the JSON feed's extension lists no sources: %.400s", body)
	}
	crolOf("/feed.json", jf.Ext.Sources)
	if atom := get("/feed.xml?lens=money&q=construction"); !strings.Contains(atom, `state="failing"`) || !strings.Contains(atom, `stateSince="`+since+`"`) {
		t.Errorf("the Atom feed does not state crol failing since %s", since)
	}
	// MCP
	c := sdk.NewClient(&sdk.Implementation{Name: "freshness", Version: "1"}, nil)
	sess, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	res, err := sess.CallTool(ctx, &sdk.CallToolParams{Name: "search_notices", Arguments: map[string]any{"q": "construction"}})
	if err != nil || res.IsError {
		t.Fatalf("search_notices: %v %+v", err, res)
	}
	sb, _ := json.Marshal(res.StructuredContent)
	var ms struct {
		Scope record.Scope `json:"scope"`
	}
	if err := json.Unmarshal(sb, &ms); err != nil {
		t.Fatal(err)
	}
	crolOf("MCP search_notices", ms.Scope.Sources)

	// a digest of a watch on the same engine
	m, err := servicetest.Mailer(ctx, mailer.Config{BaseURL: cfg.BaseURL, Form: 1, OutboxDir: filepath.Join(dir, "outbox")},
		mailer.Deps{Store: st, Search: e, Now: clock, Crosswalk: cw})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Flush()
	u, err := m.Watches().Understand("construction")
	if err != nil {
		t.Fatal(err)
	}
	w := watch.Watch{ID: "fresh1", Email: "pat@example.org", Filter: u.Filter, Scope: u.Scope, Form: 1, Status: watch.StatusActive,
		CreatedAt: now.Add(-48 * time.Hour), ActivatedAt: now.Add(-48 * time.Hour)}
	if err := st.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	rep, err := m.RunDigests(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d, ok, err := st.GetDelivery(ctx, w.ID, rep.Window)
	if err != nil || !ok {
		t.Fatalf("no delivery planned (%+v): %v", rep, err)
	}
	wantDigest := "failing since " + failedAt.In(record.NewYork).Format("Jan 2, 2006 3:04 PM")
	if !strings.Contains(d.Covered, wantDigest) {
		t.Errorf("the digest states %q, want %q", d.Covered, wantDigest)
	}
}
