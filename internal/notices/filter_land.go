package notices

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// WatchLandProjects bounds the projects a land watch or feed reads each
// run: the most recently moved (one browse page).
const WatchLandProjects = land.MaxLimit

// LandRule says what the land lens follows.
const LandRule = "Land lens: land projects (ZAP) by their last milestone, newest first, each with its stage, milestone and decisions; " +
	"a City Record notice linked to a listed project is shown with it, once; other land-use notices are listed as notices."

// LandLens is what a land-lens filter follows now.
type LandLens struct {
	Items []watch.LandItem
	// Hits are the matched notices not linked to a listed project.
	Hits []search.Hit
	// Replaced counts the matched notices shown with their project.
	Replaced int
	// Total counts the projects the land filter matches.
	Total int
	Rule  string
}

// filterLand applies the land lens to res, the filter's notice result. ok is
// false (res is used as is) when the filter is not on the land lens, the
// land service is not given or no land project is held. limit bounds the
// projects read. Keywords (words, phrases, exclusions) apply to a
// project's name, brief and keywords.
func filterLand(ctx context.Context, f watch.Filter, rd watch.Readers, res FilterResult, links view.Links, limit int) (LandLens, bool, error) {
	if f.Lens != record.LensLand || rd.Land == nil {
		return LandLens{}, false, nil
	}
	pg, err := rd.Land.Browse(ctx, f.LandFilter(), "", min(limit, land.MaxLimit))
	if err != nil {
		if record.ErrorCode(err) == record.EUNAVAILABLE {
			return LandLens{}, false, nil // no land records held: the notices as they are
		}
		return LandLens{}, false, err
	}
	if pg.Total == 0 && len(pg.Projects) == 0 && f.LandFilter() == (land.Filter{}) {
		return LandLens{}, false, nil
	}
	out := LandLens{Total: pg.Total, Rule: LandRule}
	linked := map[string]bool{}
	for _, sum := range pg.Projects {
		pr, err := rd.Land.Project(ctx, sum.ID)
		if err != nil {
			if record.ErrorCode(err) == record.ENOTFOUND {
				continue
			}
			return out, false, err
		}
		it := watch.LandItemFor(pr, links)
		if !f.KeepLand(pr.Project) {
			continue
		}
		for _, rid := range it.Notices {
			linked[rid] = true
		}
		out.Items = append(out.Items, it)
	}
	for _, h := range res.Hits {
		if linked[h.Notice.RequestID] {
			out.Replaced++
			continue
		}
		out.Hits = append(out.Hits, h)
	}
	return out, true, nil
}

// landItemOf reads a project's state now (a digest's item).
func landItemOf(ctx context.Context, rd watch.Readers, projectID string, links view.Links) (watch.LandItem, error) {
	if rd.Land == nil {
		return watch.LandItem{}, record.Errorf(record.EUNAVAILABLE, "land projects cannot be read here")
	}
	pr, err := rd.Land.Project(ctx, projectID)
	if err != nil {
		return watch.LandItem{}, err
	}
	return watch.LandItemFor(pr, links), nil
}

// LandItem reads a land project's state now (a land watch's digest item),
// its permalink made by links (zero: the service's).
func (s *Service) LandItem(ctx context.Context, projectID string, links view.Links) (watch.LandItem, error) {
	if links == (view.Links{}) {
		links = s.links
	}
	return landItemOf(ctx, s.readers, projectID, links)
}
