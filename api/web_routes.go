package api

import (
	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
)

// webRoutes mounts the human site: the shell at / (hash-routed views) and
// its embedded static assets.
func (s *Server) webRoutes(r *gin.Engine) {
	shell := gin.WrapH(web.Shell(web.Config{Form: s.cfg.Form, BaseURL: s.cfg.BaseURL}))
	r.GET("/", shell)
	r.HEAD("/", shell)
	r.GET("/static/*filepath", gin.WrapH(web.Static()))
}
