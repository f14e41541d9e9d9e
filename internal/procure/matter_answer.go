package procure

import (
	"context"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// MatterView is a procurement matter as shown, the one shape the JSON API,
// the site's JSON and the MCP tools render (the API adds its links, MCP
// its route): a timeline of every notice with the PIN, its registrations
// and payments, each step labelled with how it was linked and how sure
// the link is.
type MatterView struct {
	Status   record.Availability `json:"status"`
	PIN      string              `json:"pin"`
	BasePIN  string              `json:"base_pin"`
	Prefix   string              `json:"prefix_pin,omitempty"`
	Kind     string              `json:"kind"`
	KindNote string              `json:"kind_note"`
	// KindKey is kind_note as a note (key and arguments).
	KindKey  record.Note      `json:"kind_note_key"`
	Records  int              `json:"records"`
	Timeline []MatterStepView `json:"timeline"`
	// More is true when a brief answer left steps out (MatterOptions).
	More   bool             `json:"timeline_truncated,omitempty"`
	Counts map[string]int   `json:"counts"`
	Totals MatterTotalsView `json:"totals"`
	// Ledger: registered vs paid by fiscal year over the same procurement,
	// with the coverage of the payments held.
	Ledger  Ledger            `json:"registered_vs_paid"`
	Methods map[string]string `json:"link_methods"`
	Scope   record.Scope      `json:"scope"`
	Absence []string          `json:"absence_notes"`
	// AbsenceKeys are absence_notes as notes (key and arguments).
	AbsenceKeys record.Notes `json:"absence_note_keys"`
	// LinksComplete is false when more joins are held than one answer
	// reads (the steps joined are then the first ones), and LinksNote
	// names the bound.
	LinksComplete bool   `json:"links_complete"`
	LinksNote     string `json:"links_note,omitempty"`
	// LinksNoteKey is LinksNote as a note.
	LinksNoteKey *record.Note `json:"links_note_key,omitempty"`

	// The totals where MCP get_notice and get_contract gave them before
	// 2026-11-27, kept for older readers (SPEC §9): the same values as
	// Totals.
	AwardedDeprecated    Money `json:"awarded" deprecated:"totals.awarded"`
	RegisteredDeprecated Money `json:"registered" deprecated:"totals.registered"`
	PaidDeprecated       Money `json:"paid" deprecated:"totals.paid"`
}

// MatterTotalsView sums the valid amounts of a matter's same-procurement
// steps; Apart sums, separately, the steps joined by the 10-character base
// PIN alone. A sum with nothing held has a null value and says so.
type MatterTotalsView struct {
	Awarded    Money      `json:"awarded"`
	Registered Money      `json:"registered"`
	Paid       Money      `json:"paid"`
	Apart      *ApartView `json:"related_by_prefix,omitempty"`
	Note       string     `json:"note"`
	// NoteKey is note as a note (key and arguments).
	NoteKey record.Note `json:"note_key"`
}

// ApartView sums the steps joined by base PIN alone: never added.
type ApartView struct {
	Method     string `json:"method"`
	Confidence string `json:"confidence"`
	Records    int    `json:"records"`
	Awarded    Money  `json:"awarded"`
	Registered Money  `json:"registered"`
	Paid       Money  `json:"paid"`
}

// MatterStepView is one step of a timeline. ID is the notice's request id
// or the row's id. Notice and Entry are the record itself, left out of a
// brief answer.
type MatterStepView struct {
	Step      string           `json:"step"`
	Date      string           `json:"date,omitempty"`
	DateLabel string           `json:"date_label"`
	Record    string           `json:"record"` // notice, contract, payment
	ID        string           `json:"id"`
	PIN       string           `json:"pin,omitempty"`
	Link      Link             `json:"link"`
	Notice    *view.LinkedHit  `json:"notice,omitempty"`
	Entry     *RowView         `json:"entry,omitempty"`
	Amount    *view.AmountView `json:"amount,omitempty"`
	Title     string           `json:"title"`
	Agency    string           `json:"agency,omitempty"`
	Vendor    string           `json:"vendor,omitempty"`
	Permalink string           `json:"permalink,omitempty"`

	// The link's fields where MCP gave them before 2026-11-27, kept for
	// older readers (SPEC §9): the same values as Link.
	MethodDeprecated          string `json:"method" deprecated:"link.method"`
	ConfidenceDeprecated      string `json:"confidence" deprecated:"link.confidence"`
	SameProcurementDeprecated bool   `json:"same_procurement" deprecated:"link.same_procurement"`
}

// MatterOptions shape a matter's answer. Brief leaves each step's record
// (Notice, Entry) out and keeps at most MaxBriefSteps steps, saying so
// (More): the form a tool gives beside a notice or a contract.
type MatterOptions struct {
	Brief bool
}

// MaxBriefSteps bounds the timeline of a brief answer.
const MaxBriefSteps = 50

// MatterAnswer reads the matter of a PIN (Matter) and gives it as shown,
// its addresses made by links. Errors are Matter's; a matter nothing
// joins has Status not_found, no steps and its scope.
func (s *Service) MatterAnswer(ctx context.Context, pin string, links view.Links, o MatterOptions) (*MatterView, error) {
	m, err := s.Matter(ctx, pin)
	if err != nil {
		return nil, err
	}
	return s.matterView(m, links, o), nil
}

// now is the service's clock.
func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// matterView is a matter as shown.
func (s *Service) matterView(m *Matter, links view.Links, o MatterOptions) *MatterView {
	now := s.now()
	v := &MatterView{Status: m.Status, PIN: m.PIN, BasePIN: m.BasePIN, Prefix: m.Prefix, Kind: m.Kind, KindNote: m.KindNote, KindKey: m.KindKey,
		Records: m.Records(), Timeline: []MatterStepView{}, Counts: m.Counts, Ledger: m.Ledger, Methods: entity.JoinMethods, Scope: m.Scope,
		Absence: m.Absence, AbsenceKeys: m.AbsenceKeys, LinksComplete: m.LinksComplete, LinksNote: m.LinksNote, LinksNoteKey: m.LinksNoteKey,
		Totals: MatterTotalsView{Awarded: m.Totals.Awarded.Money(), Registered: m.Totals.Registered.Money(), Paid: m.Totals.Paid.Money(),
			Note: TotalsNote, NoteKey: TotalsKey}}
	v.AwardedDeprecated, v.RegisteredDeprecated, v.PaidDeprecated = v.Totals.Awarded, v.Totals.Registered, v.Totals.Paid
	if a := m.Totals.Apart; a.Records > 0 {
		v.Totals.Apart = &ApartView{Method: a.Method, Confidence: entity.ConfidenceLow, Records: a.Records,
			Awarded: a.Awarded.Money(), Registered: a.Registered.Money(), Paid: a.Paid.Money()}
	}
	for _, st := range m.Steps {
		if o.Brief && len(v.Timeline) == MaxBriefSteps {
			v.More = true
			break
		}
		ms := MatterStepView{Step: st.Step, DateLabel: st.DateLabel, Record: st.Record, PIN: st.PIN, Link: st.Link,
			MethodDeprecated: st.Link.Method, ConfidenceDeprecated: st.Link.Confidence, SameProcurementDeprecated: st.Link.SameProcurement}
		if !st.Date.IsZero() {
			ms.Date = st.Date.In(record.NewYork).Format("2006-01-02")
		}
		switch {
		case st.Notice != nil:
			n := *st.Notice
			h := links.LinkedHit(n, 0, now)
			ms.ID, ms.Amount, ms.Title, ms.Agency, ms.Vendor, ms.Permalink = n.RequestID, h.Amount, n.Title, n.AgencyName, strings.TrimSpace(n.VendorName), h.Links.Permalink
			if !o.Brief {
				ms.Notice = &h
			}
		case st.Row != nil:
			ev := st.Row.View()
			if st.Row.VendorStem != "" {
				ev.VendorProfile = links.Vendor(st.Row.VendorStem, st.Row.VendorName)
			}
			ms.ID, ms.Amount, ms.Title, ms.Agency, ms.Vendor = st.Row.ID, ev.Amount, st.Row.Title, st.Row.AgencyName, ev.Vendor
			if !o.Brief {
				ms.Entry = &ev
			}
		}
		v.Timeline = append(v.Timeline, ms)
	}
	return v
}
