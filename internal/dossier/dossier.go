// Package dossier answers who a vendor or an agency is in the records held:
// its spellings in the sources, its award and intent notices with their
// totals, its payments-dataset records, and its public links to other
// entities (relationships). Values are typed and carry no addresses: the
// API renders them as JSON twins and Form 1 pages, MCP as tool results.
//
// Errors carry the codes of internal/record: each method's comment names
// the ones it returns.
package dossier

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Service reads dossiers through the search seam; totals and scope come
// from the procurement service.
type Service struct {
	Procure *procure.Service
	// People reads roster rows, leader nodes and attributed disagreements.
	People *people.Service
}

// The vendor and agency profiles' absences (Absence), each a fixed
// note (its words are the message files'); the strings are their
// English, as the profiles publish them.
var (
	VendorMatchedKey    = record.N("dossier.vendor.matched")
	VendorNoAwardsKey   = record.N("dossier.vendor.no_awards")
	VendorNoPaymentsKey = record.N("dossier.vendor.no_payments")
	VendorExcludedKey   = record.N("dossier.vendor.excluded")
	AgencyCountsKey     = record.N("dossier.agency.counts")
	AgencyNoNoticesKey  = record.N("dossier.agency.no_notices")
	AgencyNoPaymentsKey = record.N("dossier.agency.no_payments")
	AgencyNoSpellingKey = record.N("dossier.agency.no_spelling")

	VendorMatched    = VendorMatchedKey.String()
	VendorNoAwards   = VendorNoAwardsKey.String()
	VendorNoPayments = VendorNoPaymentsKey.String()
	VendorExcluded   = VendorExcludedKey.String()
	AgencyCounts     = AgencyCountsKey.String()
	AgencyNoNotices  = AgencyNoNoticesKey.String()
	AgencyNoPayments = AgencyNoPaymentsKey.String()
	AgencyNoSpelling = AgencyNoSpellingKey.String()
)

// Absences lists every note a profile's Absence may hold.
var Absences = record.Notes{VendorMatchedKey, VendorNoAwardsKey, VendorNoPaymentsKey, VendorExcludedKey, AgencyCountsKey, AgencyNoNoticesKey, AgencyNoPaymentsKey, AgencyNoSpellingKey}

// New builds a dossier service over the procurement and people services.
func New(p *procure.Service, ppl *people.Service) *Service { return &Service{Procure: p, People: ppl} }

// Kinds of entity a dossier describes.
const (
	KindVendor = "vendor"
	KindAgency = "agency"
)

// Bounds of a dossier.
const (
	VendorNotices = 50 // newest award notices and top groups of a vendor
	VendorEntries = 50 // payments-dataset records listed for a vendor
	AgencyRecent  = 10 // newest notices of an agency
	AgencyGroups  = 10 // top vendors and fiscal years of an agency
	AgencyEntries = 20 // payments-dataset records listed for an agency
)

// Variant is one spelling of a vendor as a source wrote it.
type Variant struct {
	Name    string `json:"name"`
	Source  string `json:"source"`
	Records int    `json:"records"`
}

// VendorIdentity is who a vendor is, as every surface shows it: its name
// stem, the slug of its address, the name shown and every spelling seen.
type VendorIdentity struct {
	Stem     string    `json:"stem"`
	Slug     string    `json:"slug"`
	Name     string    `json:"name"`
	Variants []Variant `json:"variants"`
}

// Vendor is a vendor's dossier: every award and intent notice naming a
// vendor whose name has the stem, and the payments-dataset records of the
// same stem.
type Vendor struct {
	VendorIdentity
	Awards   procure.Awards
	Notices  []record.Notice // newest award and intent notices, at most VendorNotices
	Payments procure.RowTotals
	// Ledger is registered vs paid by fiscal year: registrations of the
	// vendor and payments to it as the payee is named, with the coverage
	// of the payments held.
	Ledger      procure.Ledger
	First, Last string // New York days
	Scope       record.Scope
	Absence     []string
	AbsenceKeys record.Notes // Absence as notes
}

// Mentions is the full-text query that finds mentions of a vendor stem
// (entity.MentionQuery: the stem as a phrase, and its initials spelled
// apart when it joined them).
func Mentions(stem string) string {
	q := entity.MentionQuery(stem)
	if !strings.Contains(q, `"`) {
		q = `"` + q + `"`
	}
	return q
}

