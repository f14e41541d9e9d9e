package crol

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
)

// sodaRow is one real row object, replayed exactly as the file holds it.
type sodaRow struct {
	id, start string
	raw       json.RawMessage
}

// realSODARows loads the row objects of the three socrata_2026 sample files
// (167 rows, no request id repeated), ordered by request_id like SODA's
// $order=request_id.
func realSODARows(t *testing.T) []sodaRow {
	t.Helper()
	var out []sodaRow
	for _, name := range []string{
		"socrata_2026/agency_rules_2025-08-19_to_2026-07-22.json",
		"socrata_2026/changes_in_personnel_appointed_2026-05-22.json",
		"socrata_2026/open_solicitations_snapshot_2026-08-03.json",
	} {
		data, err := fs.ReadFile(repoRoot, path.Join(sampleDir, name))
		if err != nil {
			t.Fatal(err)
		}
		var list []json.RawMessage
		if err := json.Unmarshal(data, &list); err != nil {
			var w struct{ Notices []json.RawMessage }
			if err := json.Unmarshal(data, &w); err != nil {
				t.Fatal(err)
			}
			list = w.Notices
		}
		for _, raw := range list {
			var r struct {
				RequestID string `json:"request_id"`
				StartDate string `json:"start_date"`
			}
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatal(err)
			}
			out = append(out, sodaRow{r.RequestID, r.StartDate, raw})
		}
	}
	slices.SortStableFunc(out, func(a, b sodaRow) int {
		if a.id < b.id {
			return -1
		} else if a.id > b.id {
			return 1
		}
		return 0
	})
	if len(out) != 167 {
		t.Fatalf("%d rows, want 167", len(out))
	}
	return out
}

// sodaServer replays rows like the SODA endpoint: $where on start_date,
// $limit/$offset paging. It fails the first request for offset 50 with 429
// (Retry-After: 2) and the first for offset 100 with 503.
type sodaServer struct {
	t        *testing.T
	rows     []sodaRow
	token    string
	where    string
	limit    int
	mu       sync.Mutex
	requests []string // offsets asked for, in order
	failed   map[int]bool
}

