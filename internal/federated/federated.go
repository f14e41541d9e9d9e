// Package federated is one bounded, ranked search across every registered
// collection of Recordwatch (SPEC §4.10 search_federated): City Record notices by
// full text, and agencies, community boards, vendors, registered
// contracts, land projects, meetings, people and organizations and payroll
// rows by their exact keys and names. The MCP tool search_federated and
// GET /api/search/federated are thin surfaces over Service.Search.
//
// Nothing here is a new engine: notices are read with search.Reader.Search
// and Get, record kinds with search.Find/TotalsOf over their declared
// search.Kind (keys exactly as each kind writes them), agencies with the
// crosswalk's one rule (entity.Crosswalk.ResolveName) and vendors by stem
// (entity.VendorStem). No raw store and no query language is exposed: the
// input is keywords and an optional allow-list of collections.
//
// Ranking (Ranking, the text every answer carries):
//
//  1. Tier. exact (the query is the object's id, exact name, agency short
//     form or vendor stem) before name (the object's own words match: full
//     text of a notice, every query word among an object's name words)
//     before related (the object belongs to an identity the query resolved
//     to: the contracts, payroll rows and meetings of an agency, meetings
//     announced by a matched notice, projects of a community district).
//  2. Within a tier, collections are interleaved: each collection's n-th best object
//     comes before any collection's (n+1)-th, so one large kind cannot bury the
//     others.
//  3. Then the collection's own score normalized to 0–1 (notices: engine
//     relevance divided by the best score of the search; names: the share
//     of the object's name words the query covers; keys: 1), then the collection
//     order of Collections, then the id.
//
// At most MaxDepth ranked objects are read; next_cursor pages through
// them, and each collection's coverage gives the browse route that reads every
// match of that collection.
package federated

