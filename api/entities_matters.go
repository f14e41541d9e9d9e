package api

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// MatterView is the JSON twin of a procurement matter: a timeline of every
// notice with the PIN, its registrations and payments, each step labelled
// with how it was linked and how sure the link is.
type MatterView struct {
	Status   record.Availability `json:"status"`
	PIN      string              `json:"pin"`
	BasePIN  string              `json:"base_pin"`
	Prefix   string              `json:"prefix_pin,omitempty"`
	Kind     string              `json:"kind"`
	KindNote string              `json:"kind_note"`
	Records  int                 `json:"records"`
	Timeline []MatterStep        `json:"timeline"`
	Counts   map[string]int      `json:"counts"`
	Totals   MatterTotals        `json:"totals"`
	// Ledger: registered vs paid by fiscal year over the same procurement,
	// with the coverage of the payments held.
	Ledger  procure.Ledger    `json:"registered_vs_paid"`
	Methods map[string]string `json:"link_methods"`
	Links   map[string]string `json:"links"`
	Scope   record.Scope      `json:"scope"`
	Absence []string          `json:"absence_notes"`
}

// MatterTotals sums the valid amounts of a matter's same-procurement steps;
// Apart sums, separately, the steps joined by the 10-character base PIN
// alone. A sum with nothing held has a null value and says so.
type MatterTotals struct {
	Awarded    procure.Money `json:"awarded"`
	Registered procure.Money `json:"registered"`
	Paid       procure.Money `json:"paid"`
	Apart      *ApartTotal   `json:"related_by_prefix,omitempty"`
	Note       string        `json:"note"`
}

// ApartTotal sums the steps joined by base PIN alone: never added.
type ApartTotal struct {
	Method     string        `json:"method"`
	Confidence string        `json:"confidence"`
	Records    int           `json:"records"`
	Awarded    procure.Money `json:"awarded"`
	Registered procure.Money `json:"registered"`
	Paid       procure.Money `json:"paid"`
}

// MatterStep is one step of a timeline.
type MatterStep struct {
	Step      string           `json:"step"`
	Date      string           `json:"date,omitempty"`
	DateLabel string           `json:"date_label"`
	Record    string           `json:"record"` // notice, contract, payment
	PIN       string           `json:"pin,omitempty"`
	Link      procure.Link     `json:"link"`
	Notice    *HitView         `json:"notice,omitempty"`
	Entry     *procure.RowView `json:"entry,omitempty"`
	Amount    *view.AmountView `json:"amount,omitempty"`
	Title     string           `json:"title"`
	Agency    string           `json:"agency,omitempty"`
	Vendor    string           `json:"vendor,omitempty"`
	Permalink string           `json:"permalink,omitempty"`
}

// matter is GET /api/matters/<pin>: parse, read the matter, render.
func (s *Server) matter(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	m, err := s.procure().Matter(c.Request.Context(), pathValue(c, "pin"))
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
	renderJSON(c, http.StatusOK, s.matterView(m, searchLink), cacheShort, m.Scope.CorpusObservedAt)
}

func (s *Server) matterView(m *procure.Matter, searchLink string) MatterView {
	now := s.deps.Now()
	v := MatterView{Status: m.Status, PIN: m.PIN, BasePIN: m.BasePIN, Prefix: m.Prefix, Kind: m.Kind, KindNote: m.KindNote,
		Records: m.Records(), Timeline: []MatterStep{}, Counts: m.Counts, Ledger: m.Ledger, Methods: procure.Methods, Scope: m.Scope, Absence: m.Absence,
		Totals: MatterTotals{Awarded: m.Totals.Awarded.Money(), Registered: m.Totals.Registered.Money(), Paid: m.Totals.Paid.Money(),
			Note: procure.TotalsNote},
		Links: map[string]string{
			"self":      s.cfg.BaseURL + "/api/matters/" + url.PathEscape(m.PIN),
			"permalink": s.permalinks().Matter(m.PIN),
			"search":    searchLink,
		}}
	if a := m.Totals.Apart; a.Records > 0 {
		v.Totals.Apart = &ApartTotal{Method: a.Method, Confidence: procure.ConfidenceLow, Records: a.Records,
			Awarded: a.Awarded.Money(), Registered: a.Registered.Money(), Paid: a.Paid.Money()}
	}
	for _, st := range m.Steps {
		ms := MatterStep{Step: st.Step, Date: entityDay(st.Date), DateLabel: st.DateLabel, Record: st.Record, PIN: st.PIN, Link: st.Link}
		switch {
		case st.Notice != nil:
			n := *st.Notice
			h := s.hitView(n, 0, now)
			ms.Notice, ms.Amount, ms.Title, ms.Agency, ms.Vendor, ms.Permalink = &h, view.Amount(n), n.Title, n.AgencyName, strings.TrimSpace(n.VendorName), h.Links.Permalink
		case st.Row != nil:
			ev := s.entryView(*st.Row)
			ms.Entry, ms.Amount, ms.Title, ms.Agency, ms.Vendor = &ev, ev.Amount, st.Row.Title, st.Row.AgencyName, ev.Vendor
		}
		v.Timeline = append(v.Timeline, ms)
	}
	return v
}
