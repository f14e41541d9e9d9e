// Package land holds land-use projects (SPEC §2.9): the record of one
// Zoning Application Portal (ZAP) project keyed by its project id, the
// land-use events other publishers record about its applications (borough
// president recommendations, City Council land-use items), the review
// procedures as data (procedures/*.json, reviewed against the City
// Charter), the typed decision path that keeps what was observed apart
// from what the procedure prescribes, and the read service behind the
// get_land_project, browse_land_projects and get_land_decision_path tools
// and their JSON twins.
package land

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Sources and labels of land records.
const (
	Source      = "land"
	SourceLabel = "ZAP land-use projects (NYC Department of City Planning: portal answers, Open Data hgx4-8ukb and 2iga-a6mk)"
	// PortalURL is the official project page of a project id.
	PortalURL = "https://zap.planning.nyc.gov/projects/"
)

// Project is one land-use project: what every held source says about it,
// merged under its ZAP project id, with each value's source and every
// disagreement between sources kept (Conflicts).
type Project struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// Name, statuses and procedure as the preferred source writes them
	// (the portal answer, then the Open Data row).
	Name          string `json:"name"`
	PublicStatus  string `json:"public_status,omitempty"`
	ProjectStatus string `json:"project_status,omitempty"`
	// Procedure is the review procedure as written (ULURP, Non-ULURP,
	// ELURP); ProcedureID the procedure definition it maps to ("ulurp",
	// "non_ulurp"), or "unknown" when none is held for it.
	Procedure   string   `json:"review_procedure,omitempty"`
	ProcedureID string   `json:"procedure_id"`
	Brief       string   `json:"brief,omitempty"`
	Applicant   string   `json:"applicant,omitempty"`
	Keywords    []string `json:"keywords,omitempty"`

	Boroughs           []string `json:"boroughs"`
	CommunityDistricts []string `json:"community_districts"`
	CouncilDistricts   []string `json:"council_districts,omitempty"`
	Lots               []Lot    `json:"lots"`

	Actions       []Action      `json:"actions"`
	Environmental Environmental `json:"environmental"`
	// Dates are the project's dated facts as each source states them
	// (filed, noticed, certified/referred, approved, completed, last
	// milestone).
	Dates []DatedFact `json:"dates"`
	// CurrentMilestone is the Open Data row's current milestone.
	CurrentMilestone *DatedFact       `json:"current_milestone,omitempty"`
	Milestones       []Milestone      `json:"milestones"`
	Recommendations  []Recommendation `json:"recommendations"`
	// Effect is a derived regulatory effect (upzone, downzone …) when a
	// held file states one; never ZAP data (see Effect.Basis).
	Effect *Effect `json:"effect,omitempty"`

	Sources   []Attribution `json:"sources"`
	Conflicts []Conflict    `json:"conflicts"`
	// Links are the City Record notices linked to the project by the link
	// stage, each with its evidence and confidence.
	Links []NoticeLink `json:"notice_links"`
	// NoticeLinksState says whether the link stage decided Links
	// (NoticeLinksDecided: an empty list means no notice held named the
	// project) or not (NoticeLinksUndecided: no notices were held, or
	// they could not be read, when the project was linked; an empty list
	// then says nothing). The link stage writes it with the project; a
	// project written before it was kept reads undecided.
	NoticeLinksState string `json:"notice_links_state"`
	// NoticeLinksNote says the same in words, with the reason when none
	// was decided.
	NoticeLinksNote string `json:"notice_links_note"`
	// LastDate is the date of the latest milestone any source states.
	LastDate time.Time `json:"last_date,omitzero"`
}

// Lot is one tax lot of a project: its BBL and, when a held centroid file
// locates it, its centroid.
type Lot struct {
	BBL       string `json:"bbl"`
	Borough   string `json:"borough,omitempty"`
	Validated string `json:"validated,omitempty"` // as the BBL file writes it ("true", or "" when blank)
	Centroid  *Point `json:"centroid,omitempty"`
	// NoCentroid says why a lot has no centroid.
	NoCentroid string `json:"no_centroid,omitempty"`
	// NoCentroidKey is NoCentroid as a note (NoCentroidNote), stored
	// with the lot (none in a lot an older index stored).
	NoCentroidKey *record.Note `json:"no_centroid_key,omitempty"`
	Sources       []string     `json:"sources"`
}

