package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/federated"
)

// federatedRoutes mounts GET /api/search/federated, the JSON twin of the
// search_federated tool (SPEC §4.10): one bounded, ranked set of typed
// objects across every registered collection, with per-collection coverage.
func (s *Server) federatedRoutes(api *gin.RouterGroup) {
	api.GET("/search/federated", s.federatedSearch)
}

// federated is the federated search main.go built. Object pages are the
// shapes of the deployment's form (view.Links).
func (s *Server) federated() *federated.Service { return s.deps.Federated }

// federatedSearch serves GET /api/search/federated?q=&collections=&limit=&cursor=:
// collections is a comma-separated (or repeated) allow-list of
// federated.Collections (scope, its name before, is still read as the same
// list); an unknown collection, an empty q, a bad limit or a foreign cursor
// is a 400 that names the parameter (and, for collections, the registered
// ones).
func (s *Server) federatedSearch(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "q", "collections", "scope", "limit", "cursor")
	collections := append(p.list("collections"), p.list("scope")...)
	req := federated.Request{Q: p.str("q"), Collections: collections, Limit: p.integer("limit", federated.DefaultLimit, 1, federated.MaxLimit), Cursor: p.str("cursor")}
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
