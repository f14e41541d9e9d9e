package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/federated"
)

// federatedRoutes mounts GET /api/search/federated, the JSON twin of the
// search_federated tool (SPEC §4.10): one bounded, ranked set of typed
// objects across every registered lens, with per-lens coverage.
func (s *Server) federatedRoutes(api *gin.RouterGroup) {
	api.GET("/search/federated", s.federatedSearch)
}

// federated is the federated search over this server's engine. Object
// pages are the shapes of the deployment's form (view.Links).
func (s *Server) federated() *federated.Service {
	return federated.New(s.deps.Search, s.deps.Crosswalk, s.permalinks())
}

// federatedSearch serves GET /api/search/federated?q=&scope=&limit=&cursor=:
// scope is a comma-separated (or repeated) allow-list of lenses; an
// unknown lens, an empty q, a bad limit or a foreign cursor is a 400 that
// names the parameter (and, for scope, the registered lenses).
func (s *Server) federatedSearch(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "q", "scope", "limit", "cursor")
	req := federated.Request{Q: p.str("q"), Scope: p.list("scope"), Limit: p.integer("limit", federated.DefaultLimit, 1, federated.MaxLimit), Cursor: p.str("cursor")}
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	page, err := s.federated().Search(c.Request.Context(), req)
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, page, cacheShort, time.Time{})
}
