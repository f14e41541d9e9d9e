package meeting

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Boroughs are the borough keys a meeting filter names, in order: the
// five boroughs, then BoroughNone.
var Boroughs = []string{"manhattan", "bronx", "brooklyn", "queens", "staten_island", BoroughNone}

// BoroughKey is the key of the borough a filter value names (any land
// spelling: land.BoroughKey; "citywide", "unknown" and BoroughNone are
// BoroughNone), and whether it names one.
func BoroughKey(s string) (string, bool) {
	k, ok := land.BoroughKey(s)
	if k == "citywide" || land.Token(s) == "unknown" || land.Token(s) == BoroughNone {
		return BoroughNone, true
	}
	return k, ok
}

// BoroughRule says how a meeting's borough is known, as a filter on it
// reports.
const BoroughRule = "as the community board's id gives it; the Council, agencies and bodies no record places are " + BoroughNone

// Browse bounds.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	// DefaultWindowDays is the window when no end is given; MaxWindowDays
	// bounds every window.
	DefaultWindowDays = 31
	MaxWindowDays     = 366
	// MaxExcluded bounds the unknown-start meetings listed (all are counted).
	MaxExcluded = 100
)

// Resident-time filters.
const (
	TimeAny              = ""
	TimeEvening          = "evening"            // starts at or after 17:00 New York
	TimeWeekend          = "weekend"            // on a Saturday or Sunday
	TimeEveningOrWeekend = "evening_or_weekend" // either
)

// TimeFilters lists the accepted resident-time filters.
var TimeFilters = []string{TimeEvening, TimeWeekend, TimeEveningOrWeekend}

// Attendance filters.
var AttendanceFilters = []string{InPerson, Remote, Hybrid, AttendanceUnknown}

// BodyKinds lists the kinds of body a filter may name.
var BodyKinds = []string{BodyCouncil, BodyCommunityBoard, BodyAgency}

// Sources lists the meeting sources a filter may name.
var Sources = []string{"cb-calendar", "cityrecord-hearings", "legistar"}

// IDSources are the sources a meeting id may name: Sources and the
// community boards' full-board minutes (cb-minutes, read from files
// only), whose meetings a browse returns like any other.
var IDSources = []string{"cb-calendar", "cb-minutes", "cityrecord-hearings", "legistar"}

// KeyResident holds "evening" and/or "weekend".
const KeyResident = "resident_time"

// Service reads meetings through the Records seam.
type Service struct {
	Records search.Records
	// Notices adds the notice coverage to scopes (nil: records only).
	Notices search.CoverageReader
	Now     func() time.Time
}

func (s *Service) now() time.Time {
	if s != nil && s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) records() (search.Records, error) {
	if s == nil || s.Records == nil {
		return nil, record.NoteError(record.EUNAVAILABLE, "", record.N("meet.error.unavailable"))
	}
	return s.Records, nil
}

// Get reads one meeting by exact id (source:source id), with its joins to
// land projects (LandProjects, link records). Errors: EINVALID
// for an empty id, ENOTFOUND, EUNAVAILABLE.
func (s *Service) Get(ctx context.Context, id string) (Meeting, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return Meeting{}, record.InvalidNote("id", "meet.error.id_required")
	}
	rs, err := s.records()
	if err != nil {
		return Meeting{}, err
	}
	m, err := search.Get(ctx, rs, Kind, id)
	if record.ErrorCode(err) == record.ENOTFOUND {
		return m, record.NoteError(record.ENOTFOUND, "", record.N("meet.error.not_found", strconv.Quote(id)))
	}
	if err != nil {
		return m, err
	}
	// its joins to land projects, as the link stage wrote them
	var complete bool
	m.LandProjects, complete, err = joins.Read(ctx, rs, []record.Ref{{Kind: record.RefMeeting, ID: m.ID}}, joins.Pair(record.RefMeeting, record.RefLandProject))
	if err == nil && !complete {
		n := joins.Bound(joins.BoundMeetingLand, joins.MaxRead)
		m.LandProjectsNote, m.LandProjectsNoteKey = n.String(), &n
	}
	return m, err
}

