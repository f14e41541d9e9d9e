package api

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// NotOfficialRegistry is stated by every /agencies answer (SPEC §1).
const NotOfficialRegistry = "This agency crosswalk is not an official agency registry. It links the agency names written in the public records held here to canonical ids made by Recordwatch; the source records stay authoritative."

// AgenciesResponse is the JSON answer of GET /agencies.
type AgenciesResponse struct {
	Notice            string              `json:"notice"`
	Count             int                 `json:"count"`
	CanonicalAgencies int                 `json:"canonical_agencies"`
	LinksByMethod     map[string]int      `json:"links_by_method"`
	Rows              []dossier.AgencyRow `json:"rows"`
	Methods           map[string]string   `json:"methods"`
	Scope             record.Scope        `json:"scope"`
	Links             map[string]string   `json:"links"`
}

var methodMeaning = map[string]string{
	entity.MethodExact:  "the raw string is the canonical name",
	entity.MethodKey:    "same comparison key as the canonical name (case, punctuation, accents, & and apostrophes folded)",
	entity.MethodShort:  "a reviewed short form, former name or official variant in the mapping file",
	entity.MethodFamily: "an administrative family rule (community boards, CUNY colleges, Board of Elections units, Public Administrators, Department of Education payroll groups)",
	entity.MethodOwn:    "not in the reviewed mapping: the spelling has its own id until the mapping is updated",
}

func corsAnyOrigin(c *gin.Context) {
	c.Header("Access-Control-Allow-Origin", "*")
	c.Header("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
	c.Header("Access-Control-Expose-Headers", "ETag, Last-Modified, X-Recordwatch-Notice")
}

func (s *Server) agenciesPreflight(c *gin.Context) {
	corsAnyOrigin(c)
	c.Header("Access-Control-Max-Age", "86400")
	cacheDay.set(c.Writer.Header())
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
		p.fail(record.InvalidNote("format", "param.format.csv"))
	}
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	// built once per index generation (and at most CacheStats old: other
	// processes' writes do not change this process's generation)
	cw, err := s.crosswalk.get(c.Request.Context(), s.deps.Search.Generation(), s.deps.Now(), s.dossiers().Crosswalk)
	if err != nil {
		writeError(c, err)
		return
	}
	rows, methods, scope := cw.Rows, cw.Methods, cw.Scope
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
		render(c, http.StatusOK, "text/csv; charset=utf-8", buf.Bytes(), cacheDay, scope.CorpusObservedAt)
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
	renderJSON(c, http.StatusOK, out, cacheDay, scope.CorpusObservedAt)
}

func countCanonical(rows []dossier.AgencyRow) int {
	ids := map[string]bool{}
	for _, r := range rows {
		ids[r.CanonicalID] = true
	}
	return len(ids)
}

// AgencyProfile is the JSON twin of an agency profile.
type AgencyProfile struct {
	Status record.Availability `json:"status"`
	dossier.AgencyIdentity
	Notices  AgencyNotices         `json:"notices"`
	Awards   AwardsView            `json:"awards"`
	Payments *procure.PaymentsView `json:"payments"`
	// Relations are the agency's links to vendors from every record held
	// (award notices, registered contract rows, payments), each with its
	// method, confidence and source rows (dossier.AgencyRelations).
	Relations []dossier.Relation `json:"relations"`
	Links     map[string]string  `json:"links"`
	Scope     record.Scope       `json:"scope"`
	Absence   []string           `json:"absence_notes"`
	// AbsenceKeys are absence_notes as notes (key and arguments).
	AbsenceKeys record.Notes `json:"absence_note_keys"`
}

// AgencyNotices are the dossier's notice counts with the recent notices
// as hits and the search for more.
type AgencyNotices struct {
	dossier.AgencyNotices
	Recent []view.LinkedHit `json:"recent"`
	More   string           `json:"more"`
}

