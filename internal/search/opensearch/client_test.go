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
		got, err := addresses(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("addresses(%q) = %q, %v; want %q", in, got, err, want)
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
		got, err := addresses(in)
		if record.ErrorCode(err) != record.EINVALID {
			t.Errorf("addresses(%q) = %q, %v; want EINVALID", in, got, err)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("addresses(%q): the error shows the password: %v", in, err)
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
