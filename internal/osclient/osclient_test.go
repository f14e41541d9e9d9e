package osclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

func TestParseError(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"root_cause":[{"type":"query_shard_exception","reason":"failed to create query"}],"type":"search_phase_execution_exception","reason":"all shards failed"},"status":400}`: "opensearch: op: status 400: search_phase_execution_exception: all shards failed (query_shard_exception: failed to create query)",
		`{"error":"alias [x] missing","status":404}`: "opensearch: op: status 404: alias [x] missing",
		`Service Unavailable`:                        "opensearch: op: status 404: Service Unavailable",
		``:                                           "opensearch: op: status 404",
	} {
		status := 404
		if strings.Contains(body, `"status":400`) {
			status = 400
		}
		if got := ParseError("opensearch", "op", status, []byte(body)).Error(); got != want {
			t.Errorf("ParseError(%s) = %q, want %q", body, got, want)
		}
	}
}

// Do maps each answer the same way for every user; only Name and What
// change the texts.
func TestDoMapsAnswers(t *testing.T) {
	answers := map[string]struct {
		status int
		body   string
	}{
		"/busy":     {http.StatusServiceUnavailable, `{"error":{"type":"x","reason":"busy"},"status":503}`},
		"/bad":      {http.StatusBadRequest, `{"error":{"type":"parsing_exception","reason":"bad query"},"status":400}`},
		"/gone":     {http.StatusNotFound, `{"error":{"type":"index_not_found_exception","reason":"no such index"},"status":404}`},
		"/blocked":  {http.StatusForbidden, `{"error":{"type":"cluster_block_exception","reason":"read-only"},"status":403}`},
		"/missing":  {http.StatusNotFound, `{"found":false}`},
		"/ok":       {http.StatusOK, `{"n":1}`},
		"/garbled":  {http.StatusOK, `{"n":`},
		"/accepted": {http.StatusConflict, `{"error":"conflict"}`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := answers[r.URL.Path]
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_, _ = w.Write([]byte(a.body))
	}))
	defer srv.Close()
	c, err := New(Config{URL: srv.URL, DisableRetry: true, Name: "osstore", What: "the state store"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		path   string
		accept []int
		code   string // record error code (EINTERNAL for a plain error); "ok" none
		want   string
	}{
		{"/busy", nil, record.EUNAVAILABLE, "osstore: op: status 503: x: busy"},
		{"/bad", nil, record.EINTERNAL, "osstore: op: status 400: parsing_exception: bad query"},
		{"/gone", nil, record.EUNAVAILABLE, "index_not_found_exception"},
		{"/blocked", nil, record.EUNAVAILABLE, "cluster_block_exception"},
		{"/missing", []int{http.StatusNotFound}, "ok", ""},
		{"/accepted", []int{http.StatusConflict}, "ok", ""},
		{"/ok", nil, "ok", ""},
		{"/garbled", nil, record.EINTERNAL, "osstore: op: unreadable answer (status 200)"},
	} {
		var out map[string]any
		status, err := c.Do(ctx, "op", http.MethodGet, rawGet(tc.path), &out, tc.accept...)
		switch {
		case tc.code == "ok" && err != nil:
			t.Errorf("%s: %v, want no error", tc.path, err)
		case tc.code == "ok":
			if status != answers[tc.path].status {
				t.Errorf("%s: status %d, want %d", tc.path, status, answers[tc.path].status)
			}
		case err == nil || record.ErrorCode(err) != tc.code || !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %v (code %q), want %q with code %q", tc.path, err, record.ErrorCode(err), tc.want, tc.code)
		}
	}

	// nothing listens on port 1: the op is named, the cluster is unavailable
	down, err := New(Config{URL: "http://127.0.0.1:1", DisableRetry: true, Name: "opensearch", What: "the search index"})
	if err != nil {
		t.Fatal(err)
	}
	defer down.Close()
	if _, err := down.Do(ctx, "get", http.MethodGet, rawGet("/"), nil); record.ErrorCode(err) != record.EUNAVAILABLE ||
		!strings.Contains(err.Error(), "the search index could not answer") || !strings.Contains(err.Error(), ": get: ") ||
		strings.Contains(record.ErrorMessage(err), "127.0.0.1") {
		t.Errorf("unreachable: %v, want EUNAVAILABLE naming the op in the log (the cause), not the host in the message", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := down.Do(cancelled, "get", http.MethodGet, rawGet("/"), nil); err == nil || !strings.HasPrefix(err.Error(), "opensearch: get: context canceled") {
		t.Errorf("cancelled: %v", err)
	}
}

func TestNewChecksTheURL(t *testing.T) {
	for _, u := range []string{"", "localhost:9200", "ftp://rw:hunter2@search.internal:21"} {
		_, err := New(Config{URL: u, Name: "x"})
		if record.ErrorCode(err) != record.EINVALID || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("New(%q) = %v, want EINVALID without the password", u, err)
		}
	}
}

// rawGet is a GET of a path.
type rawGet string

func (p rawGet) GetRequest(method string) (*http.Request, error) {
	return http.NewRequest(method, string(p), nil)
}
