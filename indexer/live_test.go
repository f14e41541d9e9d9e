package indexer

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// replayClient sends every request to srv, whatever address a source asks
// (the live sources' own endpoints are answered by the replay), without
// retries.
func replayClient(srv *httptest.Server) *fetch.Client {
	c := fetch.New()
	to, _ := url.Parse(srv.URL)
	c.HTTP = &http.Client{Transport: redirect{to}}
	c.MaxRetries = -1
	return c
}

type redirect struct{ to *url.URL }

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host, req.Host = r.to.Scheme, r.to.Host, r.to.Host
	return http.DefaultTransport.RoundTrip(req)
}

// sodaReplay answers City Record rows as SODA does ($limit/$offset), and
// records the $where of each fetch. Failing makes every page after the
// first answer 500; empty makes every answer an empty array.
type sodaReplay struct {
	rows []json.RawMessage

	mu             sync.Mutex
	wheres         []string
	failing, empty bool
}

func (s *sodaReplay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	off, _ := strconv.Atoi(q.Get("$offset"))
	lim, _ := strconv.Atoi(q.Get("$limit"))
	s.mu.Lock()
	defer s.mu.Unlock()
	if off == 0 {
		s.wheres = append(s.wheres, q.Get("$where"))
	}
	switch {
	case s.failing && off > 0:
		http.Error(w, "upstream timeout", http.StatusInternalServerError)
	case s.empty:
		w.Write([]byte("[]"))
	default:
		json.NewEncoder(w).Encode(s.rows[min(off, len(s.rows)):min(off+lim, len(s.rows))])
	}
}

func (s *sodaReplay) set(failing, empty bool) {
	s.mu.Lock()
	s.failing, s.empty = failing, empty
	s.mu.Unlock()
}

func (s *sodaReplay) lastWhere() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wheres[len(s.wheres)-1]
}

// crolObserved is the City Record observation the backend holds.
func crolObserved(t *testing.T, b search.Backend) time.Time {
	t.Helper()
	cov, err := b.Coverage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cov {
		if c.Source == record.SourceCROL {
			return c.ObservedAt
		}
	}
	return time.Time{}
}