// VendorStem reads the stem of a name, slug or stem ("acme-construction",
// "Acme Construction, Inc.").
func VendorStem(v string) string { return entity.VendorStem(entity.StemFromSlug(v)) }

// Vendor reads the dossier of a vendor by name, slug or stem.
//
// Errors: EINVALID when the stem is too short to match by; ENOTFOUND when
// no award notice and no payments-dataset record names it (the message
// says a full-text search may still find mentions); EUNAVAILABLE when the
// index or records cannot be read.
func (s *Service) Vendor(ctx context.Context, name string) (*Vendor, error) {
	stem := VendorStem(name)
	if !entity.StemLongEnough(stem) {
		return nil, record.Invalid("stem", "vendor %q is too short to match by name stem (%d characters at least)", name, entity.MinStemChars)
	}
	p := s.Procure
	er, err := p.RecordReader()
	if err != nil {
		return nil, err
	}
	// a profile counts exactly: its counts sum into the scope
	q := search.Query{VendorStems: []string{stem}, NoticeTypes: procure.AwardTypes, Sort: search.SortNewest, Limit: VendorNotices, ExactCount: true}
	res, err := p.Search.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	tot, err := er.NoticeTotals(ctx, q, []string{search.GroupFiscalYear, search.GroupAgencyID, search.GroupVendorName}, VendorNotices)
	if err != nil {
		return nil, err
	}
	pay, err := p.Rows(ctx, procure.RowQuery{VendorStems: []string{stem}, Totals: true, Limit: VendorEntries})
	if err != nil {
		return nil, err
	}
	if res.Total == 0 && pay.Total == 0 {
		return nil, record.NoteError(record.ENOTFOUND, "stem", record.N("error.vendor_unknown", strconv.Quote(stem)))
	}
	scope, err := p.Scope(ctx, "vendor_profile", map[string]string{"vendor_stem": stem}, res.Total+pay.Total)
	if err != nil {
		return nil, err
	}
	v := &Vendor{VendorIdentity: VendorIdentity{Stem: stem, Slug: entity.StemSlug(stem), Variants: []Variant{}}, Scope: scope, Notices: []record.Notice{}}
	// spellings: notices (with counts) and payments-dataset names
	best := 0
	for _, b := range tot.Groups[search.GroupVendorName] {
		name := strings.TrimSpace(b.Value)
		v.Variants = append(v.Variants, Variant{Name: name, Source: record.SourceCROL, Records: b.Count})
		if b.Count > best {
			best, v.Name = b.Count, name
		}
	}
	seen := map[string]int{}
	for _, e := range pay.Rows {
		if e.VendorName != "" {
			seen[e.Source+"\x00"+strings.TrimSpace(e.VendorName)]++
		}
	}
	for k, n := range seen {
		src, name, _ := strings.Cut(k, "\x00")
		v.Variants = append(v.Variants, Variant{Name: name, Source: src, Records: n})
	}
	sortVariants(v.Variants)
	if v.Name == "" {
		for _, x := range v.Variants {
			v.Name = x.Name
			break
		}
	}
	v.Awards = p.AwardTotals(tot)
	for _, h := range res.Hits {
		v.Notices = append(v.Notices, h.Notice)
	}
	v.Payments = procure.Totals(pay, VendorEntries)
	v.Payments.Extent = p.RowsExtent(ctx, procure.RowQuery{VendorStems: []string{stem}, Kinds: []string{procure.RowContract, procure.RowPayment}})
	if v.Ledger, err = p.Ledger(ctx, v.Payments, procure.JoinedByPayeeKey); err != nil {
		return nil, err
	}
	v.First, v.Last = v.Awards.First, v.Awards.Last
	for _, e := range pay.Rows {
		if d := day(e); d != "" {
			if v.First == "" || d < v.First {
				v.First = d
			}
			if d > v.Last {
				v.Last = d
			}
		}
	}
	v.AbsenceKeys = record.Notes{VendorMatchedKey}
	if res.Total == 0 {
		v.AbsenceKeys = append(v.AbsenceKeys, VendorNoAwardsKey)
	}
	if pay.Total == 0 {
		v.AbsenceKeys = append(v.AbsenceKeys, VendorNoPaymentsKey)
	}
	if v.Awards.Total > v.Awards.ValidAmounts {
		v.AbsenceKeys = append(v.AbsenceKeys, VendorExcludedKey)
	}
	for _, n := range v.AbsenceKeys {
		v.Absence = append(v.Absence, n.String())
	}
	return v, nil
}

