package land

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Read bounds.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	// MaxEvents bounds the events read for one project.
	MaxEvents = 200
)

// Engine is what the service reads of a search engine: its records, its
// notice coverage for scopes, and the notices a project is linked to.
type Engine interface {
	search.Records
	search.CoverageReader
	Search(ctx context.Context, q search.Query) (search.Result, error)
}

// Service reads land projects through the Records seam.
type Service struct {
	Engine Engine
	// Now is the clock a read is made at (nil: time.Now): a stage planned
	// before it and not observed since says so (Path).
	Now func() time.Time
	// Meetings reads the meetings joined to a project as its hearings
	// (nil: only City Record hearing notices are).
	Meetings HearingReader
}

// New is a service over a search engine.
func New(e Engine) *Service { return &Service{Engine: e} }

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func (s *Service) records() (search.Records, search.CoverageReader, error) {
	if s == nil || s.Engine == nil {
		return nil, nil, record.NoteError(record.EUNAVAILABLE, "", record.N("land.error.unavailable"))
	}
	return s.Engine, s.Engine, nil
}

// ProjectRead is one project with the events other publishers record
// about its applications.
type ProjectRead struct {
	Project Project `json:"project"`
	Events  []Event `json:"events"`
	// EventsNote says how events are attached.
	EventsNote string `json:"events_note"`
	// Meetings are the joins of meetings to the project that the link
	// stage wrote (link records, meeting → land_project, with method,
	// confidence and evidence), at most joins.MaxRead.
	Meetings     []record.Link `json:"meetings"`
	MeetingsNote string        `json:"meetings_note"`
	// LinksComplete is false when a bounded read behind the answer hit
	// its bound (joins.MaxRead links of one pair; MaxEvents events), so
	// some joined notices, meetings or events are not listed; LinksNote
	// then names each bound hit (joins.BoundNote). It is never false
	// silently.
	LinksComplete bool   `json:"links_complete"`
	LinksNote     string `json:"links_note,omitempty"`
	// LinksNoteKeys are LinksNote as notes, one for each bound hit
	// (BoundNote), for the reader's language.
	LinksNoteKeys record.Notes `json:"links_note_keys,omitempty"`
	// LotPlaces place the project's lots (the first MaxLotPlaces) as a
	// list page places them (PlaceLots): at the ZAP outline of the
	// project's lots, at the lot's MapPLUTO centroid (the live MapPLUTO
	// fetch or the land source's centroid file), or nowhere with the
	// reason.
	LotPlaces []LotPlace `json:"lot_places"`
	// Hearings are the project's hearings (Hearing): the next one first,
	// then later ones, then past ones newest first; NextHearing is the
	// next one (null when none is scheduled from the read's day on).
	Hearings     []Hearing `json:"hearings"`
	NextHearing  *Hearing  `json:"next_hearing"`
	HearingsNote string    `json:"hearings_note"`
	// AsOf is when the read was made: a planned date before it, of a stage
	// not observed since, reads so in the path (PlannedPassed).
	AsOf time.Time `json:"-"`
	// Sources are the sources the answer is built from (SourcesBehind),
	// each with its coverage and freshness as every scope states them.
	Sources []record.SourceCoverage `json:"sources"`
}

// SourcesBehind are what a project read is built from: the project's own
// source, the lot locations its lots are placed with, the events of other
// publishers, the meetings joined to it and the City Record notices
// linked to it (every source of each).
var SourcesBehind = []search.Behind{{Kind: ProjectKind.Name, Source: Source}, {Kind: LotKind.Name}, {Kind: EventKind.Name},
	{Kind: record.RefMeeting}, {Kind: search.NoticeRecordType}}

// cut notes a bounded read that hit its bound on the answer.
func (r *ProjectRead) cut(note record.Note) {
	r.LinksComplete = false
	r.LinksNoteKeys = append(r.LinksNoteKeys, note)
	r.LinksNote = r.LinksNoteKeys.String()
}

