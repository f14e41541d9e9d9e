package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/servicetest"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// The freshness measurement (-freshness): a replay publisher shows real
// City Record rows one by one at random times; the scheduler's City
// Record job (the production path: Scheduler → RunLive → pipeline) runs
// every -freshness-every; a poller sees when each row is (a) searchable
// (the engine), (b) read through the API (GET /api/notices/<id>; pages
// and feeds read the same engine through the same response cache, which
// every write bumps) and (c) answerable by MCP (get_notice). The lag is
// from the row's appearance upstream. The pipeline's own share (a run's
// start to finish: fetch to searchable) is read from the receipts, and
// the lag at the default schedule (City Record every 5 minutes) is
// projected from it: a row waits up to one interval for the next run.
// (d) digest: a people-lens watch (the rows are Changes in Personnel
// notices) on the real mailer, its digest period cut to a minute
// (RECORDWATCH_DIGEST_EVERY's shortest: there is no "as it happens"
// cadence), writing to an outbox; a row is in a digest
// when its watch's ledger lists it as new in a mail written (sent_at).
// The lag to digest at the default schedule is projected the way /stats
// projects it (record.DigestLagOf): searchable, then the wait for the next
// digest window, then a digest run.

// freshnessTargets are the targets.
const (
	targetSearchableP95 = 15 * time.Minute
	targetPipelineP95   = 10 * time.Second
)

type freshRow struct {
	id      string
	raw     json.RawMessage
	at      time.Time    // shown upstream from
	seen    [4]time.Time // searchable, API, MCP, digest
	pending int
}

