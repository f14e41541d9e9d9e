package api

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
)

// WeekResponse is GET /api/week: the service's answer (notices.Week) as
// built, with each list's links (its full search as JSON and on the site,
// and its feed when one follows it).
type WeekResponse struct {
	notices.Week
	Links map[string]web.WeekLinks `json:"links"`
}

// weekLinks are the links of each of the week's lists, by key.
func (s *Server) weekLinks(w notices.Week) map[string]web.WeekLinks {
	b := s.cfg.BaseURL
	out := map[string]web.WeekLinks{}
	for _, l := range w.Lists {
		switch l.Key {
		case notices.WeekMeetings:
			if l.Unavailable == "" {
				out[l.Key] = web.WeekLinks{JSON: b + "/api/meetings?" + l.Query, View: b + "/meetings?" + l.Query, Feed: b + "/meetings.ics?" + l.Query}
			}
		case notices.WeekDue:
			// the open solicitations' feed (what is still open, as it
			// changes), where the form serves it
			wl := web.WeekLinks{JSON: b + "/api/search?" + l.Query, View: b + "/#search?" + l.Query}
			if f := s.searchFeedLinks(url.Values{"lens": {record.LensMoney}, "open": {"true"}}); f != nil {
				wl.Feed = f.Atom
			}
			out[l.Key] = wl
		default:
			out[l.Key] = web.WeekLinks{JSON: b + "/api/search?" + l.Query, View: b + "/#search?" + l.Query}
		}
	}
	return out
}

// weekAnswer is the week's answer (notices.Service.Week), kept for the
// engine's generation and at most CacheWeek: the home page, the most
// asked page, reads it from memory, and only the request that builds it
// takes an admission slot (one build at a time), so it never waits behind
// expensive requests once built.
func (s *Server) weekAnswer(ctx context.Context) (notices.Week, error) {
	return s.weekCache.get(ctx, s.deps.Search.Generation(), s.deps.Now(), func(ctx context.Context) (notices.Week, error) {
		var w notices.Week
		err := s.inSlot(ctx, func() (err error) {
			w, err = s.deps.Notices.Week(ctx)
			return err
		})
		return w, err
	})
}

// CacheWeek bounds how long the week's answer is kept when nothing is
// written: its lists are of days, so a few minutes is fresh.
const CacheWeek = 5 * time.Minute

// week serves GET /api/week: the JSON twin of the home page's lists.
func (s *Server) week(c *gin.Context) {
	w, err := s.weekAnswer(c.Request.Context())
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, WeekResponse{Week: w, Links: s.weekLinks(w)}, cacheSearch, time.Time{})
}

// homeWeek is the home page's data: the same answer, rendered; nil when
// it cannot be built (the page still serves its search).
func (s *Server) homeWeek(c *gin.Context) *web.WeekData {
	w, err := s.weekAnswer(c.Request.Context())
	if err != nil {
		return nil
	}
	return &web.WeekData{Week: w, Links: s.weekLinks(w)}
}