// The joins a project read lists, each of which may be cut by a bound
// (BoundNote).
const (
	BoundMeetings = "meetings"
	BoundEvents   = "events"
	BoundNotices  = "notices"
)

// BoundNote is the note of a project read cut by a bound: the joins of
// what (BoundMeetings, BoundEvents, BoundNotices) hold more than the
// bound one answer reads. Its English is joins.BoundNote's of the joins
// named ("meetings joined to the project" …).
func BoundNote(what string, bound int) record.Note {
	key := "land.links.bound." + what
	return record.N(key, bound, bound)
}

// MeetingsNote says how a project's meetings are joined.
const MeetingsNote = "Meetings (Council, City Planning Commission, community boards) whose agenda or text names one of the project's application (ULURP) numbers or its id, joined when they were indexed (link records): method ulurp_number or project_id; confidence high for an item of the published agenda, medium for free text. A meeting not listed may still have discussed the project."

// Shapes of the identifiers a read or a filter takes, after upper-casing
// and trimming (the MCP tools' input schemas state them as patterns).
const (
	// ProjectIDPattern: four digits of year, a borough letter (Y:
	// citywide) and four digits, with an optional legacy P prefix.
	ProjectIDPattern = `^P?[0-9]{4}[MXKQRY][0-9]{4}$`
	// ActionPattern: a two-letter action code (ZM, ZR …).
	ActionPattern = `^[A-Z]{2}$`
	// BBLPattern: borough (1-5), block (5 digits) and lot (4 digits).
	BBLPattern = `^[1-5][0-9]{9}$`
)

var projectIDRE = regexp.MustCompile(ProjectIDPattern)

// CheckID validates a project id: EINVALID when it is not one.
func CheckID(id string) (string, error) {
	id = strings.ToUpper(strings.TrimSpace(id))
	if id == "" {
		return "", record.InvalidNote("id", "land.error.id_required")
	}
	if !projectIDRE.MatchString(id) {
		return "", record.InvalidNote("id", "land.error.id_shape", quote(id))
	}
	return id, nil
}

// Project reads one project by exact id. Errors: EINVALID for a malformed
// id, ENOTFOUND when none is held, EUNAVAILABLE when the engine cannot
// answer.
func (s *Service) Project(ctx context.Context, id string) (ProjectRead, error) {
	id, err := CheckID(id)
	if err != nil {
		return ProjectRead{}, err
	}
	rs, _, err := s.records()
	if err != nil {
		return ProjectRead{}, err
	}
	p, err := search.Get(ctx, rs, ProjectKind, id)
	if err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			return ProjectRead{}, record.NoteError(record.ENOTFOUND, "", record.N("land.error.not_found", quote(id)))
		}
		return ProjectRead{}, err
	}
	out := ProjectRead{Project: p, Events: []Event{}, AsOf: s.now(),
		EventsNote: "Events of other publishers (borough president recommendations, Council land-use items) are attached when they name one of the project's application (ULURP) numbers."}
	out.LinksComplete = true
	if out.Project.NoticeLinksState == "" { // written before the link stage kept its decision
		out.Project.NoticeLinksState, out.Project.NoticeLinksNote = NoticeLinksUndecided, NoticeLinksUndecidedNote("")
	}
	ref := []record.Ref{{Kind: record.RefLandProject, ID: p.ID}}
	var eventLinks map[string]record.Link
	if out.Events, eventLinks, err = s.events(ctx, ref, &out); err != nil {
		return out, err
	}
	out.Meetings, out.MeetingsNote = []record.Link{}, MeetingsNote
	ls, complete, err := joins.Read(ctx, rs, ref, joins.Pair(record.RefMeeting, record.RefLandProject))
	if err != nil {
		return out, err
	}
	if !complete {
		out.cut(BoundNote(BoundMeetings, joins.MaxRead))
	}
	out.Meetings = append(out.Meetings, ls...)
	var notices map[string]record.Notice
	if out.Project.Links, notices, err = s.noticeLinks(ctx, ref, &out); err != nil {
		return out, err
	}
	out.HearingsNote = HearingsNote
	if out.Hearings, err = s.hearings(ctx, notices, out.Project.Links, out.Meetings, eventHearings(out.Events, eventLinks), out.AsOf); err != nil {
		return out, err
	}
	out.NextHearing = out.nextHearing()
	places, err := s.placeLots(ctx, [][]Lot{out.Project.Lots})
	if err != nil {
		return out, err
	}
	out.LotPlaces = places[0]
	out.Sources, err = search.SourcesBehind(ctx, rs, s.Engine, SourcesBehind...)
	return out, err
}

