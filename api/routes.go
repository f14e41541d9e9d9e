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
}