func runFreshness(work string, rows int, every time.Duration) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir, err := os.MkdirTemp(work, "freshness-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	data, err := os.ReadFile("testdata/sample/crol/socrata_2026/changes_in_personnel_appointed_2026-05-22.json")
	if err != nil {
		return err
	}
	var sample struct{ Notices []json.RawMessage }
	if err := json.Unmarshal(data, &sample); err != nil {
		return err
	}
	if rows > len(sample.Notices) {
		rows = len(sample.Notices)
	}
	// the publisher: each row shown from a random time over the run
	span := time.Duration(rows) * every / 2
	start := time.Now().Add(every) // the first run sees nothing: rows appear after it
	rnd := rand.New(rand.NewPCG(1, 2))
	pub := make([]*freshRow, rows)
	for i := range pub {
		var f struct {
			RequestID string `json:"request_id"`
		}
		json.Unmarshal(sample.Notices[i], &f)
		// the live API states each row's section; the sample file states
		// it once, in the query its rows were selected by
		var row map[string]any
		json.Unmarshal(sample.Notices[i], &row)
		row["section_name"] = record.SectionChangesInPersonnel
		raw, _ := json.Marshal(row)
		pub[i] = &freshRow{id: f.RequestID, raw: raw, at: start.Add(time.Duration(rnd.Int64N(int64(span))))}
	}
	replay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		off := atoiOr(r.URL.Query().Get("$offset"), 0)
		lim := atoiOr(r.URL.Query().Get("$limit"), 1000)
		now := time.Now()
		var shown []json.RawMessage
		for _, p := range pub {
			if !p.at.After(now) {
				shown = append(shown, p.raw)
			}
		}
		json.NewEncoder(w).Encode(shown[min(off, len(shown)):min(off+lim, len(shown))])
	}))
	defer replay.Close()

	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		return err
	}
	defer be.Close()
	e := search.Cached(be, false)
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	cw := entity.DefaultCrosswalk()
	ix := &indexer.Indexer{Backend: e, Crosswalk: cw, Logger: quietLogger()}
	job := indexer.DefaultJobs()[0]
	job.Every = every
	client := fetch.New()
	client.MaxRetries = -1
	s := &indexer.Scheduler{Indexer: ix, Jobs: []indexer.Job{job}, Receipts: st, Logger: quietLogger(), RetryBase: every,
		Config: indexer.LiveConfig{Client: client, SODAEndpoint: replay.URL + "/resource/dg92-zbpx.json"}}

	// the surfaces, as main.go builds them
	g := servicetest.New(e, cw, view.Links{Base: "http://rw.test", Form: 1}, nil)
	mcpDeps := &mcp.Deps{Search: e, Crosswalk: cw, BaseURL: "http://rw.test", Version: "bench", Notices: g.Notices, Semantic: g.Semantic, Procure: g.Procure,
		Dossiers: g.Dossiers, Land: g.Land, Meetings: g.Meetings, People: g.People, Federated: g.Federated}
	srv := httptest.NewServer(api.New(api.Config{Form: 1, BaseURL: "http://rw.test", RatePerSecond: 1e9, Burst: 1e9, Engine: "embedded"},
		api.Deps{Search: e, Store: st, Crosswalk: cw, Notices: g.Notices, Semantic: g.Semantic, Procure: g.Procure, Dossiers: g.Dossiers, Land: g.Land,
			Meetings: g.Meetings, People: g.People, Federated: g.Federated, MCP: mcp.Handler(mcpDeps, 1)}))
	defer srv.Close()
	sess, err := sdk.NewClient(&sdk.Implementation{Name: "bench-freshness", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		return err
	}
	defer sess.Close()

	// (d) the real mailer and a matching watch, digests every minute (the
	// shortest period RECORDWATCH_DIGEST_EVERY takes)
	digestEvery := max(every, time.Minute)
	m, err := servicetest.Mailer(ctx, mailer.Config{BaseURL: "http://rw.test", Form: 1, OutboxDir: filepath.Join(dir, "outbox"),
		DigestEvery: digestEvery, PollEvery: every / 4}, mailer.Deps{Store: st, Search: e, Crosswalk: cw, Logger: quietLogger(), Receipts: st})
	if err != nil {
		return err
	}
	if _, err := m.Watches().Subscribe(ctx, watch.Request{Email: "bench@example.org", Filter: &watch.Filter{Lens: record.LensPeople},
		Client: "192.0.2.1", Channel: watch.ChannelWeb}); err != nil {
		return err
	}
	ws, err := st.ListWatches(ctx)
	if err != nil || len(ws) != 1 {
		return fmt.Errorf("the digest watch was not stored: %v", err)
	}
	watchID := ws[0].ID
	mailDone := make(chan struct{})
	go func() { m.Run(ctx); close(mailDone) }()
	digestSeen := func() {
		ledger, err := st.Ledger(ctx, watchID)
		if err != nil {
			return
		}
		byID := map[string]*freshRow{}
		for _, p := range pub {
			byID[p.id] = p
		}
		for _, l := range ledger {
			if l.SentAt.IsZero() {
				continue
			}
			for _, id := range l.New {
				if p := byID[id]; p != nil && p.seen[3].IsZero() {
					p.seen[3] = l.SentAt
				}
			}
		}
	}

	logf("freshness: %d rows shown over %s, City Record job every %s", rows, span.Round(time.Second), every)
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	deadline := start.Add(span + digestEvery + 5*every + 10*time.Second)
	for {
		left := 0
		now := time.Now()
		for _, p := range pub {
			if p.at.After(now) || (!p.seen[0].IsZero() && !p.seen[1].IsZero() && !p.seen[2].IsZero() && !p.seen[3].IsZero()) {
				if p.at.After(now) {
					left++
				}
				continue
			}
			left++
			if p.seen[0].IsZero() {
				if _, err := e.Get(ctx, p.id); err == nil {
					p.seen[0] = time.Now()
				}
			}
			if p.seen[1].IsZero() {
				if res, err := http.Get(srv.URL + "/api/notices/" + url.PathEscape(p.id)); err == nil {
					res.Body.Close()
					if res.StatusCode == http.StatusOK {
						p.seen[1] = time.Now()
					}
				}
			}
			if p.seen[2].IsZero() {
				res, err := sess.CallTool(ctx, &sdk.CallToolParams{Name: "get_notice", Arguments: map[string]any{"request_id": p.id}})
				if err == nil && !res.IsError {
					if b, _ := json.Marshal(res.StructuredContent); strings.Contains(string(b), `"found"`) {
						p.seen[2] = time.Now()
					}
				}
			}
		}
		digestSeen()
		if left == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	cancel()
	<-done
	<-mailDone
	var lags [4][]time.Duration
	missed := 0
	for _, p := range pub {
		for k := range 4 {
			if p.seen[k].IsZero() {
				missed++
				continue
			}
			lags[k] = append(lags[k], p.seen[k].Sub(p.at))
		}
	}
	receipts, err := st.Receipts(context.Background(), job.Name, 0)
	if err != nil {
		return err
	}
	var pipe []time.Duration
	for _, r := range receipts {
		if r.Outcome == record.ReceiptOK {
			pipe = append(pipe, r.Finished.Sub(r.Started))
		}
	}
	slices.Sort(pipe)
	fmt.Printf("## Freshness (go -C bench run . -freshness)\n\n")
	fmt.Printf("%d City Record rows shown by a replay publisher at random times over %s; the City Record job (Scheduler → RunLive → pipeline, embedded engine) every %s; %d good runs. Lag from a row's appearance upstream:\n\n",
		rows, span.Round(time.Second), every, len(pipe))
	fmt.Printf("| measured at a %s interval | p50 | p95 | rows |\n|---|---|---|---|\n", every)
	for k, name := range []string{"(a) searchable (engine)", "(b) API read (pages and feeds read the same engine and cache)", "(c) MCP get_notice",
		fmt.Sprintf("(d) in a digest mail (outbox) for a matching watch, digest window %s", digestEvery)} {
		slices.Sort(lags[k])
		fmt.Printf("| %s | %s | %s | %d |\n", name, percentile(lags[k], 50).Round(time.Millisecond), percentile(lags[k], 95).Round(time.Millisecond), len(lags[k]))
	}
	p50, p95 := percentile(pipe, 50), percentile(pipe, 95)
	fmt.Printf("| pipeline's own share (a run's start to finish: fetch to searchable, from the receipts) | %s | %s | %d runs |\n\n",
		p50.Round(time.Millisecond), p95.Round(time.Millisecond), len(pipe))
	def := 5 * time.Minute
	proj50, proj95 := def/2+p50, def*95/100+p95
	fmt.Printf("At the default schedule (City Record every %s), projected: searchable p50 %s, p95 %s (target ≤ %s: %s); pipeline p95 %s (target ≤ %s: %s).\n",
		def, proj50.Round(time.Second), proj95.Round(time.Second), targetSearchableP95, passFail(proj95 <= targetSearchableP95),
		p95.Round(time.Millisecond), targetPipelineP95, passFail(p95 <= targetPipelineP95))
	// (d) at the default schedule, as /stats projects it from the receipts
	digestReceipts, err := st.Receipts(context.Background(), mailer.DigestJob, 0)
	if err != nil {
		return err
	}
	searchable := &record.Lag{SearchableP50Seconds: proj50.Seconds(), SearchableP95Seconds: proj95.Seconds(), Note: "City Record every " + def.String()}
	for _, w := range []time.Duration{mailer.DefaultDigestEvery, def} {
		if dl := record.DigestLagOf(searchable, digestReceipts, w); dl != nil {
			p95 := time.Duration(dl.ToDigestP95Seconds * float64(time.Second))
			fmt.Printf("(d) to a digest mail, digest window %s, projected: p50 %s, p95 %s (a digest run p95 %s over %d runs; the 15-minute target: %s).\n",
				w, time.Duration(dl.ToDigestP50Seconds*float64(time.Second)).Round(time.Second), p95.Round(time.Second),
				time.Duration(dl.RunP95Seconds*float64(time.Second)).Round(time.Millisecond), dl.Runs, passFail(p95 <= targetSearchableP95))
		}
	}
	if missed > 0 {
		fmt.Printf("\n%d row reads never saw their row before the deadline.\n", missed)
	}
	if proj95 > targetSearchableP95 || p95 > targetPipelineP95 || missed > 0 {
		return fmt.Errorf("freshness targets not met")
	}
	return nil
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func passFail(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func atoiOr(s string, def int) int {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		return def
	}
	return n
}