// events reads the events of other publishers joined to a project: the
// link records the link stage wrote (land_event → land_project, by
// application number), then those events, oldest first, at most
// MaxEvents; with each event's link record, by event id.
func (s *Service) events(ctx context.Context, ref []record.Ref, out *ProjectRead) ([]Event, map[string]record.Link, error) {
	ls, complete, err := joins.Read(ctx, s.Engine, ref, joins.Pair(record.RefLandEvent, record.RefLandProject))
	if err != nil || len(ls) == 0 {
		return []Event{}, nil, err
	}
	byEvent := make(map[string]record.Link, len(ls))
	for _, l := range ls {
		byEvent[l.From.ID] = l
	}
	if !complete {
		out.cut(BoundNote(BoundEvents, joins.MaxRead))
	}
	ids := make([]string, 0, len(ls))
	for _, l := range ls {
		ids = append(ids, l.From.ID)
	}
	page, err := search.Find(ctx, s.Engine, EventKind, search.RecordQuery{IDs: ids[:min(len(ids), search.MaxKeyValues)], Sort: search.RecordSortDate, Limit: MaxEvents})
	if err != nil {
		return []Event{}, nil, err
	}
	if page.Total > len(page.Items) {
		out.cut(BoundNote(BoundEvents, MaxEvents))
	}
	return append([]Event{}, page.Items...), byEvent, nil
}

// EvidenceSep separates the evidence of a notice link in its link record.
const EvidenceSep = "; "

// noticeLinks reads the City Record notice links of a project from the
// link records the link stage wrote (notice → land_project), each with
// the notice's title and publication day, by request id.
func (s *Service) noticeLinks(ctx context.Context, ref []record.Ref, r *ProjectRead) ([]NoticeLink, map[string]record.Notice, error) {
	ls, complete, err := joins.Read(ctx, s.Engine, ref, joins.Pair(record.RefNotice, record.RefLandProject))
	if err != nil {
		return nil, nil, err
	}
	if !complete {
		r.cut(BoundNote(BoundNotices, joins.MaxRead))
	}
	out := []NoticeLink{}
	if len(ls) == 0 {
		return out, nil, nil
	}
	var ids []string
	for _, l := range ls {
		ids = append(ids, l.From.ID)
	}
	notices := map[string]record.Notice{}
	for start := 0; start < len(ids); start += search.MaxLimit {
		res, err := s.Engine.Search(ctx, search.Query{RequestIDs: ids[start:min(start+search.MaxLimit, len(ids))], Limit: search.MaxLimit})
		if err != nil {
			return nil, nil, err
		}
		for _, h := range res.Hits {
			notices[h.Notice.RequestID] = h.Notice
		}
	}
	for _, l := range ls {
		nl := NoticeLink{RequestID: l.From.ID, Method: l.Method, Confidence: l.Confidence, Evidence: strings.Split(l.Evidence, EvidenceSep),
			EvidenceKeys: JoinPieces(l.EvidenceKey)}
		if n, ok := notices[l.From.ID]; ok {
			nl.Title = n.Title
			if !n.StartDate.IsZero() {
				nl.Published = n.StartDate.In(record.NewYork).Format("2006-01-02")
			}
		}
		out = append(out, nl)
	}
	slices.SortFunc(out, func(a, b NoticeLink) int { return strings.Compare(a.RequestID, b.RequestID) })
	return out, notices, nil
}

