package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// WatchChoices are the values a structured watch (POST /api/watches,
// Form 1) accepts for its agency, category and requirement fields, as the
// site's watch form offers them: the very lists the watch rules validate
// against (watch.CategoryNames, watch.RequirementNames, the agency
// crosswalk), so the form can say nothing the API refuses.
type WatchChoices struct {
	// Categories are the procurement categories a watch may name.
	Categories []string `json:"categories"`
	// Requirements are the special requirements a watch may name.
	Requirements []string `json:"requirements"`
	// Agencies are the canonical agencies (id and name), former ones
	// too (the API takes them); a watch names one by either.
	Agencies []WatchAgency `json:"agencies"`
	// ProcurementLens is the one lens categories, requirements and
	// bids apply to.
	ProcurementLens string `json:"procurement_lens"`
	// MaxValues bounds each list of a watch (agencies, categories …).
	MaxValues int `json:"max_values"`
}

// WatchAgency is one agency a watch may name.
type WatchAgency struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Inactive: the agency no longer exists (its records stay).
	Inactive bool `json:"inactive,omitempty"`
}

// watchChoices answers GET /api/watches/choices (Form 1: Form 2 takes
// plain English only). A cheap read: fixed lists and the crosswalk.
func (s *Server) watchChoices(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	out := WatchChoices{Categories: append([]string{}, watch.CategoryNames...),
		Requirements: append([]string{}, watch.RequirementNames...), Agencies: []WatchAgency{}, MaxValues: watch.MaxValues,
		ProcurementLens: record.LensMoney}
	for _, a := range s.deps.Crosswalk.Agencies() {
		out.Agencies = append(out.Agencies, WatchAgency{ID: a.ID, Name: a.Name, Inactive: a.Inactive})
	}
	renderJSON(c, http.StatusOK, out, cacheSearch, time.Time{})
}
