package api

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

var searchParams = []string{"q", "lens", "section", "type", "agency", "vendor", "pin", "min", "max",
	"valid_amount", "from", "to", "due_from", "due_to", "rolling", "open", "event_from", "event_to",
	"sort", "limit", "cursor", "facets", "exact_count", "mode"}

// parseSearch reads /api/search parameters into the one options type of
// a notice search (notices.Params, which MCP's search_notices fills too)
// and compiles it to a query and its mode by its one rule.
func (s *Server) parseSearch(v url.Values) (search.Query, string, error) {
	p := newParams(v, searchParams...)
	np := notices.Params{
		Text:            p.str("q"),
		Lenses:          p.list("lens"),
		Sections:        p.list("section"),
		NoticeTypes:     p.list("type"),
		Agencies:        p.list("agency"),
		Vendors:         p.names("vendor"),
		PINs:            p.list("pin"),
		MinAmount:       p.amount("min"),
		MaxAmount:       p.amount("max"),
		ValidAmountOnly: p.boolean("valid_amount"),
		From:            p.date("from"),
		To:              p.date("to"),
		DueFrom:         p.date("due_from"),
		DueTo:           p.date("due_to"),
		EventFrom:       p.date("event_from"),
		EventTo:         p.date("event_to"),
		IncludeRolling:  p.boolean("rolling"),
		Open:            p.boolean("open"),
		Sort:            p.str("sort"),
		Limit:           p.integer("limit", search.DefaultLimit, 1, search.MaxLimit),
		Cursor:          p.str("cursor"),
		Facets:          p.boolean("facets"),
		ExactCount:      p.boolean("exact_count"),
		Mode:            p.str("mode"),
	}
	if p.err != nil {
		return search.Query{}, "", p.err
	}
	return np.Query(s.deps.Crosswalk, s.deps.Now())
}

// SearchResponse is the JSON twin of a search view: the page with its
// hits, links and feeds, and the lens blocks of the search.
type SearchResponse struct {
	view.NoticePage
	Hits  []view.LinkedHit  `json:"hits"`
	Next  string            `json:"next,omitempty"`
	Links map[string]string `json:"links"`
	// Feeds are the Atom, JSON Feed and iCalendar URLs of the same filter,
	// when the search maps to a feed (feeds_links.go).
	Feeds *feed.Links `json:"feeds,omitempty"`
	// Roster is the roster half of the people lens (Form 1, lens=people
	// with agency=): per agency its roster releases and leader changes,
	// read by the rule feeds and watches follow (notices.Service.Roster).
	Roster []people.RosterAppearance `json:"roster,omitempty"`
	// Meetings is the meeting records' block of a meetings-lens search
	// (Form 1; meetings.go searchMeetings).
	Meetings *SearchMeetings `json:"meetings,omitempty"`
	// Widening is, for an empty answer, the same search without one of its
	// constraints when that matches something (notices.Widening).
	Widening *notices.Widening `json:"widening,omitempty"`
}

func (s *Server) search(c *gin.Context) {
	v := c.Request.URL.Query()
	fp := newParams(url.Values{"format": v["format"]}, "format")
	asCSV := csvFormat(fp)
	v.Del("format")
	q, mode, err := s.parseSearch(v)
	if err == nil {
		err = fp.err
	}
	if err != nil {
		writeError(c, err)
		return
	}
	if asCSV {
		q.Limit = search.MaxLimit
	}
	// the search's one answer (internal/notices), as MCP's search_notices
	a, err := s.deps.Notices.Search(c.Request.Context(), q, mode)
	if err != nil {
		writeError(c, err)
		return
	}
	if asCSV {
		s.searchCSV(c, v, q, mode, a)
		return
	}
	now := s.deps.Now()
	out := SearchResponse{NoticePage: view.Page(a.Result, s.permalinks().AgencySuggestions(s.deps.Crosswalk, c.Request.URL.Query())),
		Hits: []view.LinkedHit{}, Links: s.searchLinks(c.Request.URL.Query()), Feeds: s.searchFeedLinks(c.Request.URL.Query()), Roster: a.Roster}
	for _, h := range a.Hits {
		out.Hits = append(out.Hits, s.hitView(h.Notice, view.HitScore(h, a.Query.Sort), now))
	}
	if a.NextCursor != "" {
		v := c.Request.URL.Query()
		v.Set("cursor", a.NextCursor)
		out.Next = s.cfg.BaseURL + "/api/search?" + v.Encode()
	}
	out.Meetings = s.searchMeetings(a.Meetings)
	out.Widening = a.Widening
	renderJSON(c, http.StatusOK, out, cacheSearch, a.Scope.CorpusObservedAt)
}

// searchLinks are the other shapes of the same search: its own JSON URL and
// the human view.
func (s *Server) searchLinks(v url.Values) map[string]string {
	v = cloneValues(v)
	v.Del("cursor")
	enc := v.Encode()
	lens := "search"
	if ls := v["lens"]; len(ls) == 1 && !strings.Contains(ls[0], ",") {
		lens = ls[0]
	}
	l := map[string]string{
		"self": s.cfg.BaseURL + "/api/search?" + enc,
		"view": s.cfg.BaseURL + "/#" + lens + "?" + enc,
	}
	return l
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = slices.Clone(vs)
	}
	return out
}

