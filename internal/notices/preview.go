package notices

import (
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// MatchNote is what every preview of a search watch says.
const MatchNote = "A preview subscribes nothing. These are the records the watch matches now; a watch's digests hold only records that are new since its last digest."

// Preview is what a watch would deliver now, without subscribing, on
// every surface (each adds its list of the matched notices, with its own
// links).
type Preview struct {
	// Understood is the request as read: the filter, its plain scope and
	// how each part was read.
	Understood watch.Understanding `json:"understood"`
	// Request is the structured request that makes the same watch
	// (watch.Filter.Request: the fields of POST /api/watches), so that a
	// watch previewed in plain English can be made, or changed, field by
	// field; absent for a follow, and in Form 2 (plain English only).
	Request *watch.FieldRequest `json:"request,omitempty"`
	// Total counts what the watch matches now (a lower bound when
	// total_is_lower_bound: a borough filter reads the first pages only).
	Total             int  `json:"total"`
	TotalIsLowerBound bool `json:"total_is_lower_bound,omitempty"`
	// Meetings (meetings lens, Form 1) are the meeting records the watch
	// follows now, soonest first; the notices listed are then the matched
	// notices not held as meetings (a hearing is shown once).
	Meetings *MeetingPreview `json:"meetings,omitempty"`
	// Land (land lens, Form 1) are the land projects' states the watch
	// follows now, as its digests deliver them; the notices listed are
	// then those not shown with their project.
	Land  *LandPreview `json:"land_projects,omitempty"`
	Scope record.Scope `json:"scope"`
	Note  string       `json:"note"`
	// Roster is the roster half of a people-lens watch with agencies
	// (the roster half of run): per agency the roster releases held and the
	// releases that change its leader (a digest delivers each change once).
	Roster []people.RosterAppearance `json:"roster,omitempty"`
	// Follow (a follow watch) is the object and its followed fields as
	// observed now: the baseline a watch would start from (no mail for it).
	Follow *watch.FollowView `json:"follow,omitempty"`
}

// FollowPreview is the preview of a follow: its object's fields now
// (PreviewFollow's view, follow and scope) and the request's notes.
func FollowPreview(v watch.FollowView, f watch.Follow, scope string, notes []string) Preview {
	return Preview{Understood: watch.Understanding{Filter: watch.Filter{Lens: f.Lens()}, Scope: scope, Notes: notes, Follow: &f}, Follow: &v, Note: watch.PreviewNote}
}

// MatchPreview is the preview of a search watch understood as u, from
// its answer now (Service.Filter, what its digests deliver): the count,
// the scope, and the lens's block with its first n records (base makes
// the meeting records' permalinks).
func MatchPreview(u watch.Understanding, a FilterAnswer, base string, n, form int) Preview {
	p := Preview{Understood: u, Scope: a.Scope, Note: MatchNote, Roster: a.Roster}
	if form == 1 { // Form 2 makes watches from plain English only
		r := u.Filter.Request()
		p.Request = &r
	}
	p.Total, p.TotalIsLowerBound = a.Matched()
	if a.Meetings != nil {
		p.Meetings = a.Meetings.Preview(base, n)
	}
	if a.Land != nil {
		p.Land = &LandPreview{Total: a.Land.Total, Replaced: a.Land.Replaced, Rule: a.Land.Rule, Items: a.Land.Items[:min(n, len(a.Land.Items))]}
		if p.Land.Items == nil {
			p.Land.Items = []watch.LandItem{}
		}
	}
	return p
}

// LandPreview is a land-lens preview's block: the projects the filter
// matches (Total), the first of their states followed, and how many
// matched notices are shown with their project (Replaced).
type LandPreview struct {
	Total    int              `json:"total"`
	Replaced int              `json:"notices_shown_with_project"`
	Rule     string           `json:"rule"`
	Items    []watch.LandItem `json:"items"`
}
