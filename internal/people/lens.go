package people

import (
	"context"
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The roster half of the people lens (SPEC §2.13, Form 1). The lens
// follows an organization's appearances: the Changes in Personnel notices
// of its agency (the notice half, compiled by watch.Filter) and the roster
// releases that print its record, among them the releases that change its
// leader (here). notices.Service.Roster is the one place search, previews,
// watches and digests read this half from. Names are never
// matched: an organization is followed by its crosswalk agency id, which
// its roster rows carry (search.KeyAgencyID).

// ChangePrefix begins the id of a leader change ("roster:<record id>@<release>").
const ChangePrefix = "roster:"

// MaxRosterAgencies bounds the agencies one roster read follows (a watch
// names at most 10).
const MaxRosterAgencies = 10

// LeaderChange is a roster release whose principal officer differs from
// the release before it held here (another name printed, or a name printed
// where none was, or none where one was). It says what the two releases
// printed, each as of its date; it does not say who holds the role now.
type LeaderChange struct {
	// ID is the change's stable id: ChangePrefix, the record id as given,
	// "@" and the release date of the changing release.
	ID       string  `json:"id"`
	AgencyID string  `json:"agency_id"`
	RecordID string  `json:"roster_record_id"`
	OrgName  string  `json:"organization_name"`
	Release  Release `json:"release"`
	AsOf     string  `json:"as_of"`
	Leader   Leader  `json:"leader"`
	Previous Leader  `json:"previous"`
	Summary  string  `json:"summary"`
	// SummaryKey is Summary as a note (ChangeNote).
	SummaryKey record.Note `json:"summary_key"`
	// Page is the organization page's path.
	Page string `json:"page"`
}

// RosterAppearance is what the roster releases held say of one agency:
// state published (releases hold its record) or unknown (none does), the
// release dates held (newest first), the newest leader node and the leader
// changes between releases (newest first).
type RosterAppearance struct {
	AgencyID string         `json:"agency_id"`
	RecordID string         `json:"roster_record_id,omitempty"`
	OrgName  string         `json:"organization_name,omitempty"`
	State    string         `json:"state"`
	Releases []string       `json:"releases"`
	Newest   *Leader        `json:"newest,omitempty"`
	Changes  []LeaderChange `json:"leader_changes"`
	Page     string         `json:"page,omitempty"`
	Note     string         `json:"note"`
	// NoteKey is Note as a note.
	NoteKey record.Note `json:"note_key"`
}

// officerKey is what a leader change compares: whether a name is printed
// and the name (letter case and spacing ignored: a respaced name is the
// same printing, not a new leader).
func officerKey(l Leader) string {
	if l.NameState != Published {
		return l.NameState
	}
	return Published + "|" + strings.ToLower(strings.Join(strings.Fields(l.Name), " "))
}

// orgPage is the path of an organization's page.
func orgPage(recordID string) string {
	return "/organizations/" + strings.TrimPrefix(Route(recordID), "/api/people/") + "/"
}

// Roster reads the roster appearances of agencies (canonical ids; at most
// MaxRosterAgencies are read, in the order given). Errors: EUNAVAILABLE
// when the engine cannot answer.
func (s *Service) Roster(ctx context.Context, agencyIDs []string) ([]RosterAppearance, error) {
	rs, err := s.records()
	if err != nil {
		return nil, err
	}
	out := []RosterAppearance{}
	for i, id := range agencyIDs {
		if i == MaxRosterAgencies {
			break
		}
		p, err := search.Find(ctx, rs, Kind, search.RecordQuery{Kinds: []string{KindOrganization},
			Keys: map[string][]string{KeyAgencyID: {id}}, Sort: search.RecordSortDateDesc, Limit: MaxReleases})
		if err != nil {
			return nil, err
		}
		out = append(out, rosterOf(id, p.Items))
	}
	return out, nil
}

// rosterOf is the appearance of one agency in its organization rows
// (newest release first).
func rosterOf(agencyID string, rows []Row) RosterAppearance {
	a := RosterAppearance{AgencyID: agencyID, State: Unknown, Releases: []string{}, Changes: []LeaderChange{}}
	if len(rows) == 0 {
		a.NoteKey = record.N("people.roster.unknown")
		a.Note = a.NoteKey.String()
		return a
	}
	a.State, a.RecordID, a.OrgName, a.Page = Published, rows[0].ID, rows[0].Name, orgPage(rows[0].ID)
	newest := LeaderOf(rows[0])
	a.Newest = &newest
	// the release before a row is the next older row of the same record
	older := map[int]int{}
	last := map[string]int{}
	for i := len(rows) - 1; i >= 0; i-- {
		if j, ok := last[rows[i].ID]; ok {
			older[i] = j
		}
		last[rows[i].ID] = i
	}
	for i, r := range rows {
		if !slices.Contains(a.Releases, r.Release.Key()) {
			a.Releases = append(a.Releases, r.Release.Key())
		}
		j, ok := older[i]
		if !ok {
			continue
		}
		cur, prev := LeaderOf(r), LeaderOf(rows[j])
		if officerKey(cur) == officerKey(prev) {
			continue
		}
		sum := ChangeNote(r.Name, cur, prev)
		a.Changes = append(a.Changes, LeaderChange{ID: ChangePrefix + r.ID + "@" + r.Release.Key(), AgencyID: agencyID, RecordID: r.ID,
			OrgName: r.Name, Release: r.Release, AsOf: r.Release.AsOf(), Leader: cur, Previous: prev, Page: orgPage(r.ID),
			Summary: sum.String(), SummaryKey: sum})
	}
	a.NoteKey = record.N("people.roster.releases", strings.Join(a.Releases, ", "))
	a.Note = a.NoteKey.String()
	return a
}

// ChangeNote says a leader change: what the release of cur prints as
// principal officer of org, and what the release before it (prev)
// printed, each dated as its release dates it (Release.AsOfKey). Each half
// is a part whose key names how the release is dated and what it prints
// ("people.change.now.as_of.name_title" …: every combination is in the
// message files, a test checks it).
func ChangeNote(org string, cur, prev Leader) record.Note {
	return record.Note{Key: "people.change", Inner: []record.Part{changePart("now", cur, org), changePart("before", prev, "")}}
}

// changePart is one half of a change note: side "now" (with org) or
// "before".
func changePart(side string, l Leader, org string) record.Part {
	date := l.AsOfKey
	args := []string{}
	if len(date.Args) > 0 {
		args = append(args, date.Args[0])
	}
	form := Unknown // a name's state: no name printed (empty) or none held (unknown)
	switch l.NameState {
	case Published:
		form = "name"
		args = append(args, l.Name)
	case Empty:
		form = Empty
	}
	if l.Title != "" {
		form += "_title"
		args = append(args, l.Title)
	}
	if org != "" {
		args = append(args, org)
	}
	return record.Part{Key: "people.change." + side + "." + strings.TrimPrefix(date.Key, "people.") + "." + form, Args: args}
}

// Changes flattens the leader changes of appearances, in order.
func Changes(as []RosterAppearance) []LeaderChange {
	var out []LeaderChange
	for _, a := range as {
		out = append(out, a.Changes...)
	}
	return out
}
