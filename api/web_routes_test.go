package api

import (
	"strings"
	"testing"
)

// /static/ serves the embedded files and nothing else: no directory
// listing, no 500 for a name that is not UTF-8, nothing above static/.
func TestStaticServesFilesOnly(t *testing.T) {
	for _, path := range []string{"/static/app.js", "/static/app.css"} {
		res, b := get(t, shared, path)
		if res.StatusCode != 200 || len(b) == 0 || res.Header.Get("X-Content-Type-Options") != "nosniff" ||
			res.Header.Get("Cache-Control") != "public, max-age=3600" {
			t.Errorf("%s: status %d, headers %v", path, res.StatusCode, res.Header)
		}
	}
	for _, path := range []string{"/static/%ff", "/static/", "/static", "/static//", "/static/..%2f", "/static/%2e%2e/",
		"/static/..%2fweb.go", "/static/..%2f..%2fapi.go", "/static/./app.js", "/static//app.js", "/static/app.js/",
		"/static/%00", "/static/app.js%00", "/static/nope.js", "/static/%c0%ae%c0%ae/"} {
		res, b := get(t, shared, path)
		if res.StatusCode != 404 && res.StatusCode != 400 {
			t.Errorf("%s: status %d, want 404 or 400: %.200s", path, res.StatusCode, b)
		}
		if strings.Contains(string(b), "<a href") || strings.Contains(string(b), "package ") {
			t.Errorf("%s: lists or leaks files: %.200s", path, b)
		}
	}
}
