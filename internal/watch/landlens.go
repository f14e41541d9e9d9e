package watch

import (
	"context"
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// Land follows land (issue 34, item 2): the land lens of watches and
// feeds follows the land projects' own milestones and decisions (ZAP
// projects, borough president and Council land-use events), filtered by
// borough, community district, review procedure, stage and action, beside
// the City Record land-use notices its query matches. A hearing notice
// linked to a project that is listed is shown with it, once.

// LandPrefix starts the id of a land project's state in a watch's seen
// set and a digest: LandPrefix + project id + "@" + stage + "@" + the date
// of its last milestone. Each new milestone, stage or decision is a new
// id, so a watch delivers it once.
const LandPrefix = "land:"

// WatchLandProjects bounds the projects a land watch or feed reads each
// run: the most recently moved (one browse page).
const WatchLandProjects = land.MaxLimit

// LandRule says what the land lens follows.
const LandRule = "Land lens: land projects (ZAP) by their last milestone, newest first, each with its stage, milestone and decisions; " +
	"a City Record notice linked to a listed project is shown with it, once; other land-use notices are listed as notices."

// LandItem is one land project's state as a watch, a preview or a feed
// carries it.
type LandItem struct {
	ID        string   `json:"id"` // LandPrefix key of this state
	ProjectID string   `json:"project_id"`
	Name      string   `json:"name"`
	Stage     string   `json:"stage,omitempty"`
	Milestone string   `json:"milestone,omitempty"`
	Date      string   `json:"date,omitempty"` // the last milestone's day, New York
	Decisions []string `json:"decisions,omitempty"`
	Boroughs  []string `json:"boroughs,omitempty"`
	Notices   []string `json:"notices,omitempty"` // linked City Record request ids
	Link      string   `json:"link"`
}

// LandLens is what a land-lens filter follows now.
type LandLens struct {
	Items []LandItem
	// Hits are the matched notices not linked to a listed project.
	Hits []search.Hit
	// Replaced counts the matched notices shown with their project.
	Replaced int
	// Total counts the projects the land filter matches.
	Total int
	Rule  string
}

// LandFilter is the land-project part of a land-lens filter, for the land
// service (its first borough, community district, procedure, stage and
// action).
func (f Filter) LandFilter() land.Filter {
	lf := land.Filter{CommunityDistrict: f.CommunityDistrict, Procedure: f.Procedure, Stage: f.Stage, Action: f.Action}
	if len(f.Boroughs) > 0 {
		lf.Borough = f.Boroughs[0]
	}
	return lf
}

// checkLand validates the land-project filters: land lens only, at most
// one borough with them, and values the land service reads.
func (f Filter) checkLand() error {
	if f.CommunityDistrict == "" && f.Procedure == "" && f.Stage == "" && f.Action == "" {
		return nil
	}
	if f.Lens != record.LensLand {
		return record.Invalid("stage", "community_district, procedure, stage and action apply to the land lens only")
	}
	if len(f.Boroughs) > 1 {
		return record.Invalid("borough", "with land-project filters, name one borough")
	}
	_, _, err := f.LandFilter().Query()
	return err
}

// Land applies the land lens to res, the filter's notice result. ok is
// false (res is used as is) when the filter is not on the land lens, the
// land service is not given or no land project is held. limit bounds the
// projects read. Keywords (words, phrases, exclusions) apply to a
// project's name, brief and keywords.
func (f Filter) Land(ctx context.Context, rd Readers, res Result, links view.Links, limit int) (LandLens, bool, error) {
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
		it := landItem(pr, links)
		if !f.keepLand(pr.Project) {
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

// keepLand applies the filter's words to a project's name, brief and
// keywords (any word or phrase; no exclusion).
func (f Filter) keepLand(p land.Project) bool {
	text := strings.ToLower(strings.Join(append([]string{p.Name, p.Brief}, p.Keywords...), " "))
	for _, e := range f.Exclude {
		if strings.Contains(text, strings.ToLower(e)) {
			return false
		}
	}
	if len(f.AnyOf)+len(f.Phrases) == 0 {
		return true
	}
	return slices.ContainsFunc(append(append([]string{}, f.AnyOf...), f.Phrases...), func(w string) bool {
		return strings.Contains(text, strings.ToLower(w))
	})
}

// landItem is a project's state: its stage, current milestone, decisions
// (milestone outcomes, recommendations, land-use events) and the City
// Record notices linked to it.
func landItem(pr land.ProjectRead, links view.Links) LandItem {
	p := pr.Project
	it := LandItem{ProjectID: p.ID, Name: p.Name, Stage: land.CurrentStage(p), Date: day(p.LastDate), Boroughs: p.Boroughs,
		Link: Follow{Kind: FollowLandProject, ID: p.ID}.Link(links)}
	if p.CurrentMilestone != nil {
		it.Milestone = strings.TrimSpace(p.CurrentMilestone.Name + " " + day(p.CurrentMilestone.Date))
	}
	for _, m := range p.Milestones {
		if m.Outcome != "" {
			it.Decisions = append(it.Decisions, strings.TrimSpace(m.Name+": "+m.Outcome))
		}
	}
	for _, r := range p.Recommendations {
		if r.Recommendation != "" {
			it.Decisions = append(it.Decisions, strings.TrimSpace(r.Body+" "+r.Recommendation+" "+day(r.VoteDate)))
		}
	}
	for _, e := range pr.Events {
		it.Decisions = append(it.Decisions, strings.TrimSpace(e.Name+" "+day(e.Date)))
	}
	for _, l := range p.Links {
		if l.RequestID != "" {
			it.Notices = append(it.Notices, l.RequestID)
		}
	}
	it.ID = LandPrefix + p.ID + "@" + it.Stage + "@" + it.Date
	return it
}

// LandProjectID is the project id of a LandPrefix state id ("" when id is
// not one).
func LandProjectID(id string) string {
	rest, ok := strings.CutPrefix(id, LandPrefix)
	if !ok {
		return ""
	}
	pid, _, _ := strings.Cut(rest, "@")
	return pid
}

// LandItemOf reads a project's state now (a digest's item).
func (rd Readers) LandItemOf(ctx context.Context, projectID string, links view.Links) (LandItem, error) {
	if rd.Land == nil {
		return LandItem{}, record.Errorf(record.EUNAVAILABLE, "land projects cannot be read here")
	}
	pr, err := rd.Land.Project(ctx, projectID)
	if err != nil {
		return LandItem{}, err
	}
	return landItem(pr, links), nil
}
