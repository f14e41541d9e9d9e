package mcp

import (
	"context"
	"net/url"
	"strings"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// MatterOut is the procurement matter of a PIN in brief: counts, totals
// that add only the same procurement, registered vs paid by fiscal year,
// and its timeline (at most maxMatterSteps steps), each step with its link
// method and confidence. Route is the full matter in the REST API.
type MatterOut struct {
	PIN        string            `json:"pin"`
	Kind       string            `json:"kind"`
	KindNote   string            `json:"kind_note"`
	Counts     map[string]int    `json:"counts"`
	Awarded    procure.Money     `json:"awarded"`
	Registered procure.Money     `json:"registered"`
	Paid       procure.Money     `json:"paid"`
	Ledger     procure.Ledger    `json:"registered_vs_paid"`
	Timeline   []MatterStepOut   `json:"timeline"`
	More       bool              `json:"timeline_truncated,omitempty"`
	Route      string            `json:"route"`
	Permalink  string            `json:"permalink"`
	Absence    []string          `json:"absence_notes"`
	Methods    map[string]string `json:"link_methods"`
}

// MatterStepOut is one step of a matter's timeline.
type MatterStepOut struct {
	Step            string `json:"step"`
	Date            string `json:"date,omitempty"`
	Record          string `json:"record"`
	ID              string `json:"id"`
	Amount          string `json:"amount,omitempty"`
	Method          string `json:"method"`
	Confidence      string `json:"confidence"`
	SameProcurement bool   `json:"same_procurement"`
}

// maxMatterSteps bounds the timeline a tool returns.
const maxMatterSteps = 50

func money(valid bool, amount float64) string {
	s := procure.Sum{Records: 1, Absent: "no valid amount"}
	if valid {
		s.ValidAmounts, s.Amount = 1, amount
	}
	return s.Display()
}

// noticePayments are the registrations and payments joined to a notice,
// as GET /api/notices/{id} gives them (procure.NoticePayments; nil when
// the notice joins none), with the coverage of the payments held and the
// JSON address of the matter.
func (d *Deps) noticePayments(ctx context.Context, j *procure.NoticeJoin) *procure.NoticePayments {
	p := j.View()
	if p == nil {
		return nil
	}
	p.Matter = d.BaseURL + "/api/matters/" + url.PathEscape(j.PIN)
	ext, words := search.Extents(ctx, d.Search, record.ExtentPayments)
	p.Totals.Extent, p.Totals.ExtentWords = ext, words
	if p.Apart != nil {
		p.Apart.Extent, p.Apart.ExtentWords = ext, words
	}
	return p
}

// matterOf reads the matter of a PIN in brief (nil when the PIN is a
// placeholder or nothing joins it).
func (d *Deps) matterOf(ctx context.Context, svc *procure.Service, pin string) (*MatterOut, error) {
	pin = strings.TrimSpace(pin)
	if pin == "" || len(pin) > procure.MaxPIN {
		return nil, nil
	}
	m, err := svc.Matter(ctx, pin)
	switch {
	case record.ErrorCode(err) == record.ENOTFOUND || record.ErrorCode(err) == record.EINVALID:
		return nil, nil
	case err != nil:
		return nil, err
	case m.Status != record.Found:
		return nil, nil
	}
	out := &MatterOut{PIN: m.PIN, Kind: m.Kind, KindNote: m.KindNote, Counts: m.Counts, Awarded: m.Totals.Awarded.Money(),
		Registered: m.Totals.Registered.Money(), Paid: m.Totals.Paid.Money(), Ledger: m.Ledger, Timeline: []MatterStepOut{},
		Route: d.BaseURL + "/api/matters/" + url.PathEscape(m.PIN), Permalink: view.Links{Base: d.BaseURL}.Matter(m.PIN), Absence: m.Absence, Methods: procure.Methods}
	for _, st := range m.Steps {
		if len(out.Timeline) == maxMatterSteps {
			out.More = true
			break
		}
		s := MatterStepOut{Step: st.Step, Record: st.Record, Method: st.Link.Method, Confidence: st.Link.Confidence,
			SameProcurement: st.Link.SameProcurement}
		if !st.Date.IsZero() {
			s.Date = st.Date.In(record.NewYork).Format("2006-01-02")
		}
		switch {
		case st.Notice != nil:
			s.ID = st.Notice.RequestID
			if st.Notice.AmountValid {
				s.Amount = money(true, st.Notice.Amount)
			}
		case st.Row != nil:
			s.ID, s.Amount = st.Row.ID, money(st.Row.AmountValid, st.Row.Amount)
		}
		out.Timeline = append(out.Timeline, s)
	}
	return out, nil
}
