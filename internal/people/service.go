package people

import (
	"context"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Service reads people and organization rows, agency leaders, attributed
// disagreements and civil-service records through the search.Records seam.
//
// Payroll: payroll positions (positions held by agency and title, names
// only as the public dataset prints them) are another record kind
// (procure.PayrollKind), built by its own source. Positions (payroll.go)
// reads them by agency_id (search.KeyAgencyID) with search.TotalsOf
// grouped by fiscal year and title, and they sit beside Civil on an
// organization; nothing in this package infers a person from a payroll
// name.
type Service struct {
	// Search reads the notice coverage every scope lists (nil: none).
	Search search.Reader
	// Records holds the rows; nil answers EUNAVAILABLE.
	Records   search.RecordReader
	Crosswalk *entity.Crosswalk
}

// Engine is what the service reads of a search engine: the notice
// coverage and the records.
type Engine interface {
	search.Reader
	search.RecordReader
}

// New builds a service over an engine.
func New(e Engine, cw *entity.Crosswalk) *Service {
	return &Service{Search: e, Records: e, Crosswalk: cw}
}

// Read bounds.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	// MaxReleases bounds the releases one id or agency returns.
	MaxReleases = 20
	maxIDLen    = 300
)

func (s *Service) records() (search.RecordReader, error) {
	if s == nil || s.Records == nil {
		return nil, record.NoteError(record.EUNAVAILABLE, "", record.N("people.error.unavailable"))
	}
	return s.Records, nil
}

// RowRead is one exact typed row: the newest release holding the id, and
// every release holding it (newest first, at most MaxReleases), each with
// its date.
type RowRead struct {
	Row           Row   `json:"row"`
	Releases      []Row `json:"releases"`
	ReleasesTotal int   `json:"releases_total"`
	// Sources are the sources the answer is built from (the releases' own
	// sources; for an organization, every payroll source its positions
	// are read from), each with its coverage and freshness as every scope
	// states them (search.SourcesBehind).
	Sources []record.SourceCoverage `json:"sources"`
}

// Get reads one row by its exact id (as given: no case folding, no
// decoding). Errors: EINVALID for an empty or overlong id, ENOTFOUND when
// no row has it, EUNAVAILABLE when the engine cannot answer.
func (s *Service) Get(ctx context.Context, id string) (RowRead, error) {
	if strings.TrimSpace(id) == "" {
		return RowRead{}, record.InvalidNote("id", "people.error.id_required")
	}
	if len(id) > maxIDLen {
		return RowRead{}, record.InvalidNote("id", "people.error.id_length", maxIDLen)
	}
	rs, err := s.records()
	if err != nil {
		return RowRead{}, err
	}
	p, err := search.Find(ctx, rs, Kind, search.RecordQuery{Keys: map[string][]string{KeyRowID: {id}}, Sort: search.RecordSortDateDesc, Limit: MaxReleases})
	if err != nil {
		return RowRead{}, err
	}
	if len(p.Items) == 0 {
		return RowRead{}, record.NoteError(record.ENOTFOUND, "", record.N("people.error.not_found", strconv.Quote(id)))
	}
	out := RowRead{Row: p.Items[0], Releases: p.Items, ReleasesTotal: p.Total}
	var behind []search.Behind
	for _, r := range p.Records {
		behind = append(behind, search.Behind{Kind: r.Kind, Source: r.Source})
	}
	if out.Row.Type == TypeOrganization { // every surface shows its payroll positions (Positions)
		behind = append(behind, search.Behind{Kind: procure.PayrollKind.Name})
	}
	out.Sources, err = search.SourcesBehind(ctx, rs, s.Search, behind...)
	return out, err
}

// Filter narrows a browse: every set field must match exactly. Type is
// person or organization; Token one word of a name, acronym or name
// variant (Token form); Agency a crosswalk agency (label, name or id) the
// organization is; Release a release date (YYYY-MM-DD; the newest release
// held when empty).
type Filter struct {
	Type    string
	Token   string
	Agency  string
	Release string
}

// Freshness is how fresh the snapshot is: the release it reads, the
// releases held, and when the read model was last written.
type Freshness struct {
	Release       string    `json:"release"`
	ReleaseAsOf   string    `json:"release_as_of"`
	ReleasesHeld  []string  `json:"releases_held"`
	ReadModelAt   time.Time `json:"read_model_observed_at,omitzero"`
	Note          string    `json:"note"`
	SnapshotBound int       `json:"snapshot_bound"`
}

