package indexer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/opensearch"
)

// outage is a SODA replay of City Record rows that can misbehave the way
// publishers do.
type outage struct {
	rows []json.RawMessage

	mu       sync.Mutex
	mode     string // "", "500", "429", "timeout", "truncated", "renamed", "zero"
	throttle int    // 429s still to answer
}

func (o *outage) set(mode string) {
	o.mu.Lock()
	o.mode, o.throttle = mode, 1
	o.mu.Unlock()
}

func (o *outage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	off, _ := strconv.Atoi(q.Get("$offset"))
	lim, _ := strconv.Atoi(q.Get("$limit"))
	o.mu.Lock()
	mode := o.mode
	throttled := mode == "429" && o.throttle > 0
	if throttled {
		o.throttle--
	}
	o.mu.Unlock()
	page := o.rows[min(off, len(o.rows)):min(off+lim, len(o.rows))]
	switch {
	case mode == "500":
		http.Error(w, "internal error", http.StatusInternalServerError)
	case throttled:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "slow down", http.StatusTooManyRequests)
	case mode == "timeout":
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	case mode == "truncated":
		b, _ := json.Marshal(page)
		w.Write(b[:len(b)/2])
	case mode == "renamed":
		var out []map[string]any
		for _, raw := range page {
			var m map[string]any
			json.Unmarshal(raw, &m)
			m["title_short"] = m["short_title"] // the publisher renamed a column
			delete(m, "short_title")
			out = append(out, m)
		}
		json.NewEncoder(w).Encode(out)
	case mode == "zero":
		w.Write([]byte("[]")) // a day that had rows answers none
	default:
		json.NewEncoder(w).Encode(page)
	}
}

// Outage drills on the embedded engine: the City Record replay answers
// 500, 429 with Retry-After, times out, sends a truncated body, renames a
// column, or answers no rows. In each, what is held is kept whole (same
// count, same titles), the run's receipt is failed with its reason (the
// 429 is waited out as asked and the run succeeds; no rows for the
// window asked is nothing new: a good run), the source reads as failing
// (also past its maximum age), and once the replay answers again the next run succeeds
// without a restart, asking from the last good checkpoint (no window
// skipped), and the source is fresh again.
//
// They run on the embedded engine, and on OpenSearch too when
// OPENSEARCH_URL is set (each drill under its own index prefix, removed
// after).
func TestOutageDrills(t *testing.T) {
	engines := []string{"embedded"}
	if os.Getenv("OPENSEARCH_URL") != "" {
		engines = append(engines, "opensearch")
	} else {
		t.Log("OPENSEARCH_URL is not set: the drills run on the embedded engine only")
	}
	for _, engine := range engines {
		for _, drill := range []string{"500", "429", "timeout", "truncated", "renamed", "zero"} {
			t.Run(engine+"/"+drill, func(t *testing.T) { outageDrill(t, engine, drill) })
		}
	}
}

// drillEngine opens an empty engine of the kind for one drill.
func drillEngine(t *testing.T, kind string) search.Engine {
	t.Helper()
	if kind == "embedded" {
		b, err := embedded.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	cfg := opensearch.Config{URL: os.Getenv("OPENSEARCH_URL"), Username: os.Getenv("OPENSEARCH_USERNAME"),
		Password: os.Getenv("OPENSEARCH_PASSWORD"), IndexPrefix: fmt.Sprintf("rwdrill-%d", time.Now().UnixNano())}
	b, err := opensearch.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close()
		removeIndexes(t, cfg)
	})
	return b
}

// removeIndexes deletes the indexes a drill created on OpenSearch (every
// index named with its prefix).
func removeIndexes(t *testing.T, cfg opensearch.Config) {
	base := strings.TrimRight(strings.Split(cfg.URL, ",")[0], "/")
	req, _ := http.NewRequest(http.MethodGet, base+"/_cat/indices/"+cfg.IndexPrefix+"*?h=index", nil)
	req.SetBasicAuth(cfg.Username, cfg.Password)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Logf("cleanup: %v", err)
		return
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, idx := range strings.Fields(string(body)) {
		del, _ := http.NewRequest(http.MethodDelete, base+"/"+idx, nil)
		del.SetBasicAuth(cfg.Username, cfg.Password)
		if r, err := http.DefaultClient.Do(del); err != nil {
			t.Logf("cleanup %s: %v", idx, err)
		} else {
			r.Body.Close()
		}
	}
}

