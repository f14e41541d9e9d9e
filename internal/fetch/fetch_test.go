package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// recorder is an injected Sleep that records the waits instead of sleeping.
type recorder struct{ waits []time.Duration }

func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	r.waits = append(r.waits, d)
	return ctx.Err()
}

func testClient(rec *recorder) *Client {
	c := New()
	c.Sleep = rec.sleep
	c.BaseDelay = 100 * time.Millisecond
	c.MaxDelay = 10 * time.Second
	return c
}

func TestGetSendsUserAgentAndHeaders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("User-Agent"); got != UserAgent {
			t.Errorf("User-Agent = %q, want %q", got, UserAgent)
		}
		if got := r.Header.Get("X-App-Token"); got != "tok" {
			t.Errorf("X-App-Token = %q", got)
		}
		if got := r.Header.Get("Accept"); got != "application/json" {
			t.Errorf("Accept = %q", got)
		}
		_, _ = w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	rec := &recorder{}
	c := testClient(rec)
	c.Header = http.Header{"X-App-Token": {"tok"}}
	resp, err := c.Get(context.Background(), srv.URL, http.Header{"Accept": {"application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "[]" || resp.Attempts != 1 || len(rec.waits) != 0 {
		t.Fatalf("resp = %q attempts %d waits %v", resp.Body, resp.Attempts, rec.waits)
	}
}

func TestRetriesHonorRetryAfterAndBackoff(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "3")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case 2:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		case 3:
			http.Error(w, "bad gateway", http.StatusBadGateway)
		default:
			_, _ = w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()
	rec := &recorder{}
	resp, err := testClient(rec).Get(context.Background(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "ok" || resp.Attempts != 4 {
		t.Fatalf("body %q attempts %d", resp.Body, resp.Attempts)
	}
	// Retry-After 3s beats the 100ms first backoff; then 200ms, 400ms.
	want := []time.Duration{3 * time.Second, 200 * time.Millisecond, 400 * time.Millisecond}
	if len(rec.waits) != len(want) {
		t.Fatalf("waits = %v, want %v", rec.waits, want)
	}
	for i := range want {
		if rec.waits[i] != want[i] {
			t.Fatalf("waits = %v, want %v", rec.waits, want)
		}
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2026, 8, 3, 20, 0, 0, 0, time.UTC)
	if got := retryAfter(now.Add(90*time.Second).Format(http.TimeFormat), now); got != 90*time.Second {
		t.Fatalf("retryAfter(date) = %s", got)
	}
	for _, v := range []string{"", "soon", "-4"} {
		if got := retryAfter(v, now); got != 0 {
			t.Fatalf("retryAfter(%q) = %s", v, got)
		}
	}
}

func TestGivesUpWithStatusError(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, `{"error":true,"message":"down for maintenance"}`, http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	rec := &recorder{}
	c := testClient(rec)
	c.MaxRetries = 2
	_, err := c.Get(context.Background(), srv.URL+"/resource/x.json", nil)
	var se *StatusError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *StatusError", err)
	}
	if se.StatusCode != 503 || se.Attempts != 3 || n.Load() != 3 {
		t.Fatalf("status %d attempts %d calls %d", se.StatusCode, se.Attempts, n.Load())
	}
	if !strings.Contains(err.Error(), "down for maintenance") || !strings.Contains(err.Error(), "/resource/x.json") {
		t.Fatalf("error text lacks detail: %v", err)
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, `{"message":"No such column: foo"}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	rec := &recorder{}
	_, err := testClient(rec).Get(context.Background(), srv.URL, nil)
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 400 || n.Load() != 1 || len(rec.waits) != 0 {
		t.Fatalf("err %v calls %d waits %v", err, n.Load(), rec.waits)
	}
}

func TestRetryAfterBeyondMaxDelayFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		http.Error(w, "quota", http.StatusTooManyRequests)
	}))
	defer srv.Close()
	rec := &recorder{}
	_, err := testClient(rec).Get(context.Background(), srv.URL, nil)
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 429 || len(rec.waits) != 0 {
		t.Fatalf("err %v waits %v", err, rec.waits)
	}
	if !strings.Contains(err.Error(), "asked to wait 1h0m0s") {
		t.Fatalf("error does not explain the wait: %v", err)
	}
}

func TestSizeCap(t *testing.T) {
	big := strings.Repeat("x", 2048)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/chunked" {
			w.(http.Flusher).Flush() // no Content-Length: the cap must hold while reading
		}
		_, _ = w.Write([]byte(big))
	}))
	defer srv.Close()
	for _, path := range []string{"/sized", "/chunked"} {
		rec := &recorder{}
		c := testClient(rec)
		c.MaxBytes = 1024
		_, err := c.Get(context.Background(), srv.URL+path, nil)
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("%s: err = %v, want ErrTooLarge", path, err)
		}
		if len(rec.waits) != 0 {
			t.Fatalf("%s: a too-large body was retried", path)
		}
	}
	c := testClient(&recorder{})
	c.MaxBytes = 2048
	if resp, err := c.Get(context.Background(), srv.URL+"/chunked", nil); err != nil || len(resp.Body) != 2048 {
		t.Fatalf("exactly at the cap: %v", err)
	}
}

func TestContextCancellation(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c := New()
	c.BaseDelay = time.Hour // the real sleep must stop when ctx is cancelled
	c.MaxDelay = 2 * time.Hour
	done := make(chan error, 1)
	go func() {
		_, err := c.Get(ctx, srv.URL, nil)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Get did not return after cancel")
	}

	// Already cancelled: no request at all.
	var calls atomic.Int32
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv2.Close()
	if _, err := New().Get(ctx, srv2.URL, nil); !errors.Is(err, context.Canceled) || calls.Load() != 0 {
		t.Fatalf("err %v calls %d", err, calls.Load())
	}
}

func TestTransportErrorsAreRetried(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	url := srv.URL
	srv.Close() // connection refused from now on
	rec := &recorder{}
	c := testClient(rec)
	c.MaxRetries = 2
	_, err := c.Get(context.Background(), url, nil)
	if err == nil || len(rec.waits) != 2 {
		t.Fatalf("err %v waits %v", err, rec.waits)
	}
	if !strings.Contains(err.Error(), "attempt 3") {
		t.Fatalf("error does not count attempts: %v", err)
	}
}

func TestBackoffCaps(t *testing.T) {
	c := &Client{BaseDelay: time.Second, MaxDelay: 5 * time.Second}
	got := []time.Duration{c.backoff(1), c.backoff(2), c.backoff(3), c.backoff(4), c.backoff(40)}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("backoff = %v, want %v", got, want)
		}
	}
}
