package api

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// NotOfficialRegistry is stated by every /agencies answer (SPEC §1).
const NotOfficialRegistry = "This agency crosswalk is not an official agency registry. It links the agency names written in the public records held here to canonical ids made by Recordwatch; the source records stay authoritative."

// AgencyRow is one row of GET /agencies (SPEC §2.1): one distinct raw
// agency string as written in a source.
type AgencyRow struct {
	RawString     string   `json:"raw_string"`
	CanonicalID   string   `json:"canonical_id"`
	CanonicalName string   `json:"canonical_name"`
	Variants      []string `json:"variants"`
	Method        string   `json:"method"`
	Note          string   `json:"note,omitempty"`
	Sources       []string `json:"sources"`
	Records       int      `json:"records"`
}

// AgenciesResponse is the JSON answer of GET /agencies.
type AgenciesResponse struct {
	Notice            string            `json:"notice"`
	Count             int               `json:"count"`
	CanonicalAgencies int               `json:"canonical_agencies"`
	LinksByMethod     map[string]int    `json:"links_by_method"`
	Rows              []AgencyRow       `json:"rows"`
	Methods           map[string]string `json:"methods"`
	Scope             record.Scope      `json:"scope"`
	Links             map[string]string `json:"links"`
}

var methodMeaning = map[string]string{
	entity.MethodExact:  "the raw string is the canonical name",
	entity.MethodKey:    "same comparison key as the canonical name (case, punctuation, accents, & and apostrophes folded)",
	entity.MethodShort:  "a reviewed short form, former name or official variant in the mapping file",
	entity.MethodFamily: "an administrative family rule (community boards, CUNY colleges, Board of Elections units, Public Administrators, Department of Education payroll groups)",
	entity.MethodOwn:    "not in the reviewed mapping: the spelling has its own id until the mapping is updated",
}

// agencyRows builds the crosswalk rows from the raw strings the backend
// holds.
func (s *Server) agencyRows(names []search.AgencyName) ([]AgencyRow, map[string]int) {
	type acc struct {
		sources map[string]bool
		records int
	}
	by := map[string]*acc{}
	for _, n := range names {
		a := by[n.Raw]
		if a == nil {
			a = &acc{sources: map[string]bool{}}
			by[n.Raw] = a
		}
		a.sources[n.Source] = true
		a.records += n.Records
	}
	rows := make([]AgencyRow, 0, len(by))
	variants := map[string][]string{}
	for raw, a := range by {
		l := s.deps.Crosswalk.Resolve(raw)
		srcs := make([]string, 0, len(a.sources))
		for src := range a.sources {
			srcs = append(srcs, src)
		}
		sort.Strings(srcs)
		rows = append(rows, AgencyRow{RawString: raw, CanonicalID: l.ID, CanonicalName: l.Name, Method: l.Method, Note: l.Note,
			Sources: srcs, Records: a.records})
		variants[l.ID] = append(variants[l.ID], raw)
	}
	methods := map[string]int{}
	for i := range rows {
		v := variants[rows[i].CanonicalID]
		sort.Strings(v)
		rows[i].Variants = v
		methods[rows[i].Method]++
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].CanonicalID != rows[j].CanonicalID {
			return rows[i].CanonicalID < rows[j].CanonicalID
		}
		return rows[i].RawString < rows[j].RawString
	})
	return rows, methods
}