// DecisionPath reads the decision path of one project (Project's errors).
func (s *Service) DecisionPath(ctx context.Context, id string) (DecisionPath, error) {
	r, err := s.Project(ctx, id)
	if err != nil {
		return DecisionPath{}, err
	}
	return r.Path(), nil
}

// Path is the decision path of the project read (Path), saying so when
// the read behind it was cut by a bound (LinksComplete, LinksNote): the
// path is read from the events listed.
func (r ProjectRead) Path() DecisionPath {
	d := Path(r.Project, r.Events)
	d.plannedPassed(r.AsOf)
	d.Hearings, d.NextHearing = append([]Hearing{}, r.Hearings...), r.NextHearing
	// the path is read from the project and the events of other
	// publishers: their sources, as the project read states them
	d.Sources = []record.SourceCoverage{}
	for _, c := range r.Sources {
		if c.RecordType == search.ScopeType(ProjectKind.Name) || c.RecordType == search.ScopeType(EventKind.Name) {
			d.Sources = append(d.Sources, c)
		}
	}
	if !r.LinksComplete {
		d.LinksComplete = false
		d.Notes = append(d.Notes, r.LinksNote)
		d.NoteKeys = append(d.NoteKeys, r.LinksNoteKeys...)
	}
	return d
}

// Filter narrows a browse; every set field must match. Values are
// normalized here (procedure "ULURP" or "ulurp", borough "Manhattan", "M"
// or "1", community district "M11" or "MN11").
type Filter struct {
	Procedure         string `json:"procedure,omitempty"`
	Action            string `json:"action,omitempty"`
	Stage             string `json:"stage,omitempty"`
	Effect            string `json:"effect,omitempty"`
	Borough           string `json:"borough,omitempty"`
	CommunityDistrict string `json:"community_district,omitempty"`
	BBL               string `json:"bbl,omitempty"`
	Status            string `json:"status,omitempty"`
	ULURP             string `json:"ulurp,omitempty"`
	// CEQR is an environmental review (CEQR) number, exact ("24DCP123M").
	CEQR string `json:"ceqr,omitempty"`
	// Word is one or more words (at most MaxNameWords) of the project's
	// name, applicant, brief (its address) or keywords, all of them in any
	// order, any letter case and accents (NameWords, Tokens).
	Word string `json:"word,omitempty"`
}

// ceqrRE is the shape of a CEQR number: two digits of year, the lead
// agency's letters, digits and a borough letter ("24DCP123M").
var ceqrRE = regexp.MustCompile(`^[0-9]{2}[A-Z]{2,6}[0-9]{1,4}[A-Z]?$`)

// Summary is one project in a browse page.
type Summary struct {
	ID                 string    `json:"id"`
	URL                string    `json:"url"`
	Name               string    `json:"name"`
	PublicStatus       string    `json:"public_status,omitempty"`
	ProjectStatus      string    `json:"project_status,omitempty"`
	Procedure          string    `json:"review_procedure,omitempty"`
	ProcedureID        string    `json:"procedure_id"`
	Actions            []string  `json:"actions"`
	ULURPNumbers       []string  `json:"ulurp_numbers"`
	Stage              string    `json:"stage"`
	Effect             string    `json:"effect,omitempty"`
	Boroughs           []string  `json:"boroughs"`
	CommunityDistricts []string  `json:"community_districts"`
	Lots               int       `json:"lots"`
	Conflicts          int       `json:"conflicts"`
	LastDate           time.Time `json:"last_date,omitzero"`
	// LotPlaces place the project's lots (the first MaxLotPlaces) on a
	// map, each at the ZAP outline of the project's lots or its MapPLUTO
	// centroid, or nowhere with the reason (Service.PlaceLots fills it:
	// the list page, its JSON twin and browse_land_projects; absent in a
	// CSV or a feed).
	LotPlaces []LotPlace `json:"lot_places,omitempty"`
	lots      []Lot
}

