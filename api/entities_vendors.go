package api

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// VendorProfile is the JSON twin of a vendor profile: every award and
// intent notice naming a vendor whose name has the stem, and the
// payments-dataset records of the same stem.
type VendorProfile struct {
	Status record.Availability `json:"status"`
	dossier.VendorIdentity
	Awards   AwardsView            `json:"awards"`
	Payments *procure.PaymentsView `json:"payments"`
	// Relations are the vendor's links from every record held (agencies
	// by award notices, registered contract rows and payments; matters;
	// contracts its payments name), each with its method, confidence and
	// source rows (dossier.VendorRelations).
	Relations []dossier.Relation `json:"relations"`
	First     string             `json:"first_date,omitempty"`
	Last      string             `json:"last_date,omitempty"`
	Links     map[string]string  `json:"links"`
	Scope     record.Scope       `json:"scope"`
	Absence   []string           `json:"absence_notes"`
	// AbsenceKeys are absence_notes as notes (key and arguments).
	AbsenceKeys record.Notes `json:"absence_note_keys"`
}

// vendorProfile is GET /api/vendors/<stem>: parse, read the dossier, render.
func (s *Server) vendorProfile(c *gin.Context) {
	prof, err := s.buildVendorProfile(c)
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, prof, cacheShort, prof.Scope.CorpusObservedAt)
}

func (s *Server) buildVendorProfile(c *gin.Context) (*VendorProfile, error) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		return nil, err
	}
	return s.VendorDossier(c.Request.Context(), pathValue(c, "stem"))
}

// VendorDossier renders the vendor dossier of a name, slug or stem as a
// path would carry it.
func (s *Server) VendorDossier(ctx context.Context, pathArg string) (*VendorProfile, error) {
	v, err := s.dossiers().Vendor(ctx, pathArg)
	if err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			return nil, withLink(err, s.searchURL(url.Values{"q": {dossier.Mentions(dossier.VendorStem(pathArg))}}))
		}
		return nil, err
	}
	prof := s.vendorProfileOf(v)
	if prof.Relations, err = s.dossiers().VendorRelations(ctx, v); err != nil {
		return nil, err
	}
	return prof, nil
}

func (s *Server) vendorProfileOf(v *dossier.Vendor) *VendorProfile {
	awardsQ := url.Values{"vendor": {v.Stem}, "type": {strings.Join(procure.AwardTypes, ",")}, "sort": {"newest"}}
	prof := &VendorProfile{Status: record.Found, VendorIdentity: v.VendorIdentity, Scope: v.Scope,
		First: v.First, Last: v.Last, Absence: v.Absence, AbsenceKeys: v.AbsenceKeys,
		Links: map[string]string{
			"self":      s.cfg.BaseURL + "/api/vendors/" + v.Slug,
			"permalink": s.vendorLink(v.Stem, ""),
			"awards":    s.searchURL(awardsQ),
			"mentions":  s.searchURL(url.Values{"q": {dossier.Mentions(v.Stem)}}),
		}}
	now := s.deps.Now()
	prof.Awards = s.awardsView(v.Awards, awardsQ)
	prof.Awards.Notices = []view.LinkedHit{}
	for _, n := range v.Notices {
		prof.Awards.Notices = append(prof.Awards.Notices, s.hitView(n, 0, now))
	}
	prof.Payments = s.paymentsView(v.Payments, url.Values{"vendor_stem": {v.Stem}})
	prof.Payments.Ledger = &v.Ledger
	return prof
}
