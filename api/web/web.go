// Package web is the human site: every HTML page, rendered from template
// files (templates/layout.html, the one layout, and one file per page kind)
// with a small amount of plain JavaScript and CSS, all embedded in the
// binary — no build step, no external CDN, works offline. The shell at /
// hash-routes its views (#notice/<id>, #money?…); the server-rendered
// pages are the Form 1 permalinks (/vendors/<stem>/, /agencies/<id>/,
// /contracts/…, /land-projects/…, /meetings/…, /organizations/…), the
// watch link pages and the digest link pages. Every view links its
// machine-readable JSON twin. Source text is inserted as text only
// (html/template), and no page holds an inline style or script: the
// Content-Security-Policy allows neither.
package web

import (
	"bytes"
	"embed"
	"fmt"
	"github.com/recordwatch/recordwatch/internal/record"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
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
// connections from this origin only; no inline script or style, no framing.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Kind names a page kind: its template is templates/<kind>.html, which
// defines "content" (given Page.Data) inside the one layout.
type Kind string

// The page kinds.
const (
	Home        Kind = "home"         // the shell at /
	Contract    Kind = "contract"     // /contracts/<id>, /contracts/analysis
	Entity      Kind = "entity"       // /vendors/<stem>/, /agencies/<id>/
	LandProject Kind = "land_project" // /land-projects/<id>
	LandList    Kind = "land_list"    // /land-projects
	People      Kind = "people"       // /organizations/<id>/, /people/<id>
	Meetings    Kind = "meetings"     // /meetings/<id>, /meetings
	WatchLink   Kind = "watch_link"   // /confirm/…, /manage/…, /u/…
	DigestLink  Kind = "digest_link"  // /r/<kind>/<id> that does not redirect
	About       Kind = "about"        // /about
	Stats       Kind = "stats"        // /stats for a browser (JSON stays the default)
	Sources     Kind = "sources"      // /sources: the live fetches' receipts and every source's freshness
	Property    Kind = "property"     // /property-locations for a browser: the dispositions on the map
	Error       Kind = "error"        // any refused request a browser asked as a page (404 and the rest)
	Rows        Kind = "rows"         // /rows?…: every row behind a vendor, agency, PIN or contract ID, paged
)

// ErrorData is an error page's content: its status (which heading it
// shows) and the service's message ("" for a not-found: the page says it
// in words).
type ErrorData struct {
	Status  int
	Message string
	// MessageKey is Message as a note, when the service wrote one: the
	// page says it in the reader's language.
	MessageKey record.Note
}

// Page is one HTML page: what the layout shows around the page kind's
// content, and the content's data.
type Page struct {
	Kind Kind
	// Title is the page's own title ("" on the home page); the layout adds
	// the site's name.
	Title string
	// TitleVerbatim is the end of Title that is record text (a name or a
	// purpose as published): the breadcrumbs show it marked
	// data-verbatim, never said in the page's language.
	TitleVerbatim string
	// Home is the brand link ("/" when empty).
	Home string
	// Section is a link shown after the brand (the meetings calendar).
	Section *Link
	// Canonical, JSON and ICS are the head's canonical and alternate links.
	Canonical, JSON, ICS string
	// Robots is the robots meta tag's content ("" for none).
	Robots string
	// Shell is set on the home page only: its body data and script.
	Shell *Config
	// Data is what the kind's content template reads.
	Data any
	// Lang is the language of the site's own words ("en" when empty; "es"
	// with ?lang=es); record text stays as published.
	Lang string
	// Path is the page's own path and query without lang (for the
	// language switch); Crumbs are the breadcrumbs of an entity page.
	Path   string
	Crumbs []Link
	// Banner names the sources that are not fresh (stale or failing),
	// shown above every page's content (nil: every source is fresh, or
	// no schedule is known).
	Banner *Banner
	// Absence says, on a by-id page that holds no such record, which
	// absence type applies (record.RecordAbsence).
	Absence *record.EmptyAnswer
	// Form is the running interface form (1, the default when 0, or 2):
	// the layout links only what the form serves (FormOne).
	Form int
}

// FormOne reports whether the running form serves the Form 1 pages
// (contracts, land projects, meetings, people and organizations).
func (p Page) FormOne() bool { return p.Form != 2 }

// LangURL is this page in lang: its own address with lang=<lang> (English
// too: following it resets the language the reader's cookie keeps).
func (p Page) LangURL(lang string) string {
	u, err := url.Parse(p.Path)
	if err != nil || p.Path == "" {
		u = &url.URL{Path: "/"}
	}
	q := u.Query()
	q.Set("lang", lang) // explicit either way: the switch also sets the language cookie
	u.RawQuery = q.Encode()
	return u.String()
}

func (p Page) lang() string {
	if HasLang(p.Lang) {
		return p.Lang
	}
	return "en"
}

// Banner is the freshness banner: the sources not fresh, each with its
// state, and where the details are.
type Banner struct {
	Sources []BannerSource
	// More counts the sources not fresh beyond those named.
	More int
	// Sample: some are held from the bundled sample or files, not
	// fetched live.
	Sample  bool
	Details string
}

// Count is how many sources the banner is about (named and beyond).
func (b Banner) Count() int { return len(b.Sources) + b.More }

// BannerSource is one source of the banner: its id (kept as
// data-source), its name, its state (record.Stale or record.Failing,
// said through the "freshness_state" labels) and since when ("" unknown).
type BannerSource struct {
	Source, Name, State, Since string
}

// Link is a labelled address; Verbatim, when set, is record text shown
// after the label as published (a breadcrumb's name).
type Link struct{ Label, URL, Verbatim string }

// HomeURL is the brand link, in the page's language: a Spanish page's
// home carries lang=es whether the home is given relative ("/", "/#") or
// absolute (the base URL's "/").
func (p Page) HomeURL() string {
	home := p.Home
	if home == "" {
		home = "/"
	}
	return WithLang(home, p.lang())
}

// WithLang is the address u with lang=<lang> in its query (before any
// fragment), replacing a lang it had; English ("en") and an address that
// is not the site's own page (a JSON twin, a feed, another site) are left
// as they are.
func WithLang(u, lang string) string {
	if lang == "en" || lang == "" || u == "" {
		return u
	}
	rest, frag, hasFrag := strings.Cut(u, "#")
	pu, err := url.Parse(rest)
	if err != nil {
		return u
	}
	if machinePath(pu.Path) || pu.Query().Has("format") {
		return u
	}
	q := pu.Query()
	q.Set("lang", lang)
	pu.RawQuery = q.Encode()
	out := pu.String()
	if pu.Path == "" && pu.Host == "" {
		out = "/" + out
	}
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// machinePath reports whether a path of the site answers programs, not
// readers (the JSON API, MCP, static files, feeds, health): a
// link there has no language to keep.
func machinePath(p string) bool {
	for _, pre := range []string{"/api/", "/mcp", "/static/", "/healthz", "/readyz", "/inv/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return strings.HasSuffix(p, ".xml") || strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".ics") || strings.HasSuffix(p, ".geojson")
}

// pages holds one parsed template per language and page kind: the layout
// and the kind's file, parsed once at start with the language's functions
// (label, t: labels.go, words.go) bound (a template error stops the
// program).
var pages = func() map[string]map[Kind]*template.Template {
	files, err := fs.Glob(assets, "templates/*.html")
	if err != nil {
		panic(err)
	}
	all := map[string]map[Kind]*template.Template{}
	for _, lang := range Langs {
		out := map[Kind]*template.Template{}
		for _, f := range files {
			name := strings.TrimSuffix(path.Base(f), ".html")
			if name == "layout" || name == "parts" {
				continue
			}
			out[Kind(name)] = template.Must(template.New(name).Funcs(funcs).Funcs(langFuncs(lang)).ParseFS(assets, "templates/layout.html", "templates/parts.html", f))
		}
		all[lang] = out
	}
	return all
}()

// Render writes p: the layout around p.Kind's content, in p.Lang.
func Render(w io.Writer, p Page) error {
	t, ok := pages[p.lang()][p.Kind]
	if !ok {
		return fmt.Errorf("web: no template for page kind %q", p.Kind)
	}
	return t.ExecuteTemplate(w, "layout", p)
}

// SecurityHeaders sets the headers every HTML response carries.
func SecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
	// the one stylesheet, asked for as soon as the headers arrive (the
	// first screen waits for it)
	h.Set("Link", "</static/app.css>; rel=preload; as=style")
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
	if wordScript(name) != nil {
		return true
	}
	fi, err := fs.Stat(static, name)
	return err == nil && fi.Mode().IsRegular()
}

// Static serves /static/… from the embedded assets; anything StaticFile
// refuses is a 404. The caller sets the cache lifetime.
func Static() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, "/static/")
		if !ok || !StaticFile(name) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if b := wordScript(name); b != nil {
			http.ServeContent(w, r, name, started, bytes.NewReader(b))
			return
		}
		http.ServeFileFS(w, r, static, name)
	})
}

// started is when the program started: the word scripts' modification
// time (they are generated at start from the word tables).
var started = time.Now().Truncate(time.Second)

// wordScript is the generated word script a static name names
// (words-<lang>.js: Script), or nil.
func wordScript(name string) []byte {
	for _, lang := range Langs {
		if name == ScriptName(lang) {
			return Script(lang)
		}
	}
	return nil
}
