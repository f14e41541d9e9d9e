package opensearch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/osclient"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/mappings"
)

func TestAddresses(t *testing.T) {
	ok := map[string][]string{
		"http://localhost:9200": {"http://localhost:9200"},
		"http://127.0.0.1:9250,http://127.0.0.1:9251,http://127.0.0.1:9252": {
			"http://127.0.0.1:9250", "http://127.0.0.1:9251", "http://127.0.0.1:9252"},
		" http://a:9200 ,\thttps://b:9200/search-proxy , ": {"http://a:9200", "https://b:9200/search-proxy"},
		"https://rw:secret@search.internal:443":            {"https://rw:secret@search.internal:443"},
	}
	for in, want := range ok {
		got, err := osclient.Addresses(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("osclient.Addresses(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"", " , ,",
		"localhost:9200",                      // no scheme
		"127.0.0.1:9200",                      // no scheme
		"ftp://a:21",                          // not http
		"http://",                             // no host
		"http://a:9200 http://b:9200",         // separated by a blank, not a comma
		"http://a:9200;http://b:9200",         // separated by a semicolon
		"http://a:9200,opensearch:9200",       // one good, one without scheme
		"ftp://rw:hunter2@search.internal:21", // credentials stay out of the message
	} {
		got, err := osclient.Addresses(in)
		if record.ErrorCode(err) != record.EINVALID {
			t.Errorf("osclient.Addresses(%q) = %q, %v; want EINVALID", in, got, err)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("osclient.Addresses(%q): the error shows the password: %v", in, err)
		}
	}
	// Open reads the list the same way
	if _, err := Open(context.Background(), Config{URL: "http://a:9200,b:9200"}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("Open with a bad list entry = %v, want EINVALID", err)
	}
}

// faulty serves a fake cluster behind a fault: fault(n) is asked for the
// n-th request the engine sends (the client's own background requests pass
// through) and answers with a status, drops the connection, or lets the
// fake answer (status 0, drop false).
type faulty struct {
	fake  *fakeCluster
	srv   *httptest.Server
	fault func(n int) (status int, drop bool)

	mu     sync.Mutex
	n      int
	faults int
}

func newFaulty(t *testing.T, fault func(n int) (int, bool)) *faulty {
	t.Helper()
	f := &faulty{fake: newFake(t), fault: fault}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *faulty) serve(w http.ResponseWriter, r *http.Request) {
	if !background(r) {
		f.mu.Lock()
		f.n++
		status, drop := f.fault(f.n)
		if status != 0 || drop {
			f.faults++
		}
		f.mu.Unlock()
		switch {
		case drop:
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close() // the connection is lost mid-request
			}
			return
		case status != 0:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":{"type":"injected","reason":"injected fault"},"status":` + itoa(status) + `}`))
			return
		}
	}
	f.fake.serve(w, r)
}

func (f *faulty) counts() (requests, faults int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n, f.faults
}

func TestRetriesUnavailableAnswersWithBackoff(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		t.Run(itoa(status), func(t *testing.T) {
			// the first two requests fail, then the cluster answers
			f := newFaulty(t, func(n int) (int, bool) {
				if n <= 2 {
					return status, false
				}
				return 0, false
			})
			start := time.Now()
			b, err := Open(context.Background(), Config{URL: f.srv.URL})
			if err != nil {
				t.Fatalf("Open through two %d answers: %v", status, err)
			}
			defer b.Close()
			if d := time.Since(start); d < 300*time.Millisecond {
				t.Errorf("two retries took %v, want the 100 ms + 200 ms backoff", d)
			}
			if _, faults := f.counts(); faults != 2 {
				t.Errorf("%d faults served, want 2", faults)
			}
			if _, ok := f.fake.aliases[b.Alias(mappings.Notices)]; !ok {
				t.Error("Open did not finish creating the indexes after the retries")
			}
		})
	}
}

func TestRetriesLostConnections(t *testing.T) {
	f := newFaulty(t, func(n int) (int, bool) { return 0, n == 1 || n == 4 })
	b, err := Open(context.Background(), Config{URL: f.srv.URL})
	if err != nil {
		t.Fatalf("Open through a dropped connection: %v", err)
	}
	defer b.Close()
	if err := b.Upsert(context.Background(), docsFor("20260101001")); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	if _, err := b.Get(context.Background(), "20260101001"); err != nil {
		t.Fatalf("Get: %v", err)
	}
	if _, faults := f.counts(); faults != 2 {
		t.Errorf("%d connections dropped, want 2", faults)
	}
}

