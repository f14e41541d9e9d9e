package api

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Limits of the entity views (SPEC §8).
const (
	BatchMaxNames = 10       // names per POST /batch
	BatchPerDay   = 30       // POST /batch requests per client per day
	BatchMaxBody  = 16 << 10 // bytes of a POST /batch body
	// CacheProfiles is how long profiles and timelines may be cached.
	CacheProfiles = 5 * time.Minute
)

// AwardTypes are the notice types that name a vendor as awarded (award and
// intent notices).
var AwardTypes = []string{"Award", "Intent to Award", "Intent to Negotiate"}

// entityRoutes mounts this file's routes: the agency crosswalk, vendor and
// agency profiles with their JSON twins, procurement matters, batch
// cross-reference and property locations (entities_*.go).
func (s *Server) entityRoutes(r *gin.Engine, api *gin.RouterGroup) {
	r.GET("/agencies", s.rateLimit(), s.agencies)
	r.HEAD("/agencies", s.rateLimit(), s.agencies)
	r.OPTIONS("/agencies", s.agenciesPreflight)
	api.GET("/agencies/*id", s.agencyProfile) // Form 2 names may hold "/" (HRA/DEPT OF SOCIAL SERVICES)
	r.GET("/agencies/:id/", s.rateLimit(), s.agencyPage)
	api.GET("/vendors/*stem", s.vendorProfile) // names may hold "/"
	r.GET("/vendors/:stem/", s.rateLimit(), s.vendorPage)
	api.GET("/matters/*pin", s.matter) // PINs may hold "/" (PROP/TERR26-27)
	r.POST("/batch", s.rateLimit(), maxBody(BatchMaxBody), s.ceiling("batch", BatchPerDay), s.batch)
	r.GET("/property-locations", s.rateLimit(), s.propertyLocations)
}

// pathValue is a route parameter, without the slashes a catch-all keeps.
func pathValue(c *gin.Context, name string) string {
	return strings.Trim(c.Param(name), "/")
}

// entityReader is the reader of the entity views.
func (s *Server) entityReader() (search.EntityReader, error) {
	if s.deps.Entities != nil {
		return s.deps.Entities, nil
	}
	if er, ok := s.deps.Search.(search.EntityReader); ok {
		return er, nil
	}
	return nil, &record.Error{Code: record.EUNAVAILABLE, Message: "this deployment's search engine does not hold payments, contracts or lots"}
}

// entityScope is the scope of an entity view: what was asked, the notice
// coverage and the coverage of the payments dataset and other joined
// sources.
func (s *Server) entityScope(ctx context.Context, er search.EntityReader, kind string, filters map[string]string, matched int) (record.Scope, error) {
	cov, err := s.deps.Search.Coverage(ctx)
	if err != nil {
		return record.Scope{}, err
	}
	ecov, err := er.EntryCoverage(ctx)
	if err != nil {
		return record.Scope{}, err
	}
	all := append(slices.Clone(cov), ecov...)
	return record.NewScope(record.Searched{Kind: kind, Filters: filters, Lenses: []string{"all"}}, all, matched), nil
}

// day formats a time as a New York calendar day ("" for zero).
func entityDay(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(record.NewYork).Format("2006-01-02")
}

// vendorLink is the vendor profile permalink of a stem (Form 1) or name
// (Form 2).
func (s *Server) vendorLink(stem, name string) string { return s.permalinks().Vendor(stem, name) }

// agencyLink is the agency profile permalink of an id (Form 1) or name
// (Form 2).
func (s *Server) agencyLink(id, name string) string { return s.permalinks().Agency(id, name) }

// searchURL is the JSON search for parameters.
func (s *Server) searchURL(v url.Values) string {
	return s.cfg.BaseURL + "/api/search?" + v.Encode()
}

// MoneyView is a dollar sum with its display form.
type MoneyView struct {
	Value   float64 `json:"value"`
	Display string  `json:"display"`
}

func moneyView(v float64) MoneyView { return MoneyView{Value: v, Display: money(v)} }

// FiscalYearTotal is a count and valid-amount sum of one fiscal year.
type FiscalYearTotal struct {
	FiscalYear   int       `json:"fiscal_year"`
	Count        int       `json:"count"`
	ValidAmounts int       `json:"valid_amounts"`
	Amount       MoneyView `json:"amount"`
}

// fiscalYears turns fiscal-year buckets into totals (oldest first).
func fiscalYears(bs []search.Bucket) []FiscalYearTotal {
	out := []FiscalYearTotal{}
	for _, b := range bs {
		fy := 0
		for _, r := range b.Value {
			fy = fy*10 + int(r-'0')
		}
		out = append(out, FiscalYearTotal{FiscalYear: fy, Count: b.Count, ValidAmounts: b.ValidAmounts, Amount: moneyView(b.Amount)})
	}
	return out
}