import (
	"context"
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// Collections of a federated search, in their tie-break order.
const (
	CollectionNotices         = "notices"
	CollectionAgencies        = "agencies"
	CollectionCommunityBoards = "community_boards"
	CollectionVendors         = "vendors"
	CollectionContracts       = "contracts"
	CollectionLandProjects    = "land_projects"
	CollectionMeetings        = "meetings"
	CollectionPeople          = "people"
	CollectionPayroll         = "payroll"
	CollectionPayments        = "payments"
)

// Collections lists the registered collections: the allow-list a request
// names (the collections parameter of search_federated and
// GET /api/search/federated). A collection is a group of object kinds; it is
// not a lens (record.LensMoney …), the notice vocabulary of the site, the
// feeds and watches.
var Collections = []string{CollectionNotices, CollectionAgencies, CollectionCommunityBoards, CollectionVendors, CollectionContracts,
	CollectionLandProjects, CollectionMeetings, CollectionPeople, CollectionPayroll, CollectionPayments}

// Object kinds of results.
const (
	KindNotice         = "notice"
	KindAgency         = "agency"
	KindCommunityBoard = "community_board"
	KindVendor         = "vendor"
	KindContract       = "contract"
	KindLandProject    = "land_project"
	KindMeeting        = "meeting"
	KindPerson         = "person"
	KindOrganization   = "organization"
	KindPayrollRow     = "payroll_row"
	KindPayment        = "payment"
)

// Match tiers, strongest first.
const (
	TierExact   = "exact"
	TierName    = "name"
	TierRelated = "related"
)

var tierRank = map[string]int{TierExact: 0, TierName: 1, TierRelated: 2}

// Coverage states of a collection.
const (
	StateSearched    = "searched"     // read; its records are held
	StateNotIngested = "not_ingested" // the engine answers, but holds no record of the collection
	StateUnavailable = "unavailable"  // the engine cannot read the collection on this deployment
	StateNotInScope  = "not_in_scope" // left out by the request's collections
)

// Bounds.
const (
	DefaultLimit = 20
	MaxLimit     = 50
	// MaxDepth bounds the ranked objects one search reads (and a cursor
	// pages through).
	MaxDepth = 100
)

// Ranking is the ranking rule every answer states.
const Ranking = "Tiers first: exact (the query is the object's id, exact name, agency short form or vendor stem), then name " +
	"(notice full text; every query word among the object's name words), then related (records of an agency or vendor the query " +
	"resolved to, meetings announced by a matched notice). Within a tier the collections are interleaved, each collection's n-th best object " +
	"before any collection's (n+1)-th; then the collection's own score normalized to 0-1 (notices: relevance / best relevance; names: share of " +
	"the name's words matched; keys: 1), then collection order, then id. At most 100 ranked objects are read; each collection's browse route reads all of its matches."

// Result is one typed object of a federated search.
type Result struct {
	Rank        int       `json:"rank"`
	Kind        string    `json:"kind"`
	Collection  string    `json:"collection"`
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Date        string    `json:"date,omitempty"`
	DateLabel   string    `json:"date_label,omitempty"`
	Source      string    `json:"source"`
	SourceLabel string    `json:"source_label,omitempty"`
	ObservedAt  time.Time `json:"observed_at,omitzero"`
	Match       Match     `json:"match"`
	// Route is the object's JSON twin; Permalink its page (empty for a
	// kind with no page: payroll rows); OfficialURL the source's own
	// address when one is known.
	Route       string `json:"route"`
	Permalink   string `json:"permalink,omitempty"`
	OfficialURL string `json:"official_url,omitempty"`
	// Lens is Collection under its name before 2026-11-27.
	//
	// Deprecated: read collection (docs/api.md, Change log).
	Lens string `json:"lens" deprecated:"collection"`
	// A notice's fields as search_federated listed them flat before
	// 2026-11-24 (when results became objects of every kind), kept for
	// older readers on notice results (SPEC §9); read the notice at route.
	NoticeFields
}

// NoticeFields are a notice result's fields as search_federated gave them
// before 2026-11-24 (deprecated: read the notice at the result's route).
// Absent on results of other kinds.
type NoticeFields struct {
	RequestID  string             `json:"request_id,omitempty" deprecated:"id"`
	Section    string             `json:"section,omitempty" deprecated:"route"`
	NoticeType string             `json:"notice_type,omitempty" deprecated:"route"`
	Agency     string             `json:"agency,omitempty" deprecated:"route"`
	AgencyID   string             `json:"agency_id,omitempty" deprecated:"route"`
	Published  string             `json:"published,omitempty" deprecated:"date"`
	Deadline   *view.DeadlineView `json:"deadline,omitempty" deprecated:"route"`
	Amount     *view.AmountView   `json:"amount,omitempty" deprecated:"route"`
	Vendor     string             `json:"vendor,omitempty" deprecated:"route"`
	PIN        string             `json:"pin,omitempty" deprecated:"route"`
	EventDate  *time.Time         `json:"event_date,omitempty" deprecated:"route"`
	Summary    string             `json:"summary,omitempty" deprecated:"route"`
	Flags      []view.Flag        `json:"flags,omitempty" deprecated:"route"`
}

// Match is why a result matched and how it ranks within its collection.
type Match struct {
	Tier  string  `json:"tier"`
	Rule  string  `json:"rule"`
	Score float64 `json:"score"`
}

// CollectionCoverage is how one collection took part.
type CollectionCoverage struct {
	Collection string   `json:"collection"`
	State      string   `json:"state"`
	Kinds      []string `json:"kinds"`
	// MatchedOn says what the query is compared with in this collection.
	MatchedOn string `json:"matched_on"`
	// Matched counts every object the collection matched (Returned of them are
	// in the ranked set); a related match counts the records of the
	// resolved identity.
	Matched  int                     `json:"matched"`
	Returned int                     `json:"returned"`
	Browse   []string                `json:"browse,omitempty"`
	Sources  []record.SourceCoverage `json:"sources"`
	Note     string                  `json:"note,omitempty"`
	// Lens is Collection under its name before 2026-11-27.
	//
	// Deprecated: read collection (docs/api.md, Change log).
	Lens string `json:"lens" deprecated:"collection"`
	// Searched is whether the collection took part, as lens_coverage said
	// before 2026-11-24 (deprecated: read state).
	Searched bool `json:"searched" deprecated:"state"`
}

// Understood is how the query was read for the key collections.
type Understood struct {
	Words      []string            `json:"words"`
	Excluded   []string            `json:"excluded,omitempty"`
	Agencies   []entity.Resolution `json:"agencies"`
	VendorStem string              `json:"vendor_stem,omitempty"`
}

// Page is one page of a federated search.
type Page struct {
	Query   string   `json:"q"`
	Results []Result `json:"results"`
	// Ranked counts the objects ranked for this page: each collection reads up
	// to offset+limit of its best objects, and at most MaxDepth are kept.
	Ranked int `json:"ranked"`
	// Total is the sum of the collections' matched counts.
	Total      int                  `json:"total"`
	NextCursor string               `json:"next_cursor,omitempty"`
	Coverage   []CollectionCoverage `json:"collection_coverage"`
	Understood Understood           `json:"understood_as"`
	Ranking    string               `json:"ranking"`
	Scope      record.Scope         `json:"scope"`
	// LensCoverage is Coverage under its name before 2026-11-27 (the same
	// entries; scope.searched.lenses, too, lists the collections searched,
	// as scope.searched.filters.collections does).
	//
	// Deprecated: read collection_coverage (docs/api.md, Change log).
	LensCoverage []CollectionCoverage `json:"lens_coverage" deprecated:"collection_coverage"`
}

// withAliases fills the page's deprecated aliases from the fields that
// replaced them: lens beside collection, lens_coverage beside
// collection_coverage (SPEC §9: existing reads keep working).
func (p Page) withAliases() Page {
	for i := range p.Results {
		p.Results[i].Lens = p.Results[i].Collection
	}
	for i := range p.Coverage {
		p.Coverage[i].Lens = p.Coverage[i].Collection
		p.Coverage[i].Searched = p.Coverage[i].State == StateSearched
	}
	p.LensCoverage = p.Coverage
	return p
}

// Request is one federated search.
type Request struct {
	Q           string
	Collections []string
	Limit       int
	Cursor      string
}

// Service answers federated searches. Notices is the notice engine (nil:
// the notice collection is unavailable); Records its record store (nil: every
// record collection is unavailable); Links builds permalinks (Base, Form).
type Service struct {
	Notices   search.Reader
	Records   search.Records
	Crosswalk *entity.Crosswalk
	Links     view.Links
	// Now is the clock of notice results' deadlines and flags (nil:
	// time.Now).
	Now func() time.Time
}

// New builds a service over an engine's notices and records, with its
// clock (nil: time.Now).
func New(e search.NoticesAndRecords, cw *entity.Crosswalk, links view.Links, now func() time.Time) *Service {
	return &Service{Notices: e, Records: e, Crosswalk: cw, Links: links, Now: now}
}

// CheckCollections validates a collections allow-list: the ones it names, deduplicated, in
// Collections order (every collection when it names none; blank names are ignored).
// EINVALID names the allowed ones.
func CheckCollections(scope []string) ([]string, error) {
	scope = slices.DeleteFunc(slices.Clone(scope), func(l string) bool { return strings.TrimSpace(l) == "" })
	if len(scope) == 0 {
		return slices.Clone(Collections), nil
	}
	var out []string
	for _, l := range scope {
		l = strings.TrimSpace(l)
		if !slices.Contains(Collections, l) {
			return nil, record.InvalidNote("collections", "param.federated.collection", strconv.Quote(l), strings.Join(Collections, ", "))
		}
	}
	for _, l := range Collections {
		for _, s := range scope {
			if strings.TrimSpace(s) == l && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return out, nil
}

// cand is a result before ranking.
type cand struct {
	Result
	tier        int
	pos         int // position within its collection and tier
	collectionI int
}

// collectionOut is what one collection found.
type collectionOut struct {
	cands   []cand
	matched int
	note    string
	browse  []string
	// dups are the reads of an object already matched; dropped those
	// whose title holds an excluded word: neither counts as matched
	dups, dropped int
}

// Search runs a federated search. Errors: EINVALID for empty or malformed
// keywords, an unknown collection, a bad limit or cursor; EUNAVAILABLE only when
// no collection can be read at all (a collection that cannot is reported unavailable
// in its coverage).
func (s *Service) Search(ctx context.Context, req Request) (Page, error) {
	collections, err := CheckCollections(req.Collections)
	if err != nil {
		return Page{}, err
	}
	limit := req.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit < 1 || limit > MaxLimit {
		return Page{}, record.InvalidNote("limit", "param.limit", "limit", MaxLimit)
	}
	k, err := search.ParseKeywords(req.Q)
	if err != nil {
		return Page{}, err
	}
	if k.Empty() {
		return Page{}, record.InvalidNote("q", "param.federated.q")
	}
	offset, err := decodeCursor(req.Cursor, req.Q, collections)
	if err != nil {
		return Page{}, err
	}
	depth := min(offset+limit, MaxDepth)
	if offset >= MaxDepth {
		return Page{}, record.InvalidNote("cursor", "param.federated.depth", MaxDepth)
	}
	u := s.understand(req.Q, k)
	r := &run{s: s, u: u, k: k, q: req.Q, depth: depth}
	outs := map[string]*collectionOut{}
	errs := map[string]error{}
	// notices first: the vendor, contract, land and meeting collections read
	// the notices it matched
	order := []string{CollectionNotices, CollectionContracts, CollectionAgencies, CollectionCommunityBoards, CollectionVendors, CollectionLandProjects, CollectionMeetings, CollectionPeople, CollectionPayroll, CollectionPayments}
	for _, l := range order {
		if !slices.Contains(collections, l) {
			continue
		}
		o, err := r.collection(ctx, l)
		if err != nil {
			if record.ErrorCode(err) != record.EUNAVAILABLE {
				return Page{}, err
			}
			errs[l] = err
			continue
		}
		o.matched = max(o.matched-o.dups-o.dropped, len(o.cands))
		outs[l] = o
	}
	cov, kindCov, err := s.coverage(ctx)
	if err != nil && record.ErrorCode(err) != record.EUNAVAILABLE {
		return Page{}, err
	}
	all := rank(outs)
	page := Page{Query: req.Q, Results: []Result{}, Ranked: min(len(all), MaxDepth), Understood: u, Ranking: Ranking}
	for _, o := range outs {
		page.Total += o.matched
	}
	if offset < len(all) {
		end := min(offset+limit, len(all))
		for _, c := range all[offset:end] {
			page.Results = append(page.Results, c.Result)
		}
		if end < len(all) && end < MaxDepth {
			page.NextCursor = encodeCursor(end, req.Q, collections)
		}
	}
	returned := map[string]int{}
	for _, c := range all {
		returned[c.Collection]++
	}
	for _, l := range Collections {
		lc := CollectionCoverage{Collection: l, Kinds: collectionKinds[l], MatchedOn: matchedOn[l], Sources: collectionSources(l, kindCov)}
		switch {
		case !slices.Contains(collections, l):
			lc.State, lc.Note = StateNotInScope, "not among the requested collections"
		case errs[l] != nil:
			lc.State, lc.Note = StateUnavailable, record.ErrorMessage(errs[l])
		default:
			o := outs[l]
			lc.State, lc.Matched, lc.Returned, lc.Browse, lc.Note = StateSearched, o.matched, returned[l], o.browse, o.note
			if !held(l, lc.Sources) {
				lc.State = StateNotIngested
				lc.Note = "no record of this collection is held on this deployment: nothing was ingested, which says nothing about the source"
			} else if o.matched == 0 && lc.Note == "" {
				lc.Note = "no match in this collection; that does not mean no record exists"
			}
		}
		if lc.Sources == nil {
			lc.Sources = []record.SourceCoverage{}
		}
		if lc.Browse == nil {
			lc.Browse = []string{}
		}
		page.Coverage = append(page.Coverage, lc)
	}
	if len(outs) == 0 {
		return page, record.Errorf(record.EUNAVAILABLE, "no collection of the federated search can be read on this deployment")
	}
	searched := record.Searched{Kind: "federated", Query: req.Q, Terms: k.Terms, Phrases: k.Phrases, Excluded: k.Excluded,
		Synonyms: k.Synonyms, Filters: map[string]string{"collections": strings.Join(collections, ",")}, Lenses: collections, Sort: "federated"}
	page.Scope = record.NewScope(searched, cov, page.Total)
	return page.withAliases(), nil
}

// coverage reads the engine's coverage once: merged as every scope
// lists it (search.WithScope), and by exact kind (a collection reads one kind,
// not a scope record type that merges two).
func (s *Service) coverage(ctx context.Context) (merged, byKind []record.SourceCoverage, err error) {
	var notices []record.SourceCoverage
	if s.Notices != nil {
		if notices, err = s.Notices.Coverage(ctx); err != nil {
			return nil, nil, err
		}
	}
	if s.Records == nil {
		if s.Notices == nil {
			return nil, nil, record.Errorf(record.EUNAVAILABLE, "no search engine")
		}
		return notices, notices, nil
	}
	rc := &heldCoverage{Records: s.Records}
	if merged, err = search.WithScope(rc, heldNotices(notices)).Coverage(ctx); err != nil {
		return nil, nil, err
	}
	return merged, append(slices.Clone(notices), rc.cov...), nil
}

// heldCoverage is Records whose coverage is read once.
type heldCoverage struct {
	search.Records
	cov []record.SourceCoverage
}

func (h *heldCoverage) RecordCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	if h.cov == nil {
		cov, err := h.Records.RecordCoverage(ctx)
		if err != nil {
			return nil, err
		}
		h.cov = search.SourceCoverage(cov)
	}
	return h.cov, nil
}

// heldNotices is notice coverage already read.
type heldNotices []record.SourceCoverage

func (h heldNotices) Coverage(context.Context) ([]record.SourceCoverage, error) { return h, nil }

// rank orders every candidate by the ranking rule, numbers them and keeps
// the first MaxDepth.
func rank(outs map[string]*collectionOut) []cand {
	var all []cand
	for li, l := range Collections {
		o := outs[l]
		if o == nil {
			continue
		}
		// the collection's own order: tier, then score desc, then its read order
		cs := slices.Clone(o.cands)
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].tier != cs[j].tier {
				return cs[i].tier < cs[j].tier
			}
			return cs[i].Match.Score > cs[j].Match.Score
		})
		pos := map[int]int{}
		for _, c := range cs {
			c.pos = pos[c.tier]
			pos[c.tier]++
			c.collectionI = li
			all = append(all, c)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.tier != b.tier {
			return a.tier < b.tier
		}
		if a.pos != b.pos {
			return a.pos < b.pos
		}
		if a.Match.Score != b.Match.Score {
			return a.Match.Score > b.Match.Score
		}
		if a.collectionI != b.collectionI {
			return a.collectionI < b.collectionI
		}
		return a.ID < b.ID
	})
	if len(all) > MaxDepth {
		all = all[:MaxDepth]
	}
	for i := range all {
		all[i].Rank = i + 1
	}
	return all
}

