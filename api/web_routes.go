package api

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/record"
)

// webRoutes mounts the human site: the shell at / (hash-routed views,
// rendered once) and its embedded static assets.
func (s *Server) webRoutes(r *gin.Engine) {
	var shell bytes.Buffer
	if err := web.Render(&shell, web.Page{Kind: web.Home, Home: "/#", Shell: &web.Config{Form: s.cfg.Form, BaseURL: s.cfg.BaseURL}}); err != nil {
		panic(err) // the embedded templates are parsed at start; this is a bug
	}
	home := func(c *gin.Context) {
		web.SecurityHeaders(c.Writer.Header())
		render(c, http.StatusOK, "text/html; charset=utf-8", shell.Bytes(), cacheShort, time.Time{})
	}
	r.GET("/", home)
	r.HEAD("/", home)
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
	if path == "/" || path == "/stats" || path == "/land-projects" || path == "/meetings" {
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

// siteLang takes ?lang= off the query of a page of the human site (so each
// page's own parameter check never sees it) and keeps it for the page's
// layout: "en" (the default) or "es"; any other value is a 400. Elsewhere
// (the JSON API, feeds) lang stays an unknown parameter.
func siteLang(c *gin.Context) {
	if !htmlPage(c.Request.URL.Path) {
		c.Next()
		return
	}
	q := c.Request.URL.Query()
	if v, ok := q["lang"]; ok {
		if len(v) != 1 || (v[0] != "en" && v[0] != "es") {
			writeError(c, record.Invalid("lang", "lang is en or es"))
			c.Abort()
			return
		}
		c.Set(langKey, v[0])
		q.Del("lang")
		c.Request.URL.RawQuery = q.Encode()
	}
	c.Next()
}

const langKey = "site.lang"

// pageContext sets what the layout needs from the request: the language
// and the page's own address without lang (the language switch adds it).
func pageContext(c *gin.Context, p *web.Page) {
	if p.Lang == "" {
		p.Lang = c.GetString(langKey)
	}
	if p.Path == "" {
		p.Path = c.Request.URL.Path
		if q := c.Request.URL.Query().Encode(); q != "" {
			p.Path += "?" + q
		}
	}
}