// Page is a bounded page of a snapshot (one release), in id order.
type Page struct {
	Rows       []Row        `json:"rows"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Filters    Applied      `json:"filters"`
	Freshness  Freshness    `json:"freshness"`
	Scope      record.Scope `json:"scope"`
}

// Applied are the filters a browse applied, as matched.
type Applied struct {
	Type     string `json:"row_type,omitempty"`
	Token    string `json:"token,omitempty"`
	AgencyID string `json:"agency_id,omitempty"`
	Release  string `json:"release"`
}

var dayRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Browse reads a bounded page of one release's rows, in row-id order (a
// cursor walks it without gaps or repeats). Errors: EINVALID for a bad
// filter, limit or cursor; EUNAVAILABLE when the engine cannot answer.
func (s *Service) Browse(ctx context.Context, f Filter, cursor string, limit int) (Page, error) {
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit < 1 || limit > MaxLimit {
		return Page{}, record.InvalidNote("limit", "param.limit", "limit", MaxLimit)
	}
	keys := map[string][]string{}
	var applied Applied
	switch t := strings.TrimSpace(f.Type); t {
	case "":
	case TypePerson, TypeOrganization:
		keys[KeyRowType], applied.Type = []string{t}, t
	default:
		return Page{}, record.InvalidNote("row_type", "param.row_type", "row_type", strconv.Quote(f.Type))
	}
	if v := strings.TrimSpace(f.Token); v != "" {
		if strings.ContainsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' }) {
			return Page{}, record.InvalidNote("token", "param.token.word", strconv.Quote(v))
		}
		t := Token(v)
		if t == "" {
			return Page{}, record.InvalidNote("token", "param.token.empty", strconv.Quote(v))
		}
		keys[KeyToken], applied.Token = []string{t}, t
	}
	if a := strings.TrimSpace(f.Agency); a != "" {
		ids, _, err := s.Crosswalk.ResolveNames("agency", []string{a})
		if err != nil {
			return Page{}, err
		}
		keys[KeyAgencyID] = ids
		applied.AgencyID = strings.Join(ids, ",")
	}
	if r := strings.TrimSpace(f.Release); r != "" && r != DateUnknown && !dayRE.MatchString(r) {
		return Page{}, record.InvalidNote("release", "param.release", strconv.Quote(r))
	}
	rs, err := s.records()
	if err != nil {
		return Page{}, err
	}
	held, err := s.releases(ctx, rs)
	if err != nil {
		return Page{}, err
	}
	applied.Release = strings.TrimSpace(f.Release)
	if applied.Release == "" && len(held) > 0 {
		applied.Release = held[0]
	}
	if applied.Release != "" {
		keys[KeyRelease] = []string{applied.Release}
	}
	q := search.RecordQuery{Keys: keys, Sort: search.RecordSortID, Limit: limit, Cursor: cursor}
	var notices search.CoverageReader
	if s.Search != nil {
		notices = s.Search
	}
	p, err := search.Find(ctx, search.WithScope(rs, notices), Kind, q)
	if err != nil {
		return Page{}, err
	}
	out := Page{Rows: p.Items, Total: p.Total, NextCursor: p.NextCursor, Filters: applied, Scope: p.Scope}
	if out.Rows == nil {
		out.Rows = []Row{}
	}
	out.Scope.Searched.Kind = "people_and_organizations"
	out.Freshness = Freshness{Release: applied.Release, ReleasesHeld: held, SnapshotBound: MaxLimit,
		Note: "A snapshot of one dated roster release: it lists who was printed as of the release date, not who holds a role now."}
	if out.Freshness.ReleasesHeld == nil {
		out.Freshness.ReleasesHeld = []string{}
	}
	if len(p.Items) > 0 {
		out.Freshness.ReleaseAsOf = p.Items[0].Release.AsOf()
	} else if applied.Release != "" {
		out.Freshness.ReleaseAsOf = Release{Date: applied.Release, DateKind: DatePublished}.AsOf()
	}
	for _, c := range p.Scope.Sources {
		if (c.RecordType == "person" || c.RecordType == "organization") && c.ObservedAt.After(out.Freshness.ReadModelAt) {
			out.Freshness.ReadModelAt = c.ObservedAt
		}
	}
	if len(held) == 0 {
		out.Freshness.Note = "No roster release is held: the snapshot is empty because nothing was loaded, not because no organization exists."
	} else if out.Freshness.ReadModelAt.IsZero() {
		out.Freshness.Note += " The release files do not say when they were observed, so no read-model observation time is given."
	}
	return out, nil
}

// releases lists the release dates held, newest first ("unknown" last).
func (s *Service) releases(ctx context.Context, rs search.RecordReader) ([]string, error) {
	t, err := search.TotalsOf(ctx, rs, Kind, search.RecordQuery{}, []string{KeyRelease}, 0)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, b := range t.Groups[KeyRelease] {
		out = append(out, b.Value)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i] == DateUnknown) != (out[j] == DateUnknown) {
			return out[j] == DateUnknown
		}
		return out[i] > out[j]
	})
	return out, nil
}