func TestRetryGivesUp(t *testing.T) {
	always := func(int) (int, bool) { return http.StatusServiceUnavailable, false }
	t.Run("after MaxRetries", func(t *testing.T) {
		f := newFaulty(t, always)
		_, err := Open(context.Background(), Config{URL: f.srv.URL})
		if record.ErrorCode(err) != record.EUNAVAILABLE {
			t.Fatalf("Open against a cluster that always answers 503 = %v, want EUNAVAILABLE", err)
		}
		if n, _ := f.counts(); n != 1+MaxRetries {
			t.Errorf("%d attempts, want 1 + %d retries", n, MaxRetries)
		}
	})
	t.Run("DisableRetry", func(t *testing.T) {
		f := newFaulty(t, always)
		_, err := Open(context.Background(), Config{URL: f.srv.URL, DisableRetry: true})
		if record.ErrorCode(err) != record.EUNAVAILABLE {
			t.Fatalf("Open = %v, want EUNAVAILABLE", err)
		}
		if n, _ := f.counts(); n != 1 {
			t.Errorf("%d attempts with DisableRetry, want 1", n)
		}
	})
	t.Run("caller's deadline", func(t *testing.T) {
		f := newFaulty(t, always)
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := Open(ctx, Config{URL: f.srv.URL})
		if err == nil {
			t.Fatal("Open succeeded against a cluster that always answers 503")
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Open kept retrying for %v after the caller's 250 ms deadline", d)
		}
	})
}

func TestFailsOverToTheNextNode(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close() // a node that is down: connections are refused
	f := newFake(t)
	for _, list := range []string{dead + "," + f.srv.URL, f.srv.URL + ", " + dead} {
		b, err := Open(context.Background(), Config{URL: list, IndexPrefix: "rw" + itoa(len(list))})
		if err != nil {
			t.Fatalf("Open(%s) with one node down: %v", list, err)
		}
		for i := 0; i < 4; i++ { // requests go round the nodes: each reaches the live one
			id := "2026010100" + itoa(i+1)
			if err := b.Upsert(context.Background(), docsFor(id)); err != nil {
				t.Fatalf("Upsert %d via %s: %v", i, list, err)
			}
			if _, err := b.Get(context.Background(), id); err != nil {
				t.Fatalf("Get %d via %s: %v", i, list, err)
			}
		}
		b.Close()
	}
}

func docsFor(id string) []search.Doc {
	return []search.Doc{doc(notice(id, day(2026, 1, 1)), 1)}
}

