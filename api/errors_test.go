package api

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

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

// An internal error (5xx) is logged with its route, its request id and its
// own text; the client gets the request id (X-Request-Id, and trace_id in
// the body) and this service's own message (a fixed one for an internal
// error), never an engine's text (a record.Error's Cause). A client error
// (4xx) says what was wrong, carries no trace id and is not logged.
func TestInternalErrorsAreLoggedWithTheirRequestID(t *testing.T) {
	var logs lockedBuffer
	srv := New(Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6}, Deps{Search: shared.be, Store: shared.st,
		Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	srv.Router().GET("/test/internal/:id", func(c *gin.Context) { writeError(c, errors.New("bleve: segment 7 corrupt at offset 12")) })
	srv.Router().GET("/test/unavailable", func(c *gin.Context) {
		writeError(c, record.CouldNotAnswer("the search index", errors.New("bleve: index is closed at /var/data/index")))
	})
	srv.Router().GET("/test/own", func(c *gin.Context) {
		writeError(c, record.Errorf(record.EUNAVAILABLE, "watches are not available: this server sends no mail"))
	})
	srv.Router().GET("/test/panic", func(c *gin.Context) { panic("engine exploded") })
	e := &env{ts: httptest.NewServer(srv)}
	defer e.ts.Close()
	hexID := regexp.MustCompile(`^[0-9a-f]{16}$`)

	for _, tc := range []struct {
		path, route, code, secret string
		status                    int
	}{
		{"/test/internal/42", "route=/test/internal/:id", record.EINTERNAL, "segment 7 corrupt", 500},
		{"/test/unavailable", "route=/test/unavailable", record.EUNAVAILABLE, "index is closed", 503},
		{"/test/own", "route=/test/own", record.EUNAVAILABLE, "", 503},
		{"/test/panic", "route=/test/panic", record.EINTERNAL, "engine exploded", 500},
	} {
		res, b := get(t, e, tc.path)
		id := res.Header.Get("X-Request-Id")
		eb := decode[errorBody](t, b).Error
		if res.StatusCode != tc.status || eb.Code != tc.code || !hexID.MatchString(id) || eb.TraceID != id ||
			res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %v %s", tc.path, res.StatusCode, res.Header, b)
		}
		if (tc.secret != "" && strings.Contains(string(b), tc.secret)) || eb.Param != "" || eb.Message == "" {
			t.Errorf("%s: the body carries the error's own text: %s", tc.path, b)
		}
		if tc.path == "/test/unavailable" && !strings.Contains(eb.Message, "the search index could not answer") {
			t.Errorf("%s: the service's own words are lost: %s", tc.path, b)
		}
		if tc.path == "/test/own" && eb.Message != "watches are not available: this server sends no mail" {
			t.Errorf("%s: the service's own message is lost: %s", tc.path, b)
		}
		line := ""
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, "request_id="+id) && strings.Contains(l, "internal error") {
				line = l
			}
		}
		if !strings.Contains(line, tc.route) || (tc.path != "/test/panic" && !strings.Contains(line, tc.secret)) {
			t.Errorf("%s: no log line with route, request id and error text:\n%s", tc.path, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "engine exploded") {
		t.Errorf("the panic is not logged:\n%s", logs.String())
	}

	before := logs.String()
	res, b := get(t, e, "/api/search?limit=zz")
	eb := decode[errorBody](t, b).Error
	if res.StatusCode != 400 || eb.Code != record.EINVALID || eb.Param != "limit" || eb.TraceID != "" ||
		!hexID.MatchString(res.Header.Get("X-Request-Id")) || !strings.Contains(eb.Message, "whole number") {
		t.Errorf("client error: %d %v %s", res.StatusCode, res.Header, b)
	}
	if logs.String() != before {
		t.Errorf("a client error was logged:\n%s", strings.TrimPrefix(logs.String(), before))
	}
	// every response has its own id
	r1, _ := get(t, e, "/healthz")
	r2, _ := get(t, e, "/healthz")
	if a, b := r1.Header.Get("X-Request-Id"), r2.Header.Get("X-Request-Id"); !hexID.MatchString(a) || a == b {
		t.Errorf("request ids %q %q", a, b)
	}
}

// Every Cache-Control header comes from a named profile.
func TestCacheProfiles(t *testing.T) {
	for p, want := range map[cacheProfile]string{noStore: "no-store", cacheSearch: "public, max-age=60", cacheShort: "public, max-age=300",
		cacheFeeds: "public, max-age=900", cacheLocations: "public, max-age=1800", cacheStatic: "public, max-age=3600", cacheDay: "public, max-age=86400"} {
		if got := p.header(); got != want {
			t.Errorf("%v: %q, want %q", time.Duration(p), got, want)
		}
	}
	// a no-store answer has no validator: nothing keeps it to revalidate
	res, _ := get(t, shared, "/healthz", "If-None-Match", "*")
	if res.StatusCode != 200 || res.Header.Get("ETag") != "" || res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("healthz: %d %v", res.StatusCode, res.Header)
	}
}
