package mcp

import (
	"context"
	"net/url"
	"strings"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// MatterAnswer is the procurement matter of a PIN in brief (the service's
// answer, procure.MatterOptions Brief: each step without its record, at
// most procure.MaxBriefSteps steps): counts, totals that add only the same
// procurement, registered vs paid by fiscal year, and its timeline, each
// step with its link method and confidence. Route is the full matter in
// the REST API, Permalink its page.
type MatterAnswer struct {
	*procure.MatterView
	Route     string `json:"route"`
	Permalink string `json:"permalink"`
}

// noticePayments are the registrations and payments joined to a notice,
// as GET /api/notices/{id} gives them (procure.NoticePayments, with the
// coverage of the payments held; nil when the notice joins none), with the
// JSON address of the matter.
func (d *Deps) noticePayments(j *procure.NoticeJoin) *procure.NoticePayments {
	p := j.View()
	if p == nil {
		return nil
	}
	p.Matter = d.BaseURL + "/api/matters/" + url.PathEscape(j.PIN)
	return p
}

// matterOf reads the matter of a PIN in brief (nil when the PIN is a
// placeholder or nothing joins it).
func (d *Deps) matterOf(ctx context.Context, svc *procure.Service, pin string) (*MatterAnswer, error) {
	pin = strings.TrimSpace(pin)
	if pin == "" || len(pin) > procure.MaxPIN {
		return nil, nil
	}
	links := view.Links{Base: d.BaseURL}
	m, err := svc.MatterAnswer(ctx, pin, links, procure.MatterOptions{Brief: true})
	switch {
	case record.ErrorCode(err) == record.ENOTFOUND || record.ErrorCode(err) == record.EINVALID:
		return nil, nil
	case err != nil:
		return nil, err
	case m.Status != record.Found:
		return nil, nil
	}
	return &MatterAnswer{MatterView: m, Route: d.BaseURL + "/api/matters/" + url.PathEscape(m.PIN), Permalink: links.Matter(m.PIN)}, nil
}