// Read is the answer of a single-meeting read: the meeting (Get) and the
// sources it is built from (its own source and every land project source,
// for its joins), each with its coverage and freshness as every scope
// states them (search.SourcesBehind).
type Read struct {
	Meeting Meeting                 `json:"meeting"`
	Sources []record.SourceCoverage `json:"sources"`
}

// Read reads one meeting by exact id (Get, with its errors) with the
// sources it is built from.
func (s *Service) Read(ctx context.Context, id string) (Read, error) {
	m, err := s.Get(ctx, id)
	if err != nil {
		return Read{}, err
	}
	out := Read{Meeting: m}
	out.Sources, err = search.SourcesBehind(ctx, s.Records, s.Notices,
		search.Behind{Kind: Kind.Name, Source: m.Source}, search.Behind{Kind: record.RefLandProject})
	return out, err
}

// Filter narrows a browse. From and To are New York days (YYYY-MM-DD),
// inclusive; From defaults to today, To to From + 30 days; the window is
// at most MaxWindowDays.
type Filter struct {
	From, To   string
	Time       string   // a TimeFilters value, or empty
	Attendance string   // in_person, remote (hybrid meetings match both), hybrid, unknown
	Sources    []string // Sources values
	Body       string   // a body name, matched by BodyKey
	BodyKind   string   // a BodyKinds value: council, community_board, agency
	// Borough keeps the meetings of one borough as their records give it
	// (BoroughOf: a community board's id): a borough in any spelling the
	// land filter reads, or BoroughNone ("citywide" and "unknown" read as
	// it) for the meetings of bodies no record places.
	Borough string
	// Month (YYYY-MM) is the window of one calendar month, first to last
	// day; it cannot be combined with From or To.
	Month string
	// AgencyIDs keeps meetings whose body resolves (through the agency
	// crosswalk) to one of these agencies: the agency of a meetings-lens
	// feed or watch. Meetings with no resolved agency do not match.
	AgencyIDs []string
}

// Brief names a meeting in a list.
type Brief struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Title  string `json:"title"`
	Date   string `json:"date"`
	Reason string `json:"reason"`
	// ReasonKey is Reason as a note (nil when the meeting was stored
	// before its notes).
	ReasonKey *record.Note `json:"reason_key,omitempty"`
}

// Excluded are the meetings a resident-time filter could not judge
// because their start is unknown: all counted, the first MaxExcluded
// listed.
type Excluded struct {
	Count    int     `json:"count"`
	Meetings []Brief `json:"meetings"`
	Note     string  `json:"note"`
	// NoteKey is Note as a note.
	NoteKey record.Note `json:"note_key"`
}

// say sets the note of ex to n.
func (ex *Excluded) say(n record.Note) { ex.Note, ex.NoteKey = n.String(), n }

// Coverage is one meeting source's share: records, dates, freshness.
type Coverage struct {
	Source          string    `json:"source"`
	Label           string    `json:"label"`
	Records         int       `json:"records"`
	FirstSourceDate string    `json:"first_source_date,omitempty"`
	LastSourceDate  string    `json:"last_source_date,omitempty"`
	ObservedAt      time.Time `json:"observed_at,omitzero"`
}

// Page is a bounded page of meetings, soonest first.
type Page struct {
	Meetings             []Meeting         `json:"meetings"`
	Total                int               `json:"total"`
	NextCursor           string            `json:"next_cursor,omitempty"`
	Applied              map[string]string `json:"applied_filters"`
	ExcludedUnknownStart Excluded          `json:"excluded_unknown_start"`
	Coverage             []Coverage        `json:"coverage"`
	Scope                record.Scope      `json:"scope"`
	// Widening is, for an empty page, the nearest non-empty one: the same
	// filters without one of them, or outside the date window (widen).
	Widening *record.Widening `json:"widening,omitempty"`
}

