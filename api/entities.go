package api

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Limits of the entity views (SPEC §8).
const (
	BatchMaxNames = 10       // names per POST /batch
	BatchPerDay   = 30       // POST /batch requests per client per day
	BatchMaxBody  = 16 << 10 // bytes of a POST /batch body
)

// entityRoutes mounts this file's routes: the agency crosswalk, vendor and
// agency profiles with their JSON twins, procurement matters, batch
// cross-reference and property locations (entities_*.go).
func (s *Server) entityRoutes(r *gin.Engine, api *gin.RouterGroup) {
	r.GET("/agencies", s.rateLimit(), s.agencies)
	r.HEAD("/agencies", s.rateLimit(), s.agencies)
	r.OPTIONS("/agencies", s.agenciesPreflight)
	api.GET("/agencies/*id", s.agencyProfile)  // Form 2 names may hold "/" (HRA/DEPT OF SOCIAL SERVICES)
	api.GET("/vendors/*stem", s.vendorProfile) // names may hold "/"
	api.GET("/matters/*pin", s.matter)         // PINs may hold "/" (PROP/TERR26-27)
	r.POST("/batch", s.rateLimit(), maxBody(BatchMaxBody), s.ceiling("batch", BatchPerDay), s.batch)
	r.GET("/property-locations", s.rateLimit(), s.propertyLocations)
}

// entityPageRoutes mounts the Form 1 permalinks of vendor and agency
// profiles (routes.go mounts them in Form 1 only).
func (s *Server) entityPageRoutes(r *gin.Engine) {
	r.GET("/agencies/:id/", s.rateLimit(), s.agencyPage)
	r.GET("/vendors/*stem", s.rateLimit(), s.vendorPage) // stems may hold "/"
}

// pathValue is a route parameter, without the slashes a catch-all keeps.
func pathValue(c *gin.Context, name string) string {
	return strings.Trim(c.Param(name), "/")
}

// procure is the procurement service main.go built.
func (s *Server) procure() *procure.Service { return s.deps.Procure }

// dossiers is the dossier service main.go built.
func (s *Server) dossiers() *dossier.Service { return s.deps.Dossiers }

// entityReader is the record reader of the entity views.
func (s *Server) entityReader() (procure.Records, error) { return s.procure().RecordReader() }

// entityScope is the scope of an entity view: what was asked, the notice
// coverage and the coverage of the payments dataset and other joined
// sources.
func (s *Server) entityScope(ctx context.Context, kind string, filters map[string]string, matched int) (record.Scope, error) {
	return s.procure().Scope(ctx, kind, filters, matched)
}

// day formats a time as a New York calendar day ("" for zero).
func entityDay(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(record.NewYork).Format("2006-01-02")
}

// vendorLink is the vendor profile permalink of a stem (Form 1) or name
// (Form 2).
func (s *Server) vendorLink(stem, name string) string { return s.permalinks().Vendor(stem, name) }

// agencyLink is the agency profile permalink of an id (Form 1) or name
// (Form 2).
func (s *Server) agencyLink(id, name string) string { return s.permalinks().Agency(id, name) }

// searchURL is the JSON search for parameters.
func (s *Server) searchURL(v url.Values) string {
	return s.cfg.BaseURL + "/api/search?" + v.Encode()
}

// withLink appends an address to an error's message (a search that may
// still find what a service did not); a message that is a note stays one
// (error.with_link: the message, then the address).
func withLink(err error, link string) error {
	if e, ok := err.(*record.Error); ok {
		out := &record.Error{Code: e.Code, Param: e.Param, Message: e.Message + ": " + link}
		if !e.MessageKey.IsZero() && len(e.MessageKey.Inner) == 0 {
			out.MessageKey = record.Note{Key: "error.with_link", Args: []string{link}, Inner: []record.Part{record.PartOf(e.MessageKey)}}
		}
		return out
	}
	return err
}

// errorNote is an error's message as a note (record.Error.MessageKey), or
// no note when its service wrote none (the page then shows the message).
func errorNote(err error) record.Note {
	var e *record.Error
	if errors.As(err, &e) {
		return e.MessageKey
	}
	return record.Note{}
}

// entryView is a row as the API shows it: the row's view with the link to
// its vendor's profile.
func (s *Server) entryView(e procure.Row) procure.RowView {
	v := e.View()
	if e.VendorStem != "" {
		v.VendorProfile = s.vendorLink(e.VendorStem, e.VendorName)
	}
	return v
}

func (s *Server) paymentsView(t procure.RowTotals, filter url.Values) *procure.PaymentsView {
	p := t.View()
	s.withLinks(&p, t)
	if filter != nil {
		p.Rows, p.CSV = s.RowsLink(filter, "", false), s.RowsLink(filter, "", true)
		if p.NextCursor != "" {
			p.Next = s.RowsLink(filter, p.NextCursor, false)
		}
	}
	return &p
}

// withLinks adds what the API shows with totals: the vendor profile of
// each entry (the totals' extent is the service's, RowTotals.Extent).
func (s *Server) withLinks(p *procure.PaymentsView, t procure.RowTotals) {
	for i, e := range t.Rows {
		p.Entries[i] = s.entryView(e)
	}
}
