package people

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Leader node confidences and the method that ties a node to its agency.
const (
	// MethodRecordID: the crosswalk agency's NYC Governance Organizations
	// id is the roster row's record_id (an exact id join).
	MethodRecordID = "roster_record_id"
	// ConfidenceHigh: the release prints the officer's full name.
	ConfidenceHigh = entity.ConfidenceHigh
	// ConfidenceMedium: only the derived first and last names are printed.
	ConfidenceMedium = entity.ConfidenceMedium
	// ConfidenceNone: the release names nobody; nothing to be sure of.
	ConfidenceNone = "none"
)

// SourceLimits are the limits of the roster every leader node states
// (SourceLimitKeys in English).
var SourceLimits = func() []string {
	out := make([]string, len(SourceLimitKeys))
	for i, n := range SourceLimitKeys {
		out[i] = n.String()
	}
	return out
}()

// SourceLimitKeys are SourceLimits as notes.
var SourceLimitKeys = record.Notes{
	record.N("people.limits.dated"),
	record.N("people.limits.names"),
	record.N("people.limits.identity"),
	record.N("people.limits.titles", `"President and CEO", "President & CEO"`), // record text as printed
}

// PersonLink links a leader node to the person row of the same release
// and record: present only when the release names the person.
type PersonLink struct {
	ID string `json:"id"`
	// SeparateDossier says whether a dossier of this person exists apart
	// from the row (this service keeps dossiers of vendors and agencies
	// only).
	SeparateDossier bool   `json:"separate_dossier"`
	Note            string `json:"note"`
	// NoteKey is Note as a note.
	NoteKey record.Note `json:"note_key"`
	// Route is the address of the person row; the surfaces fill it.
	Route string `json:"route,omitempty"`
}

// Route is the JSON address of a row (ids are path-escaped: they are kept
// exactly as given, encoded text included).
func Route(id string) string { return "/api/people/" + url.PathEscape(id) }

// WithRoutes fills the person routes of leader nodes.
func (l Leadership) WithRoutes() Leadership {
	nodes := make([]Leader, len(l.Nodes))
	for i, n := range l.Nodes {
		if n.Person != nil {
			p := *n.Person
			p.Route = Route(p.ID)
			n.Person = &p
		}
		nodes[i] = n
	}
	l.Nodes = nodes
	return l
}

// Leader is one leader node: what one roster release prints as the
// principal officer of the record an agency is tied to.
type Leader struct {
	// ID is the roster record id, exactly as given.
	ID         string  `json:"id"`
	OrgName    string  `json:"organization_name"`
	Release    Release `json:"release"`
	SourceDate string  `json:"source_date,omitempty"`
	AsOf       string  `json:"as_of"`
	// AsOfKey is AsOf as a note.
	AsOfKey record.Note `json:"as_of_key"`
	// Name and Title are as printed, with their states.
	Name       string      `json:"name,omitempty"`
	NameState  string      `json:"name_state"`
	Title      string      `json:"title,omitempty"`
	TitleState string      `json:"title_state"`
	Method     string      `json:"method"`
	Confidence string      `json:"confidence"`
	Limits     []string    `json:"limits"`
	Source     string      `json:"source"`
	Note       string      `json:"note,omitempty"`
	Person     *PersonLink `json:"person,omitempty"`
	// LimitKeys are Limits as notes; NoteKey is Note as a note (nil when
	// the row was stored before its notes).
	LimitKeys record.Notes `json:"limit_keys"`
	NoteKey   *record.Note `json:"note_key,omitempty"`
}

// Leadership is what is known of an agency's leaders: the state
// (published: the newest release names a principal officer; empty: the
// roster has the agency and names none; unknown: no roster row is held for
// it) and one node per release, newest first.
type Leadership struct {
	AgencyID string   `json:"agency_id"`
	RecordID string   `json:"roster_record_id,omitempty"`
	State    string   `json:"state"`
	Note     string   `json:"note"`
	Nodes    []Leader `json:"nodes"`
	// NoteKey is Note as a note.
	NoteKey record.Note `json:"note_key"`
}

