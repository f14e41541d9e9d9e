package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// The Form 1 permalinks /vendors/<stem>/ and /agencies/<id>/ are small
// server-rendered pages (web/templates/entity.html in the one layout; every
// text escaped by html/template) that show the
// profile and link its JSON twin. The full site renders the same JSON.

type entityPage struct {
	Title, JSON, Base, Error, ScopeLine string
	Vendor                              *VendorProfile
	Agency                              *AgencyProfile
	Rules                               []string
}

func scopeLine(s record.Scope) string {
	if s.RecordsInCorpus == 0 {
		return "Only the records held here were searched."
	}
	line := "Searched " + itoaComma(s.RecordsInCorpus) + " records held here"
	if s.FirstSourceDate != "" {
		line += ", source dates " + s.FirstSourceDate + " to " + s.LastSourceDate
	}
	if !s.CorpusObservedAt.IsZero() {
		line += ", observed " + entityDay(s.CorpusObservedAt)
	}
	return line + "."
}

func itoaComma(n int) string {
	s := money(float64(n))
	return s[1 : len(s)-3]
}

func (s *Server) writePage(c *gin.Context, status int, p entityPage) {
	p.Base = s.cfg.BaseURL
	p.Rules = record.AbsenceRules
	writeHTML(c, status, web.Page{Kind: web.Entity, Title: p.Title, Home: p.Base + "/", JSON: p.JSON, Data: p}, p.scopeTime())
}

func (p entityPage) scopeTime() (t time.Time) {
	switch {
	case p.Vendor != nil:
		return p.Vendor.Scope.CorpusObservedAt
	case p.Agency != nil:
		return p.Agency.Scope.CorpusObservedAt
	}
	return t
}

func (s *Server) pageError(c *gin.Context, title, json string, err error) {
	status := httpStatus(err)
	s.writePage(c, status, entityPage{Title: title, JSON: json, Error: record.ErrorMessage(err)})
}

// vendorPage is the Form 1 permalink /vendors/<stem>/; a slug that is not
// the stem's own (a suffix or case variant) redirects to it.
func (s *Server) vendorPage(c *gin.Context) {
	raw := pathValue(c, "stem")
	stem := vendorStem(raw)
	// the permalink is the stem's own slug with a trailing slash
	canonical := strings.HasSuffix(c.Param("stem"), "/")
	if slug := entity.StemSlug(stem); (slug != raw || !canonical) && entity.StemLongEnough(stem) {
		c.Redirect(http.StatusMovedPermanently, view.Links{Form: 1}.Vendor(stem, "")) // the one permalink rule, site-relative
		return
	}
	jsonURL := s.cfg.BaseURL + "/api/vendors/" + raw
	prof, err := s.buildVendorProfile(c)
	if err != nil {
		s.pageError(c, "Vendor "+stem, jsonURL, err)
		return
	}
	s.writePage(c, http.StatusOK, entityPage{Title: prof.Name, JSON: jsonURL, Vendor: prof, ScopeLine: scopeLine(prof.Scope)})
}

// agencyPage is the Form 1 permalink /agencies/<id>/; a name redirects to
// its canonical id.
func (s *Server) agencyPage(c *gin.Context) {
	raw := pathValue(c, "id")
	id, _, _ := s.agencyFromPath(raw)
	if id != raw {
		c.Redirect(http.StatusMovedPermanently, view.Links{Form: 1}.Agency(id, ""))
		return
	}
	jsonURL := s.cfg.BaseURL + "/api/agencies/" + id
	prof, err := s.buildAgencyProfile(c)
	if err != nil {
		s.pageError(c, "Agency "+id, jsonURL, err)
		return
	}
	s.writePage(c, http.StatusOK, entityPage{Title: prof.Name, JSON: jsonURL, Agency: prof, ScopeLine: scopeLine(prof.Scope)})
}