// MaxLotPlaces bounds the lots of one project a list places.
const MaxLotPlaces = 50

// PlaceLots places the lots of each project of a page (PlaceLot, the
// outline of the project's lots first), reading the lot locations held
// for them in one bounded read; a lot no lot location places but whose
// project record carries its centroid (the land source's centroid file)
// is placed there.
func (s *Service) PlaceLots(ctx context.Context, p *Page) error {
	lots := make([][]Lot, len(p.Projects))
	for i, sm := range p.Projects {
		lots[i] = sm.lots
	}
	places, err := s.placeLots(ctx, lots)
	if err != nil {
		return err
	}
	for i := range p.Projects {
		p.Projects[i].LotPlaces = places[i]
	}
	return nil
}

// placeLots places each project's lots (the first MaxLotPlaces of each)
// in one bounded read of the lot locations held: the one rule of the list
// map (PlaceLots) and of a project read (ProjectRead.LotPlaces).
func (s *Service) placeLots(ctx context.Context, projects [][]Lot) ([][]LotPlace, error) {
	rs, _, err := s.records()
	if err != nil {
		return nil, err
	}
	var bbls []string
	for _, lots := range projects {
		for _, l := range lots[:min(len(lots), MaxLotPlaces)] {
			if !slices.Contains(bbls, l.BBL) {
				bbls = append(bbls, l.BBL)
			}
		}
	}
	held, fetched, err := LotsHeld(ctx, rs, bbls)
	if err != nil {
		return nil, err
	}
	out := make([][]LotPlace, len(projects))
	for i, lots := range projects {
		out[i] = []LotPlace{}
		for _, l := range lots[:min(len(lots), MaxLotPlaces)] {
			lp := PlaceLot(l.BBL, held[l.BBL], true, fetched)
			if lp.Kind != LocationLot && l.Centroid != nil {
				c := *l.Centroid
				lp = LotPlace{BBL: l.BBL, Kind: LocationLot, Shape: ShapePoint, Point: &c, Source: "mappluto", Method: LotMethodCentroid, Confidence: "high",
					MethodKey: LotMethodNote(LotMethodCentroid)}
			}
			out[i] = append(out[i], lp)
		}
	}
	return out, nil
}

// Page is a bounded page of projects, newest last milestone first (then
// undated, then id: a stable order the cursor walks).
type Page struct {
	Projects   []Summary      `json:"projects"`
	Total      int            `json:"total"`
	NextCursor string         `json:"next_cursor,omitempty"`
	Filters    Filter         `json:"filters"`
	Groups     map[string]int `json:"by_status"`
	Scope      record.Scope   `json:"scope"`
	// Widening is, for an empty page, the nearest non-empty one: the same
	// filters without one of them (widen).
	Widening *record.Widening `json:"widening,omitempty"`
}

var (
	boroughNames = map[string]string{
		"manhattan": "manhattan", "m": "manhattan", "mn": "manhattan", "1": "manhattan",
		"bronx": "bronx", "the_bronx": "bronx", "x": "bronx", "bx": "bronx", "2": "bronx",
		"brooklyn": "brooklyn", "k": "brooklyn", "bk": "brooklyn", "3": "brooklyn",
		"queens": "queens", "q": "queens", "qn": "queens", "4": "queens",
		"staten_island": "staten_island", "r": "staten_island", "si": "staten_island", "5": "staten_island",
		"citywide": "citywide", "y": "citywide",
	}
	actionRE = regexp.MustCompile(ActionPattern)
	bblRE    = regexp.MustCompile(BBLPattern)
)

// BoroughKey is the one key of the borough s names (any spelling a
// filter reads: names, one-letter, two-letter and digit codes, case
// folded: "manhattan" … "staten_island", "citywide"), and whether s names
// one.
func BoroughKey(s string) (string, bool) {
	b, ok := boroughNames[Token(s)]
	return b, ok
}

