package api

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/record"
)

// webRoutes mounts the human site: the shell at / (hash-routed views,
// rendered once) and its embedded static assets.
func (s *Server) webRoutes(r *gin.Engine) {
	home := func(c *gin.Context) {
		web.SecurityHeaders(c.Writer.Header())
		// the shell with this week's lists (week.go), built per request
		// from the notices service's one answer
		p := web.Page{Kind: web.Home, Home: "/#", Shell: &web.Config{Form: s.cfg.Form, BaseURL: s.cfg.BaseURL}, Form: s.cfg.Form}
		if w := s.homeWeek(c); w != nil {
			p.Data = w
		}
		renderPage(c, http.StatusOK, p, cacheSearch, time.Time{})
	}
	r.GET("/", home)
	r.HEAD("/", home)
	r.GET("/search", s.siteSearch)
	r.GET("/about", s.aboutPage)
	r.GET("/pictures/matter-timeline", s.rateLimit(), s.matterTimelineSVG)
	files := gin.WrapH(web.Static())
	r.GET("/static/*filepath", func(c *gin.Context) {
		if !web.StaticFile(strings.TrimPrefix(c.Param("filepath"), "/")) {
			s.notFoundRoute(c) // no listings, no "..", no 500 for a name that is not UTF-8
			return
		}
		cacheStatic.set(c.Writer.Header())
		files(c)
	})
}

