// Package web is the human site: one HTML shell (a Go template) and a small
// amount of plain JavaScript and CSS, embedded in the binary — no build step,
// no external CDN, works offline. Views are hash-routed permalinks
// (#notice/<id>, #money?agency=…) plus the Form 1 path permalinks
// (/vendors/<stem>/, /agencies/<id>/); every view renders from, and links to,
// its machine-readable JSON twin. Source text is inserted as text only, and
// the Content-Security-Policy forbids inline script.
package web

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

//go:embed static templates
var assets embed.FS

// Config is what the shell needs to know.
type Config struct {
	Form    int
	BaseURL string
}

// CSP is the Content-Security-Policy of every page: scripts, styles and
// connections from this origin only; no inline script, no framing.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

var shell = template.Must(template.ParseFS(assets, "templates/index.html"))

// Shell renders the page every view starts from.
func Shell(cfg Config) http.Handler {
	var buf bytes.Buffer
	if err := shell.Execute(&buf, map[string]any{"Form": strconv.Itoa(cfg.Form), "BaseURL": cfg.BaseURL}); err != nil {
		panic(err)
	}
	page := buf.Bytes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SecurityHeaders(w.Header())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Write(page)
	})
}

// SecurityHeaders sets the headers every HTML response carries.
func SecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
}

var static = func() fs.FS {
	sub, err := fs.Sub(assets, "static")
	if err != nil {
		panic(err)
	}
	return sub
}()

// StaticFile reports whether name (the path after /static/) is a file
// Static serves: a regular file by a clean, valid UTF-8 path. Directories
// (no listings), "..", empty or doubled slashes are not.
func StaticFile(name string) bool {
	if !utf8.ValidString(name) || !fs.ValidPath(name) || name == "." {
		return false
	}
	fi, err := fs.Stat(static, name)
	return err == nil && fi.Mode().IsRegular()
}

// Static serves /static/… from the embedded assets; anything StaticFile
// refuses is a 404.
func Static() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, "/static/")
		if !ok || !StaticFile(name) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeFileFS(w, r, static, name)
	})
}