func (s *Server) notice(c *gin.Context) {
	id := c.Param("id")
	if !record.ValidRequestID(id) {
		writeError(c, record.InvalidNote("request_id", "param.request_id", strconv.Quote(id)))
		return
	}
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	n, err := s.deps.Search.Get(c.Request.Context(), id)
	if err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			renderJSON(c, http.StatusNotFound, gin.H{
				"status":     record.NotFound,
				"request_id": id,
				"error": errorDetail{Error: record.Error{Code: record.ENOTFOUND, Param: "request_id",
					Message: "no notice with this request id is held here. The official City Record may still have it: " + record.OfficialURL(id)},
					Absence: absenceOf(c)},
				"absence_rules": record.AbsenceRules,
			}, noStore, time.Time{})
			c.Abort()
			return
		}
		if record.ErrorCode(err) == record.EUNAVAILABLE {
			// the one error rule logs it and names its trace id; the body
			// also says which notice and that it is not missing
			_, body := errorOf(c, err)
			body.Error.Message = "the notice could not be read right now; this does not mean it is missing"
			c.Header("Retry-After", "30")
			renderJSON(c, http.StatusServiceUnavailable, gin.H{"status": record.Unavailable, "request_id": id, "error": body.Error}, noStore, time.Time{})
			c.Abort()
			return
		}
		writeError(c, err)
		return
	}
	now := s.deps.Now()
	v := NoticeView{
		Status: record.Found, Summary: view.Summary(n), Flags: view.Flags(n, now), Amount: view.Amount(n),
		Deadline: view.Deadline(n, now), FullText: n.Text, Notice: n, Links: s.links(n),
		Freshness: view.SourceFreshness(c.Request.Context(), s.deps.Search, n.Source), Absence: record.AbsenceRules,
		Payments: s.noticePayments(c.Request.Context(), n), PriorCycle: s.priorCycle(c.Request.Context(), n),
		VendorFromText: view.VendorFromText(n),
	}
	renderJSON(c, http.StatusOK, v, cacheSearch, v.Freshness.SourceObservedAt)
}

func (s *Server) passages(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "q", "lens", "agency", "from", "to", "request_id", "limit", "cursor", "exact_count")
	q := search.PassageQuery{ExactCount: p.boolean("exact_count"),
		Text: p.str("q"), Lenses: p.list("lens"), AgencyIDs: p.agencies(s.deps.Crosswalk, "agency"),
		From: p.date("from"), To: p.date("to"), RequestID: p.str("request_id"),
		Limit: p.integer("limit", search.DefaultLimit, 1, search.MaxLimit), Cursor: p.str("cursor"),
	}
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	res, err := s.deps.Search.Passages(c.Request.Context(), q)
	if err != nil {
		writeError(c, err)
		return
	}
	out := s.permalinks().Passages(res)
	renderJSON(c, http.StatusOK, out, cacheSearch, res.Scope.CorpusObservedAt)
}

// readyz reports every part of the process: the search index (a real
// query, as healthz), the state store (a write probe), the data
// directory's free space (against Config.MinFreeBytes) and each of
// Deps.Parts (the mail receiver of the all role); 503 when one is down.
// Why a part is down goes to the log; the answer names the part.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 5*time.Second)
	defer cancel()
	parts := map[string]string{"search_index": "up"}
	status := http.StatusOK
	if _, err := s.deps.Search.Search(ctx, search.Query{Limit: 1}); err != nil {
		s.deps.Logger.Warn("readyz: the search index did not answer", "err", err)
		parts["search_index"], status = "down", http.StatusServiceUnavailable
	}
	if !s.partsReady(ctx, parts) {
		status = http.StatusServiceUnavailable
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(status, gin.H{"status": map[bool]string{true: "ready", false: "not ready"}[status == http.StatusOK], "parts": parts,
		"jobs": s.jobsReadiness(ctx)}) // sources.go: whether each scheduled job's last run is late
}

// healthz runs a real query: the service is healthy only if the index
// answers. It also names the other parts /readyz checks ("parts"), which
// do not change its status.
func (s *Server) healthz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 5*time.Second)
	defer cancel()
	parts := map[string]string{}
	s.partsReady(ctx, parts)
	res, err := s.deps.Search.Search(ctx, search.Query{Limit: 1})
	if err != nil {
		_, body := errorOf(c, err) // logged; the body names no engine text
		parts["search_index"] = "down"
		renderJSON(c, http.StatusServiceUnavailable, gin.H{"status": "unavailable", "engine": s.cfg.Engine, "error": body.Error.Message,
			"trace_id": body.Error.TraceID, "parts": parts}, noStore, time.Time{})
		return
	}
	parts["search_index"] = "up"
	h := gin.H{"status": "ok", "engine": s.cfg.Engine, "form": s.cfg.Form,
		"records": res.Scope.RecordsInCorpus, "passages": res.Scope.PassagesInCorpus, "parts": parts}
	if !res.Scope.CorpusObservedAt.IsZero() { // never observed: left out, not a zero date
		h["corpus_observed_at"] = res.Scope.CorpusObservedAt
	}
	renderJSON(c, http.StatusOK, h, noStore, time.Time{})
}
