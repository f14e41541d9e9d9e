package api

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
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
		if b, ok := c.Get(bannerKey); ok {
			if banner := b.(func() *web.Banner)(); banner != nil { // a source is not fresh: the shell states it (sources.go)
				renderPage(c, http.StatusOK, web.Page{Kind: web.Home, Home: "/#", Shell: &web.Config{Form: s.cfg.Form, BaseURL: s.cfg.BaseURL},
					Banner: banner}, cacheShort, time.Time{})
				return
			}
		}
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
