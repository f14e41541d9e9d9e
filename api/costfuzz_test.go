package api

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/costtest"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/mailer"
)

// costNames are the parameter names the routes read (the others are
// refused before any work).
var costNames = []string{"q", "vendor", "vendor_stem", "agency", "agency_id", "agency_label", "name", "body", "title", "text",
	"cursor", "lens", "type", "section", "pin", "kind", "token", "scope", "source", "status", "procedure", "stage", "action",
	"effect", "borough", "community_district", "bbl", "ulurp", "exam_number", "title_code", "release", "row_type", "email",
	"within", "category", "requirement", "description", "request_id"}

// fill is a value of n characters made of words (the shape that made
// vendor variants and keyword parsing expensive), or of commas for a list.
func fill(n int, list bool) string {
	sep := " "
	if list {
		sep = ","
	}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString("acme")
		b.WriteString(sep)
	}
	return b.String()[:n]
}

// The cost fuzz: every route of both forms, with every parameter name the
// routes read at the longest value its bound accepts (record.InputBound),
// as words and as a list, ten times past it, and at the URI bound, answers without a 5xx,
// within the budget of one request (costtest: 1 s of CPU, 64 MB).
func TestCostFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("the cost fuzz sends a few thousand requests")
	}
	for _, form := range []int{1, 2} {
		cfg := shared.srv.cfg
		cfg.Form, cfg.RatePerSecond, cfg.Burst = form, 1e9, 1<<30
		d := withServices(cfg, shared.srv.deps)
		mcfg := mailer.Config{BaseURL: "http://rw.test", Form: form, SubscribeAddress: "subscribe@rw.test",
			OutboxDir: filepath.Join(t.TempDir(), "outbox"), RequestsPerClient: 1 << 30, RequestsPerDay: 1 << 30}
		m, err := newMailer(context.Background(), mcfg, mailer.Deps{Store: d.Store, Search: d.Search, Crosswalk: d.Crosswalk, Now: d.Now, Logger: quietLog})
		if err != nil {
			t.Fatal(err)
		}
		d.Watches, d.Logger = m.Watches(), quietLog
		d.MCP = mcp.Handler(mcpDepsOf(d, "http://rw.test"), form)
		s := New(cfg, d)
		var reqs []badRequest
		for _, rt := range s.Router().Routes() {
			base := samplePath(rt.Path)
			body := ""
			if rt.Method == "POST" {
				body = `{"text":"` + fill(record.MaxRequestTextLen, false) + `"}`
			}
			for _, name := range costNames {
				b := record.InputBound(name)
				for _, list := range []bool{false, true} {
					// at the bound, and ten times past it (refused before work)
					for _, n := range []int{b.MaxLen, min(10*b.MaxLen, record.MaxURILen/4)} {
						reqs = append(reqs, badRequest{rt.Method, base + "?" + name + "=" + url.QueryEscape(fill(n, list)), "application/json", body, ""})
					}
				}
			}
			reqs = append(reqs, badRequest{rt.Method, base + "?q=" + fill(record.MaxURILen-len(base)-8, false), "application/json", body, ""})
			if strings.Contains(rt.Path, ":") || strings.Contains(rt.Path, "*") {
				var parts []string
				for _, seg := range strings.Split(rt.Path, "/") {
					if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
						seg = url.PathEscape(fill(record.MaxNameLen, false))
					}
					parts = append(parts, seg)
				}
				reqs = append(reqs, badRequest{rt.Method, strings.Join(parts, "/"), "application/json", body, ""})
			}
		}
		var worstCPU time.Duration
		var worstAlloc uint64
		for _, r := range reqs {
			var w *httptest.ResponseRecorder
			cpu, alloc := costtest.Measure(func() { w = doBad(t, s, r) })
			worstCPU, worstAlloc = max(worstCPU, cpu), max(worstAlloc, alloc)
			if w.Code >= 500 {
				t.Errorf("form %d %s %.120s…: %d %.200s", form, r.method, r.target, w.Code, w.Body)
			}
			if costtest.Over(cpu, alloc) {
				t.Errorf("form %d %s %.120s…: %v CPU, %d MB allocated", form, r.method, r.target, cpu, alloc>>20)
			}
		}
		m.Flush()
		t.Logf("form %d: %d requests; the costliest took %v of CPU, the hungriest %d MB", form, len(reqs), worstCPU, worstAlloc>>20)
		// and every tool of the form through /mcp: within the budget, no
		// result over 64 KiB
		toolCostFuzz(t, s, fmt.Sprintf("form %d tools", form))
	}
	// the tools again over the whole bundled sample (contracts, payments,
	// meetings, roster, civil service: the largest answers)
	dir := t.TempDir()
	be, err := sampletest.CopyTo(filepath.Join(dir, "index"), sampletest.Full, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := shared.srv.cfg
	cfg.Form, cfg.RatePerSecond, cfg.Burst = 1, 1e9, 1<<30
	d := withServices(cfg, Deps{Search: be, Store: st, Crosswalk: shared.srv.deps.Crosswalk, Now: shared.srv.deps.Now, Logger: quietLog})
	d.MCP = mcp.Handler(mcpDepsOf(d, "http://rw.test"), 1)
	toolCostFuzz(t, New(cfg, d), "form 1 tools over the whole sample")
}

// toolCostFuzz is the tool cost fuzz (costtest.Tools: every tool with
// each argument at its bound, with none and at its maximum limit; within
// the budget, no result over costtest.MaxToolResult) through a server's
// /mcp.
func toolCostFuzz(t *testing.T, s *Server, label string) {
	t.Helper()
	ts := httptest.NewServer(s)
	defer ts.Close()
	sess, err := sdk.NewClient(&sdk.Implementation{Name: "costfuzz", Version: "1"}, nil).
		Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("%s: initialize: %v", label, err)
	}
	defer sess.Close()
	costtest.Tools(t, sess, label)
}
