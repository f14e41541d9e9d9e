package mcp

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

type getLandProjectIn struct {
	ID string `json:"id"`
}

// LandProjectOut is one land project read: found, not_found or
// unavailable, explicitly.
type LandProjectOut struct {
	Status     record.Availability `json:"status"`
	ID         string              `json:"id"`
	Message    string              `json:"message,omitempty"`
	Project    *land.Project       `json:"project,omitempty"`
	Events     []land.Event        `json:"events,omitempty"`
	EventsNote string              `json:"events_note,omitempty"`
	// Meetings are the meetings joined to the project (link records:
	// method, confidence, evidence).
	Meetings     []record.Link `json:"meetings,omitempty"`
	MeetingsNote string        `json:"meetings_note,omitempty"`
	// Hearings are the project's hearings (City Record hearing notices
	// and meetings that name it), the next first, then later ones, then
	// past ones newest first; NextHearing is the next one (absent when
	// none is scheduled). Absent unless found.
	Hearings     []land.Hearing `json:"hearings,omitempty"`
	NextHearing  *land.Hearing  `json:"next_hearing,omitempty"`
	HearingsNote string         `json:"hearings_note,omitempty"`
	// LinksComplete is false on a found project when a bounded read of
	// its joins hit its bound; LinksNote then names the bound
	// (land.ProjectRead). Absent unless found.
	LinksComplete *bool        `json:"links_complete,omitempty"`
	LinksNote     string       `json:"links_note,omitempty"`
	LinksNoteKeys record.Notes `json:"links_note_keys,omitempty"`
	// LotPlaces place the project's lots (the first 50): at the ZAP
	// outline of its lots, at a lot's MapPLUTO centroid, or nowhere with
	// the reason (land.ProjectRead). Absent unless found.
	LotPlaces []land.LotPlace `json:"lot_places,omitempty"`
	Absence   []string        `json:"absence_rules"`
	// Empty says why nothing is held on not_found (record.RecordAbsence).
	Empty *record.EmptyAnswer `json:"empty,omitempty"`
	// Sources are, on a found answer, the sources it is built from, each
	// with its coverage and freshness (state fresh, stale, failing or
	// never_loaded; since when; observed_at; newest source date;
	// schedule), as every search scope's sources state them.
	Sources []record.SourceCoverage `json:"sources,omitempty"`
}

// maxProjectID bounds a project id argument.
const maxProjectID = 20

// projectIDProp is the id of a land project: land.ProjectIDPattern.
func projectIDProp(s *jsonschema.Schema, example string) {
	bounded(s, "id", maxProjectID, "Exact ZAP project id, e.g. "+example+
		": four digits of year, a borough letter (M, X, K, Q, R; Y citywide) and four digits, with an optional legacy P prefix.")
	p := prop(s, "id")
	p.MinLength = ptr(1)
	p.Pattern = land.ProjectIDPattern
}

// land is the land service.
func (d *Deps) land() *land.Service { return d.Land }

// landStatus turns a read error into an explicit status; other errors are
// tool errors.
func landStatus(err error, what string) (record.Availability, string, error) {
	switch record.ErrorCode(err) {
	case record.ENOTFOUND:
		return record.NotFound, "No land project with this exact id is held by this service; that does not mean no such " + what + " exists. Check the id on https://zap.planning.nyc.gov/projects/<id>.", nil
	case record.EUNAVAILABLE:
		return record.Unavailable, "Land projects could not be read right now; this does not mean the project is missing. Try again later.", nil
	}
	return "", "", err
}

func getLandProject(d *Deps) Tool {
	t := newTool(d, "get_land_project", "Get one land-use project", ClassRead,
		"Read one land-use (ZAP) project by its exact project id (e.g. 2022M0258, legacy P2018X0210, citywide 2026Y0360). "+
			"Returns status found, not_found or unavailable explicitly: not_found means this service holds no such project, not "+
			"that none exists. A found project carries its deep link to the official ZAP page, public and internal status, review "+
			"procedure (ULURP, Non-ULURP …), applicant, geography (boroughs, community districts, council districts, every lot's "+
			"BBL with its centroid or the reason it has none), actions with their exact application (ULURP) numbers, environmental "+
			"review (CEQR number and type), dated facts and milestones (actual and planned dates kept apart), community board and "+
			"borough president recommendations, a derived regulatory effect only when a file states one (attributed, never ZAP "+
			"data), every source it was read from, conflicts between sources with each value attributed, City Record notices "+
			"linked with their evidence and confidence, events other publishers record for its application numbers, and its "+
			"hearings (body, date, time, place, how to testify when printed, source and link method), the next one first. "+
			"For the stages of its review procedure call get_land_decision_path.",
		[]int{1},
		func(s *jsonschema.Schema) {
			projectIDProp(s, "2022M0258")
		},
		func(ctx context.Context, d *Deps, in getLandProjectIn) (LandProjectOut, error) {
			out := LandProjectOut{ID: in.ID, Absence: record.AbsenceRules}
			r, err := d.land().Project(ctx, in.ID)
			if err == nil {
				out.Status, out.Project, out.Events, out.EventsNote = record.Found, &r.Project, r.Events, r.EventsNote
				out.Meetings, out.MeetingsNote = r.Meetings, r.MeetingsNote
				out.Hearings, out.NextHearing, out.HearingsNote = r.Hearings, r.NextHearing, r.HearingsNote
				out.LinksComplete, out.LinksNote, out.LinksNoteKeys = &r.LinksComplete, r.LinksNote, r.LinksNoteKeys
				out.LotPlaces = r.LotPlaces
				out.Sources = r.Sources
				return out, nil
			}
			out.Status, out.Message, err = landStatus(err, "project")
			if out.Status == record.NotFound {
				out.Empty = d.absent(ctx, in.ID, land.ProjectKind.Name)
			}
			return out, err
		})
	t.Limits = []string{"events: at most 200 events of other publishers per project", fmt.Sprintf("joins: at most %d linked notices, meetings and events of each kind per project; links_complete is false and links_note names the bound when more are held", joins.MaxRead)}
	t.Examples = []Example{{"A completed ULURP project in East Harlem", map[string]any{"id": "2022M0258"}}}
	return t
}
