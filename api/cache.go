package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// Cache lifetimes of SPEC §8.
const (
	CacheFeeds             = 15 * time.Minute
	CachePropertyLocations = 30 * time.Minute
	CacheAgencies          = 24 * time.Hour
	CacheStats             = 15 * time.Minute
	CacheSearch            = time.Minute
)

// render writes body with cache headers: Cache-Control for maxAge, a strong
// ETag of the body, Last-Modified when known; a matching conditional request
// gets 304 with no body.
func render(c *gin.Context, status int, contentType string, body []byte, maxAge time.Duration, lastModified time.Time) {
	renderTagged(c, status, contentType, body, etagOf(body), maxAge, lastModified)
}

// etagOf is the strong validator of a body.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// renderTagged is render with the body's ETag computed once beforehand (a
// cached rendering, such as a feed, is not hashed on every request).
func renderTagged(c *gin.Context, status int, contentType string, body []byte, etag string, maxAge time.Duration, lastModified time.Time) {
	h := c.Writer.Header()
	if maxAge > 0 {
		h.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(maxAge.Seconds())))
	} else {
		h.Set("Cache-Control", "no-store")
	}
	h.Set("ETag", etag)
	if !lastModified.IsZero() {
		h.Set("Last-Modified", lastModified.UTC().Format(http.TimeFormat))
	}
	if status == http.StatusOK && notModified(c.Request, etag, lastModified) {
		c.Status(http.StatusNotModified)
		c.Writer.WriteHeaderNow()
		return
	}
	c.Data(status, contentType, body)
}

func notModified(r *http.Request, etag string, lastModified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "W/"))
			if t == etag || t == "*" {
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && !lastModified.IsZero() {
		if t, err := http.ParseTime(ims); err == nil && !lastModified.Truncate(time.Second).After(t) {
			return true
		}
	}
	return false
}

// renderJSON marshals v and renders it with cache headers. The body is
// compact JSON, as search engines' APIs answer: indenting cost a tenth of a
// search request's CPU (BENCHMARKS.md's profiles), and a browser or jq
// shows it indented.
func renderJSON(c *gin.Context, status int, v any, maxAge time.Duration, lastModified time.Time) {
	body, err := json.Marshal(v)
	if err != nil {
		writeError(c, err)
		return
	}
	body = append(body, '\n')
	render(c, status, "application/json; charset=utf-8", body, maxAge, lastModified)
}