// Say sets the leadership's note (its English in Note).
func (l *Leadership) Say(n record.Note) { l.Note, l.NoteKey = n.String(), n }

// LeadersUnavailable is the note of a leadership that could not be read.
var LeadersUnavailable = record.N("people.leaders.unavailable")

// noDossier is what a person link says of dossiers.
var noDossier = record.N("people.no_dossier")

// Leaders reads the leader nodes of a crosswalk agency (canonical id). An
// agency the roster does not name (no record id in the crosswalk, or no
// roster row held for it) reads unknown, never empty. Errors: EUNAVAILABLE
// when the engine cannot answer.
func (s *Service) Leaders(ctx context.Context, agencyID string) (Leadership, error) {
	out := Leadership{AgencyID: agencyID, State: Unknown, Nodes: []Leader{}}
	ag, ok := s.Crosswalk.Agency(agencyID)
	if !ok || ag.NYCGOID == "" {
		out.Say(record.N("people.leaders.no_crosswalk"))
		return out, nil
	}
	out.RecordID = ag.NYCGOID
	rows, err := s.orgRows(ctx, ag.NYCGOID)
	if err != nil {
		return out, err
	}
	if len(rows) == 0 {
		out.Say(record.N("people.leaders.no_release", ag.NYCGOID))
		return out, nil
	}
	for _, r := range rows {
		out.Nodes = append(out.Nodes, LeaderOf(r))
	}
	newest := out.Nodes[0]
	switch newest.NameState {
	case Published:
		out.State = Published
		out.Say(record.Note{Key: "people.leaders.published", Inner: []record.Part{record.PartOf(newest.AsOfKey)}})
	default:
		out.State = Empty
		n := record.Note{Key: "people.leaders.empty", Inner: []record.Part{record.PartOf(newest.AsOfKey)}}
		if newest.Title != "" {
			n = record.Note{Key: "people.leaders.empty.title", Args: []string{newest.Title}, Inner: n.Inner}
		}
		out.Say(n)
	}
	return out, nil
}

// orgRows are the organization rows of a record id, newest release first.
func (s *Service) orgRows(ctx context.Context, recordID string) ([]Row, error) {
	rs, err := s.records()
	if err != nil {
		return nil, err
	}
	p, err := search.Find(ctx, rs, Kind, search.RecordQuery{Kinds: []string{KindOrganization},
		Keys: map[string][]string{KeyRowID: {recordID}}, Sort: search.RecordSortDateDesc, Limit: MaxReleases})
	if err != nil {
		return nil, err
	}
	return p.Items, nil
}

// LeaderOf is the leader node of one organization row (one release).
func LeaderOf(r Row) Leader {
	po, title := r.Relation(RelPrincipalOfficer), r.Relation(RelPrincipalTitle)
	l := Leader{ID: r.ID, OrgName: r.Name, Release: r.Release, SourceDate: r.Release.Date, AsOf: r.Release.AsOf(), AsOfKey: r.Release.AsOfKey(),
		Name: po.Value, NameState: po.State, Title: title.Value, TitleState: title.State,
		Method: MethodRecordID, Confidence: ConfidenceNone, Limits: SourceLimits, Source: r.SourceLabel, Note: po.Note,
		LimitKeys: SourceLimitKeys.Clone(), NoteKey: po.NoteKey}
	if po.State == Published {
		l.Confidence = ConfidenceHigh
		if po.Note != "" { // only derived first and last names
			l.Confidence = ConfidenceMedium
		}
		if po.TargetID != "" {
			l.Person = &PersonLink{ID: po.TargetID, Note: noDossier.String(), NoteKey: noDossier}
		}
	}
	return l
}