// htmlPage reports whether path is a page of the human site (the shell, the
// Form 1 pages, the watch and digest link pages, /stats): the paths where
// ?lang= chooses the language of the site's own words.
func htmlPage(path string) bool {
	if strings.HasSuffix(path, ".ics") { // a calendar under a page's path (a project's hearings) is no page
		return false
	}
	if path == "/" || path == "/stats" || path == "/search" || path == "/about" || path == "/land-projects" || path == "/meetings" || path == "/sources" || path == "/property-locations" || path == "/follow" || path == "/rows" {
		return true
	}
	for _, p := range []string{"/vendors/", "/agencies/", "/contracts/", "/land-projects/", "/organizations/", "/people/",
		"/meetings/", "/confirm/", "/manage/", "/u/", "/r/"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// langQuery is "?lang=es" on a Spanish page (a link to another page of
// the site keeps the language), else "".
func langQuery(c *gin.Context) string {
	if c.GetString(langKey) == "es" {
		return "?lang=es"
	}
	return ""
}

// siteLang chooses the language of the site's own words: ?lang= on a page
// of the human site (taken off the query, so each page's own parameter
// check never sees it; any value but en or es is a 400) chooses it and
// keeps it in the langCookie, so every later page — whatever link led
// there — stays in it; without ?lang= the cookie chooses ("en" when
// neither). Pages that depend on the cookie say so (Vary: Cookie).
// Elsewhere (the JSON API, feeds) lang stays an unknown parameter; an
// error page there still honours the cookie. It also records the running
// form, which the layout's navigation follows (web.Page.Form).
func (s *Server) siteLang(c *gin.Context) {
	c.Set(formKey, s.cfg.Form)
	c.Set(baseKey, s.cfg.BaseURL)
	path := c.Request.URL.Path
	if !htmlPage(path) {
		if !strings.HasPrefix(path, "/api/") && path != "/mcp" {
			// an error page here (an unknown address) speaks the language
			// its link asked for, else the cookie's; the query is left as
			// it is for the route's own check
			if v := c.Request.URL.Query()["lang"]; len(v) == 1 && web.HasLang(v[0]) {
				c.Set(langKey, v[0])
			} else if v, err := c.Cookie(langCookie); err == nil && web.HasLang(v) {
				c.Set(langKey, v)
			}
		}
		c.Next()
		return
	}
	addVary(c.Writer.Header(), "Cookie")
	q := c.Request.URL.Query()
	if v, ok := q["lang"]; ok {
		if len(v) != 1 || !web.HasLang(v[0]) {
			writeError(c, record.InvalidNote("lang", "param.lang", strings.Join(web.Langs, ", ")))
			c.Abort()
			return
		}
		c.Set(langKey, v[0])
		if old, err := c.Cookie(langCookie); err != nil || old != v[0] {
			http.SetCookie(c.Writer, &http.Cookie{Name: langCookie, Value: v[0], Path: "/", MaxAge: langCookieAge, HttpOnly: true, SameSite: http.SameSiteLaxMode})
		}
		q.Del("lang")
		c.Request.URL.RawQuery = q.Encode()
	} else if v, err := c.Cookie(langCookie); err == nil && web.HasLang(v) {
		c.Set(langKey, v)
	}
	c.Next()
}

// langCookie keeps the language a reader chose (siteLang) for a year.
const (
	langCookie    = "lang"
	langCookieAge = 365 * 24 * 60 * 60
	formKey       = "site.form"
	baseKey       = "site.base"
)

const langKey = "site.lang"

// pageContext sets what the layout needs from the request: the language
// and the page's own address without lang (the language switch adds it).
func pageContext(c *gin.Context, status int, p *web.Page) {
	if p.Lang == "" {
		p.Lang = c.GetString(langKey)
	}
	if p.Form == 0 {
		p.Form = c.GetInt(formKey)
	}
	if p.Crumbs == nil && p.Shell == nil && p.Title != "" {
		p.Crumbs = pageCrumbs(c, p.Title, p.TitleVerbatim, status < 400)
	}
	if p.Path == "" && status >= 400 {
		p.Path = "/" // an error page's language switch leads home, never back to the address refused
	}
	if p.Path == "" {
		p.Path = c.Request.URL.Path
		if q := c.Request.URL.Query().Encode(); q != "" {
			p.Path += "?" + q
		}
	}
}

// siteSearch is the layout's search box without script: /search?q=…
// redirects to the shell's search view with the same words.
func (s *Server) siteSearch(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "q")
	q := p.str("q")
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	to := "/#search"
	if q != "" {
		to += "?" + url.Values{"q": {q}}.Encode()
	}
	if c.GetString(langKey) == "es" {
		to = "/?lang=es" + strings.TrimPrefix(to, "/")
	}
	c.Redirect(http.StatusSeeOther, to)
}

// aboutPage is /about: what the site is, where its records come from and
// what it does not say.
func (s *Server) aboutPage(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	d := aboutData{Form: s.cfg.Form, Rules: record.AbsenceRuleNotes}
	writeHTML(c, http.StatusOK, web.Page{Kind: web.About, Title: web.Word(c.GetString(langKey), "nav.about"), Home: s.cfg.BaseURL + "/",
		Crumbs: crumbs(c, web.Link{Label: web.Word(c.GetString(langKey), "nav.about")}), Data: d}, time.Time{})
}

type aboutData struct {
	Form  int
	Rules record.Notes
}

// crumbs are an entity page's breadcrumbs: home, then the trail given (the
// last, the page itself, without an address), in the page's language.
func crumbs(c *gin.Context, trail ...web.Link) []web.Link {
	lang := c.GetString(langKey)
	home := "/"
	if lang == "es" {
		home = "/?lang=es"
	}
	out := []web.Link{{Label: web.Word(lang, "nav.home"), URL: home}}
	for _, l := range trail {
		if lang == "es" && strings.HasPrefix(l.URL, "/#") {
			l.URL = "/?lang=es" + l.URL[1:]
		} else if l.URL != "" && lang == "es" && !strings.Contains(l.URL, "#") {
			if strings.Contains(l.URL, "?") {
				l.URL += "&lang=es"
			} else {
				l.URL += "?lang=es"
			}
		}
		out = append(out, l)
	}
	return out
}

// pageCrumbs are the breadcrumbs of a page by its path: home, the section
// the page belongs to, the page. A found object's page (found) has its
// title as its source publishes it: record text, marked as such; a title
// of the site's words that ends in record text names that end (verbatim).
func pageCrumbs(c *gin.Context, title, verbatim string, found bool) []web.Link {
	lang := c.GetString(langKey)
	path := c.Request.URL.Path
	page := web.Link{Label: title}
	if verbatim != "" && strings.HasSuffix(title, verbatim) {
		page = web.Link{Label: strings.TrimSuffix(title, verbatim), Verbatim: verbatim}
	}
	for _, sec := range []struct{ prefix, word, url string }{
		{"/vendors/", "nav.money", "/#money"},
		{"/agencies/", "nav.money", "/#money"},
		{"/contracts/", "nav.contracts", "/contracts/analysis"},
		{"/land-projects/", "nav.land", "/land-projects"},
		{"/organizations/", "nav.people", "/#people"},
		{"/people/", "nav.people", "/#people"},
		{"/meetings/", "nav.meetings", "/meetings"},
	} {
		if strings.HasPrefix(path, sec.prefix) && path != "/contracts/analysis" {
			if found && page.Verbatim == "" { // an object page's name, as its source publishes it (an error page's title is the site's words)
				page = web.Link{Verbatim: title}
			}
			return crumbs(c, web.Link{Label: web.Word(lang, sec.word), URL: sec.url}, page)
		}
	}
	return crumbs(c, page)
}