// Window is the inclusive New York day window of a filter.
func (f Filter) Window(now time.Time) (from, to time.Time, err error) {
	day := func(param, s string) (time.Time, error) {
		return record.ParseDay(param, strings.TrimSpace(s)) // the one day rule: format and bounds (400 naming param)
	}
	if m := strings.TrimSpace(f.Month); m != "" {
		if strings.TrimSpace(f.From) != "" || strings.TrimSpace(f.To) != "" {
			return from, to, record.InvalidNote("month", "meet.error.month_with_dates")
		}
		if _, perr := time.Parse("2006-01", m); perr != nil {
			return from, to, record.InvalidNote("month", "meet.error.month", strconv.Quote(m))
		}
		if from, err = day("month", m+"-01"); err != nil {
			return
		}
		return from, from.AddDate(0, 1, -1), nil
	}
	if strings.TrimSpace(f.From) == "" {
		n := now.In(record.NewYork)
		from = time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, record.NewYork)
	} else if from, err = day("from", f.From); err != nil {
		return
	}
	if strings.TrimSpace(f.To) == "" {
		to = from.AddDate(0, 0, DefaultWindowDays-1)
	} else if to, err = day("to", f.To); err != nil {
		return
	}
	if to.Before(from) {
		return from, to, record.InvalidNote("to", "meet.error.to_before_from", to.Format("2006-01-02"), from.Format("2006-01-02"))
	}
	if !WindowFits(from, to) {
		return from, to, record.InvalidNote("to", "meet.error.window", MaxWindowDays)
	}
	return from, to, nil
}

// WindowFits reports whether the days from and to (to not before from)
// fit one window of the calendar: at most MaxWindowDays days, an hour
// spared for a change of clocks.
func WindowFits(from, to time.Time) bool {
	return to.Sub(from) <= time.Duration(MaxWindowDays-1)*24*time.Hour+time.Hour
}

// query is the record query of a filter (without the time filter) and
// the applied filters.
func (s *Service) query(f Filter) (search.RecordQuery, map[string]string, error) {
	from, to, err := f.Window(s.now())
	if err != nil {
		return search.RecordQuery{}, nil, err
	}
	applied := map[string]string{"from": from.Format("2006-01-02"), "to": to.Format("2006-01-02"), "time_zone": TimeZone}
	if m := strings.TrimSpace(f.Month); m != "" {
		applied["month"] = m
	}
	q := search.RecordQuery{From: from, To: to.Add(24*time.Hour - time.Second), Keys: map[string][]string{}}
	if f.Time != "" && !slices.Contains(TimeFilters, f.Time) {
		return q, nil, record.InvalidNote("time", "meet.error.time", strconv.Quote(f.Time), strings.Join(TimeFilters, ", "))
	}
	if a := f.Attendance; a != "" {
		if !slices.Contains(AttendanceFilters, a) {
			return q, nil, record.InvalidNote("attendance", "meet.error.attendance", strconv.Quote(a), strings.Join(AttendanceFilters, ", "))
		}
		q.Keys[KeyAttendance] = []string{a}
		applied["attendance"] = a
		if a == InPerson || a == Remote {
			applied["attendance"] += " (hybrid meetings included)"
		}
	}
	for _, src := range f.Sources {
		if !slices.Contains(Sources, src) {
			return q, nil, record.InvalidNote("source", "meet.error.source", strconv.Quote(src), strings.Join(Sources, ", "))
		}
	}
	if len(f.Sources) > 0 {
		q.Sources = slices.Clone(f.Sources)
		applied["source"] = strings.Join(f.Sources, ",")
	}
	if b := strings.TrimSpace(f.Body); b != "" {
		k := BodyKey(b)
		if k == "" {
			return q, nil, record.InvalidNote("body", "meet.error.body", strconv.Quote(b))
		}
		q.Keys[KeyBody] = []string{k}
		applied["body"] = b
	}
	if k := f.BodyKind; k != "" {
		if !slices.Contains(BodyKinds, k) {
			return q, nil, record.InvalidNote("body_kind", "meet.error.body_kind", strconv.Quote(k), strings.Join(BodyKinds, ", "))
		}
		q.Keys[KeyBodyKind] = []string{k}
		applied["body_kind"] = k
	}
	if b := strings.TrimSpace(f.Borough); b != "" {
		k, ok := BoroughKey(b)
		if !ok {
			return q, nil, record.InvalidNote("borough", "meet.error.borough",
				strconv.Quote(b), strings.Join(land.BoroughSpellings(), ", "), BoroughNone)
		}
		q.Keys[KeyBorough] = []string{k}
		applied["borough"] = k + " (" + BoroughRule + ")"
	}
	if len(f.AgencyIDs) > 0 {
		q.Keys[search.KeyAgencyID] = slices.Clone(f.AgencyIDs)
		applied["agency"] = strings.Join(f.AgencyIDs, ",")
	}
	return q, applied, nil
}