// EntryView is one record of the payments dataset or a registered contract.
type EntryView struct {
	ID         string      `json:"id"`
	Source     string      `json:"source"`
	Kind       string      `json:"kind"`
	Agency     string      `json:"agency,omitempty"`
	AgencyID   string      `json:"agency_id,omitempty"`
	AgencyRaw  string      `json:"agency_raw,omitempty"`
	Vendor     string      `json:"vendor,omitempty"`
	VendorLink string      `json:"vendor_profile,omitempty"`
	ContractID string      `json:"contract_id,omitempty"`
	PIN        string      `json:"pin,omitempty"`
	RequestID  string      `json:"request_id,omitempty"`
	Title      string      `json:"title,omitempty"`
	Status     string      `json:"status,omitempty"`
	Date       string      `json:"date,omitempty"`
	DateLabel  string      `json:"date_label,omitempty"`
	FiscalYear int         `json:"fiscal_year,omitempty"`
	Amount     *AmountView `json:"amount,omitempty"`
	URL        string      `json:"url,omitempty"`
}

func (s *Server) entryView(e search.Entry) EntryView {
	v := EntryView{ID: e.ID, Source: e.Source, Kind: e.Kind, Agency: e.AgencyName, AgencyID: e.AgencyID, AgencyRaw: e.AgencyRaw,
		Vendor: strings.TrimSpace(e.VendorName), ContractID: e.ContractID, PIN: e.PIN, RequestID: e.RequestID, Title: e.Title,
		Status: e.Status, Date: entityDay(e.Date), DateLabel: e.DateLabel, FiscalYear: e.FiscalYear, URL: e.URL}
	if e.VendorStem != "" {
		v.VendorLink = s.vendorLink(e.VendorStem, e.VendorName)
	}
	if e.AmountRaw != "" || e.AmountValid {
		if e.AmountValid {
			a := e.Amount
			v.Amount = &AmountView{Valid: true, Value: &a, Display: money(a), SourceText: e.AmountRaw, Note: e.AmountLabel}
		} else {
			v.Amount = &AmountView{Valid: false, SourceText: e.AmountRaw,
				Note: "not a valid amount (a placeholder such as 0, or an entry error); excluded from totals"}
		}
	}
	return v
}

// PaymentsView sums the payments-dataset records of a view by kind and
// fiscal year. Contract totals are registered value, not spending.
type PaymentsView struct {
	Records      int                 `json:"records"`
	Contracts    KindTotal           `json:"contracts"`
	Payments     KindTotal           `json:"payments"`
	Payroll      *KindTotal          `json:"payroll,omitempty"`
	ByFiscalYear []search.EntryTotal `json:"by_fiscal_year"`
	Entries      []EntryView         `json:"entries"`
	More         bool                `json:"more,omitempty"`
	Note         string              `json:"note"`
}

// KindTotal is the count and valid-amount sum of one kind of entry.
type KindTotal struct {
	Count         int       `json:"count"`
	ValidAmounts  int       `json:"valid_amounts"`
	Amount        MoneyView `json:"amount"`
	InvalidAmount int       `json:"without_valid_amount"`
}

// PaymentsNote says what the payments totals measure.
const PaymentsNote = "Contract totals measure registered (or pending) contract value, not spending; payment totals sum checks issued. Amounts that are placeholders (0) or entry errors are excluded from totals. These are the records held here from Checkbook NYC and joined sources; the official datasets may hold more."

func (s *Server) paymentsView(res search.EntryResult, limit int) *PaymentsView {
	p := &PaymentsView{Records: res.Total, ByFiscalYear: []search.EntryTotal{}, Entries: []EntryView{}, Note: PaymentsNote}
	var payroll KindTotal
	for _, t := range res.Totals {
		var k *KindTotal
		switch t.Kind {
		case search.EntryContract:
			k = &p.Contracts
		case search.EntryPayment:
			k = &p.Payments
		case search.EntryPayroll:
			k = &payroll
		default:
			continue
		}
		k.Count += t.Count
		k.ValidAmounts += t.ValidAmounts
		k.InvalidAmount += t.Count - t.ValidAmounts
		k.Amount = moneyView(search.RoundCents(k.Amount.Value + t.Amount))
		p.ByFiscalYear = append(p.ByFiscalYear, t)
	}
	if payroll.Count > 0 {
		p.Payroll = &payroll
	}
	for i, e := range res.Entries {
		if i >= limit {
			p.More = true
			break
		}
		if e.Kind == search.EntryLot {
			continue
		}
		p.Entries = append(p.Entries, s.entryView(e))
	}
	if res.NextCursor != "" {
		p.More = true
	}
	return p
}

// Dossier builds a vendor or agency profile by name, stem or id, for the
// MCP dossier and relationship tools.
func (s *Server) Dossier(ctx context.Context, kind, name string) (any, error) {
	switch kind {
	case "vendor":
		return s.VendorDossier(ctx, name)
	case "agency":
		return s.AgencyDossier(ctx, name)
	}
	return nil, record.Invalid("kind", "kind must be vendor or agency")
}
