package api

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// VendorProfile is the JSON twin of a vendor profile: every award and
// intent notice naming a vendor whose name has the stem, and the
// payments-dataset records of the same stem.
type VendorProfile struct {
	Status   record.Availability `json:"status"`
	Stem     string              `json:"stem"`
	Slug     string              `json:"slug"`
	Name     string              `json:"name"`
	Variants []VendorVariant     `json:"variants"`
	Awards   AwardsView          `json:"awards"`
	Payments *PaymentsView       `json:"payments"`
	First    string              `json:"first_date,omitempty"`
	Last     string              `json:"last_date,omitempty"`
	Links    map[string]string   `json:"links"`
	Scope    record.Scope        `json:"scope"`
	Absence  []string            `json:"absence_notes"`
}

// VendorVariant is one spelling of the vendor as a source wrote it.
type VendorVariant struct {
	Name    string `json:"name"`
	Source  string `json:"source"`
	Records int    `json:"records"`
}

// vendorStem reads the stem of a path value: a slug ("acme-construction"),
// or a name in any suffix or case variant ("Acme Construction, Inc.").
func vendorStem(v string) string {
	return entity.VendorStem(entity.StemFromSlug(v))
}

func (s *Server) vendorProfile(c *gin.Context) {
	prof, err := s.buildVendorProfile(c)
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, prof, CacheProfiles, prof.Scope.CorpusObservedAt)
}

func (s *Server) buildVendorProfile(c *gin.Context) (*VendorProfile, error) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		return nil, err
	}
	return s.VendorDossier(c.Request.Context(), pathValue(c, "stem"))
}

// VendorDossier builds the profile for a name, slug or id as a path would carry it;
// the MCP dossier and relationship tools read profiles through it.
func (s *Server) VendorDossier(ctx context.Context, pathArg string) (*VendorProfile, error) {
	raw := pathArg
	stem := vendorStem(raw)
	if !entity.StemLongEnough(stem) {
		return nil, record.Invalid("stem", "vendor %q is too short to match by name stem (%d characters at least)", raw, entity.MinStemChars)
	}
	er, err := s.entityReader()
	if err != nil {
		return nil, err
	}
	q := search.Query{VendorStems: []string{stem}, NoticeTypes: AwardTypes, Sort: search.SortNewest, Limit: 50}
	res, err := s.deps.Search.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	tot, err := er.NoticeTotals(ctx, q, []string{search.GroupFiscalYear, search.GroupAgencyID, search.GroupVendorName}, 50)
	if err != nil {
		return nil, err
	}
	pay, err := er.Entries(ctx, search.EntryQuery{VendorStems: []string{stem}, Totals: true, Limit: 50})
	if err != nil {
		return nil, err
	}
	mentions := s.searchURL(url.Values{"q": {`"` + strings.ToLower(stem) + `"`}})
	if res.Total == 0 && pay.Total == 0 {
		return nil, &record.Error{Code: record.ENOTFOUND, Param: "stem",
			Message: "no award or intent notice and no payments-dataset record held here names a vendor with the name stem " +
				strconv.Quote(stem) + ". This does not mean there is no such vendor: a full-text search may still find mentions: " + mentions}
	}
	scope, err := s.entityScope(ctx, er, "vendor_profile", map[string]string{"vendor_stem": stem}, res.Total+pay.Total)
	if err != nil {
		return nil, err
	}
	prof := &VendorProfile{Status: record.Found, Stem: stem, Slug: entity.StemSlug(stem), Variants: []VendorVariant{}, Scope: scope,
		Links: map[string]string{
			"self":      s.cfg.BaseURL + "/api/vendors/" + entity.StemSlug(stem),
			"permalink": s.vendorLink(stem, ""),
			"awards":    s.searchURL(url.Values{"vendor": {stem}, "type": {strings.Join(AwardTypes, ",")}, "sort": {"newest"}}),
			"mentions":  mentions,
		}}
	// spellings: notices (with counts) and payments-dataset names
	best := 0
	for _, b := range tot.Groups[search.GroupVendorName] {
		name := strings.TrimSpace(b.Value)
		prof.Variants = append(prof.Variants, VendorVariant{Name: name, Source: record.SourceCROL, Records: b.Count})
		if b.Count > best {
			best, prof.Name = b.Count, name
		}
	}
	seen := map[string]int{}
	for _, e := range pay.Entries {
		if e.VendorName != "" {
			seen[e.Source+"\x00"+strings.TrimSpace(e.VendorName)]++
		}
	}
	for k, n := range seen {
		src, name, _ := strings.Cut(k, "\x00")
		prof.Variants = append(prof.Variants, VendorVariant{Name: name, Source: src, Records: n})
		if prof.Name == "" {
			prof.Name = name
		}
	}
	sortVariants(prof.Variants)
	now := s.deps.Now()
	prof.Awards = s.awardsView(tot, url.Values{"vendor": {stem}, "type": {strings.Join(AwardTypes, ",")}, "sort": {"newest"}})
	prof.Awards.Notices = []HitView{}
	for _, h := range res.Hits {
		prof.Awards.Notices = append(prof.Awards.Notices, s.hitView(h.Notice, 0, now))
	}
	prof.Payments = s.paymentsView(pay, 50)
	prof.First, prof.Last = entityDay(tot.First), entityDay(tot.Last)
	for _, e := range pay.Entries {
		if d := entityDay(e.Date); d != "" {
			if prof.First == "" || d < prof.First {
				prof.First = d
			}
			if d > prof.Last {
				prof.Last = d
			}
		}
	}
	prof.Absence = []string{
		"A vendor is matched by name stem: legal suffixes and case do not matter, but a different spelling of the name does. Notices that mention the vendor without naming it as the awardee are not counted here; a full-text search finds them.",
	}
	if res.Total == 0 {
		prof.Absence = append(prof.Absence, "No award or intent notice held here names this vendor; the official City Record may still have some.")
	}
	if pay.Total == 0 {
		prof.Absence = append(prof.Absence, "No payments-dataset record held here names this vendor; Checkbook NYC may still have some.")
	}
	if prof.Awards.ExcludedInvalidAmounts > 0 {
		prof.Absence = append(prof.Absence, "Some notices carry placeholder or erroneous amounts; they are listed but excluded from the totals.")
	}
	return prof, nil
}

func sortVariants(vs []VendorVariant) {
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0 && lessVariant(vs[j], vs[j-1]); j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
}

func lessVariant(a, b VendorVariant) bool {
	if a.Source != b.Source {
		return a.Source > b.Source // crol first
	}
	if a.Records != b.Records {
		return a.Records > b.Records
	}
	return a.Name < b.Name
}
