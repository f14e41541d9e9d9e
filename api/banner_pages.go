package api

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// listPageKinds are the record kinds behind the site's list pages (issue
// 32, item 4: a page's stale-source banner names only the sources behind
// it). By-id pages read the kinds of byIDRoutes; a page in neither (the
// home page and its searches over every lens, /stats, /sources, /about)
// is behind every source.
var listPageKinds = map[string][]string{
	"/contracts/analysis": {procure.ContractKind.Name},
	"/land-projects":      {land.ProjectKind.Name},
	"/meetings":           {meeting.Kind.Name},
	"/agencies":           {procure.NoticeKind},
	"/property-locations": {procure.NoticeKind, land.LotKind.Name},
}

// pageSearched is what a page at route reads, as a scope names it: the
// kinds behind it (none named: every source).
func pageSearched(route string) record.Searched {
	kinds, ok := listPageKinds[route]
	if !ok {
		kinds = byIDRoutes[route].kinds
	}
	if len(kinds) == 0 {
		return record.Searched{}
	}
	return record.Searched{Kind: "page", Filters: map[string]string{"kind": strings.Join(kinds, ",")}}
}

// answerBanner makes a single-record page's banner its answer's (issue
// 46, item 2): the sources the record's answer is built from (each
// service's read states them, with their freshness) that are not fresh,
// rather than every source of the page's kinds.
func (s *Server) answerBanner(c *gin.Context, sources []record.SourceCoverage) {
	c.Set(bannerKey, func() *web.Banner {
		return bannerOf(record.NewScope(record.Searched{}, sources, 1), s.cfg.BaseURL+"/sources")
	})
}
