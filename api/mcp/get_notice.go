package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/cycle"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

type getNoticeIn struct {
	RequestID string `json:"request_id"`
}

// NoticeOut is one notice read: found, not_found or unavailable, explicitly.
type NoticeOut struct {
	Status    record.Availability `json:"status"`
	RequestID string              `json:"request_id"`
	Message   string              `json:"message,omitempty"`
	Notice    *NoticeRef          `json:"notice,omitempty"`
	FullText  string              `json:"full_text,omitempty"`
	Truncated bool                `json:"full_text_truncated,omitempty"`
	Citation  *Citation           `json:"citation,omitempty"`
	Freshness *view.Freshness     `json:"freshness,omitempty"`
	// PriorCycle: for a solicitation or intent, the earlier cycles of the
	// same work held (method, tier, confidence, evidence each), or "no
	// earlier cycle found in the records held".
	PriorCycle *cycle.Result `json:"prior_cycle,omitempty"`
	// Payments: the payments joined to the notice through its
	// registrations (link records), registered vs paid by fiscal year
	// and the coverage of the payments held. Matter: the procurement
	// matter of its PIN. Both absent when the notice carries no usable
	// PIN or nothing joins it.
	Payments *procure.NoticePayments `json:"payments,omitempty"`
	Matter   *MatterAnswer           `json:"matter,omitempty"`
	Absence  []string                `json:"absence_rules"`
	// Empty says why nothing is held on not_found (record.RecordAbsence).
	Empty *record.EmptyAnswer `json:"empty,omitempty"`
}

// Citation is what to cite for a notice.
type Citation struct {
	Text        string `json:"text"`
	OfficialURL string `json:"official_url"`
	OpenDataURL string `json:"open_data_url"`
	Permalink   string `json:"permalink"`
}

// maxFullText bounds the text returned with a notice.
const maxFullText = 20000

func getNotice(d *Deps) Tool {
	t := newTool(d, "get_notice", "Get one City Record notice", ClassRead,
		"Read one notice by its exact City Record RequestID (e.g. 20140930007). Returns status found, not_found or "+
			"unavailable explicitly: not_found means this service holds no such notice, not that the City Record lacks it; "+
			"unavailable means the index could not answer now. A found notice comes with summary, flags (rolling deadline, "+
			"invalid amount…), amount validity, full text, freshness and citation-ready links (the official City Record page is authoritative). "+
			"A solicitation or intent also has prior_cycle: earlier notices of the same work by the same agency (who won last time, for how much, "+
			"when the next cycle may come), each with method, tier and confidence; or \"no earlier cycle found in the records held\". "+
			"In Form 1, a notice with a PIN also has matter (the procurement matter: notices, registrations, payments on one timeline, "+
			"each step with link method and confidence) and payments (payments joined through its registrations, with "+
			"registered_vs_paid by fiscal year and the coverage of the payments held).",
		[]int{1, 2},
		func(s *jsonschema.Schema) {
			p := prop(s, "request_id")
			p.Pattern = record.RequestIDPattern
			p.MaxLength = ptr(record.MaxRequestIDLen)
			p.Description = "Exact RequestID of the official notice."
		},
		func(ctx context.Context, d *Deps, in getNoticeIn) (NoticeOut, error) {
			if !record.ValidRequestID(in.RequestID) {
				return NoticeOut{}, record.Invalid("request_id", "request_id must be a City Record RequestID such as 20140930007")
			}
			out := NoticeOut{RequestID: in.RequestID, Absence: record.AbsenceRules}
			n, err := d.Search.Get(ctx, in.RequestID)
			switch record.ErrorCode(err) {
			case "":
			case record.ENOTFOUND:
				out.Status = record.NotFound
				out.Message = "No notice with this RequestID is held by this service. The official City Record may still have it: " + record.OfficialURL(in.RequestID)
				out.Empty = d.absent(ctx, in.RequestID, procure.NoticeKind)
				return out, nil
			case record.EUNAVAILABLE:
				out.Status = record.Unavailable
				out.Message = "The notice could not be read right now; this does not mean it is missing. Try again later."
				return out, nil
			default:
				if err != nil {
					return out, err
				}
			}
			out.Status = record.Found
			ref := d.ref(n)
			out.Notice = &ref
			out.FullText = n.Text
			if r := []rune(n.Text); len(r) > maxFullText {
				out.FullText, out.Truncated = string(r[:maxFullText]), true
			}
			out.Citation = &Citation{
				Text:        n.AgencyName + ", \"" + n.Title + "\", The City Record, RequestID " + n.RequestID + publishedSuffix(n),
				OfficialURL: n.OfficialURL, OpenDataURL: n.OpenDataURL, Permalink: ref.Permalink,
			}
			f := view.SourceFreshness(ctx, d.Search, n.Source)
			out.Freshness = &f
			out.PriorCycle = cycle.For(ctx, d.Search, n, view.Links{Base: d.BaseURL})
			// the joins are left out, not guessed, when the records cannot
			// be read: the notice itself is still found
			if svc, err := d.procurement(); err == nil && d.form != 2 { // Form 2 serves no matter or payments route
				if j, err := svc.NoticePayments(ctx, n); err == nil {
					out.Payments = d.noticePayments(j)
				}
				if m, err := d.matterOf(ctx, svc, n.PIN); err == nil {
					out.Matter = m
				}
			}
			return out, nil
		})
	t.Limits = []string{"full_text: at most 20,000 characters (full_text_truncated says when cut)"}
	t.Examples = []Example{{"A 2014 child-care award", map[string]any{"request_id": "20140930007"}}}
	return t
}

func publishedSuffix(n record.Notice) string {
	if n.StartDate.IsZero() {
		return ""
	}
	return ", published " + n.StartDate.In(record.NewYork).Format("January 2, 2006")
}
