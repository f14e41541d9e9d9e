package api

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// Limits of the entity views (SPEC §8).
const (
	BatchMaxNames = 10       // names per POST /batch
	BatchPerDay   = 30       // POST /batch requests per client per day
	BatchMaxBody  = 16 << 10 // bytes of a POST /batch body
)

// entityRoutes mounts this file's routes: the agency crosswalk, vendor and
// agency profiles with their JSON twins, procurement matters, batch
// cross-reference and property locations (entities_*.go).
func (s *Server) entityRoutes(r *gin.Engine, api *gin.RouterGroup) {
	r.GET("/agencies", s.rateLimit(), s.agencies)
	r.HEAD("/agencies", s.rateLimit(), s.agencies)
	r.OPTIONS("/agencies", s.agenciesPreflight)
	api.GET("/agencies/*id", s.agencyProfile)  // Form 2 names may hold "/" (HRA/DEPT OF SOCIAL SERVICES)
	api.GET("/vendors/*stem", s.vendorProfile) // names may hold "/"
	api.GET("/matters/*pin", s.matter)         // PINs may hold "/" (PROP/TERR26-27)
	r.POST("/batch", s.rateLimit(), maxBody(BatchMaxBody), s.ceiling("batch", BatchPerDay), s.admit(nil), s.batch)
	r.GET("/property-locations", s.rateLimit(), s.propertyLocations)
}

// entityPageRoutes mounts the Form 1 permalinks of vendor and agency
// profiles (routes.go mounts them in Form 1 only).
func (s *Server) entityPageRoutes(r *gin.Engine) {
	r.GET("/agencies/:id/", s.rateLimit(), s.agencyPage)
	r.GET("/vendors/*stem", s.rateLimit(), s.vendorPage) // stems may hold "/"
}

// pathValue is a route parameter, without the slashes a catch-all keeps.
func pathValue(c *gin.Context, name string) string {
	return strings.Trim(c.Param(name), "/")
}

// procure is the procurement service main.go built.
func (s *Server) procure() *procure.Service { return s.deps.Procure }

// dossiers is the dossier service main.go built.
func (s *Server) dossiers() *dossier.Service { return s.deps.Dossiers }

// entityReader is the record reader of the entity views.
func (s *Server) entityReader() (procure.Records, error) { return s.procure().RecordReader() }