// Point is a latitude and longitude.
type Point struct {
	Lat    float64 `json:"lat"`
	Lon    float64 `json:"lon"`
	Source string  `json:"source"`
}

// Action is one action of a project: its code (ZM, ZR, HA …), name, exact
// application (ULURP) number as written and its normalized key.
type Action struct {
	Code        string `json:"code"`
	Name        string `json:"name,omitempty"`
	ULURPNumber string `json:"ulurp_number,omitempty"`
	ULURPKey    string `json:"ulurp_key,omitempty"`
	Status      string `json:"status,omitempty"`
	Source      string `json:"source"`
}

// Environmental are the project's environmental review facts (CEQR).
type Environmental struct {
	CEQRNumber string `json:"ceqr_number,omitempty"`
	ReviewType string `json:"review_type,omitempty"` // Type I, Type II, Unlisted
	Assessment string `json:"assessment,omitempty"`  // EAS or EIS
	Source     string `json:"source,omitempty"`
}

// DatedFact is one dated statement of one source.
type DatedFact struct {
	Name   string    `json:"name"`
	Date   time.Time `json:"date"`
	Source string    `json:"source"`
	// AlsoIn are other sources that state the same date.
	AlsoIn []string `json:"also_in,omitempty"`
}

// Milestone is one ZAP milestone as the portal records it: actual dates
// and planned dates kept apart (a planned date is not an observation).
type Milestone struct {
	Name          string    `json:"name"`   // dcp-name, trimmed
	Action        string    `json:"action"` // the prefix (ZM, EAS, Ad-hoc …)
	Milestone     string    `json:"milestone"`
	DisplayName   string    `json:"display_name,omitempty"`
	Status        string    `json:"status"`
	Sequence      int       `json:"sequence,omitempty"`
	ActualStart   time.Time `json:"actual_start,omitzero"`
	ActualEnd     time.Time `json:"actual_end,omitzero"`
	PlannedStart  time.Time `json:"planned_start,omitzero"`
	PlannedEnd    time.Time `json:"planned_end,omitzero"`
	ReviewMeeting time.Time `json:"review_meeting,omitzero"`
	Outcome       string    `json:"outcome,omitempty"`
	Source        string    `json:"source"`
}

// Recommendation is one recommendation (a ZAP disposition) of a
// community board, borough board or borough president on one action.
type Recommendation struct {
	Actor           string    `json:"actor"` // community_board, borough_board, borough_president
	Body            string    `json:"body"`  // "MN CB11", "QN BP"
	Name            string    `json:"name"`
	Action          string    `json:"action,omitempty"` // action code
	ULURPNumber     string    `json:"ulurp_number,omitempty"`
	Recommendation  string    `json:"recommendation,omitempty"`
	HearingDate     time.Time `json:"hearing_date,omitzero"`
	HearingLocation string    `json:"hearing_location,omitempty"`
	VoteDate        time.Time `json:"vote_date,omitzero"`
	Received        time.Time `json:"received,omitzero"`
	Status          string    `json:"status,omitempty"`
	Source          string    `json:"source"`
}

// Effect is a derived regulatory effect with who derived it.
type Effect struct {
	Value      string `json:"value"`
	Confidence string `json:"confidence,omitempty"`
	Basis      string `json:"basis"`
	Source     string `json:"source"`
}

// Attribution names one source file (or API answer) a project was read
// from.
type Attribution struct {
	Source     string    `json:"source"` // zap-portal, zap-opendata-projects, zap-opendata-bbls, mappluto
	Label      string    `json:"label"`
	File       string    `json:"file,omitempty"`
	ObservedAt time.Time `json:"observed_at,omitzero"`
}

// Conflict is one field on which sources disagree, each value attributed.
type Conflict struct {
	Field  string            `json:"field"`
	Values []AttributedValue `json:"values"`
}

// AttributedValue is one source's value.
type AttributedValue struct {
	Value  string `json:"value"`
	Source string `json:"source"`
}

// States of a project's notice links (Project.NoticeLinksState).
const (
	NoticeLinksDecided   = "decided"
	NoticeLinksUndecided = "undecided"
)

// NoticeLinksDecidedNote is the note of notice links decided against the
// notices held.
const NoticeLinksDecidedNote = "Decided when the project was linked, against the City Record notices then held, and for each notice loaded since as it was loaded: every notice held that names one of its application (ULURP) or CEQR numbers or its lots, or names the project on a recorded hearing day, is listed; none listed means none held named it, not that none was published."

