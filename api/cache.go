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

// cacheProfile is how long a response may be kept (SPEC §8): the one place
// a Cache-Control header is written (set). Every response names one of the
// profiles below; a lifetime computed per response (a share's remaining
// days, the rest of /stats' window) is a cacheProfile of that duration.
type cacheProfile time.Duration

// The named cache profiles.
const (
	// noStore: errors, writes, per-client answers, token pages, health.
	noStore cacheProfile = 0
	// cacheSearch: searches, notices, previews — they change as data loads.
	cacheSearch = cacheProfile(time.Minute)
	// cacheShort: records, profiles, analyses and their pages, the shell.
	cacheShort = cacheProfile(5 * time.Minute)
	// cacheFeeds: feeds and calendars.
	cacheFeeds = cacheProfile(CacheFeeds)
	// cacheStats: the /stats window.
	cacheStats = cacheProfile(CacheStats)
	// cacheLocations: property locations.
	cacheLocations = cacheProfile(30 * time.Minute)
	// cacheStatic: the embedded CSS and JavaScript.
	cacheStatic = cacheProfile(time.Hour)
	// cacheDay: the agency list and schemas.
	cacheDay = cacheProfile(24 * time.Hour)
)

// Lifetimes the documentation quotes.
const (
	// CacheFeeds is how long a feed or calendar may be kept.
	CacheFeeds = 15 * time.Minute
	// CacheStats is how long /stats (and the agency crosswalk behind
	// /agencies, between writes) may be kept.
	CacheStats = 15 * time.Minute
)

// maxAge is the profile's lifetime (0 for noStore).
func (p cacheProfile) maxAge() time.Duration { return time.Duration(p) }

// header is the profile's Cache-Control value.
func (p cacheProfile) header() string {
	if p <= 0 {
		return "no-store"
	}
	return fmt.Sprintf("public, max-age=%d", int(p.maxAge().Seconds()))
}

// set writes the profile's Cache-Control header.
func (p cacheProfile) set(h http.Header) { h.Set("Cache-Control", p.header()) }

// render writes body with cache headers: Cache-Control of its profile, a
// strong ETag of the body, Last-Modified when known; a matching
// conditional request gets 304 with no body.
func render(c *gin.Context, status int, contentType string, body []byte, cache cacheProfile, lastModified time.Time) {
	etag := ""
	if cache != noStore {
		etag = etagOf(body)
	}
	renderTagged(c, status, contentType, body, etag, cache, lastModified)
}

// etagOf is the strong validator of a body.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// renderTagged is render with the body's ETag computed once beforehand (a
// cached rendering, such as a feed, is not hashed on every request).
func renderTagged(c *gin.Context, status int, contentType string, body []byte, etag string, cache cacheProfile, lastModified time.Time) {
	h := c.Writer.Header()
	cache.set(h)
	if cache == noStore {
		// nothing keeps it, so nothing revalidates it
		c.Data(status, contentType, body)
		return
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

// renderJSON is the one JSON renderer: v marshalled compact (as search
// engines' APIs answer: indenting cost a tenth of a search request's CPU,
// BENCHMARKS.md's profiles, and a browser or jq shows it indented), one
// line, rendered with its cache profile's headers.
func renderJSON(c *gin.Context, status int, v any, cache cacheProfile, lastModified time.Time) {
	body, err := marshalJSON(v)
	if err != nil {
		writeError(c, err)
		return
	}
	render(c, status, "application/json; charset=utf-8", body, cache, lastModified)
}

// marshalJSON is the body renderJSON writes: compact JSON and a newline.
func marshalJSON(v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(body, '\n'), nil
}
