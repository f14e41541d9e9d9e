package api

import (
	"context"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// landLens is the land lens over a feed's notice result
// (watch.Filter.Land): on Form 1 deployments that hold land projects, the
// result without the notices shown with their project, and the projects'
// states as feed items, newest milestone first; otherwise res as it is.
func (s *Server) landLens(ctx context.Context, f watch.Filter, res watch.Result) (watch.Result, []feed.Item, error) {
	if s.cfg.Form != 1 {
		return res, nil, nil
	}
	ll, ok, err := f.Land(ctx, s.watchReaders(), res, view.Links{Base: s.cfg.BaseURL, Form: s.cfg.Form}, watch.WatchLandProjects)
	if err != nil || !ok {
		return res, nil, err
	}
	res.Hits = ll.Hits
	host := s.tagHost()
	var items []feed.Item
	for _, it := range ll.Items {
		lines := []string{"Stage: " + it.Stage, "Milestone: " + it.Milestone, "Last milestone: " + it.Date}
		for _, d := range it.Decisions {
			lines = append(lines, "Decision: "+d)
		}
		for _, rid := range it.Notices {
			lines = append(lines, "City Record notice: "+rid)
		}
		fi := feed.Item{ID: tagURI(host, "land-project/"+it.ProjectID+"/"+strings.TrimPrefix(it.ID, watch.LandPrefix+it.ProjectID+"@")),
			Title: "Land project " + it.ProjectID + ": " + it.Name, Summary: strings.TrimSpace(it.Stage + " · " + it.Milestone),
			Content: strings.Join(lines, "\n"), URL: it.Link, Categories: []string{record.LensLand, "Land project", it.Stage}, Extension: it}
		if d, err := time.ParseInLocation("2006-01-02", it.Date, record.NewYork); err == nil {
			fi.Published, fi.Updated = d, d
		}
		items = append(items, fi)
	}
	return res, items, nil
}
