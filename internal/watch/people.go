package watch

import (
	"github.com/recordwatch/recordwatch/internal/record"
)

// The people lens (SPEC §2.13, Form 1) follows an organization's
// appearances. Its one rule, both halves run by Run:
//   - notices: the Changes in Personnel notices (record.LensPeople) of the
//     agencies followed, by crosswalk agency id (Compile) — what feeds,
//     /api/search?lens=people, previews and digests list;
//   - rosters: for each agency, the roster releases held for its record
//     and, among them, the releases that change its leader (Roster;
//     people.Service.Roster), each with a stable id a digest delivers once
//     — what /api/search?lens=people&agency=, previews and digests list
//     (feeds list notices only).
//
// Names are never matched.

// PeopleFilter is the people-lens filter of agencies (canonical ids).
func PeopleFilter(agencyIDs []string) Filter {
	return Filter{Lens: record.LensPeople, AgencyIDs: agencyIDs}
}

// FollowsRoster reports whether the filter follows roster releases: the
// people lens with at least one agency.
func (f Filter) FollowsRoster() bool { return f.Lens == record.LensPeople && len(f.AgencyIDs) > 0 }
