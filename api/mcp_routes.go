package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
)

// mcpCatalog serves the machine-readable tool catalog. It allows no
// cross-site reads: of the GET routes only /agencies does (SPEC §4.3).
func (s *Server) mcpCatalog(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	if s.deps.MCPCatalog == nil {
		writeError(c, record.Errorf(record.EUNAVAILABLE, "the MCP tool catalog is not served by this deployment"))
		return
	}
	renderJSON(c, http.StatusOK, s.deps.MCPCatalog(c.Request.Context()), cacheSearch, time.Time{})
}