func day(e procure.Row) string {
	if e.Date.IsZero() {
		return ""
	}
	return e.Date.In(record.NewYork).Format("2006-01-02")
}

func sortVariants(vs []Variant) {
	sort.SliceStable(vs, func(i, j int) bool {
		a, b := vs[i], vs[j]
		if a.Source != b.Source {
			return a.Source > b.Source // crol first
		}
		if a.Records != b.Records {
			return a.Records > b.Records
		}
		return a.Name < b.Name
	})
}

// AgencyRow is one distinct raw agency string as written in a source, with
// its canonical id and name (SPEC §2.1).
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

// AgencyRows builds the crosswalk rows from the raw strings held, and how
// many rows each link method made.
func (s *Service) AgencyRows(names []search.AgencyName) ([]AgencyRow, map[string]int) {
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
		l := s.Procure.Crosswalk.Resolve(raw)
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

// Crosswalk is the agency crosswalk as held: every raw agency string with
// its canonical id and name, how many rows each link method made, and the
// scope.
type Crosswalk struct {
	Rows    []AgencyRow
	Methods map[string]int
	Scope   record.Scope
}

// Crosswalk reads the agency crosswalk of the records held.
//
// Errors: EUNAVAILABLE when the index or records cannot be read.
func (s *Service) Crosswalk(ctx context.Context) (*Crosswalk, error) {
	names, err := s.Procure.AgencyNames(ctx)
	if err != nil {
		return nil, err
	}
	rows, methods := s.AgencyRows(names)
	scope, err := s.Procure.Scope(ctx, "agency_crosswalk", nil, len(rows))
	if err != nil {
		return nil, err
	}
	return &Crosswalk{Rows: rows, Methods: methods, Scope: scope}, nil
}

// ResolveAgency turns a canonical id, or any spelling, into a canonical id
// and name; inMapping says whether the id is in the reviewed mapping. It is
// the one agency rule (entity.ResolveName) for every input that names one
// agency; a printed spelling that rule does not know (a Form 2 profile
// link names an agency as a record printed it) keeps the crosswalk's own
// id for that spelling, as /agencies lists it, so its records stay
// reachable.
func (s *Service) ResolveAgency(v string) (id, name string, inMapping bool) {
	cw := s.Procure.Crosswalk
	v = strings.TrimSpace(v)
	if r, err := cw.ResolveName("agency", v); err == nil && len(r.IDs) == 1 {
		if ag, ok := cw.Agency(r.IDs[0]); ok {
			return ag.ID, ag.Name, true
		}
		return r.IDs[0], r.Name, false
	}
	l := cw.Resolve(v)
	_, ok := cw.Agency(l.ID)
	return l.ID, l.Name, ok
}

// AgencyNotices counts an agency's notices by lens, type and year, as
// every surface shows them; each lists Recent as its own notice hits (the
// records themselves are not rendered).
type AgencyNotices struct {
	Total  int                 `json:"total"`
	ByLens []search.FacetCount `json:"by_lens"`
	ByType []search.FacetCount `json:"by_type"`
	ByYear []search.FacetCount `json:"by_year"`
	First  string              `json:"first,omitempty"`
	Last   string              `json:"last,omitempty"`
	Recent []record.Notice     `json:"-"` // newest, at most AgencyRecent
}

// AgencyIdentity is who an agency is, as every surface shows it: its
// canonical id and name, acronyms, NYC governance-organizations id, whether
// the reviewed mapping holds it, and every source spelling linked to it.
type AgencyIdentity struct {
	ID        string      `json:"id"`
	Name      string      `json:"name"`
	Acronyms  []string    `json:"acronyms,omitempty"`
	NYCGOID   string      `json:"nycgo_id,omitempty"`
	InMapping bool        `json:"in_reviewed_mapping"`
	Variants  []AgencyRow `json:"variants"`
}

// Agency is an agency's dossier.
type Agency struct {
	AgencyIdentity
	Notices  AgencyNotices
	Awards   procure.Awards
	Payments procure.RowTotals
	// Ledger is registered vs paid by fiscal year for the agency, with the
	// coverage of the payments held.
	Ledger      procure.Ledger
	Scope       record.Scope
	Absence     []string
	AbsenceKeys record.Notes // Absence as notes
}

// Agency reads the dossier of an agency by canonical id or any spelling.
//
// Errors: ENOTFOUND when the id is neither in the crosswalk nor in any
// record held; EUNAVAILABLE when the index or records cannot be read.
func (s *Service) Agency(ctx context.Context, name string) (*Agency, error) {
	p := s.Procure
	id, canon, inMapping := s.ResolveAgency(name)
	er, err := p.RecordReader()
	if err != nil {
		return nil, err
	}
	res, err := p.Search.Search(ctx, search.Query{AgencyIDs: []string{id}, Sort: search.SortNewest, Limit: AgencyRecent, Facets: true, ExactCount: true})
	if err != nil {
		return nil, err
	}
	awards, err := er.NoticeTotals(ctx, search.Query{AgencyIDs: []string{id}, NoticeTypes: procure.AwardTypes},
		[]string{search.GroupVendorStem, search.GroupFiscalYear}, AgencyGroups)
	if err != nil {
		return nil, err
	}
	all, err := er.NoticeTotals(ctx, search.Query{AgencyIDs: []string{id}}, nil, 0)
	if err != nil {
		return nil, err
	}
	pay, err := p.Rows(ctx, procure.RowQuery{AgencyIDs: []string{id}, Kinds: procure.RowKinds,
		Totals: true, Limit: AgencyEntries})
	if err != nil {
		return nil, err
	}
	names, err := s.Procure.AgencyNames(ctx)
	if err != nil {
		return nil, err
	}
	if res.Total == 0 && pay.Total == 0 && !inMapping {
		return nil, record.NoteError(record.ENOTFOUND, "id", record.N("error.agency_unknown", strconv.Quote(id)))
	}
	rows, _ := s.AgencyRows(names)
	a := &Agency{AgencyIdentity: AgencyIdentity{ID: id, Name: canon, InMapping: inMapping, Variants: []AgencyRow{}}}
	for _, r := range rows {
		if r.CanonicalID == id {
			a.Variants = append(a.Variants, r)
		}
	}
	a.Scope, err = p.Scope(ctx, "agency_profile", map[string]string{"agency": id}, res.Total+pay.Total)
	if err != nil {
		return nil, err
	}
	if ag, ok := p.Crosswalk.Agency(id); ok {
		a.Acronyms, a.NYCGOID = ag.Acronyms, ag.NYCGOID
	}
	a.Notices = AgencyNotices{Total: res.Total, ByLens: nonNil(res.Facets[search.FacetLens]), ByType: nonNil(res.Facets[search.FacetType]),
		ByYear: nonNil(res.Facets[search.FacetYear]), Recent: []record.Notice{}}
	if !all.First.IsZero() {
		a.Notices.First = all.First.In(record.NewYork).Format("2006-01-02")
	}
	if !all.Last.IsZero() {
		a.Notices.Last = all.Last.In(record.NewYork).Format("2006-01-02")
	}
	for _, h := range res.Hits {
		a.Notices.Recent = append(a.Notices.Recent, h.Notice)
	}
	a.Awards = p.AwardTotals(awards)
	a.Payments = procure.Totals(pay, AgencyEntries)
	a.Payments.Extent = p.RowsExtent(ctx, procure.RowQuery{AgencyIDs: []string{id}, Kinds: procure.RowKinds})
	if a.Ledger, err = p.Ledger(ctx, a.Payments, procure.JoinedByAgencyKey); err != nil {
		return nil, err
	}
	a.AbsenceKeys = record.Notes{AgencyCountsKey}
	if res.Total == 0 {
		a.AbsenceKeys = append(a.AbsenceKeys, AgencyNoNoticesKey)
	}
	if pay.Total == 0 {
		a.AbsenceKeys = append(a.AbsenceKeys, AgencyNoPaymentsKey)
	}
	if len(a.Variants) == 0 {
		a.AbsenceKeys = append(a.AbsenceKeys, AgencyNoSpellingKey)
	}
	for _, n := range a.AbsenceKeys {
		a.Absence = append(a.Absence, n.String())
	}
	return a, nil
}

func nonNil(fc []search.FacetCount) []search.FacetCount {
	if fc == nil {
		return []search.FacetCount{}
	}
	return fc
}
