package watch

import (
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
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
		return record.InvalidNote("stage", "watch.error.land_only")
	}
	if len(f.Boroughs) > 1 {
		return record.InvalidNote("borough", "watch.error.land_borough")
	}
	_, _, err := f.LandFilter().Query()
	return err
}

// KeepLand applies the filter's words to a project's name, brief and
// keywords (any word or phrase; no exclusion).
func (f Filter) KeepLand(p land.Project) bool {
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

// LandItemFor is a project's state: its stage, current milestone, decisions
// (milestone outcomes, recommendations, land-use events) and the City
// Record notices linked to it.
func LandItemFor(pr land.ProjectRead, links view.Links) LandItem {
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