// AwardsView sums award and intent notices: valid amounts only.
type AwardsView struct {
	procure.AwardSummary
	TopVendors []GroupTotal     `json:"top_vendors,omitempty"`
	Agencies   []GroupTotal     `json:"agencies,omitempty"`
	Notices    []view.LinkedHit `json:"notices,omitempty"`
	More       string           `json:"more"`
	Note       string           `json:"note"`
}

// GroupTotal is the awards of one vendor stem or agency with its
// profile's address.
type GroupTotal struct {
	procure.AwardGroup
	Profile string `json:"profile"`
}

// AwardsNote says what award totals measure.
const AwardsNote = "Award totals sum the valid amounts of award and intent notices in the City Record as held here, by fiscal year of publication (July–June, named for the year it ends). Placeholder amounts (-1, 0), entry errors and missing amounts are excluded and counted under without_valid_amount."

func (s *Server) awardsView(t procure.Awards, q url.Values) AwardsView {
	a := AwardsView{AwardSummary: t.Summary(), More: s.searchURL(q), Note: AwardsNote}
	for _, g := range t.VendorGroups() {
		a.TopVendors = append(a.TopVendors, GroupTotal{AwardGroup: g, Profile: s.vendorLink(g.Stem, "")})
	}
	for _, g := range t.AgencyGroups() {
		a.Agencies = append(a.Agencies, GroupTotal{AwardGroup: g, Profile: s.agencyLink(g.ID, g.Name)})
	}
	return a
}

// agencyFromPath turns a path value (a canonical id, or a name in Form 2)
// into a canonical id and name.
func (s *Server) agencyFromPath(v string) (id, name string, inMapping bool) {
	return s.dossiers().ResolveAgency(v)
}

// agencyProfile is GET /api/agencies/:id: parse, read the dossier, render.
func (s *Server) agencyProfile(c *gin.Context) {
	prof, err := s.buildAgencyProfile(c)
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, prof, cacheShort, prof.Scope.CorpusObservedAt)
}

func (s *Server) buildAgencyProfile(c *gin.Context) (*AgencyProfile, error) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		return nil, err
	}
	return s.AgencyDossier(c.Request.Context(), pathValue(c, "id"))
}

// AgencyDossier renders the agency dossier of a name or id as a path would
// carry it.
func (s *Server) AgencyDossier(ctx context.Context, pathArg string) (*AgencyProfile, error) {
	a, err := s.dossiers().Agency(ctx, pathArg)
	if err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			return nil, withLink(err, s.searchURL(url.Values{"q": {pathArg}}))
		}
		return nil, err
	}
	prof := s.agencyProfileOf(a)
	if prof.Relations, err = s.dossiers().AgencyRelations(ctx, a); err != nil {
		return nil, err
	}
	return prof, nil
}

func (s *Server) agencyProfileOf(a *dossier.Agency) *AgencyProfile {
	prof := &AgencyProfile{Status: record.Found, AgencyIdentity: a.AgencyIdentity, Scope: a.Scope, Absence: a.Absence, AbsenceKeys: a.AbsenceKeys,
		Links: map[string]string{
			"self":      s.cfg.BaseURL + "/api/agencies/" + url.PathEscape(a.ID),
			"permalink": s.agencyLink(a.ID, a.Name),
			"crosswalk": s.cfg.BaseURL + "/agencies",
			"search":    s.searchURL(url.Values{"agency": {a.ID}}),
		}}
	now := s.deps.Now()
	prof.Notices = AgencyNotices{AgencyNotices: a.Notices, Recent: []view.LinkedHit{},
		More: s.searchURL(url.Values{"agency": {a.ID}, "sort": {"newest"}})}
	for _, n := range a.Notices.Recent {
		prof.Notices.Recent = append(prof.Notices.Recent, s.hitView(n, 0, now))
	}
	prof.Awards = s.awardsView(a.Awards, url.Values{"agency": {a.ID}, "type": {strings.Join(procure.AwardTypes, ",")}, "sort": {"newest"}})
	prof.Payments = s.paymentsView(a.Payments, url.Values{"agency_id": {a.ID}})
	prof.Payments.Ledger = &a.Ledger
	return prof
}
