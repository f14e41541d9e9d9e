package api

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// BlanketAwards: a PIN carried by more award notices than this, with no
// solicitation and no intent to award, is a blanket chain (procure).
const BlanketAwards = procure.BlanketAwards

// Matter kinds.
const (
	MatterProcurement = procure.KindProcurement
	MatterBlanket     = procure.KindBlanket
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
	Awarded    MoneyView   `json:"awarded"`
	Registered MoneyView   `json:"registered"`
	Paid       MoneyView   `json:"paid"`
	Apart      *ApartTotal `json:"related_by_prefix,omitempty"`
	Note       string      `json:"note"`
}

// ApartTotal sums the steps joined by base PIN alone: never added.
type ApartTotal struct {
	Method     string    `json:"method"`
	Confidence string    `json:"confidence"`
	Records    int       `json:"records"`
	Awarded    MoneyView `json:"awarded"`
	Registered MoneyView `json:"registered"`
	Paid       MoneyView `json:"paid"`
}

// MatterStep is one step of a timeline.
type MatterStep struct {
	Step      string      `json:"step"`
	Date      string      `json:"date,omitempty"`
	DateLabel string      `json:"date_label"`
	Record    string      `json:"record"` // notice, contract, payment
	PIN       string      `json:"pin,omitempty"`
	Link      StepLink    `json:"link"`
	Notice    *HitView    `json:"notice,omitempty"`
	Entry     *EntryView  `json:"entry,omitempty"`
	Amount    *AmountView `json:"amount,omitempty"`
	Title     string      `json:"title"`
	Agency    string      `json:"agency,omitempty"`
	Vendor    string      `json:"vendor,omitempty"`
	Permalink string      `json:"permalink,omitempty"`
}

// StepLink says how a step was tied to the PIN asked for: method,
// confidence, and whether it is summed with the matter.
type StepLink = procure.Link

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
		Totals: MatterTotals{Awarded: sumView(m.Totals.Awarded), Registered: sumView(m.Totals.Registered), Paid: sumView(m.Totals.Paid),
			Note: procure.TotalsNote},
		Links: map[string]string{
			"self":      s.cfg.BaseURL + "/api/matters/" + pathEscape(m.PIN),
			"permalink": s.permalinks().Matter(m.PIN),
			"search":    searchLink,
		}}
	if a := m.Totals.Apart; a.Records > 0 {
		v.Totals.Apart = &ApartTotal{Method: a.Method, Confidence: procure.ConfidenceLow, Records: a.Records,
			Awarded: sumView(a.Awarded), Registered: sumView(a.Registered), Paid: sumView(a.Paid)}
	}
	for _, st := range m.Steps {
		ms := MatterStep{Step: st.Step, Date: entityDay(st.Date), DateLabel: st.DateLabel, Record: st.Record, PIN: st.PIN, Link: st.Link}
		switch {
		case st.Notice != nil:
			n := *st.Notice
			h := s.hitView(n, 0, now)
			ms.Notice, ms.Amount, ms.Title, ms.Agency, ms.Vendor, ms.Permalink = &h, amountView(n), n.Title, n.AgencyName, strings.TrimSpace(n.VendorName), h.Links.Permalink
		case st.Row != nil:
			ev := s.entryView(*st.Row)
			ms.Entry, ms.Amount, ms.Title, ms.Agency, ms.Vendor = &ev, ev.Amount, st.Row.Title, st.Row.AgencyName, ev.Vendor
		}
		v.Timeline = append(v.Timeline, ms)
	}
	return v
}

// blanketChain reports whether notices carrying a PIN form a blanket
// chain (procure.Blanket).
var blanketChain = procure.Blanket

func uniqueNonEmpty(list []string) []string { return procure.UniqueNonEmpty(list) }
