// Package meeting is the meeting read model (SPEC §2.8): one record per
// source meeting (a Council Legistar event, a community-board calendar
// entry, a City Record hearing notice), keyed by source and source id,
// with four facts kept apart, each with its evidence: held, observed,
// minutes and City notice link. A meeting is never dropped because its
// minutes are unpublished or its notice unlinked.
package meeting

import (
	"regexp"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// TimeZone is the zone of every meeting time: New York.
const TimeZone = "America/New_York"

// Kinds of body.
const (
	BodyCouncil        = "council"         // a City Council committee, subcommittee or the Stated Meeting
	BodyCommunityBoard = "community_board" // a community board or one of its committees
	BodyAgency         = "agency"          // a city agency, commission or board named by City Record
)

// Held states (SPEC §2.8: held / not held as recorded; unknown when the
// source records neither, e.g. a meeting still to come).
const (
	Held        = "held"
	NotHeld     = "not_held"
	HeldUnknown = "unknown"
)

// Minutes states.
const (
	MinutesPublished    = "published"
	MinutesNotPublished = "not_published"
)

// Notice link states (SPEC §3).
const (
	NoticeLinked    = "linked"
	NoticeNotLinked = "not_linked"
	NoticeUnknown   = "unknown"
)

// Attendance modes.
const (
	InPerson          = "in_person"
	Remote            = "remote"
	Hybrid            = "hybrid"
	AttendanceUnknown = "unknown"
)

// Confidence values of parsed fields and links.
const (
	High   = "high"
	Medium = "medium"
	Low    = "low"
)

// Meeting is one source meeting.
type Meeting struct {
	// ID is source + ":" + source id, unique and stable.
	ID          string `json:"id"`
	Source      string `json:"source"`
	SourceLabel string `json:"source_label"`
	SourceID    string `json:"source_id"`
	SourceURL   string `json:"source_url,omitempty"`

	// Body is the board or body as the source names it; BodyKind says
	// which kind it is. Agency is its crosswalk resolution when the body
	// is, or belongs to, an agency (empty when the crosswalk has none).
	Body     string      `json:"body"`
	BodyKind string      `json:"body_kind"`
	Agency   *AgencyRef  `json:"agency,omitempty"`
	Title    string      `json:"title"`
	When     When        `json:"when"`
	Place    Place       `json:"place"`
	Docs     []Document  `json:"documents"`
	Held     Fact        `json:"held"`
	Observed Observation `json:"observed"`
	Minutes  Fact        `json:"minutes"`
	Notice   NoticeLink  `json:"notice"`
	// Tentative is set when the source marks the meeting as tentative or
	// "if necessary".
	Tentative bool   `json:"tentative,omitempty"`
	Comment   string `json:"comment,omitempty"`
	// Fields gives, for a meeting parsed from free text (community-board
	// calendars), the confidence of each parsed field and how it was read.
	Fields []ParsedField `json:"parsed_fields,omitempty"`
	// Raw keeps source status fields as read (agenda status, minutes
	// status …).
	Raw map[string]string `json:"raw,omitempty"`
	// Applications are the land-use application numbers and project ids
	// its agenda or text names (ApplicationsIn), as the source wrote them.
	Applications []Application `json:"land_use_applications,omitempty"`
	// LandProjects are the joins of the meeting to land projects, read by
	// Service.Get from the link records the link stage wrote (method,
	// confidence, evidence); never stored with the meeting.
	LandProjects []record.Link `json:"land_projects,omitempty"`
	// LandProjectsNote says when more joins are held than one read takes
	// (joins.BoundNote): the land projects listed are then the first ones.
	LandProjectsNote string `json:"land_projects_note,omitempty"`
	// LandProjectsNoteKey is LandProjectsNote as a note.
	LandProjectsNoteKey *record.Note `json:"land_projects_note_key,omitempty"`
}

// AgencyRef is the crosswalk resolution of a body.
type AgencyRef struct {
	Raw    string `json:"raw"`
	ID     string `json:"id"`
	Name   string `json:"name"`
	Method string `json:"method"`
}

// When is the source date and time. Date is the New York day
// (YYYY-MM-DD, empty when unknown). Start is set only when the source
// gives a start time; StartKnown says so explicitly.
type When struct {
	Date       string     `json:"date,omitempty"`
	Start      *time.Time `json:"start,omitempty"`
	End        *time.Time `json:"end,omitempty"`
	StartKnown bool       `json:"start_known"`
	TimeZone   string     `json:"time_zone"`
	// Note says why the start is unknown, or how it was read; NoteKey is
	// the same as a note (nil on a meeting stored before the notes).
	Note    string       `json:"note,omitempty"`
	NoteKey *record.Note `json:"note_key,omitempty"`
}

// Place is where the meeting is held and how to attend.
type Place struct {
	Text        string `json:"text,omitempty"` // empty: not stated
	Attendance  string `json:"attendance"`     // in_person, remote, hybrid, unknown
	RemoteLinks []Link `json:"remote_links,omitempty"`
	Note        string `json:"note,omitempty"`
	// NoteKey is Note as a note (nil on a meeting stored before the
	// notes).
	NoteKey *record.Note `json:"note_key,omitempty"`
}

// Link is a labelled URL.
type Link struct {
	Label    string       `json:"label"`
	LabelKey *record.Note `json:"label_key,omitempty"` // Label as a note
	URL      string       `json:"url"`
}

// Document kinds.
const (
	DocAgenda     = "agenda"
	DocMinutes    = "minutes"
	DocTranscript = "transcript"
	DocVideo      = "video"
	DocNotice     = "notice"
	DocAttachment = "attachment"
)

// Document is one document of a meeting.
type Document struct {
	Kind        string `json:"kind"`
	Label       string `json:"label"`
	URL         string `json:"url"`
	Status      string `json:"status,omitempty"` // as the source states it (Final, Draft …)
	PublishedAt string `json:"published_at,omitempty"`
	// LabelKey is Label as a note (nil on a meeting stored before the
	// notes).
	LabelKey *record.Note `json:"label_key,omitempty"`
}

// Fact is one of the independent facts, with its evidence.
type Fact struct {
	State    string `json:"state"`
	Evidence string `json:"evidence"`
	// EvidenceKey is Evidence as a note (nil on a meeting stored before
	// the notes).
	EvidenceKey *record.Note `json:"evidence_key,omitempty"`
}

// Observation is when the meeting was observed and on what evidence.
type Observation struct {
	At       time.Time `json:"at,omitzero"`
	Date     string    `json:"date,omitempty"`
	Evidence string    `json:"evidence"`
	// EvidenceKey is Evidence as a note (nil on a meeting stored before
	// the notes).
	EvidenceKey *record.Note `json:"evidence_key,omitempty"`
}

// NoticeLink is the City Record notice link with its evidence: the
// method and confidence of a link, or why none was decided.
type NoticeLink struct {
	State       string   `json:"state"`
	Evidence    string   `json:"evidence"`
	RequestID   string   `json:"request_id,omitempty"`
	URL         string   `json:"url,omitempty"`
	Method      string   `json:"method,omitempty"`
	Confidence  string   `json:"confidence,omitempty"`
	Matched     []string `json:"matched,omitempty"`     // body, date, time, place
	Candidates  []string `json:"candidates,omitempty"`  // request ids considered, same day
	NoticesSeen int      `json:"notices_seen,omitzero"` // hearing notices held for the day
	// EvidenceKeys is Evidence as notes, said as the clauses of one
	// sentence (empty on a meeting stored before the notes).
	EvidenceKeys record.Notes `json:"evidence_keys,omitempty"`
}

// ParsedField is the confidence of one field read from free text, with
// the line it was read from (Line is 1-based; 0 when the field was not
// read from a line of the text, e.g. a board named by the file name).
type ParsedField struct {
	Field      string `json:"field"`
	Value      string `json:"value"`
	Confidence string `json:"confidence"`
	How        string `json:"how"`
	Line       int    `json:"line,omitempty"`
	SourceText string `json:"source_text,omitempty"`
	// HowKey is How as a note (nil on a meeting stored before the
	// notes).
	HowKey *record.Note `json:"how_key,omitempty"`
}

// TimeNotStated is the start field's value when the text states no time
// for a meeting: said explicitly, never guessed.
const TimeNotStated = "not stated"

// Record keys of a meeting (exact match, lower case).
const (
	KeyBody       = "body_key"
	KeyBodyKind   = "body_kind"
	KeyHeld       = "held"
	KeyMinutes    = "minutes"
	KeyNotice     = "notice_link"
	KeyAttendance = "attendance"
	KeyStartKnown = "start_known"
	KeyEvening    = "evening"
	KeyWeekend    = "weekend"
	KeyDay        = "day"
	KeyRequestID  = "request_id"
	KeyBorough    = "borough"
)

// BoroughNone is the borough key of a meeting whose records name no
// borough: a citywide body (the Council, an agency) or a body the source
// does not place. Never guessed from a place or a title.
const BoroughNone = "citywide_or_unknown"

// boardIDRE is a community board's id as the boards' sources write it at
// the head of a source id: its borough's two-letter code and its number
// ("qn06-…", "mn11-…").
var boardIDRE = regexp.MustCompile(`^(bx|bk|mn|qn|si)\d{2}-`)

// BoroughOf is the borough of a meeting as its source gives it, a land
// borough key (land.BoroughKey: "manhattan" … "staten_island"): a
// community board's meeting carries its board's id, whose code names the
// borough; any other meeting is BoroughNone.
func BoroughOf(m Meeting) string {
	if m.BodyKind == BodyCommunityBoard {
		if c := boardIDRE.FindStringSubmatch(m.SourceID); c != nil {
			if b, ok := land.BoroughKey(c[1]); ok {
				return b
			}
		}
	}
	return BoroughNone
}

// Kind is the typed record kind of meetings. Version 1: meetings carry
// the land-use applications their agenda names (keys KeyULURP,
// KeyLandProject), which the link stage joins land projects by. Version 2:
// the borough key (BoroughOf).
var Kind = search.Kind[Meeting]{Name: "meeting", Index: index, Version: 2}

// index is the envelope of a meeting: keys for every browse filter, the
// start (or, when the start is unknown, the New York day) as Date.
func index(m Meeting) search.Record {
	keys := map[string][]string{}
	set := func(k string, vs ...string) {
		for _, v := range vs {
			if v != "" {
				keys[k] = append(keys[k], v)
			}
		}
	}
	set(KeyBody, BodyKey(m.Body))
	set(KeyBodyKind, m.BodyKind)
	if m.Agency != nil {
		set(search.KeyAgencyID, m.Agency.ID)
		set(search.KeyAgencyRaw, m.Agency.Raw) // the body as written (GET /agencies)
	}
	set(KeyHeld, m.Held.State)
	set(KeyMinutes, m.Minutes.State)
	set(KeyNotice, m.Notice.State)
	set(KeyRequestID, m.Notice.RequestID)
	switch m.Place.Attendance {
	case Hybrid:
		set(KeyAttendance, Hybrid, InPerson, Remote)
	default:
		set(KeyAttendance, m.Place.Attendance)
	}
	set(KeyStartKnown, boolKey(m.When.StartKnown))
	set(KeyDay, m.When.Date)
	set(KeyBorough, BoroughOf(m))
	for _, a := range m.Applications {
		set(KeyULURP, a.Key)
		set(KeyLandProject, a.ProjectID)
	}
	r := search.Record{ID: m.ID, Source: m.Source, SourceLabel: m.SourceLabel, ObservedAt: m.Observed.At, Keys: keys, Title: m.Title}
	if m.When.StartKnown && m.When.Start != nil {
		st := m.When.Start.In(record.NewYork)
		r.Date, r.DateLabel = st, "starts"
		set(KeyEvening, boolKey(Evening(st)))
		if Evening(st) {
			set(KeyResident, TimeEvening)
		}
	} else if d, err := time.ParseInLocation("2006-01-02", m.When.Date, record.NewYork); err == nil {
		r.Date, r.DateLabel = d, "day (start unknown)"
	}
	if !r.Date.IsZero() {
		wd := r.Date.In(record.NewYork).Weekday()
		set(KeyWeekend, boolKey(wd == time.Saturday || wd == time.Sunday))
		if wd == time.Saturday || wd == time.Sunday {
			set(KeyResident, TimeWeekend)
		}
	}
	return r
}

// Evening reports whether a start is at or after 17:00 New York time.
func Evening(t time.Time) bool { return t.In(record.NewYork).Hour() >= 17 }

func boolKey(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// BodyKey is the exact-match key of a body name: lower case, letters and
// digits, single dashes.
func BodyKey(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// Day is the New York day of t.
func Day(t time.Time) string { return t.In(record.NewYork).Format("2006-01-02") }

// MinutesFact is the minutes fact of a meeting's documents: published
// when a minutes document with a link is held, whatever the meeting's
// held state.
func MinutesFact(docs []Document, sourceState string) Fact {
	for _, d := range docs {
		if d.Kind == DocMinutes && d.URL != "" {
			switch {
			case d.Status != "" && d.PublishedAt != "":
				return NewFact(MinutesPublished, record.N("meet.minutes.linked.status_published", d.Status, d.PublishedAt))
			case d.Status != "":
				return NewFact(MinutesPublished, record.N("meet.minutes.linked.status", d.Status))
			case d.PublishedAt != "":
				return NewFact(MinutesPublished, record.N("meet.minutes.linked.published", d.PublishedAt))
			}
			return NewFact(MinutesPublished, record.N("meet.minutes.linked"))
		}
	}
	if sourceState != "" {
		return NewFact(MinutesNotPublished, record.N("meet.minutes.none.status", sourceState))
	}
	return NewFact(MinutesNotPublished, record.N("meet.minutes.none"))
}