// A live City Record fetch runs through the one pipeline: a first fetch
// reads everything and is observed at its start; the next asks only for
// the rows updated since that checkpoint, less LiveOverlap; -full asks
// for everything again. A fetch that fails part way fails and leaves the
// checkpoint where it was; an incremental fetch answered with no rows is
// nothing new (a good fetch, observed); a full fetch answered with none
// fails.
func TestRunLiveResumesFromTheCheckpoint(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile("../testdata/sample/crol/socrata_2026/changes_in_personnel_appointed_2026-05-22.json")
	if err != nil {
		t.Fatal(err)
	}
	replay := &sodaReplay{}
	if err := json.Unmarshal(data, &replay.rows); err != nil {
		var w struct{ Notices []json.RawMessage }
		if err := json.Unmarshal(data, &w); err != nil {
			t.Fatal(err)
		}
		replay.rows = w.Notices
	}
	if len(replay.rows) < 10 {
		t.Fatalf("%d rows in the replay", len(replay.rows))
	}
	srv := httptest.NewServer(replay)
	defer srv.Close()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	now := time.Date(2026, 8, 14, 6, 0, 0, 0, time.UTC)
	ix := sampleIndexer(b)
	ix.Now = func() time.Time { return now }
	cfg := LiveConfig{Client: replayClient(srv), PageSize: 4}

	rep, err := ix.RunLive(ctx, crolSource{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != len(replay.rows) || rep.Notices != len(replay.rows) || rep.Indexed != len(replay.rows) || len(rep.Errors) != 0 {
		t.Fatalf("first fetch: rows %d read %d indexed %d errors %v, want %d", rep.Rows, rep.Notices, rep.Indexed, rep.Errors, len(replay.rows))
	}
	if w := replay.lastWhere(); w != "" {
		t.Errorf("a first fetch asked for %q, want every row", w)
	}
	if res, err := b.Search(ctx, search.Query{Limit: 1}); err != nil || res.Total != len(replay.rows) {
		t.Fatalf("held after the first fetch: %d %v", res.Total, err)
	}
	first := now
	if got := crolObserved(t, b); !got.Equal(first) {
		t.Fatalf("observed %v, want the start of the fetch %v", got, first)
	}

	now = first.Add(24 * time.Hour)
	if _, err := ix.RunLive(ctx, crolSource{}, cfg); err != nil {
		t.Fatal(err)
	}
	want := ":updated_at >= '" + first.Add(-LiveOverlap).In(record.NewYork).Format("2006-01-02T15:04:05") + "'"
	if w := replay.lastWhere(); w != want {
		t.Errorf("an incremental fetch asked for %q, want %q", w, want)
	}
	second := now
	if got := crolObserved(t, b); !got.Equal(second) {
		t.Fatalf("observed %v after the second fetch, want %v", got, second)
	}

	now = second.Add(24 * time.Hour)
	replay.set(true, false)
	if _, err := ix.RunLive(ctx, crolSource{}, cfg); err == nil {
		t.Fatal("a fetch that failed part way succeeded")
	}
	if got := crolObserved(t, b); !got.Equal(second) {
		t.Errorf("a failed fetch moved the observation to %v", got)
	}
	want = ":updated_at >= '" + second.Add(-LiveOverlap).In(record.NewYork).Format("2006-01-02T15:04:05") + "'"
	if w := replay.lastWhere(); w != want {
		t.Errorf("after a failure the fetch asked for %q, want the last completed fetch's checkpoint %q", w, want)
	}
	// an empty answer to the rows updated since the checkpoint is nothing
	// new: a good fetch, observed at its start
	now = now.Add(time.Hour)
	replay.set(false, true)
	if rep, err := ix.RunLive(ctx, crolSource{}, cfg); err != nil || rep.Rows != 0 {
		t.Fatalf("nothing new: %v %+v, want a good fetch of no rows", err, rep)
	}
	if got := crolObserved(t, b); !got.Equal(now) {
		t.Errorf("nothing new: observed %v, want the fetch's start %v", got, now)
	}
	// an empty answer to a fetch of everything is not "nothing new"
	full0 := cfg
	full0.Full = true
	if _, err := ix.RunLive(ctx, crolSource{}, full0); !errors.Is(err, ErrNothingRead) {
		t.Fatalf("a full fetch answered with no rows: %v, want ErrNothingRead", err)
	}

	replay.set(false, false)
	full := cfg
	full.Full = true
	if _, err := ix.RunLive(ctx, crolSource{}, full); err != nil {
		t.Fatal(err)
	}
	if w := replay.lastWhere(); w != "" {
		t.Errorf("a full fetch asked for %q, want every row", w)
	}
}

// A load that read nothing (a missing directory) or kept nothing (every
// row rejected) fails with ErrNothingRead and observes nothing.
func TestLoadOfNothingMovesNoObservation(t *testing.T) {
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := sampleIndexer(b)
	sample := os.DirFS("../testdata/sample")
	rep, err := ix.Load(ctx, crolSource{}, sample, "no-such-dir")
	if !errors.Is(err, ErrNothingRead) || len(rep.Errors) == 0 {
		t.Fatalf("missing directory: %v (errors %v), want ErrNothingRead with the reason", err, rep.Errors)
	}
	if got := crolObserved(t, b); !got.IsZero() {
		t.Errorf("a load of a missing directory observed the source at %v", got)
	}
	if _, err := ix.Load(ctx, payrollSource{}, sample, "no-such-dir"); !errors.Is(err, ErrNothingRead) {
		t.Errorf("missing payroll directory: %v, want ErrNothingRead", err)
	}
	bad := overlay{sample, mapFS("bad/rows.json", `[{"request_id": "", "start_date": "not a date"}]`)}
	if _, err := ix.Load(ctx, crolSource{}, bad, "bad"); !errors.Is(err, ErrNothingRead) {
		t.Errorf("every row rejected: %v, want ErrNothingRead", err)
	}
	if got := crolObserved(t, b); !got.IsZero() {
		t.Errorf("a load that kept nothing observed the source at %v", got)
	}
	if _, err := ix.Load(ctx, crolSource{}, sample, "crol"); err != nil {
		t.Fatal(err)
	}
	if got := crolObserved(t, b); got.IsZero() {
		t.Error("a load that kept rows did not observe the source")
	}
}

func mapFS(name, data string) fstest.MapFS {
	return fstest.MapFS{name: {Data: []byte(data)}}
}

// readRows reads a JSON array of row objects from a file.
func readRows(t *testing.T, name string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rows
}

// The land, meetings and leaders sources fetch live through the same
// pipeline (crol, checkbook and payroll have their own tests above and in
// checkbook_test.go and payroll_test.go): a replay of real rows, answered
// at each source's own address, is linked and written; the same
// addresses answering nothing make land and leaders (whole tables) fail
// with ErrNothingRead; meetings (a window of days) answering nothing has
// nothing new, a good fetch that writes nothing.
func TestLiveSourcesRunThroughThePipeline(t *testing.T) {
	ctx := context.Background()
	tables := map[string][]json.RawMessage{
		"/resource/hgx4-8ukb.json": readRows(t, "../testdata/sample/land/hgx4-8ukb_projects_cityscroll_warehouse_rows_milestone_before_2026-06-15.json"),
		"/resource/t3jq-9nkf.json": readRows(t, "source/leaders/testdata/t3jq-9nkf_NYCGovernanceOrganizations_v1.8.43_2026-06-12.socrata.json"),
		// the meetings' hearing notices: City Record rows with event dates
		"/resource/dg92-zbpx.json": readRows(t, "../testdata/sample/crol/dg92-zbpx_hearings_with_event_date_cityscroll_asof_2026-08-14_event_2026-08-17_to_2026-09-03.json"),
	}
	var mu sync.Mutex
	empty := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		off, _ := strconv.Atoi(q.Get("$offset"))
		lim, _ := strconv.Atoi(q.Get("$limit"))
		mu.Lock()
		rows := tables[r.URL.Path]
		if empty {
			rows = nil
		}
		mu.Unlock()
		if rows == nil { // other tables (project BBLs, Legistar events): none
			w.Write([]byte("[]"))
			return
		}
		json.NewEncoder(w).Encode(rows[min(off, len(rows)):min(off+lim, len(rows))])
	}))
	defer srv.Close()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := sampleIndexer(b)
	cfg := LiveConfig{Client: replayClient(srv)}
	for _, src := range []LiveSource{landSource{}, meetingsSource{}, leadersSource{}} {
		rep, err := ix.RunLive(ctx, src, cfg)
		if err != nil {
			t.Fatalf("%s: %v", src.Name(), err)
		}
		if rep.Rows == 0 || rep.Indexed == 0 {
			t.Errorf("%s: rows %d indexed %d errors %v", src.Name(), rep.Rows, rep.Indexed, rep.Errors)
		}
	}
	mu.Lock()
	empty = true
	mu.Unlock()
	for _, src := range []LiveSource{landSource{}, leadersSource{}} {
		if _, err := ix.RunLive(ctx, src, cfg); !errors.Is(err, ErrNothingRead) {
			t.Errorf("%s answered nothing: %v, want ErrNothingRead", src.Name(), err)
		}
	}
	if rep, err := ix.RunLive(ctx, meetingsSource{}, cfg); err != nil || rep.Indexed != 0 || len(rep.Parts) != 2 {
		t.Errorf("meetings answered nothing: %v %+v, want nothing new (a good fetch of two parts)", err, rep)
	}
}