// cursorSort ties a cursor to its query and scope.
func cursorSort(q string, collections []string) string {
	h := fnv.New64a()
	h.Write([]byte(q + "\x00" + strings.Join(collections, ",")))
	return "federated:" + strconv.FormatUint(h.Sum64(), 36)
}

func encodeCursor(offset int, q string, collections []string) string {
	return search.EncodeCursor(cursorSort(q, collections), []string{strconv.Itoa(offset)})
}

func decodeCursor(c, q string, collections []string) (int, error) {
	if c == "" {
		return 0, nil
	}
	vs, err := search.DecodeCursor(cursorSort(q, collections), c)
	if err != nil || len(vs) != 1 {
		return 0, record.InvalidNote("cursor", "param.federated.cursor_other")
	}
	n, err := strconv.Atoi(vs[0])
	if err != nil || n < 0 {
		return 0, record.InvalidNote("cursor", "param.federated.cursor_bad")
	}
	return n, nil
}

// day formats a date as a New York day.
func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(record.NewYork).Format("2006-01-02")
}

// noticeFields are a notice's deprecated flat fields, as the notice is
// shown in every result list (view.Links.Hit).
func (s *Service) noticeFields(n record.Notice) NoticeFields {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	h := s.Links.Hit(n, 0, now())
	return NoticeFields{RequestID: h.RequestID, Section: h.Section, NoticeType: h.NoticeType, Agency: h.Agency, AgencyID: h.AgencyID,
		Published: h.Published, Deadline: h.Deadline, Amount: h.Amount, Vendor: h.Vendor, PIN: h.PIN, EventDate: h.EventDate,
		Summary: h.Summary, Flags: h.Flags}
}
