package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// mcpCatalog serves the machine-readable tool catalog.
func (s *Server) mcpCatalog(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	c.Header("Access-Control-Allow-Origin", "*")
	renderJSON(c, http.StatusOK, s.deps.MCPCatalog(c.Request.Context()), CacheSearch, time.Time{})
}