func outageDrill(t *testing.T, engine, drill string) {
	ctx := context.Background()
	replay := &outage{rows: crolReplay(t).rows}
	replay.rows = replay.rows[:len(replay.rows)-1] // the real rows only
	srv, st := liveEnv(t, replay)
	b := drillEngine(t, engine)
	now := time.Date(2026, 8, 14, 6, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	ix := sampleIndexer(b)
	ix.Now = clock
	client := replayClient(srv)
	// good runs get room on a busy machine; the timeout drill's run alone
	// waits 300 ms on an upstream that hangs for 2 s
	client.HTTP.Timeout = 30 * time.Second
	client.MaxRetries = 2
	var waits []time.Duration
	client.Sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	job := DefaultJobs()[0]
	s := &Scheduler{Indexer: ix, Jobs: []Job{job}, Receipts: st, Now: clock, Config: LiveConfig{Client: client, PageSize: 10}}

	good := s.RunJob(ctx, job)
	if good.Outcome != record.ReceiptOK {
		t.Fatalf("first run: %+v", good)
	}
	held := heldTitles(t, b)
	if len(held) != len(replay.rows) || len(held) > 100 {
		t.Fatalf("held %d, want %d", len(held), len(replay.rows))
	}

	now = now.Add(5 * time.Minute)
	replay.set(drill)
	if drill == "timeout" {
		client.HTTP.Timeout = 300 * time.Millisecond
	}
	rc := s.RunJob(ctx, job)
	client.HTTP.Timeout = 30 * time.Second
	if drill == "429" {
		if rc.Outcome != record.ReceiptOK || len(waits) == 0 || waits[0] != time.Second {
			t.Fatalf("429 with Retry-After: 1: %+v, waits %v", rc, waits)
		}
		return
	}
	if drill == "zero" {
		// an incremental fetch answered with no rows has nothing new: a
		// good run that writes nothing and observes the source (its
		// checkpoint moves; the next run re-reads LiveOverlap before it)
		if rc.Outcome != record.ReceiptOK || rc.RowsRead != 0 || rc.Written != 0 {
			t.Fatalf("zero: the run's receipt %+v, want a good run of nothing new", rc)
		}
		if after := heldTitles(t, b); !equalTitles(after, held) {
			t.Errorf("zero changed what is held")
		}
		if got := crolObserved(t, b); !got.Equal(rc.Started) {
			t.Errorf("zero: observed %v, want the quiet run's start %v", got, rc.Started)
		}
		runs, _ := SourceRuns(ctx, []Job{job}, st)
		if cov := record.Freshen(record.SourceCoverage{Source: record.SourceCROL, Records: len(held), ObservedAt: rc.Started}, runs(record.SourceCROL), now); cov.State != record.Fresh {
			t.Errorf("zero: crol %+v, want fresh", cov)
		}
		now = now.Add(5 * time.Minute)
		replay.set("")
		if back := s.RunJob(ctx, job); back.Outcome != record.ReceiptOK || !back.WindowFrom.Equal(rc.Started.Add(-LiveOverlap)) {
			t.Fatalf("zero: the next run %+v, want a good run from the quiet run's checkpoint", back)
		}
		return
	}
	if rc.Outcome != record.ReceiptFailed || rc.Error == "" {
		t.Fatalf("%s: the run's receipt %+v", drill, rc)
	}
	if drill == "renamed" && !strings.Contains(rc.Error, "schema drift") {
		t.Errorf("a renamed column: %q, want a schema drift", rc.Error)
	}
	if after := heldTitles(t, b); !equalTitles(after, held) {
		t.Errorf("%s changed what is held", drill)
	}
	runs, err := SourceRuns(ctx, []Job{job}, st)
	if err != nil {
		t.Fatal(err)
	}
	cov := record.Freshen(record.SourceCoverage{Source: record.SourceCROL, Records: len(held), ObservedAt: good.Started}, runs(record.SourceCROL), now)
	if cov.State != record.Failing || !cov.StateSince.Equal(rc.Started) || cov.LastError != rc.Error {
		t.Errorf("%s: crol %+v, want failing since the run", drill, cov)
	}
	// past the maximum age it still reads failing (whatever its age), the
	// last error kept
	late := record.Freshen(cov, runs(record.SourceCROL), now.Add(2*time.Hour))
	if late.State != record.Failing || late.LastError == "" {
		t.Errorf("%s two hours on: %+v, want failing", drill, late)
	}

	now = now.Add(5 * time.Minute)
	replay.set("")
	back := s.RunJob(ctx, job)
	if back.Outcome != record.ReceiptOK || !back.WindowFrom.Equal(good.Started.Add(-LiveOverlap)) {
		t.Fatalf("%s: the recovery %+v, want a good run from the last good checkpoint", drill, back)
	}
	runs, _ = SourceRuns(ctx, []Job{job}, st)
	if r := runs(record.SourceCROL); !r.FailingSince.IsZero() || !r.LastOK.Equal(back.Finished) {
		t.Errorf("%s: after the recovery %+v", drill, r)
	}
	if after := heldTitles(t, b); !equalTitles(after, held) {
		t.Errorf("%s: the recovery changed what is held", drill)
	}
}

// heldTitles are the City Record notices held, id → title.
func heldTitles(t *testing.T, b search.Backend) map[string]string {
	t.Helper()
	res, err := b.Search(context.Background(), search.Query{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, h := range res.Hits {
		out[h.Notice.RequestID] = h.Notice.Title
	}
	return out
}

func equalTitles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v || v == "" {
			return false
		}
	}
	return true
}
