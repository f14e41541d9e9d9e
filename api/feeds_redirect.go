package api

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// RedirectKinds are the <kind> segments of digest links /r/<kind>/<id>:
// "notice" and every watch lens.
var RedirectKinds = append([]string{"notice"}, watch.Lenses...)

// digestRedirect answers GET /r/<kind>/<request_id> (SPEC §4.8): a known
// notice id redirects (302) to its permalink and adds one to today's
// digest_link_followed count; anything else gets a page that links to
// search and never redirects.
func (s *Server) digestRedirect(c *gin.Context) {
	kind, id, _ := strings.Cut(strings.TrimPrefix(c.Param("link"), "/"), "/")
	if !slices.Contains(RedirectKinds, kind) || !record.ValidRequestID(id) {
		s.redirectRefused(c, http.StatusNotFound, id, record.N("watch.redirect.unknown"))
		return
	}
	n, err := s.deps.Search.Get(c.Request.Context(), id)
	switch {
	case err == nil && n.RequestID == id:
	case err == nil, record.ErrorCode(err) == record.ENOTFOUND:
		s.redirectRefused(c, http.StatusNotFound, id, record.N("watch.redirect.not_held"))
		return
	case record.ErrorCode(err) == record.EUNAVAILABLE:
		c.Header("Retry-After", "30")
		s.redirectRefused(c, http.StatusServiceUnavailable, id,
			record.N("watch.redirect.unavailable"))
		return
	default:
		s.deps.Logger.Error("digest link check", "id", id, "err", err)
		s.redirectRefused(c, http.StatusInternalServerError, id, record.N("watch.redirect.failed"))
		return
	}
	s.countEvent(c.Request.Context(), store.CounterDigestLinkFollowed, 1)
	noStore.set(c.Writer.Header())
	c.Header("Referrer-Policy", "no-referrer")
	c.Redirect(http.StatusFound, s.links(n).Permalink)
}

// redirectRefused writes the page of a digest link that does not redirect
// (web/templates/digest_link.html in the one layout), never cached.
func (s *Server) redirectRefused(c *gin.Context, status int, id string, message record.Note) {
	lang := c.GetString(langKey)
	data := struct {
		Heading, ID, Official, Search, SearchJSON string
		Message                                   record.Note
	}{
		Heading: web.Word(lang, "redirect.notfound"), Message: message,
		Search: s.cfg.BaseURL + "/#search", SearchJSON: s.cfg.BaseURL + "/api/search",
	}
	if lang == "es" {
		data.Search = s.cfg.BaseURL + "/?lang=es#search"
	}
	if status == http.StatusServiceUnavailable {
		data.Heading = web.Word(lang, "redirect.notchecked")
	}
	if record.ValidRequestID(id) {
		data.ID = id
		if status == http.StatusNotFound {
			data.Official = record.OfficialURL(id)
		}
	}
	writeHTML(c, status, web.Page{Kind: web.DigestLink, Title: web.Word(lang, "redirect.notfound"), Home: s.cfg.BaseURL + "/", Robots: "noindex", Data: data}, time.Time{})
	c.Abort()
}