func corsAnyOrigin(c *gin.Context) {
	c.Header("Access-Control-Allow-Origin", "*")
	c.Header("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
	c.Header("Access-Control-Expose-Headers", "ETag, Last-Modified, X-Recordwatch-Notice")
}

func (s *Server) agenciesPreflight(c *gin.Context) {
	corsAnyOrigin(c)
	c.Header("Access-Control-Max-Age", "86400")
	c.Header("Cache-Control", "public, max-age=86400")
	c.Status(http.StatusNoContent)
}

// agencies is GET /agencies: every raw agency string held, with its
// canonical id and name and the variants sharing the id; ?format=csv gives
// the same rows as CSV (variants and sources joined by " | ").
func (s *Server) agencies(c *gin.Context) {
	corsAnyOrigin(c)
	c.Header("X-Recordwatch-Notice", NotOfficialRegistry)
	p := newParams(c.Request.URL.Query(), "format")
	format := strings.ToLower(p.str("format"))
	if p.err == nil && format != "" && format != "json" && format != "csv" {
		p.fail(record.Invalid("format", "format must be json or csv"))
	}
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	er, err := s.entityReader()
	if err != nil {
		writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	names, err := er.AgencyNames(ctx)
	if err != nil {
		writeError(c, err)
		return
	}
	rows, methods := s.agencyRows(names)
	scope, err := s.entityScope(ctx, er, "agency_crosswalk", nil, len(rows))
	if err != nil {
		writeError(c, err)
		return
	}
	if format == "csv" {
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		_ = w.Write([]string{"raw_string", "canonical_id", "canonical_name", "variants", "method", "note", "sources", "records"})
		for _, r := range rows {
			_ = w.Write([]string{r.RawString, r.CanonicalID, r.CanonicalName, strings.Join(r.Variants, " | "), r.Method, r.Note,
				strings.Join(r.Sources, " | "), strconv.Itoa(r.Records)})
		}
		w.Flush()
		c.Header("Content-Disposition", `inline; filename="recordwatch-agency-crosswalk-not-an-official-registry.csv"`)
		render(c, http.StatusOK, "text/csv; charset=utf-8", buf.Bytes(), CacheAgencies, scope.CorpusObservedAt)
		return
	}
	out := AgenciesResponse{
		Notice: NotOfficialRegistry, Count: len(rows), CanonicalAgencies: countCanonical(rows), LinksByMethod: methods,
		Rows: rows, Methods: methodMeaning, Scope: scope,
		Links: map[string]string{
			"self":    s.cfg.BaseURL + "/agencies",
			"csv":     s.cfg.BaseURL + "/agencies?format=csv",
			"profile": s.cfg.BaseURL + "/api/agencies/{canonical_id}",
		},
	}
	renderJSON(c, http.StatusOK, out, CacheAgencies, scope.CorpusObservedAt)
}

func countCanonical(rows []AgencyRow) int {
	ids := map[string]bool{}
	for _, r := range rows {
		ids[r.CanonicalID] = true
	}
	return len(ids)
}

// AgencyProfile is the JSON twin of an agency profile.
type AgencyProfile struct {
	Status    record.Availability `json:"status"`
	ID        string              `json:"id"`
	Name      string              `json:"name"`
	Acronyms  []string            `json:"acronyms,omitempty"`
	NYCGOID   string              `json:"nycgo_id,omitempty"`
	InMapping bool                `json:"in_reviewed_mapping"`
	Variants  []AgencyRow         `json:"variants"`
	Notices   AgencyNotices       `json:"notices"`
	Awards    AwardsView          `json:"awards"`
	Payments  *PaymentsView       `json:"payments"`
	Links     map[string]string   `json:"links"`
	Scope     record.Scope        `json:"scope"`
	Absence   []string            `json:"absence_notes"`
}

// AgencyNotices counts an agency's notices by lens, type and year.
type AgencyNotices struct {
	Total  int                 `json:"total"`
	ByLens []search.FacetCount `json:"by_lens"`
	ByType []search.FacetCount `json:"by_type"`
	ByYear []search.FacetCount `json:"by_year"`
	First  string              `json:"first,omitempty"`
	Last   string              `json:"last,omitempty"`
	Recent []HitView           `json:"recent"`
	More   string              `json:"more"`
}

// AwardsView sums award and intent notices: valid amounts only.
type AwardsView struct {
	Total                  int               `json:"total"`
	ValidAmounts           int               `json:"valid_amounts"`
	ExcludedInvalidAmounts int               `json:"without_valid_amount"`
	Amount                 MoneyView         `json:"amount"`
	First                  string            `json:"first,omitempty"`
	Last                   string            `json:"last,omitempty"`
	ByFiscalYear           []FiscalYearTotal `json:"by_fiscal_year"`
	TopVendors             []VendorTotal     `json:"top_vendors,omitempty"`
	Agencies               []AgencyTotal     `json:"agencies,omitempty"`
	Notices                []HitView         `json:"notices,omitempty"`
	More                   string            `json:"more"`
	Note                   string            `json:"note"`
}

// VendorTotal is one vendor stem's awards.
type VendorTotal struct {
	Stem    string    `json:"stem"`
	Count   int       `json:"count"`
	Amount  MoneyView `json:"amount"`
	Profile string    `json:"profile"`
}

// AgencyTotal is one agency's awards.
type AgencyTotal struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Count   int       `json:"count"`
	Amount  MoneyView `json:"amount"`
	Profile string    `json:"profile"`
}

// AwardsNote says what award totals measure.
const AwardsNote = "Award totals sum the valid amounts of award and intent notices in the City Record as held here, by fiscal year of publication (July–June, named for the year it ends). Placeholder amounts (-1, 0), entry errors and missing amounts are excluded and counted under without_valid_amount."

func (s *Server) awardsView(t search.Totals, q url.Values) AwardsView {
	a := AwardsView{Total: t.Count, ValidAmounts: t.ValidAmounts, ExcludedInvalidAmounts: t.Count - t.ValidAmounts,
		Amount: moneyView(t.Amount), First: entityDay(t.First), Last: entityDay(t.Last), ByFiscalYear: fiscalYears(t.Groups[search.GroupFiscalYear]),
		More: s.searchURL(q), Note: AwardsNote}
	for _, b := range t.Groups[search.GroupVendorStem] {
		a.TopVendors = append(a.TopVendors, VendorTotal{Stem: b.Value, Count: b.Count, Amount: moneyView(b.Amount), Profile: s.vendorLink(b.Value, "")})
	}
	for _, b := range t.Groups[search.GroupAgencyID] {
		name := b.Value
		if ag, ok := s.deps.Crosswalk.Agency(b.Value); ok {
			name = ag.Name
		}
		a.Agencies = append(a.Agencies, AgencyTotal{ID: b.Value, Name: name, Count: b.Count, Amount: moneyView(b.Amount), Profile: s.agencyLink(b.Value, name)})
	}
	return a
}

// resolveAgency turns a path value (a canonical id, or a name in Form 2)
// into a canonical id and name.
func (s *Server) agencyFromPath(v string) (id, name string, inMapping bool) {
	v = strings.TrimSpace(v)
	if ag, ok := s.deps.Crosswalk.Agency(v); ok {
		return ag.ID, ag.Name, true
	}
	if agencyIDRE.MatchString(v) {
		return v, v, false
	}
	l := s.deps.Crosswalk.Resolve(v)
	_, ok := s.deps.Crosswalk.Agency(l.ID)
	return l.ID, l.Name, ok
}

// agencyProfile is GET /api/agencies/:id.
func (s *Server) agencyProfile(c *gin.Context) {
	prof, err := s.buildAgencyProfile(c)
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, prof, CacheProfiles, prof.Scope.CorpusObservedAt)
}