// entityScope is the scope of an entity view: what was asked, the notice
// coverage and the coverage of the payments dataset and other joined
// sources.
func (s *Server) entityScope(ctx context.Context, kind string, filters map[string]string, matched int) (record.Scope, error) {
	return s.procure().Scope(ctx, kind, filters, matched)
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

// withLink appends an address to an error's message (a search that may
// still find what a service did not).
func withLink(err error, link string) error {
	if e, ok := err.(*record.Error); ok {
		return &record.Error{Code: e.Code, Param: e.Param, Message: e.Message + ": " + link}
	}
	return err
}

// FiscalYearTotal is a count and valid-amount sum of one fiscal year.
type FiscalYearTotal struct {
	FiscalYear   int           `json:"fiscal_year"`
	Count        int           `json:"count"`
	ValidAmounts int           `json:"valid_amounts"`
	Amount       procure.Money `json:"amount"`
}

// EntryView is one record of the payments dataset or a registered contract.
type EntryView struct {
	ID         string           `json:"id"`
	Source     string           `json:"source"`
	Kind       string           `json:"kind"`
	Agency     string           `json:"agency,omitempty"`
	AgencyID   string           `json:"agency_id,omitempty"`
	AgencyRaw  string           `json:"agency_raw,omitempty"`
	Vendor     string           `json:"vendor,omitempty"`
	VendorLink string           `json:"vendor_profile,omitempty"`
	ContractID string           `json:"contract_id,omitempty"`
	PIN        string           `json:"pin,omitempty"`
	RequestID  string           `json:"request_id,omitempty"`
	Title      string           `json:"title,omitempty"`
	Status     string           `json:"status,omitempty"`
	Date       string           `json:"date,omitempty"`
	DateLabel  string           `json:"date_label,omitempty"`
	FiscalYear int              `json:"fiscal_year,omitempty"`
	Amount     *view.AmountView `json:"amount,omitempty"`
	URL        string           `json:"url,omitempty"`
}

func (s *Server) entryView(e procure.Row) EntryView {
	v := EntryView{ID: e.ID, Source: e.Source, Kind: e.Kind, Agency: e.AgencyName, AgencyID: e.AgencyID, AgencyRaw: e.AgencyRaw,
		Vendor: strings.TrimSpace(e.VendorName), ContractID: e.ContractID, PIN: e.PIN, RequestID: e.RequestID, Title: e.Title,
		Status: e.Status, Date: entityDay(e.Date), DateLabel: e.DateLabel, FiscalYear: e.FiscalYear, URL: e.URL}
	if e.VendorStem != "" {
		v.VendorLink = s.vendorLink(e.VendorStem, e.VendorName)
	}
	if e.AmountRaw != "" || e.AmountValid {
		if e.AmountValid {
			a := e.Amount
			v.Amount = &view.AmountView{Valid: true, Value: &a, Display: view.Money(a), SourceText: e.AmountRaw, Note: e.AmountLabel}
		} else {
			v.Amount = &view.AmountView{Valid: false, SourceText: e.AmountRaw,
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
	ByFiscalYear []procure.YearTotal `json:"by_fiscal_year"`
	Entries      []EntryView         `json:"entries"`
	More         bool                `json:"more,omitempty"`
	Note         string              `json:"note"`
	// Ledger is registered vs paid by fiscal year with the coverage of the
	// payments held (procure.Ledger; "no_payments_held" when none).
	Ledger *procure.Ledger `json:"registered_vs_paid,omitempty"`
	// Extent says how much of their sources these totals cover, in words
	// (ExtentWords) shown next to them.
	Extent      []record.Extent `json:"extent"`
	ExtentWords string          `json:"extent_words"`
}

// KindTotal is the count and valid-amount sum of one kind of entry; with
// none held, Amount reads "no contracts held" (or payments, payroll).
type KindTotal struct {
	Count         int           `json:"count"`
	ValidAmounts  int           `json:"valid_amounts"`
	Amount        procure.Money `json:"amount"`
	InvalidAmount int           `json:"without_valid_amount"`
}

func kindTotal(x procure.Sum) KindTotal {
	return KindTotal{Count: x.Records, ValidAmounts: x.ValidAmounts, Amount: x.Money(), InvalidAmount: x.Records - x.ValidAmounts}
}

// PaymentsNote says what the payments totals measure.
const PaymentsNote = "Contract totals measure registered (or pending) contract value, not spending; payment totals sum checks issued. Amounts that are placeholders (0) or entry errors are excluded from totals. These are the records held here from Checkbook NYC and joined sources; the official datasets may hold more."

func (s *Server) paymentsView(t procure.RowTotals) *PaymentsView {
	p := &PaymentsView{Records: t.Records, Contracts: kindTotal(t.Contracts), Payments: kindTotal(t.Payments),
		ByFiscalYear: t.ByFiscalYear, Entries: []EntryView{}, More: t.More, Note: PaymentsNote}
	// the record coverage is a read of the engine's counts; the request's
	// context is not passed down to the views (paymentsView has four
	// callers), and the read is bounded by the engine
	p.Extent, p.ExtentWords = search.Extents(context.Background(), s.deps.Search, record.ExtentPayments)
	if t.Payroll != nil {
		k := kindTotal(*t.Payroll)
		p.Payroll = &k
	}
	for _, e := range t.Rows {
		p.Entries = append(p.Entries, s.entryView(e))
	}
	return p
}
