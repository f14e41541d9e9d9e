package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/watch"
)

// watchChoices answers GET /api/watches/choices (Form 1: Form 2 takes
// plain English only): the values a structured watch accepts for its
// agency, category and requirement fields (watch.StructuredChoices), which
// the site's watch form offers. A cheap read: fixed lists and the
// crosswalk.
func (s *Server) watchChoices(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, watch.StructuredChoices(s.deps.Crosswalk), cacheSearch, time.Time{})
}
