package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// The Form 1 permalinks /vendors/<stem>/ and /agencies/<id>/ are small
// server-rendered pages (web/templates/entity.html in the one layout; every
// text escaped by html/template) that show the
// profile and link its JSON twin. The full site renders the same JSON.

type entityPage struct {
	Title, JSON, Base, Error string
	// ErrorKey is Error as a note, when the service wrote one (the page
	// says it in the reader's language).
	ErrorKey record.Note
	// ScopeLine says what the profile searched (scopeLine).
	ScopeLine record.Note
	Vendor    *VendorProfile
	Agency    *AgencyProfile
	Rules     record.Notes
	// Contracts are the registered contracts of the vendor or agency
	// (the first page of GET /api/contracts?vendor_stem= or agency_id=),
	// each linking its contract page; ContractsTotal counts them all.
	Contracts      []record.Contract
	ContractsTotal int
	ContractsJSON  string
}

// withContracts adds the first registered contracts of f to p (a failure
// leaves them out; the page says none are listed, never none exist).
func (s *Server) withContracts(c *gin.Context, p *entityPage, f procure.ContractFilter, q string) {
	page, err := s.procure().BrowseContracts(c.Request.Context(), f, "", 10)
	if err != nil {
		return
	}
	p.Contracts, p.ContractsTotal, p.ContractsJSON = page.Contracts, page.Total, s.cfg.BaseURL+"/api/contracts?"+q
}

// scopeLine is the profile's scope box line, from its scope's fields: how
// many records it searched, their source dates and when they were observed
// (a note of the shape the fields have).
func scopeLine(s record.Scope) record.Note {
	n := itoaComma(s.RecordsInCorpus)
	dates, observed := s.FirstSourceDate != "", !s.CorpusObservedAt.IsZero()
	switch {
	case s.RecordsInCorpus == 0:
		return record.N("scope.searched.none")
	case dates && observed:
		return record.N("scope.searched.dates_observed", n, s.FirstSourceDate, s.LastSourceDate, entityDay(s.CorpusObservedAt))
	case dates:
		return record.N("scope.searched.dates", n, s.FirstSourceDate, s.LastSourceDate)
	case observed:
		return record.N("scope.searched.observed", n, entityDay(s.CorpusObservedAt))
	}
	return record.N("scope.searched", n)
}

func itoaComma(n int) string {
	s := view.Money(float64(n))
	return s[1 : len(s)-3]
}

func (s *Server) writePage(c *gin.Context, status int, p entityPage) {
	p.Base = s.cfg.BaseURL
	p.Rules = record.AbsenceRuleNotes
	verbatim := ""
	if p.Error == "" {
		verbatim = p.Title // a vendor's or an agency's name as held
	}
	writeHTML(c, status, web.Page{Kind: web.Entity, Title: p.Title, TitleVerbatim: verbatim, Home: p.Base + "/", JSON: p.JSON, Data: p}, p.scopeTime())
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
	s.writePage(c, status, entityPage{Title: title, JSON: json, Error: record.ErrorMessage(err), ErrorKey: errorNote(err)})
}

// vendorPage is the Form 1 permalink /vendors/<stem>/; a slug that is not
// the stem's own (a suffix or case variant) redirects to it.
func (s *Server) vendorPage(c *gin.Context) {
	raw := pathValue(c, "stem")
	stem := dossier.VendorStem(raw)
	// the permalink is the stem's own slug with a trailing slash
	canonical := strings.HasSuffix(c.Param("stem"), "/")
	if slug := entity.StemSlug(stem); (slug != raw || !canonical) && entity.StemLongEnough(stem) {
		c.Redirect(http.StatusMovedPermanently, view.Links{Form: 1}.Vendor(stem, "")+langQuery(c)) // the one permalink rule, site-relative; the language kept
		return
	}
	jsonURL := s.cfg.BaseURL + "/api/vendors/" + raw
	prof, err := s.buildVendorProfile(c)
	if err != nil {
		s.pageError(c, fmt.Sprintf(web.Word(c.GetString(langKey), "page.vendor"), stem), jsonURL, err)
		return
	}
	p := entityPage{Title: prof.Name, JSON: jsonURL, Vendor: prof, ScopeLine: scopeLine(prof.Scope)}
	s.withContracts(c, &p, procure.ContractFilter{VendorStem: prof.Stem}, url.Values{"vendor_stem": {prof.Stem}}.Encode())
	s.writePage(c, http.StatusOK, p)
}

// agencyPage is the Form 1 permalink /agencies/<id>/; a name redirects to
// its canonical id.
func (s *Server) agencyPage(c *gin.Context) {
	raw := pathValue(c, "id")
	id, _, _ := s.agencyFromPath(raw)
	if id != raw {
		c.Redirect(http.StatusMovedPermanently, view.Links{Form: 1}.Agency(id, "")+langQuery(c))
		return
	}
	jsonURL := s.cfg.BaseURL + "/api/agencies/" + id
	prof, err := s.buildAgencyProfile(c)
	if err != nil {
		s.pageError(c, fmt.Sprintf(web.Word(c.GetString(langKey), "page.agency"), id), jsonURL, err)
		return
	}
	p := entityPage{Title: prof.Name, JSON: jsonURL, Agency: prof, ScopeLine: scopeLine(prof.Scope)}
	s.withContracts(c, &p, procure.ContractFilter{AgencyID: prof.ID}, url.Values{"agency_id": {prof.ID}}.Encode())
	s.writePage(c, http.StatusOK, p)
}
