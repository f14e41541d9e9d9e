package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/synth"
	"github.com/recordwatch/recordwatch/mappings"
)

// The three-node cluster test runs on its own cluster, started and stopped
// by docker/opensearch-local.sh on its own home and ports, so it never
// touches a node someone else runs (CI's on 9250, a benchmark's on 9290).
const (
	clusterTestEnv       = "RECORDWATCH_OPENSEARCH_CLUSTER_TEST"
	clusterTestHTTP      = 9260
	clusterTestTransport = 9360
	// clusterTestSynth is how many synthetic notices follow the bundled
	// sample (RECORDWATCH_CLUSTER_TEST_N overrides it), written in batches
	// of clusterTestBatch so the load spans the node's loss.
	clusterTestSynth = 4000
	clusterTestBatch = 100
	// clusterTestDown is how long the killed node stays down at least.
	clusterTestDown = 15 * time.Second
)

const clusterTestCommand = clusterTestEnv + "=1 go test ./internal/search/opensearch/ -count=1 -v -run TestClusterSurvivesANodeLoss -timeout 15m"

// TestClusterSurvivesANodeLoss starts a three-node cluster, creates the
// indexes with 3 shards and 1 replica, and bulk-loads the bundled sample
// (through the indexer, as a deployment loads it) and a few thousand
// synthetic notices. A quarter into the load the elected cluster manager
// is killed with SIGKILL; it is started again (the script's start on a
// running set) after clusterTestDown while the load goes on. Searches and
// reads run in a loop all along and none may fail. When the cluster is
// green again, every written notice is found exactly once (count and a
// walk over every page by id), the passages are all there, and a handful of
// queries with non-relevance sorts answer as the embedded engine answers
// over the same data (ids in order, totals and facets).
//
// It runs only with RECORDWATCH_OPENSEARCH_CLUSTER_TEST=1 (clusterTestCommand)
// and takes one to two and a half minutes on two cores. The cluster is
// removed at the end (clean), or stopped with its logs kept when the test
// fails; RECORDWATCH_CLUSTER_TEST_HOME moves its home and
// RECORDWATCH_CLUSTER_TEST_N sets the number of synthetic notices.
func TestClusterSurvivesANodeLoss(t *testing.T) {
	if os.Getenv(clusterTestEnv) != "1" {
		t.Skip(clusterTestEnv + "=1 not set: skipped the three-node OpenSearch test (a node killed during a bulk load; " +
			"it starts its own cluster with docker/opensearch-local.sh on ports 9260-9262/9360-9362, home " + clusterTestHome() + "). Run it with: " + clusterTestCommand)
	}
	if testing.Short() {
		t.Skip("starts a three-node cluster")
	}
	begin := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	n := clusterTestSynth
	if v, err := strconv.Atoi(os.Getenv("RECORDWATCH_CLUSTER_TEST_N")); err == nil && v > 0 {
		n = v
	}

	// ---- the cluster
	cl := newTestCluster(t)
	start := time.Now()
	cl.must(ctx, "clean") // a cluster an interrupted run left, and its data
	t.Cleanup(func() {
		what := "clean"
		if t.Failed() {
			what = "stop" // keep the logs
		}
		if _, err := cl.run(context.Background(), what); err != nil {
			t.Error(err)
		} else if what == "stop" {
			t.Logf("cluster stopped; its logs are under %s/nodes", cl.home)
		}
	})
	url := strings.TrimSpace(cl.must(ctx, "start", "3"))
	if strings.Count(url, ",") != 2 {
		t.Fatalf("start 3 printed %q, want three node URLs", url)
	}
	t.Logf("timing: three nodes up in %s (%s)", time.Since(start).Round(time.Millisecond), url)

	one := 1
	now := func() time.Time { return time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork) }
	var engineLogs lockedBuffer
	cfg := Config{URL: url, IndexPrefix: "rwcluster-" + randomHex(t), Shards: 3, Replicas: &one, Now: now,
		Logger: slog.New(slog.NewTextHandler(&engineLogs, nil))}
	osb, err := Open(ctx, cfg)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer osb.Close()
	for _, kind := range []string{mappings.Notices, mappings.Passages} {
		shards, replicas := cl.layout(ctx, osb, osb.IndexName(kind, mappings.Version(kind)))
		if shards != "3" || replicas != "1" {
			t.Fatalf("%s: %s shards, %s replicas; want 3 and 1", kind, shards, replicas)
		}
	}
	cl.waitGreen(ctx, osb, 2*time.Minute)

	// ---- the corpus: the sample as the indexer reads it, then synthetic notices
	sample := os.DirFS("../../../testdata/sample")
	cw := entity.DefaultCrosswalk()
	corpus, errs := crol.Scan(sample, "crol", cw)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	model, err := synth.Learn(corpus.Notices)
	if err != nil {
		t.Fatal(err)
	}
	var synthetic []record.Notice
	for nt := range model.All(n, 7) {
		synthetic = append(synthetic, nt)
	}
	want := map[string]bool{}
	wantPassages := 0
	for _, d := range indexer.Docs(append(slices.Clone(corpus.Notices), synthetic...)) {
		if want[d.Notice.RequestID] {
			t.Fatalf("the corpus holds %s twice", d.Notice.RequestID)
		}
		want[d.Notice.RequestID] = true
		wantPassages += len(d.Passages)
	}
	batches := (len(corpus.Notices)+clusterTestBatch-1)/clusterTestBatch + (n+clusterTestBatch-1)/clusterTestBatch

	// ---- the load, the kill and the restart, with queries all along
	var logs lockedBuffer
	wb := &countingBackend{Backend: osb}
	ix := &indexer.Indexer{Backend: wb, Crosswalk: cw, Now: now, Batch: clusterTestBatch,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	q := startQuerying(ctx, osb, corpus.Notices[0].RequestID)
	loadStart := time.Now()
	loadDone := make(chan error, 1)
	go func() {
		if _, err := ix.LoadCROLDir(ctx, sample, "crol"); err != nil {
			loadDone <- err
			return
		}
		loadDone <- ix.Write(ctx, synthetic, "synthetic notices")
	}()

	// kill the elected cluster manager a quarter into the load
	var killed int
	var killedAt time.Time
	for killed == 0 {
		select {
		case err := <-loadDone:
			q.stop()
			t.Fatalf("the load ended (%v) before a node was killed: raise RECORDWATCH_CLUSTER_TEST_N", err)
		case <-time.After(100 * time.Millisecond):
		}
		if wb.acked.Load() >= int64(batches/4) {
			killed = cl.manager(ctx, osb)
			cl.kill(killed)
			killedAt = time.Now()
			q.phase("node down")
			t.Logf("timing: killed rw-node-%d (the cluster manager) with SIGKILL %s into the load, after %d of %d batches",
				killed, killedAt.Sub(loadStart).Round(time.Millisecond), wb.acked.Load(), batches)
		}
	}
	type restart struct {
		took time.Duration
		err  error
	}
	restarted := make(chan restart, 1)
	go func() {
		select {
		case <-time.After(time.Until(killedAt.Add(clusterTestDown))):
		case <-ctx.Done():
		}
		q.phase("node restarting")
		s := time.Now()
		_, err := cl.run(ctx, "start", "3")
		restarted <- restart{time.Since(s), err}
	}()
	if err := <-loadDone; err != nil {
		q.stop()
		t.Fatalf("the load failed: %v\nindexer log:\n%s", err, logs.String())
	}
	loadTook := time.Since(loadStart)
	rs := <-restarted
	if rs.err != nil {
		q.stop()
		t.Fatalf("restarting the killed node: %v", rs.err)
	}
	restartTook := rs.took
	t.Logf("timing: load of %d notices (%d batches) took %s; node restart (start 3) took %s, %s after the kill",
		len(want), batches, loadTook.Round(time.Millisecond), restartTook.Round(time.Millisecond), time.Since(killedAt).Round(time.Millisecond))
	q.phase("waiting for green")
	greenStart := time.Now()
	cl.waitGreen(ctx, osb, 4*time.Minute)
	greenTook := time.Since(greenStart)
	t.Logf("timing: green again %s after the restart", greenTook.Round(time.Millisecond))
	q.phase("green")
	time.Sleep(2 * time.Second) // a few queries on the recovered cluster
	q.stop()
	retries := strings.Count(logs.String(), "sending the batch again")
	t.Logf("indexer: %d batches acknowledged, %d Upsert calls failed after the client's retries, %d batch retries by the indexer; "+
		"engine: %d bulk requests sent again with the items refused as busy, %d searches answered in part sent again",
		wb.acked.Load(), wb.failed.Load(), retries, strings.Count(engineLogs.String(), "bulk items refused as busy"),
		strings.Count(engineLogs.String(), "search answered in part"))
	// queries must have run through the node's loss and through the wait
	// for green, unless the cluster was green again before one could
	// (the querier sends one every 50 ms plus its own time)
	mustRun := []string{"node down"}
	if greenTook >= time.Second {
		mustRun = append(mustRun, "waiting for green")
	}
	q.report(t, mustRun)

	// ---- every acknowledged notice exactly once
	if err := osb.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := osb.Search(ctx, search.Query{Limit: 1})
	if err != nil || res.Total != len(want) {
		t.Errorf("count by query: %d notices (%v), want %d written", res.Total, err, len(want))
	}
	seen := map[string]int{}
	cursor := ""
	for {
		page, err := osb.Search(ctx, search.Query{Sort: search.SortOldest, Limit: search.MaxLimit, Cursor: cursor})
		if err != nil {
			t.Fatalf("walking the pages: %v", err)
		}
		for _, h := range page.Hits {
			seen[h.Notice.RequestID]++
		}
		if page.NextCursor == "" || len(page.Hits) == 0 {
			break
		}
		cursor = page.NextCursor
	}
	var dup, missing, extra []string
	for id, c := range seen {
		if c > 1 {
			dup = append(dup, id)
		}
		if !want[id] {
			extra = append(extra, id)
		}
	}
	for id := range want {
		if seen[id] == 0 {
			missing = append(missing, id)
		}
	}
	if len(dup)+len(missing)+len(extra) > 0 || len(seen) != len(want) {
		t.Errorf("walking every page: %d ids, %d written; %d found more than once %.5q, %d missing %.5q, %d never written %.5q",
			len(seen), len(want), len(dup), dup, len(missing), missing, len(extra), extra)
	}
	if got := cl.count(ctx, osb, osb.passages()); got != wantPassages {
		t.Errorf("passages: %d held, want %d", got, wantPassages)
	}

	// ---- the same answers as the embedded engine over the same data
	emb, err := embedded.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	eix := &indexer.Indexer{Backend: emb, Crosswalk: cw, Now: now, Batch: 1000, Logger: slog.New(slog.DiscardHandler)}
	if _, err := eix.LoadCROLDir(ctx, sample, "crol"); err != nil {
		t.Fatal(err)
	}
	if err := eix.Write(ctx, synthetic, "synthetic notices"); err != nil {
		t.Fatal(err)
	}
	vendor := model.Vendors()[0]
	from, to := time.Date(2025, 1, 1, 0, 0, 0, 0, record.NewYork), time.Date(2025, 12, 31, 0, 0, 0, 0, record.NewYork)
	for _, query := range []search.Query{
		{Sort: search.SortNewest, Limit: 100},
		{Sort: search.SortOldest, Limit: 100, Facets: true},
		{Text: "construction", Sort: search.SortNewest, Limit: 100, Facets: true},
		{Text: "services repair -bronx", Sort: search.SortOldest, Limit: 100},
		{Lenses: []string{record.LensMoney}, Sort: search.SortAmount, Limit: 100},
		{VendorStems: []string{vendor}, Sort: search.SortNewest, Limit: 100},
		{From: from, To: to, Sort: search.SortOldest, Limit: 100},
		{Lenses: []string{record.LensMeetings}, Sort: search.SortEvent, Limit: 100},
	} {
		eq, oq := query, query             // each engine's cursor leads to its own next page
		for page := 1; page <= 2; page++ { // the first page and the one its cursor leads to
			e, eerr := emb.Search(ctx, eq)
			o, oerr := osb.Search(ctx, oq)
			if eerr != nil || oerr != nil {
				t.Errorf("query %s page %d: embedded %v, opensearch %v", describe(query), page, eerr, oerr)
				break
			}
			if e.Total != o.Total || !slices.Equal(hitIDs(e), hitIDs(o)) {
				t.Errorf("query %s page %d: embedded %d hits %q, opensearch %d hits %q", describe(query), page, e.Total, hitIDs(e), o.Total, hitIDs(o))
				break
			}
			if !reflect.DeepEqual(e.Facets, o.Facets) {
				t.Errorf("query %s page %d: facets differ:\nembedded   %v\nopensearch %v", describe(query), page, e.Facets, o.Facets)
			}
			if page == 1 && e.Total < 10 {
				t.Errorf("query %s finds %d notices: too few to compare", describe(query), e.Total)
			}
			if e.NextCursor == "" || o.NextCursor == "" {
				if e.NextCursor != o.NextCursor {
					t.Errorf("query %s page %d: only one engine has a next page", describe(query), page)
				}
				break
			}
			eq.Cursor, oq.Cursor = e.NextCursor, o.NextCursor
		}
	}
	t.Logf("timing: whole test %s", time.Since(begin).Round(time.Millisecond))
}