// NoticeLinksUndecidedNote is the note of notice links not decided, with
// the reason ("" for a project linked before the decision was kept).
func NoticeLinksUndecidedNote(reason string) string {
	if reason == "" {
		reason = "the project was written before the link stage kept its decision"
	}
	return "Not decided: " + reason + ". The list of notices says nothing about whether any names the project; it is decided when the project is linked again with City Record notices held."
}

// NoticeLink is a City Record notice linked to a project, with the method,
// evidence and confidence of the link.
type NoticeLink struct {
	RequestID  string   `json:"request_id"`
	Title      string   `json:"title,omitempty"`
	Published  string   `json:"published,omitempty"`
	Method     string   `json:"method"`     // ulurp_number, ceqr_number
	Confidence string   `json:"confidence"` // high, medium
	Evidence   []string `json:"evidence"`
	// EvidenceKeys are Evidence as notes, one by one, stored with the
	// link (none in a link an older index stored: Evidence is then its
	// words).
	EvidenceKeys record.Notes `json:"evidence_keys,omitempty"`
}

// Event is a land-use event another publisher records about one or more
// applications (ULURP numbers): a borough president's recommendation, a
// City Council land-use item with its history. The link stage joins an
// event to the projects whose actions carry the same ULURP keys (link
// records land_event → land_project, indexer/link.JoinEventsLand); a
// project read lists the events so joined (Service.Project).
type Event struct {
	ID           string    `json:"id"`
	Type         string    `json:"type"`  // bp_recommendation, council_item, cb_minutes
	Actor        string    `json:"actor"` // borough_president, council, community_board
	Body         string    `json:"body"`
	Name         string    `json:"name"`
	ULURPNumbers []string  `json:"ulurp_numbers"`
	ULURPKeys    []string  `json:"ulurp_keys"`
	Outcome      string    `json:"outcome,omitempty"`
	Date         time.Time `json:"date,omitzero"`
	DateNote     string    `json:"date_note,omitempty"`
	// DateNoteKey is DateNote as a note, stored with the event (none in
	// an event an older index stored).
	DateNoteKey *record.Note `json:"date_note_key,omitempty"`
	URL         string       `json:"url,omitempty"`
	Steps       []EventStep  `json:"steps,omitempty"`
	// Method, Confidence and Evidence say how an event read from free
	// text (a community board's minutes naming an application number)
	// was linked: method "text", the line that names the number.
	Method      string `json:"method,omitempty"`
	Confidence  string `json:"confidence,omitempty"`
	Evidence    string `json:"evidence,omitempty"`
	Source      string `json:"source"`
	SourceLabel string `json:"source_label"`
	File        string `json:"file,omitempty"`
}

// EventStep is one step of an event's own history (a Council action).
type EventStep struct {
	Date   time.Time `json:"date"`
	Action string    `json:"action"`
	Body   string    `json:"body,omitempty"`
	// Meeting is the meeting record of the step's session when the
	// source names it ("legistar:<event id>" for a Council action taken
	// at a Legistar event).
	Meeting string `json:"meeting,omitempty"`
}

// ULURPPattern is the shape of an application (ULURP) number, upper-cased:
// an optional prefix letter, six digits (and a letter), three letters, and
// "(A)" for a modification.
const ULURPPattern = `^[A-Z]?\s*([0-9]{6}[A-Z]?)\s*([A-Z]{3})\s*(\(A\))?$`

var ulurpRE = regexp.MustCompile(ULURPPattern)

// ULURPKey is the normalized key of an application (ULURP) number: the six
// digits and three letters without the prefix letter and spaces
// ("C 240046 HAM", "C240046HAM" and "240046HAM" are "240046HAM"; a
// modification keeps its "(A)"). Empty when s is not one.
func ULURPKey(s string) string {
	s = strings.ToUpper(strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " ")))
	m := ulurpRE.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1] + m[2] + m[3]
}

var ulurpInText = regexp.MustCompile(`[A-Z]?\s?[0-9]{6}[A-Z]?\s?[A-Z]{3}(\s?\(A\))?`)

// ULURPKeys are the keys of a list of application numbers, whatever
// separates them (commas, semicolons, spaces), in order, without repeats.
func ULURPKeys(list string) (numbers, keys []string) {
	for _, n := range ULURPNumbersIn(strings.ReplaceAll(list, "\u00a0", " ")) {
		numbers, keys = append(numbers, n.Number), append(keys, n.Key)
	}
	return numbers, keys
}