// Browse reads a bounded page of meetings in a date window, soonest
// first (then by id: a stable order a cursor walks without gaps or
// repeats), with the meetings a time filter excluded because their start
// is unknown, per-source coverage and freshness, and the scope.
func (s *Service) Browse(ctx context.Context, f Filter, cursor string, limit int) (Page, error) {
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit < 1 || limit > MaxLimit {
		return Page{}, record.InvalidNote("limit", "meet.error.limit", MaxLimit)
	}
	q, applied, err := s.query(f)
	if err != nil {
		return Page{}, err
	}
	rs, err := s.records()
	if err != nil {
		return Page{}, err
	}
	ex := Excluded{Meetings: []Brief{}}
	if f.Time != "" {
		applied["time"] = f.Time
		eq := q
		eq.Keys = cloneKeys(q.Keys)
		eq.Keys[KeyStartKnown] = []string{"false"}
		timeKeys(&q, f.Time)
		if f.Time == TimeEveningOrWeekend {
			eq.Keys[KeyWeekend] = []string{"false"}
		}
		if f.Time != TimeWeekend {
			eq.Sort, eq.Limit = search.RecordSortDate, MaxExcluded
			p, err := search.Find(ctx, rs, Kind, eq)
			if err != nil {
				return Page{}, err
			}
			ex.Count = p.Total
			for _, m := range p.Items {
				b := Brief{ID: m.ID, Source: m.Source, Title: m.Title, Date: m.When.Date, Reason: "start unknown: " + m.When.Note}
				if m.When.NoteKey != nil {
					why := record.N("meet.excluded.reason")
					why.Inner = []record.Part{record.PartOf(*m.When.NoteKey)}
					b.ReasonKey = &why
				}
				ex.Meetings = append(ex.Meetings, b)
			}
			ex.say(record.N("meet.excluded.unknown_start"))
		} else {
			ex.say(record.N("meet.excluded.weekend"))
		}
	} else {
		ex.say(record.N("meet.excluded.no_filter"))
	}
	q.Sort, q.Limit, q.Cursor = search.RecordSortDate, limit, cursor
	p, err := search.Find(ctx, search.WithScope(rs, s.Notices), Kind, q)
	if err != nil {
		return Page{}, err
	}
	out := Page{Meetings: p.Items, Total: p.Total, NextCursor: p.NextCursor, Applied: applied, ExcludedUnknownStart: ex, Scope: p.Scope}
	if out.Meetings == nil {
		out.Meetings = []Meeting{}
	}
	if out.Total == 0 && cursor == "" {
		if out.Widening, err = s.widen(ctx, rs, f); err != nil {
			return Page{}, err
		}
	}
	out.Scope.Searched.Kind = "meetings"
	out.Coverage = []Coverage{}
	for _, c := range p.Scope.Sources {
		if c.RecordType == Kind.Name {
			out.Coverage = append(out.Coverage, Coverage{Source: c.Source, Label: c.Label, Records: c.Records,
				FirstSourceDate: c.FirstSourceDate, LastSourceDate: c.LastSourceDate, ObservedAt: c.ObservedAt})
		}
	}
	return out, nil
}

// timeKeys narrows q to the meetings a time filter keeps (evening,
// weekend, or either), as their records' keys say.
func timeKeys(q *search.RecordQuery, time string) {
	switch time {
	case TimeEvening:
		q.Keys[KeyResident] = []string{TimeEvening}
	case TimeWeekend:
		q.Keys[KeyResident] = []string{TimeWeekend}
	case TimeEveningOrWeekend:
		q.Keys[KeyResident] = []string{TimeEvening, TimeWeekend}
	}
}

func cloneKeys(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}