func (s *sodaServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.requests = append(s.requests, q.Get("$offset"))
	s.mu.Unlock()
	if r.URL.Path != "/resource/dg92-zbpx.json" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	if got := r.Header.Get("X-App-Token"); got != s.token {
		s.t.Errorf("X-App-Token = %q, want %q", got, s.token)
	}
	if got := r.Header.Get("User-Agent"); got != fetch.UserAgent {
		s.t.Errorf("User-Agent = %q", got)
	}
	if got := q.Get("$order"); got != "request_id" {
		s.t.Errorf("$order = %q", got)
	}
	if got := q.Get("$where"); got != s.where {
		s.t.Errorf("$where = %q, want %q", got, s.where)
	}
	if got := q.Get("$limit"); got != strconv.Itoa(s.limit) {
		s.t.Errorf("$limit = %q, want %d", got, s.limit)
	}
	offset, err := strconv.Atoi(q.Get("$offset"))
	if err != nil {
		http.Error(w, `{"error":true,"message":"bad $offset"}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	failNow := !s.failed[offset] && (offset == 50 || offset == 100)
	s.failed[offset] = true
	s.mu.Unlock()
	if failNow && offset == 50 {
		w.Header().Set("Retry-After", "2")
		http.Error(w, `{"error":true,"message":"Too many requests"}`, http.StatusTooManyRequests)
		return
	}
	if failNow && offset == 100 {
		http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
		return
	}
	var sel []json.RawMessage
	for _, r := range s.selected() {
		sel = append(sel, r.raw)
	}
	page := []json.RawMessage{}
	if offset < len(sel) {
		page = sel[offset:min(offset+s.limit, len(sel))]
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(page)
}

// selected applies the test's $where (start_date >= 2026-05-01).
func (s *sodaServer) selected() []sodaRow {
	var out []sodaRow
	for _, r := range s.rows {
		if s.where == "" || r.start >= "2026-05-01T00:00:00" {
			out = append(out, r)
		}
	}
	return out
}

type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (r *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	r.waits = append(r.waits, d)
	r.mu.Unlock()
	return ctx.Err()
}

func newTestFetcher(srv *httptest.Server, rec *sleepRecorder) *Fetcher {
	c := fetch.New()
	c.Sleep = rec.sleep
	c.BaseDelay = 100 * time.Millisecond
	return &Fetcher{Client: c, BaseURL: srv.URL + "/resource/dg92-zbpx.json", AppToken: "test-token", PageSize: 50}
}

// TestFetchPagesWithRetries replays real rows in pages of 50 with a 429
// and a 503 on the way; every row arrives exactly once, in order.
func TestFetchPagesWithRetries(t *testing.T) {
	since := time.Date(2026, 5, 1, 4, 0, 0, 0, time.UTC) // midnight in New York
	s := &sodaServer{t: t, rows: realSODARows(t), token: "test-token", limit: 50,
		where: "start_date >= '2026-05-01T00:00:00'", failed: map[int]bool{}}
	want := s.selected()
	if len(want) <= 100 || len(want)%50 == 0 {
		t.Fatalf("%d selected rows: the test needs more than two pages and a short last page", len(want))
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	rec := &sleepRecorder{}
	f := newTestFetcher(srv, rec)
	var progress []int
	f.Progress = func(done int) { progress = append(progress, done) }
	fetchedAt := time.Date(2026, 8, 20, 12, 0, 0, 0, time.UTC)
	f.Now = func() time.Time { return fetchedAt }

	var got []Row
	var pages []int
	n, err := f.Fetch(context.Background(), since, func(rows []Row) error {
		pages = append(pages, len(rows))
		got = append(got, rows...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(want) || len(got) != len(want) {
		t.Fatalf("fetched %d (%d reported), want %d", len(got), n, len(want))
	}
	seen := map[string]bool{}
	for i, r := range got {
		id := r.Fields["requestid"]
		if id != want[i].id || seen[id] {
			t.Fatalf("row %d = %s, want %s (or repeated)", i, id, want[i].id)
		}
		seen[id] = true
		if !r.AllColumns || !r.ObservedAt.Equal(fetchedAt) || r.Format != FormatJSON {
			t.Fatalf("row %s: all %v observed %v format %q", id, r.AllColumns, r.ObservedAt, r.Format)
		}
		if _, err := Normalize(r, nil); err != nil {
			t.Fatal(err)
		}
	}
	wantPages := []int{50, 50}
	wantPages = append(wantPages, len(want)-100)
	if !slices.Equal(pages, wantPages) {
		t.Errorf("pages %v, want %v", pages, wantPages)
	}
	if !slices.Equal(progress, []int{50, 100, len(want)}) {
		t.Errorf("progress %v", progress)
	}
	if !slices.Equal(s.requests, []string{"0", "50", "50", "100", "100"}) {
		t.Errorf("requests %v", s.requests)
	}
	if !slices.Equal(rec.waits, []time.Duration{2 * time.Second, 100 * time.Millisecond}) {
		t.Errorf("waits %v: want Retry-After 2s, then the first backoff", rec.waits)
	}
}

// TestFetchAll: without a since-time there is no $where, and Pages yields
// the same rows; stopping the iterator stops the requests.
func TestFetchAll(t *testing.T) {
	s := &sodaServer{t: t, rows: realSODARows(t), token: "", limit: 1000, failed: map[int]bool{50: true, 100: true}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	f := newTestFetcher(srv, &sleepRecorder{})
	f.AppToken, f.PageSize = "", 0 // defaults: no token header, 1000 rows
	n := 0
	for rows, err := range f.Pages(context.Background(), time.Time{}) {
		if err != nil {
			t.Fatal(err)
		}
		n += len(rows)
	}
	if n != 167 || !slices.Equal(s.requests, []string{"0"}) {
		t.Fatalf("%d rows, requests %v", n, s.requests)
	}

	s2 := &sodaServer{t: t, rows: realSODARows(t), limit: 50, failed: map[int]bool{50: true, 100: true}}
	srv2 := httptest.NewServer(s2)
	defer srv2.Close()
	f2 := newTestFetcher(srv2, &sleepRecorder{})
	f2.AppToken = ""
	for range f2.Pages(context.Background(), time.Time{}) {
		break
	}
	if !slices.Equal(s2.requests, []string{"0"}) {
		t.Fatalf("requests after break: %v", s2.requests)
	}
}

// TestFetchSizeCap: a page larger than the client's cap fails cleanly.
func TestFetchSizeCap(t *testing.T) {
	s := &sodaServer{t: t, rows: realSODARows(t), token: "test-token", limit: 50, failed: map[int]bool{50: true, 100: true}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	rec := &sleepRecorder{}
	f := newTestFetcher(srv, rec)
	f.Client.MaxBytes = 4 << 10 // a page of 50 real rows is larger
	calls := 0
	n, err := f.Fetch(context.Background(), time.Time{}, func([]Row) error { calls++; return nil })
	if !errors.Is(err, fetch.ErrTooLarge) || n != 0 || calls != 0 || len(rec.waits) != 0 {
		t.Fatalf("err %v, n %d, calls %d, waits %v", err, n, calls, rec.waits)
	}
}

// TestFetchCancel: cancelling the context between pages stops the fetch.
func TestFetchCancel(t *testing.T) {
	s := &sodaServer{t: t, rows: realSODARows(t), token: "test-token", limit: 50, failed: map[int]bool{50: true, 100: true}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	f := newTestFetcher(srv, &sleepRecorder{})
	ctx, cancel := context.WithCancel(context.Background())
	n, err := f.Fetch(ctx, time.Time{}, func([]Row) error { cancel(); return nil })
	if !errors.Is(err, context.Canceled) || n != 50 || !slices.Equal(s.requests, []string{"0"}) {
		t.Fatalf("err %v, n %d, requests %v", err, n, s.requests)
	}

	// An error from the page callback stops the fetch and is returned.
	stop := errors.New("disk full")
	s.requests = nil
	if _, err := f.Fetch(context.Background(), time.Time{}, func([]Row) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("err %v", err)
	}
}

func TestFetchWhere(t *testing.T) {
	since := time.Date(2026, 8, 1, 4, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		f    Fetcher
		want string
	}{
		{Fetcher{}, "start_date >= '2026-08-01T00:00:00'"},
		{Fetcher{SinceField: ":updated_at"}, ":updated_at >= '2026-08-01T00:00:00'"},
		{Fetcher{Where: "section_name='Procurement'"}, "(section_name='Procurement') AND start_date >= '2026-08-01T00:00:00'"},
	} {
		if got := tc.f.where(since); got != tc.want {
			t.Errorf("where = %q, want %q", got, tc.want)
		}
	}
	if got := (&Fetcher{Where: "pin='X'"}).where(time.Time{}); got != "pin='X'" {
		t.Errorf("where = %q", got)
	}
}
