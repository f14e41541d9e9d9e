package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// mcpCatalog serves the machine-readable tool catalog. It allows no
// cross-site reads: of the GET routes only /agencies does (SPEC §4.3).
func (s *Server) mcpCatalog(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, s.deps.MCPCatalog(c.Request.Context()), cacheSearch, time.Time{})
}