// BoroughSpellings are the borough values a filter documents: each
// borough's name (Staten Island, Citywide) and its one-letter and digit
// codes (M, X, K, Q, R, Y, 1-5), in that order. The filter folds case and
// also reads the two-letter codes (MN, BX …); the MCP schema lists these.
func BoroughSpellings() []string {
	var names, codes []string
	for k, b := range boroughNames {
		if k == b {
			w := strings.Fields(strings.ReplaceAll(b, "_", " "))
			for i := range w {
				w[i] = strings.ToUpper(w[i][:1]) + w[i][1:]
			}
			names = append(names, strings.Join(w, " "))
		} else if len(k) == 1 {
			codes = append(codes, strings.ToUpper(k))
		}
	}
	slices.Sort(names)
	slices.Sort(codes)
	return append(names, codes...)
}

// Query is the record query of a filter (normalized); EINVALID for a
// value that cannot match.
func (f Filter) Query() (search.RecordQuery, Filter, error) {
	keys := map[string][]string{}
	n := Filter{}
	if v := strings.TrimSpace(f.Procedure); v != "" {
		id := ProcedureIDOf(v)
		if t := Token(v); slices.Contains(ProcedureIDs(), t) || t == "unknown" {
			id = t
		}
		if id == "unknown" && Token(v) != "unknown" {
			return search.RecordQuery{}, n, record.InvalidNote("procedure", "land.error.procedure", quote(v))
		}
		keys[KeyProcedure], n.Procedure = []string{id}, id
	}
	if v := strings.ToUpper(strings.TrimSpace(f.Action)); v != "" {
		if !actionRE.MatchString(v) {
			return search.RecordQuery{}, n, record.InvalidNote("action", "land.error.action", quote(f.Action))
		}
		keys[KeyAction], n.Action = []string{v}, v
	}
	if v := Token(f.Stage); v != "" {
		if !slices.Contains(StageIDs(), v) && v != "unknown" {
			return search.RecordQuery{}, n, record.InvalidNote("stage", "land.error.stage", quote(f.Stage), strings.Join(StageIDs(), ", "))
		}
		keys[KeyStage], n.Stage = []string{v}, v
	}
	if v := Token(f.Effect); v != "" {
		keys[KeyEffect], n.Effect = []string{v}, v
	}
	if v := Token(f.Borough); v != "" {
		b, ok := boroughNames[v]
		if !ok {
			return search.RecordQuery{}, n, record.InvalidNote("borough", "land.error.borough", quote(f.Borough), strings.Join(BoroughSpellings(), ", "))
		}
		keys[KeyBorough], n.Borough = []string{b}, b
	}
	if v := strings.TrimSpace(f.CommunityDistrict); v != "" {
		cd := CommunityDistrict(v)
		if cd == "" {
			return search.RecordQuery{}, n, record.InvalidNote("community_district", "land.error.community_district", quote(v))
		}
		keys[KeyCD], n.CommunityDistrict = []string{cd}, cd
	}
	if v := strings.TrimSpace(f.BBL); v != "" {
		if !bblRE.MatchString(v) {
			return search.RecordQuery{}, n, record.InvalidNote("bbl", "land.error.bbl", quote(v))
		}
		keys[KeyBBL], n.BBL = []string{v}, v
	}
	if v := Token(f.Status); v != "" {
		keys[KeyStatus], n.Status = []string{v}, v
	}
	if v := strings.TrimSpace(f.ULURP); v != "" {
		k := ULURPKey(v)
		if k == "" {
			return search.RecordQuery{}, n, record.InvalidNote("ulurp", "land.error.ulurp", quote(v))
		}
		keys[KeyULURP], n.ULURP = []string{k}, k
	}
	if v := strings.ToUpper(strings.TrimSpace(f.CEQR)); v != "" {
		if !ceqrRE.MatchString(v) {
			return search.RecordQuery{}, n, record.InvalidNote("ceqr", "land.error.ceqr", quote(f.CEQR))
		}
		keys[KeyCEQR], n.CEQR = []string{v}, v
	}
	if v := strings.TrimSpace(f.Word); v != "" {
		ws := NameWords(v)
		if len(ws) == 0 || len(ws) > MaxNameWords {
			return search.RecordQuery{}, n, record.InvalidNote("word", "land.error.word_count", quote(v), MaxNameWords)
		}
		n.Word = strings.Join(ws, " ")
		if len(ws) == 1 { // several words are read by Browse (namedIDs)
			keys[KeyToken] = ws
		}
	}
	q := search.RecordQuery{}
	if len(keys) > 0 {
		q.Keys = keys
	}
	return q, n, nil
}

