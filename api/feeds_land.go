package api

import (
	"net/url"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// landItems are a land-lens answer's project states (notices.LandLens: the
// land projects the filter follows, Form 1) as feed items, newest
// milestone first; none without a land block.
func (s *Server) landItems(ll *notices.LandLens) []feed.Item {
	if ll == nil {
		return nil
	}
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
	return items
}

// landFeedFilters sets a land feed's project filters (borough,
// community_district, procedure, stage, action) on f, normalized as the
// land service reads them, and in the feed's canonical query; on another
// lens they are EINVALID naming the first one given.
func landFeedFilters(f *watch.Filter, canon url.Values, given map[string]string) error {
	if len(given) == 0 {
		return nil
	}
	if f.Lens != record.LensLand {
		for _, k := range []string{"borough", "community_district", "procedure", "stage", "action"} {
			if given[k] != "" {
				return record.Invalid(k, "%s applies to the land lens (its land projects), not to lens=%s", k, f.Lens)
			}
		}
	}
	if b := given["borough"]; b != "" {
		name := watch.BoroughName(b)
		if name == "" {
			return record.Invalid("borough", "borough %q is not one of %s", b, strings.Join(watch.Boroughs, ", "))
		}
		f.Boroughs = []string{name}
	}
	f.CommunityDistrict, f.Procedure, f.Stage, f.Action = given["community_district"], given["procedure"], given["stage"], given["action"]
	_, n, err := f.LandFilter().Query()
	if err != nil {
		return err
	}
	f.CommunityDistrict, f.Procedure, f.Stage, f.Action = n.CommunityDistrict, n.Procedure, n.Stage, n.Action
	for k, v := range map[string]string{"community_district": n.CommunityDistrict, "procedure": n.Procedure, "stage": n.Stage, "action": n.Action} {
		if v != "" {
			canon.Set(k, v)
		}
	}
	if len(f.Boroughs) > 0 {
		canon.Set("borough", f.Boroughs[0])
	}
	return nil
}