// A bulk write that the cluster accepts with some items refused as busy
// (429 from a full write queue, 503 from a shard without its primary) sends
// those items again, and only those, after the backoff; items refused for
// another reason are not sent again; items still refused after MaxRetries
// make the write EUNAVAILABLE.
func TestBulkRetriesItemsRefusedAsBusy(t *testing.T) {
	ctx := context.Background()
	docs := []search.Doc{
		doc(notice("A", day(2024, 1, 1)), 1),
		doc(notice("B", day(2024, 1, 2)), 2),
		doc(notice("C", day(2024, 1, 3)), 0),
	}
	type round = map[string]int // "verb id" → status refused with
	for _, tc := range []struct {
		name   string
		rounds []round // what each bulk request refuses; later ones refuse nothing
		sent   [][]string
		code   string // of the error; "" for none
		want   string // in the error
		held   []string
	}{
		{
			name:   "refused twice, then written",
			rounds: []round{{"index B": 429, "index A#p1": 503}, {"index B": 429}},
			sent: [][]string{
				{"index A#p1", "index A", "index B#p1", "index B#p2", "index B", "index C"},
				{"index A#p1", "index B"},
				{"index B"},
			},
			held: []string{"A", "B", "C"},
		},
		{
			name:   "a mapping error is not sent again",
			rounds: []round{{"index B": 429, "index C": 400}},
			sent: [][]string{
				{"index A#p1", "index A", "index B#p1", "index B#p2", "index B", "index C"},
				{"index B"},
			},
			code: record.EINTERNAL, want: "1 of 6 actions failed",
			held: []string{"A", "B"},
		},
		{
			name: "busy until the retries run out",
			rounds: []round{{"index C": 429}, {"index C": 429}, {"index C": 429},
				{"index C": 429}, {"index C": 429}, {"index C": 429}},
			sent: [][]string{
				{"index A#p1", "index A", "index B#p1", "index B#p2", "index B", "index C"},
				{"index C"}, {"index C"}, {"index C"}, {"index C"}, {"index C"},
			},
			code: record.EUNAVAILABLE, want: "es_rejected_execution_exception",
			held: []string{"A", "B"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			b, err := Open(ctx, Config{URL: f.srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			var mu sync.Mutex
			var sent [][]string
			f.fault = func(r *http.Request) (int, string, bool) {
				if r.URL.Path != "/_bulk" {
					return 0, "", false
				}
				mu.Lock()
				n := len(sent)
				sent = append(sent, nil)
				mu.Unlock()
				refuse := round{}
				if n < len(tc.rounds) {
					refuse = tc.rounds[n]
				}
				status, body, actions := f.bulkRefusing(r, func(verb, id string) int { return refuse[verb+" "+id] })
				mu.Lock()
				sent[n] = actions
				mu.Unlock()
				return status, body, true
			}
			start := time.Now()
			err = b.Upsert(ctx, docs)
			took := time.Since(start)
			switch {
			case tc.code == "" && err != nil:
				t.Fatalf("Upsert = %v, want the refused items written on a retry", err)
			case tc.code != "" && (code(err) != tc.code || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Upsert = %v (code %s), want %s mentioning %q", err, code(err), tc.code, tc.want)
			}
			if !slices.EqualFunc(sent, tc.sent, slices.Equal) {
				t.Errorf("bulk requests sent:\n%q\nwant\n%q", sent, tc.sent)
			}
			var backoff time.Duration
			for i := 1; i < len(tc.sent); i++ {
				backoff += osclient.Backoff(i)
			}
			if took < backoff {
				t.Errorf("%d bulk requests took %v, want the backoff waits (%v)", len(sent), took, backoff)
			}
			if got := sortedKeys(f.docs("recordwatch-notices")); !slices.Equal(got, tc.held) {
				t.Errorf("notices held = %v, want %v", got, tc.held)
			}
			if got := sortedKeys(f.docs("recordwatch-passages")); !slices.Equal(got, []string{"A#p1", "B#p1", "B#p2"}) {
				t.Errorf("passages held = %v, want every passage", got)
			}
		})
	}
}

// A search answered in part (a shard failed in a phase OpenSearch does not
// move to another copy, e.g. the fetch phase on a node that has just died)
// is sent again with backoff; one still answered in part after MaxRetries
// is EUNAVAILABLE, never a short result.
func TestSearchAnsweredInPartIsSentAgain(t *testing.T) {
	const partial = `{"took":1,"timed_out":false,"_shards":{"total":3,"successful":2,"skipped":0,"failed":1,"failures":[{"shard":2,"index":"recordwatch-notices.v1","node":"n2","reason":{"type":"node_disconnected_exception","reason":"[rw-node-2][indices:data/read/search[phase/fetch/id]] disconnected"}}]},"hits":{"total":{"value":1,"relation":"eq"},"hits":[]}}`
	for _, tc := range []struct {
		name     string
		partials int // how many searches are answered in part before whole answers
		wantErr  bool
	}{
		{"once", 1, false},
		{"twice", 2, false},
		{"always", 1 + MaxRetries, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFake(t)
			b, err := Open(ctx, Config{URL: f.srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if err := b.Upsert(ctx, docsFor("20260101001")); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			searches := 0
			f.fault = func(r *http.Request) (int, string, bool) {
				if !strings.HasSuffix(r.URL.Path, "/_search") || !strings.Contains(r.URL.Path, "notices") {
					return 0, "", false
				}
				mu.Lock()
				defer mu.Unlock()
				searches++
				if searches <= tc.partials {
					return 200, partial, true
				}
				return 0, "", false
			}
			// the search itself, not the coverage it reads first
			if _, err := b.Coverage(ctx); err != nil && !tc.wantErr {
				t.Fatal(err)
			}
			mu.Lock()
			searches = 0
			mu.Unlock()
			res, err := b.Search(ctx, search.Query{Limit: 10})
			if tc.wantErr {
				if code(err) != record.EUNAVAILABLE || !strings.Contains(err.Error(), "node_disconnected_exception") {
					t.Fatalf("Search answered in part %d times = %v, want EUNAVAILABLE", tc.partials, err)
				}
			} else if err != nil || res.Total != 1 || len(res.Hits) != 1 {
				t.Fatalf("Search after %d partial answers = %d hits of %d, %v; want the whole answer", tc.partials, len(res.Hits), res.Total, err)
			}
			want := tc.partials + 1
			if tc.wantErr {
				want = 1 + MaxRetries
			}
			if searches != want {
				t.Errorf("%d search requests, want %d", searches, want)
			}
		})
	}
}

// Every page of one query is sent with the same preference (the same shard
// copies answer it); another query gets another one.
func TestPagePreferenceFollowsTheQueryNotThePage(t *testing.T) {
	page1 := obj{"query": obj{"match": obj{"content": "parks"}}, "size": 20}
	page2 := obj{"query": obj{"match": obj{"content": "parks"}}, "size": 20, "search_after": []any{1.5, "x"}}
	other := obj{"query": obj{"match": obj{"content": "police"}}, "size": 20}
	if a, b := pagePreference(page1), pagePreference(page2); a != b || a == "" {
		t.Errorf("pages of one query: %q and %q", a, b)
	}
	if pagePreference(page1) == pagePreference(other) {
		t.Error("two queries share a preference")
	}
	if _, ok := page2["search_after"]; !ok {
		t.Error("pagePreference changed the body")
	}
}
