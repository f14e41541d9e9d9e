package api

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
)

// webRoutes mounts the human site: the shell at / (hash-routed views) and
// its embedded static assets.
func (s *Server) webRoutes(r *gin.Engine) {
	shell := gin.WrapH(web.Shell(web.Config{Form: s.cfg.Form, BaseURL: s.cfg.BaseURL}))
	r.GET("/", shell)
	r.HEAD("/", shell)
	files := gin.WrapH(web.Static())
	r.GET("/static/*filepath", func(c *gin.Context) {
		if !web.StaticFile(strings.TrimPrefix(c.Param("filepath"), "/")) {
			s.notFoundRoute(c) // no listings, no "..", no 500 for a name that is not UTF-8
			return
		}
		files(c)
	})
}
