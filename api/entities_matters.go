package api

import (
	"net/http"
	"net/url"
	"strconv"
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
	p := newParams(c.Request.URL.Query(), "format")
	asCSV := csvFormat(p)
	if err := p.err; err != nil {
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
	if asCSV {
		s.matterCSV(c, m)
		return
	}
	renderJSON(c, http.StatusOK, matterAnswer{MatterView: m, Links: s.matterLinks(m.PIN, searchLink)}, cacheShort, m.Scope.CorpusObservedAt)
}

// matterCSV is a matter's timeline as CSV: every step the JSON lists, each
// with how it was linked, its totals and scope first.
func (s *Server) matterCSV(c *gin.Context, m *procure.MatterView) {
	e := startCSV(c, "matter")
	e.comment("Recordwatch procurement matter: %s", s.cfg.BaseURL+"/api/matters/"+url.PathEscape(m.PIN))
	e.comment("filters: pin=%s (base %s)", m.PIN, m.BasePIN)
	e.comment("rows matched: %d; awarded %s, registered %s, paid %s. %s", len(m.Timeline), m.Totals.Awarded.Display, m.Totals.Registered.Display,
		m.Totals.Paid.Display, m.Totals.Note)
	if !m.LinksComplete {
		e.comment("links not complete: %s", m.LinksNote)
	}
	e.scope("", m.Scope)
	e.rows = "every step of the matter's timeline, as its JSON lists them"
	p := csvPage{total: len(m.Timeline)}
	for _, st := range m.Timeline {
		amount, valid, raw := "", "false", ""
		if a := st.Amount; a != nil {
			raw = a.SourceText
			if a.Valid && a.Value != nil {
				amount, valid = strconv.FormatFloat(*a.Value, 'f', 2, 64), "true"
			}
		}
		p.rows = append(p.rows, []string{st.ID, st.Step, st.Record, st.Date, st.DateLabel, st.PIN, st.Title, st.Agency, st.Vendor,
			amount, valid, raw, st.Link.Method, st.Link.Confidence, strconv.FormatBool(st.Link.SameProcurement), st.Permalink})
	}
	e.stream([]string{"id", "step", "record", "date", "date_label", "pin", "title", "agency", "vendor", "amount", "amount_valid",
		"amount_as_printed", "link_method", "link_confidence", "same_procurement", "permalink"}, p, nil)
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