func hitIDs(r search.Result) []string {
	out := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		out[i] = h.Notice.RequestID
	}
	return out
}

func describe(q search.Query) string {
	var parts []string
	for k, v := range map[string]string{"text": q.Text, "sort": q.Sort, "lens": strings.Join(q.Lenses, ","), "vendor": strings.Join(q.VendorStems, ",")} {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if !q.From.IsZero() {
		parts = append(parts, "from="+q.From.Format(time.DateOnly), "to="+q.To.Format(time.DateOnly))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// countingBackend counts the Upsert calls the indexer makes that the
// engine acknowledged and those that failed (after the client's retries).
type countingBackend struct {
	*Backend
	acked, failed atomic.Int64
}

func (c *countingBackend) Upsert(ctx context.Context, docs []search.Doc) error {
	err := c.Backend.Upsert(ctx, docs)
	if err != nil {
		c.failed.Add(1)
	} else {
		c.acked.Add(1)
	}
	return err
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// ---- queries during the load

// querier runs reads in a loop, one after another, and keeps per phase
// how many ran, how many failed (the first few errors) and the slowest.
type querier struct {
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	order  []string
	phases map[string]*phaseStats
	cur    string
}

type phaseStats struct {
	n, failed int
	slowest   time.Duration
	errs      []string
}

func startQuerying(ctx context.Context, b *Backend, knownID string) *querier {
	ctx, cancel := context.WithCancel(ctx)
	q := &querier{cancel: cancel, done: make(chan struct{}), phases: map[string]*phaseStats{}}
	q.phase("before the kill")
	reads := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"search newest", func(ctx context.Context) error {
			_, err := b.Search(ctx, search.Query{Sort: search.SortNewest, Limit: 20})
			return err
		}},
		{"search keywords with facets", func(ctx context.Context) error {
			_, err := b.Search(ctx, search.Query{Text: "construction services", Sort: search.SortNewest, Limit: 20, Facets: true})
			return err
		}},
		{"search money by amount", func(ctx context.Context) error {
			_, err := b.Search(ctx, search.Query{Lenses: []string{record.LensMoney}, Sort: search.SortAmount, Limit: 50})
			return err
		}},
		{"get", func(ctx context.Context) error {
			_, err := b.Get(ctx, knownID)
			if record.ErrorCode(err) == record.ENOTFOUND {
				return nil // not written yet: the load has just begun
			}
			return err
		}},
	}
	go func() {
		defer close(q.done)
		for i := 0; ctx.Err() == nil; i++ {
			r := reads[i%len(reads)]
			s := time.Now()
			err := r.fn(ctx)
			took := time.Since(s)
			if ctx.Err() != nil {
				return // stopped mid-request
			}
			q.mu.Lock()
			st := q.phases[q.cur]
			st.n++
			st.slowest = max(st.slowest, took)
			if err != nil {
				st.failed++
				if len(st.errs) < 5 {
					st.errs = append(st.errs, fmt.Sprintf("%s at %s: %v", r.name, s.Format("15:04:05.000"), err))
				}
			}
			q.mu.Unlock()
			time.Sleep(50 * time.Millisecond)
		}
	}()
	return q
}

func (q *querier) phase(name string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.phases[name]; !ok {
		q.phases[name] = &phaseStats{}
		q.order = append(q.order, name)
	}
	q.cur = name
}

func (q *querier) stop() {
	q.cancel()
	<-q.done
}

func (q *querier) report(t *testing.T, mustRun []string) {
	t.Helper()
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, name := range q.order {
		st := q.phases[name]
		t.Logf("queries %s: %d run, %d failed, slowest %s", name, st.n, st.failed, st.slowest.Round(time.Millisecond))
		if st.failed > 0 {
			t.Errorf("%d queries failed %s; first: %s", st.failed, name, strings.Join(st.errs, "; "))
		}
	}
	for _, name := range mustRun {
		if st := q.phases[name]; st == nil || st.n == 0 {
			t.Errorf("no query ran while %s", name)
		}
	}
}

// ---- the cluster

type testCluster struct {
	t      *testing.T
	script string
	home   string
	env    []string
}

// clusterTestHome is the script's home for this test's cluster:
// RECORDWATCH_CLUSTER_TEST_HOME, else /var/cache/rw-cluster-test as root (the
// nodes' user must reach it), else rw-cluster-test in the user's cache.
func clusterTestHome() string {
	if h := os.Getenv("RECORDWATCH_CLUSTER_TEST_HOME"); h != "" {
		return h
	}
	if os.Geteuid() == 0 {
		return "/var/cache/rw-cluster-test"
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "rw-cluster-test")
	}
	return filepath.Join(os.TempDir(), "rw-cluster-test")
}

func newTestCluster(t *testing.T) *testCluster {
	script, err := filepath.Abs("../../../docker/opensearch-local.sh")
	if err != nil {
		t.Fatal(err)
	}
	home := clusterTestHome()
	return &testCluster{t: t, script: script, home: home, env: append(os.Environ(),
		"RECORDWATCH_OPENSEARCH_HOME="+home,
		"RECORDWATCH_OPENSEARCH_HTTP_PORT="+strconv.Itoa(clusterTestHTTP),
		"RECORDWATCH_OPENSEARCH_TRANSPORT_PORT="+strconv.Itoa(clusterTestTransport),
		"RECORDWATCH_OPENSEARCH_HEAP=512m",
	)}
}

// run runs the script and returns its output.
func (c *testCluster) run(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, c.script, args...)
	cmd.Env = c.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("opensearch-local.sh %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

// must runs the script; a failure ends the test.
func (c *testCluster) must(ctx context.Context, args ...string) string {
	out, err := c.run(ctx, args...)
	if err != nil {
		c.t.Fatal(err)
	}
	return out
}

// kill sends SIGKILL to node i (its pid file is the script's).
func (c *testCluster) kill(i int) {
	raw, err := os.ReadFile(filepath.Join(c.home, "run", fmt.Sprintf("node-%d.pid", i)))
	if err != nil {
		c.t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil || pid <= 1 {
		c.t.Fatalf("pid file of node %d holds %q", i, raw)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		c.t.Fatalf("kill node %d (pid %d): %v", i, pid, err)
	}
}

// rawGet is a GET of a path the typed API has no need to cover here.
type rawGet string

func (r rawGet) GetRequest(method string) (*http.Request, error) {
	return http.NewRequest(method, string(r), nil)
}

// manager is the number of the elected cluster manager (rw-node-<i>).
func (c *testCluster) manager(ctx context.Context, b *Backend) int {
	var rows []struct {
		Node string `json:"node"`
	}
	if _, err := b.client.Do(ctx, "cat cluster manager", http.MethodGet, rawGet("/_cat/cluster_manager?format=json"), &rows); err != nil {
		c.t.Fatal(err)
	}
	if len(rows) != 1 {
		c.t.Fatalf("_cat/cluster_manager = %+v", rows)
	}
	i, err := strconv.Atoi(strings.TrimPrefix(rows[0].Node, "rw-node-"))
	if err != nil || i < 1 || i > 3 {
		c.t.Fatalf("cluster manager %q is not one of rw-node-1…3", rows[0].Node)
	}
	return i
}

// layout reads an index's number of shards and replicas.
func (c *testCluster) layout(ctx context.Context, b *Backend, index string) (shards, replicas string) {
	var got map[string]struct {
		Settings struct {
			Index struct {
				Shards   string `json:"number_of_shards"`
				Replicas string `json:"number_of_replicas"`
			} `json:"index"`
		} `json:"settings"`
	}
	if _, err := b.client.Do(ctx, "settings", http.MethodGet, rawGet("/"+index+"/_settings"), &got); err != nil {
		c.t.Fatal(err)
	}
	s := got[index].Settings.Index
	return s.Shards, s.Replicas
}

// count is the number of documents an index or alias holds.
func (c *testCluster) count(ctx context.Context, b *Backend, index string) int {
	var got struct {
		Count json.Number `json:"count"`
	}
	if _, err := b.client.Do(ctx, "count", http.MethodGet, rawGet("/"+index+"/_count"), &got); err != nil {
		c.t.Fatal(err)
	}
	n, _ := got.Count.Int64()
	return int(n)
}

// waitGreen waits until the cluster has three nodes and every shard copy
// of every index assigned.
func (c *testCluster) waitGreen(ctx context.Context, b *Backend, limit time.Duration) {
	deadline := time.Now().Add(limit)
	var last string
	for time.Now().Before(deadline) {
		var h struct {
			Status   string `json:"status"`
			Nodes    int    `json:"number_of_nodes"`
			TimedOut bool   `json:"timed_out"`
		}
		status, err := b.client.Do(ctx, "health", http.MethodGet, opensearchapi.ClusterHealthReq{Params: opensearchapi.ClusterHealthParams{
			WaitForStatus: "green", WaitForNodes: "3", Timeout: 10 * time.Second,
		}}, &h, http.StatusRequestTimeout)
		if err == nil && status == http.StatusOK && h.Status == "green" && h.Nodes == 3 && !h.TimedOut {
			return
		}
		last = fmt.Sprintf("status %d %+v %v", status, h, err)
		if ctx.Err() != nil {
			break
		}
		time.Sleep(time.Second)
	}
	c.t.Fatalf("the cluster is not green within %s: %s", limit, last)
}
