package mcp

import (
	"context"
	"net/url"
	"strings"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// PaymentsOut are the payments joined to a notice through its registrations
// (link records),
// each with its method, confidence and evidence, and registered vs paid by
// fiscal year with the coverage of the payments held: "was it paid?" in
// one call. Ledger.State is no_payments_held when none is held, which
// never means unpaid.
type PaymentsOut struct {
	Payments []PaymentOut   `json:"payments"`
	Total    int            `json:"total"`
	Complete bool           `json:"complete"`
	Ledger   procure.Ledger `json:"registered_vs_paid"`
}

// PaymentOut is one joined payment.
type PaymentOut struct {
	ID         string `json:"id"`
	ContractID string `json:"contract_id,omitempty"`
	Payee      string `json:"payee,omitempty"`
	IssueDate  string `json:"issue_date,omitempty"`
	FiscalYear int    `json:"fiscal_year,omitempty"`
	Amount     string `json:"amount"`
	Method     string `json:"method"`
	Confidence string `json:"confidence"`
	Evidence   string `json:"evidence,omitempty"`
}

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

func day(r procure.Row) string {
	if r.Date.IsZero() {
		return ""
	}
	return r.Date.In(record.NewYork).Format("2006-01-02")
}

// noticePayments are the registrations' payments joined to a notice (nil
// when the notice joins none).
func noticePayments(j *procure.NoticeJoin) *PaymentsOut {
	if j == nil {
		return nil
	}
	out := &PaymentsOut{Payments: []PaymentOut{}, Complete: j.Complete, Ledger: j.Ledger}
	for _, l := range j.Links {
		if l.Row.Kind != procure.RowPayment {
			continue
		}
		out.Total++
		out.Payments = append(out.Payments, PaymentOut{ID: l.Row.ID, ContractID: l.Row.ContractID, Payee: l.Row.VendorName,
			IssueDate: day(l.Row), FiscalYear: l.Row.FiscalYear, Amount: money(l.Row.AmountValid, l.Row.Amount), Method: l.Link.Method,
			Confidence: l.Link.Confidence, Evidence: l.Link.Note})
	}
	return out
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