// Browse reads a bounded page of projects matching every filter: the full
// warehouse held, completed and past projects included. Errors: EINVALID
// for a bad filter, limit or cursor; EUNAVAILABLE when the engine cannot
// answer.
func (s *Service) Browse(ctx context.Context, f Filter, cursor string, limit int) (Page, error) {
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit < 1 || limit > MaxLimit {
		return Page{}, record.InvalidNote("limit", "land.error.limit", MaxLimit)
	}
	if _, _, err := f.Query(); err != nil { // a bad filter is refused before the engine is asked
		return Page{}, err
	}
	rs, cov, err := s.records()
	if err != nil {
		return Page{}, err
	}
	q, norm, err := query(ctx, rs, f)
	if err != nil {
		return Page{}, err
	}
	words := NameWords(norm.Word)
	q.Sort, q.Limit, q.Cursor = search.RecordSortDateDesc, limit, cursor
	p, err := search.Find(ctx, search.WithScope(rs, cov), ProjectKind, q)
	if err != nil {
		return Page{}, err
	}
	if len(words) > 1 { // the scope names the words, not the ids they matched
		if p.Scope.Searched.Filters != nil {
			delete(p.Scope.Searched.Filters, "id")
			p.Scope.Searched.Filters[KeyToken] = norm.Word
		}
	}
	t, err := search.TotalsOf(ctx, rs, ProjectKind, q, []string{KeyStatus}, 0)
	if err != nil {
		return Page{}, err
	}
	out := Page{Projects: []Summary{}, Total: p.Total, NextCursor: p.NextCursor, Filters: norm, Groups: map[string]int{}, Scope: p.Scope}
	if out.Total == 0 && cursor == "" {
		if out.Widening, err = widen(ctx, rs, norm); err != nil {
			return Page{}, err
		}
	}
	out.Scope.Searched.Kind = "land_projects"
	for _, b := range t.Groups[KeyStatus] {
		out.Groups[b.Value] = b.Count
	}
	for i, pr := range p.Items {
		sm := Summary{ID: pr.ID, URL: pr.URL, Name: pr.Name, PublicStatus: pr.PublicStatus, ProjectStatus: pr.ProjectStatus,
			Procedure: pr.Procedure, ProcedureID: pr.ProcedureID, Actions: []string{}, ULURPNumbers: []string{},
			Boroughs: pr.Boroughs, CommunityDistricts: pr.CommunityDistricts, Lots: len(pr.Lots), Conflicts: len(pr.Conflicts), LastDate: pr.LastDate,
			Stage: StateUnknown, lots: pr.Lots}
		if st := p.Records[i].Keys[KeyStage]; len(st) > 0 {
			sm.Stage = st[0]
		}
		for _, a := range pr.Actions {
			if !slices.Contains(sm.Actions, a.Code) && a.Code != "" {
				sm.Actions = append(sm.Actions, a.Code)
			}
			if a.ULURPNumber != "" {
				sm.ULURPNumbers = append(sm.ULURPNumbers, a.ULURPNumber)
			}
		}
		if pr.Effect != nil {
			sm.Effect = pr.Effect.Value
		}
		out.Projects = append(out.Projects, sm)
	}
	return out, nil
}