// Attributed is one value of a field as one source gives it.
type Attributed struct {
	Value      string `json:"value"`
	Source     string `json:"source"`
	SourceDate string `json:"source_date,omitempty"`
	Note       string `json:"note,omitempty"`
	// NoteKey is Note as a note.
	NoteKey *record.Note `json:"note_key,omitempty"`
}

// Disagreement is a field two sources give different values for: every
// value is returned, each attributed; none is chosen.
type Disagreement struct {
	Field  string       `json:"field"`
	Values []Attributed `json:"values"`
	Note   string       `json:"note"`
	// NoteKey is Note as a note.
	NoteKey record.Note `json:"note_key"`
}

// disagreement is a disagreement on field, said by the note n.
func disagreement(field string, n record.Note) Disagreement {
	return Disagreement{Field: field, Note: n.String(), NoteKey: n}
}

// CrosswalkSource attributes values of the reviewed agency crosswalk.
const CrosswalkSource = "Recordwatch reviewed agency crosswalk (not an official registry)"

// Disagreements compares what the crosswalk and each roster release held
// say of an agency: its name, its acronym, and (between releases) its
// principal officer. Every differing value is returned, attributed.
// Errors: EUNAVAILABLE when the engine cannot answer.
func (s *Service) Disagreements(ctx context.Context, agencyID string) ([]Disagreement, error) {
	out := []Disagreement{}
	ag, ok := s.Crosswalk.Agency(agencyID)
	if !ok || ag.NYCGOID == "" {
		return out, nil
	}
	rows, err := s.orgRows(ctx, ag.NYCGOID)
	if err != nil || len(rows) == 0 {
		return out, err
	}
	roster := func(r Row, v string) Attributed {
		return Attributed{Value: v, Source: strings.TrimSpace("NYC Governance Organizations roster " + r.Release.Dataset + " " + r.Release.Version), SourceDate: r.Release.Date}
	}
	// name: the crosswalk's canonical name against each release
	ours := record.N("people.disagree.name.ours")
	name := disagreement("name", record.N("people.disagree.name"))
	name.Values = []Attributed{{Value: ag.Name, Source: CrosswalkSource, Note: ours.String(), NoteKey: &ours}}
	for _, r := range rows {
		name.Values = appendDistinct(name.Values, roster(r, r.Name))
	}
	if distinct(name.Values) > 1 {
		out = append(out, name)
	}
	// acronym: a release's acronym the crosswalk does not list
	acr := disagreement("acronym", record.N("people.disagree.acronym"))
	if len(ag.Acronyms) > 0 {
		acr.Values = append(acr.Values, Attributed{Value: strings.Join(ag.Acronyms, ", "), Source: CrosswalkSource})
	}
	differs := false
	for _, r := range rows {
		if r.Acronym == "" {
			continue
		}
		if !slices.Contains(ag.Acronyms, r.Acronym) {
			differs = true
		}
		acr.Values = appendDistinct(acr.Values, roster(r, r.Acronym))
	}
	if differs && len(acr.Values) > 1 {
		out = append(out, acr)
	}
	// principal officer: releases that print different names
	po := disagreement("principal_officer", record.N("people.disagree.principal_officer"))
	for _, r := range rows {
		if x := r.Relation(RelPrincipalOfficer); x.State == Published {
			po.Values = appendDistinct(po.Values, roster(r, x.Value))
		}
	}
	if distinct(po.Values) > 1 {
		out = append(out, po)
	}
	return out, nil
}

func appendDistinct(vs []Attributed, a Attributed) []Attributed {
	for _, v := range vs {
		if v.Value == a.Value && v.Source == a.Source && v.SourceDate == a.SourceDate {
			return vs
		}
	}
	return append(vs, a)
}

func distinct(vs []Attributed) int {
	seen := map[string]bool{}
	for _, v := range vs {
		seen[v.Value] = true
	}
	return len(seen)
}
