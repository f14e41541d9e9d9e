package api

import (
	"context"
	"net/url"

	"github.com/recordwatch/recordwatch/internal/cycle"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// noticePayments joins a notice to the payments dataset by PIN; nil when
// the notice has no usable PIN, the engine holds no entries or nothing
// joins (a failed read is left out rather than failing the notice view).
func (s *Server) noticePayments(ctx context.Context, n record.Notice) *procure.NoticePayments {
	j, err := s.procure().NoticePayments(ctx, n)
	if err != nil {
		s.deps.Logger.Warn("notice payments", "request_id", n.RequestID, "err", err)
		return nil
	}
	if j == nil {
		return nil
	}
	p := j.View()
	p.Matter = s.cfg.BaseURL + "/api/matters/" + url.PathEscape(j.PIN)
	s.withLinks(p.Totals, j.Totals)
	if p.Apart != nil {
		s.withLinks(p.Apart, j.Apart)
	}
	for i, l := range j.Links {
		p.Links[i].Entry = s.entryView(l.Row)
	}
	return p
}

// priorCycle is a solicitation's or intent's earlier cycles (nil for other
// notices, and when the search fails: left out, not guessed).
func (s *Server) priorCycle(ctx context.Context, n record.Notice) *cycle.Result {
	return cycle.For(ctx, s.deps.Search, n, view.Links{Base: s.cfg.BaseURL, Form: s.cfg.Form})
}
