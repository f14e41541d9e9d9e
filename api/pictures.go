package api

import (
	"bytes"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// matterTimelineSVG is GET /pictures/matter-timeline?pin=…[&lang=es]: the
// timeline of a procurement matter drawn on the server as an SVG document
// (web.Timeline), from the same steps as its JSON twin /api/matters/<pin>;
// the matter view (static/app.js) places it above the list of steps.
func (s *Server) matterTimelineSVG(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "pin", "lang")
	pin, lang := p.str("pin"), p.str("lang")
	if pin == "" {
		p.fail(record.Invalid("pin", "pin is required"))
	}
	if lang != "" && lang != "en" && lang != "es" {
		p.fail(record.Invalid("lang", "lang is en or es"))
	}
	if err := p.err; err != nil {
		writeError(c, err)
		return
	}
	m, err := s.procure().MatterAnswer(c.Request.Context(), pin, s.permalinks(), procure.MatterOptions{})
	if err != nil {
		writeError(c, err)
		return
	}
	if m.Status == record.NotFound {
		writeError(c, &record.Error{Code: record.ENOTFOUND, Param: "pin", Message: "no notice, registration or payment held here carries this PIN"})
		return
	}
	steps := make([]web.TimelineStep, 0, len(m.Timeline))
	for _, st := range m.Timeline {
		ts := web.TimelineStep{Date: st.Date, Record: st.Record, Step: st.Step, URL: s.stepPage(st, m.PIN)}
		if a := st.Amount; a != nil {
			ts.Display = a.Display
			if a.Valid && a.Value != nil {
				ts.Value, ts.Valid = *a.Value, true
			}
		}
		steps = append(steps, ts)
	}
	var b bytes.Buffer
	if err := web.RenderPicture(&b, lang, "timeline", web.MatterTimeline(lang, m.PIN, steps)); err != nil {
		writeError(c, err)
		return
	}
	web.SecurityHeaders(c.Writer.Header())
	// each step leads to its record's page, in the picture's language
	render(c, http.StatusOK, "image/svg+xml; charset=utf-8", web.KeepLang(b.Bytes(), lang, s.cfg.BaseURL), cacheShort, m.Scope.CorpusObservedAt)
}

// stepPage is the page of a matter step's record: a notice's permalink; in
// Form 1 a contract row's page, and a payment in the list of the matter's
// payments (one payment has no page of its own); "" when the form serves
// no such page.
func (s *Server) stepPage(st procure.MatterStepView, pin string) string {
	switch {
	case st.Permalink != "":
		return st.Permalink
	case s.cfg.Form != 1 || st.ID == "":
		return ""
	case st.Record == "contract":
		return s.cfg.BaseURL + "/contracts/" + url.PathEscape(st.ID)
	case st.Record == "payment":
		return s.RowsPage(s.RowsLink(url.Values{"pin": {pin}, "kind": {procure.RowPayment}}, "", false))
	}
	return ""
}
