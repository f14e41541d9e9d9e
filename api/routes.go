package api

import "github.com/gin-gonic/gin"

// routes is the one route table.
func (s *Server) routes(r *gin.Engine) {
	r.NoRoute(s.notFoundRoute)
	r.NoMethod(s.methodNotAllowed)

	r.GET("/healthz", s.healthz)

	api := r.Group("/api", s.rateLimit())
	api.GET("/search", s.search)
	api.GET("/notices/:id", s.notice)
	api.GET("/passages", s.passages)

	if s.deps.MCP != nil {
		inner := gin.WrapH(s.deps.MCP)
		mcpH := func(c *gin.Context) {
			// the tools' per-client ceilings see the address the limiter saw
			c.Request.Header.Set("X-Recordwatch-Client", clientKey(c))
			inner(c)
		}
		r.POST("/mcp", s.rateLimit(), maxBody(1<<20), mcpH)
		r.GET("/mcp", s.rateLimit(), mcpH)
		r.DELETE("/mcp", s.rateLimit(), mcpH)
		r.GET("/mcp/catalog.json", s.rateLimit(), s.mcpCatalog)
	}

	s.webRoutes(r) // web_routes.go: the human site

	// each later issue owns its file and its routes
	s.entityRoutes(r, api) // entities.go: agencies, vendors, matters, batch, property locations
	s.feedRoutes(r)        // feeds.go: /feed.xml, /feed.json, /feed.ics, /r/<kind>/<id>
	s.watchRoutes(r, api)  // watches.go: preview, create, confirm, manage, unsubscribe
	s.shareRoutes(r)       // shares.go: /inv, /stats
}
