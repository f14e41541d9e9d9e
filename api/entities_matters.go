package api

import (
	"net/http"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// matterAnswer is a procurement matter as GET /api/matters/<pin> gives
// it: the service's answer with the API's links.
type matterAnswer struct {
	*procure.MatterView
	Links map[string]string `json:"links"`
}

// matter is GET /api/matters/<pin>: parse, read the matter, render.
func (s *Server) matter(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	m, err := s.procure().MatterAnswer(c.Request.Context(), pathValue(c, "pin"), s.permalinks(), procure.MatterOptions{})
	if err != nil {
		writeError(c, err)
		return
	}
	searchLink := s.searchURL(url.Values{"q": {m.PIN}})
	if m.Status == record.NotFound {
		renderJSON(c, http.StatusNotFound, gin.H{
			"status": record.NotFound, "pin": m.PIN,
			"error": errorDetail{Error: record.Error{Code: record.ENOTFOUND, Param: "pin",
				Message: "no notice, registration or payment held here carries this PIN. The official City Record and Checkbook NYC may still have it; a full-text search may find it written another way: " + searchLink},
				Absence: absenceOf(c)},
			"scope": m.Scope, "absence_rules": record.AbsenceRules,
		}, noStore, time.Time{})
		c.Abort()
		return
	}
	renderJSON(c, http.StatusOK, matterAnswer{MatterView: m, Links: s.matterLinks(m.PIN, searchLink)}, cacheShort, m.Scope.CorpusObservedAt)
}

// matterLinks are a matter's addresses: its JSON, its permalink and the
// search for its PIN.
func (s *Server) matterLinks(pin, searchLink string) map[string]string {
	return map[string]string{
		"self":      s.cfg.BaseURL + "/api/matters/" + url.PathEscape(pin),
		"permalink": s.permalinks().Matter(pin),
		"search":    searchLink,
	}
}