// NumberAt is an application number found in a text: as written (upper
// case), its key (ULURPKey) and its byte offset in the text.
type NumberAt struct {
	Number, Key string
	At          int
}

// ULURPNumbersIn are the application numbers text names, in order,
// each key once, with where each is first named. Offsets are text's own
// (a text whose upper case has another length is read in upper case).
func ULURPNumbersIn(text string) []NumberAt {
	up := strings.ToUpper(text)
	var out []NumberAt
	var keys []string
	for _, m := range ulurpInText.FindAllStringIndex(up, -1) {
		raw := up[m[0]:m[1]]
		tok := strings.TrimSpace(raw)
		k := ULURPKey(strings.ReplaceAll(tok, " (A)", "(A)"))
		if k == "" || contains(keys, k) {
			continue
		}
		keys = append(keys, k)
		out = append(out, NumberAt{Number: tok, Key: k, At: m[0] + len(raw) - len(strings.TrimLeft(raw, " \t\n"))})
	}
	return out
}

// ULURPKeys are the ULURP keys of the project's actions.
func (p Project) ULURPKeys() []string {
	var out []string
	for _, a := range p.Actions {
		if a.ULURPKey != "" && !contains(out, a.ULURPKey) {
			out = append(out, a.ULURPKey)
		}
	}
	sort.Strings(out)
	return out
}

// BBLs are the project's lots' BBLs.
func (p Project) BBLs() []string {
	out := make([]string, 0, len(p.Lots))
	for _, l := range p.Lots {
		out = append(out, l.BBL)
	}
	return out
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// ProcedureIDOf is the procedure id of a written review procedure:
// "ulurp", "non_ulurp", "elurp" (each with a definition checked against the Charter),
// or "unknown" (not stated, or not one of these).
func ProcedureIDOf(written string) string {
	switch strings.ToLower(strings.ReplaceAll(strings.TrimSpace(written), " ", "")) {
	case "ulurp":
		return "ulurp"
	case "non-ulurp", "nonulurp":
		return "non_ulurp"
	case "elurp":
		return "elurp"
	}
	return "unknown"
}

// Borough codes of community districts: Open Data writes M, X, K, Q, R;
// the 2019 API wrote MN, BX, BK, QN, SI.
var boroughOfCD = map[string]string{"M": "Manhattan", "X": "Bronx", "K": "Brooklyn", "Q": "Queens", "R": "Staten Island"}

// CommunityDistrictPattern is the shape of a community district,
// upper-cased: a borough code and a number (M11, MN11, K3).
const CommunityDistrictPattern = `^(MN|BX|BK|QN|SI|M|X|K|Q|R)\s*0*([0-9]{1,2})$`

var cdRE = regexp.MustCompile(CommunityDistrictPattern)

// CommunityDistrict normalizes a community district ("M11", "MN11",
// "Mn12", "K3" → "K03"); empty when it is not one.
func CommunityDistrict(s string) string {
	m := cdRE.FindStringSubmatch(strings.ToUpper(strings.TrimSpace(s)))
	if m == nil {
		return ""
	}
	code := map[string]string{"MN": "M", "BX": "X", "BK": "K", "QN": "Q", "SI": "R"}[m[1]]
	if code == "" {
		code = m[1]
	}
	n := m[2]
	if len(n) == 1 {
		n = "0" + n
	}
	return code + n
}

// BoroughOfBBL is the borough of a BBL's first digit.
func BoroughOfBBL(bbl string) string {
	if bbl == "" {
		return ""
	}
	return map[byte]string{'1': "Manhattan", '2': "Bronx", '3': "Brooklyn", '4': "Queens", '5': "Staten Island"}[bbl[0]]
}

// NoCentroidNote says why the held MapPLUTO centroids do not locate a
// BBL (held: whether any centroid file is held at all).
func NoCentroidNote(bbl string, held bool) record.Note {
	switch {
	case !held:
		return record.N("land.lot.no_centroid.not_held")
	case strings.HasPrefix(bbl, "4"):
		return record.N("land.lot.no_centroid.queens")
	case len(bbl) == 10 && bbl[6:8] == "75":
		return record.N("land.lot.no_centroid.condo")
	}
	return record.N("land.lot.no_centroid.not_in_file")
}

// NoCentroidReason is NoCentroidNote's English.
func NoCentroidReason(bbl string, held bool) string { return NoCentroidNote(bbl, held).String() }