func (s *Server) buildAgencyProfile(c *gin.Context) (*AgencyProfile, error) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		return nil, err
	}
	return s.AgencyDossier(c.Request.Context(), pathValue(c, "id"))
}

// AgencyDossier builds the profile for a name, slug or id as a path would carry it;
// the MCP dossier and relationship tools read profiles through it.
func (s *Server) AgencyDossier(ctx context.Context, pathArg string) (*AgencyProfile, error) {
	id, name, inMapping := s.agencyFromPath(pathArg)
	er, err := s.entityReader()
	if err != nil {
		return nil, err
	}
	res, err := s.deps.Search.Search(ctx, search.Query{AgencyIDs: []string{id}, Sort: search.SortNewest, Limit: 10, Facets: true})
	if err != nil {
		return nil, err
	}
	awards, err := er.NoticeTotals(ctx, search.Query{AgencyIDs: []string{id}, NoticeTypes: AwardTypes},
		[]string{search.GroupVendorStem, search.GroupFiscalYear}, 10)
	if err != nil {
		return nil, err
	}
	all, err := er.NoticeTotals(ctx, search.Query{AgencyIDs: []string{id}}, nil, 0)
	if err != nil {
		return nil, err
	}
	pay, err := er.Entries(ctx, search.EntryQuery{AgencyIDs: []string{id}, Kinds: []string{search.EntryContract, search.EntryPayment, search.EntryPayroll},
		Totals: true, Limit: 20})
	if err != nil {
		return nil, err
	}
	names, err := er.AgencyNames(ctx)
	if err != nil {
		return nil, err
	}
	if res.Total == 0 && pay.Total == 0 && !inMapping {
		return nil, &record.Error{Code: record.ENOTFOUND, Param: "id",
			Message: "no agency with id " + strconv.Quote(id) + " is in the crosswalk or the records held here; GET /agencies lists the ids. A search may still find mentions: " +
				s.searchURL(url.Values{"q": {pathArg}})}
	}
	rows, _ := s.agencyRows(names)
	variants := []AgencyRow{}
	for _, r := range rows {
		if r.CanonicalID == id {
			variants = append(variants, r)
		}
	}
	scope, err := s.entityScope(ctx, er, "agency_profile", map[string]string{"agency": id}, res.Total+pay.Total)
	if err != nil {
		return nil, err
	}
	prof := &AgencyProfile{Status: record.Found, ID: id, Name: name, InMapping: inMapping, Variants: variants, Scope: scope,
		Links: map[string]string{
			"self":      s.cfg.BaseURL + "/api/agencies/" + pathEscape(id),
			"permalink": s.agencyLink(id, name),
			"crosswalk": s.cfg.BaseURL + "/agencies",
			"search":    s.searchURL(url.Values{"agency": {id}}),
		}}
	if ag, ok := s.deps.Crosswalk.Agency(id); ok {
		prof.Acronyms, prof.NYCGOID = ag.Acronyms, ag.NYCGOID
	}
	now := s.deps.Now()
	prof.Notices = AgencyNotices{Total: res.Total, ByLens: nonNilFacets(res.Facets[search.FacetLens]), ByType: nonNilFacets(res.Facets[search.FacetType]),
		ByYear: nonNilFacets(res.Facets[search.FacetYear]), First: entityDay(all.First), Last: entityDay(all.Last), Recent: []HitView{},
		More: s.searchURL(url.Values{"agency": {id}, "sort": {"newest"}})}
	for _, h := range res.Hits {
		prof.Notices.Recent = append(prof.Notices.Recent, s.hitView(h.Notice, 0, now))
	}
	prof.Awards = s.awardsView(awards, url.Values{"agency": {id}, "type": {strings.Join(AwardTypes, ",")}, "sort": {"newest"}})
	prof.Payments = s.paymentsView(pay, 20)
	prof.Absence = []string{
		"Counts cover the City Record notices and payments-dataset records held here (see scope); no count proves that the agency has no other records.",
	}
	if res.Total == 0 {
		prof.Absence = append(prof.Absence, "No City Record notice held here names this agency; the official City Record may still have some.")
	}
	if pay.Total == 0 {
		prof.Absence = append(prof.Absence, "No payments-dataset record held here names this agency; Checkbook NYC may still have some.")
	}
	if len(variants) == 0 {
		prof.Absence = append(prof.Absence, "No source spelling of this agency is held yet; the id comes from the reviewed mapping.")
	}
	return prof, nil
}

func nonNilFacets(fc []search.FacetCount) []search.FacetCount {
	if fc == nil {
		return []search.FacetCount{}
	}
	return fc
}
