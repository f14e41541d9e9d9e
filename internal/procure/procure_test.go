package procure_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

var (
	fixedNow = time.Date(2026, 7, 31, 12, 0, 0, 0, record.NewYork)
	be       *embedded.Backend
	svc      *procure.Service
)

// TestMain loads the bundled sample, as `go run .` does, into a real
// embedded index.
func TestMain(m *testing.M) {
	// everything the bundled sample holds (EnsureSample), loaded once per
	// test binary
	var err error
	be, err = sampletest.SharedIndex(sampletest.Full, fixedNow)
	if err != nil {
		panic(err)
	}
	cw := entity.DefaultCrosswalk()
	svc = procure.New(be, cw, func() time.Time { return fixedNow })
	os.Exit(sampletest.Main(m)) // closes be
}

func value(t *testing.T, s procure.Sum) float64 {
	t.Helper()
	v := s.Value()
	if v == nil {
		t.Fatalf("sum %+v holds no value", s)
	}
	return *v
}

// The DFTA older adult center: the award of 12522P0001001, its renewals
// R002 and R004, its registration, and three registrations of other
// vendors that share only the base PIN 12522P0001.
func TestMatterSumsOnlyTheSameProcurement(t *testing.T) {
	m, err := svc.Matter(context.Background(), " 12522P0001001R004 ")
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != record.Found || m.PIN != "12522P0001001R004" || m.BasePIN != "12522P0001001" || m.Prefix != "12522P0001" || m.Kind != procure.KindProcurement {
		t.Fatalf("matter %+v", m)
	}
	if m.Records() != 7 || m.Counts["notices"] != 3 || m.Counts["contracts"] != 4 || m.Counts["payments"] != 0 {
		t.Errorf("records %d, counts %v", m.Records(), m.Counts)
	}
	if got := value(t, m.Totals.Awarded); got != 4800000 {
		t.Errorf("awarded %v", got)
	}
	if got := value(t, m.Totals.Registered); got != 738202 {
		t.Errorf("registered %v, want the exact registration only", got)
	}
	if m.Totals.Paid.Held() || m.Totals.Paid.Value() != nil || m.Totals.Paid.Display() != "no payments held" {
		t.Errorf("paid %+v reads %q", m.Totals.Paid, m.Totals.Paid.Display())
	}
	if a := m.Totals.Apart; a.Method != entity.PINPrefix || a.Records != 3 || value(t, a.Registered) != 2667337 || a.Awarded.Held() {
		t.Errorf("apart %+v", a)
	}
	for i, st := range m.Steps {
		if i > 0 && st.Date.Before(m.Steps[i-1].Date) {
			t.Errorf("step %d out of order", i)
		}
		prefix := st.Link.Method == entity.PINPrefix
		if st.Link.SameProcurement == prefix || (st.Link.Confidence == entity.ConfidenceLow) != prefix || st.Link.Note == "" {
			t.Errorf("step %s %s: link %+v", st.Step, st.PIN, st.Link)
		}
		if (st.Notice == nil) == (st.Row == nil) {
			t.Errorf("step %s holds a notice and a row, or neither", st.Step)
		}
	}
	if len(m.Scope.Sources) == 0 || m.Scope.Searched.Kind != "procurement_matter" {
		t.Errorf("scope %+v", m.Scope)
	}
}

func TestMatterErrors(t *testing.T) {
	ctx := context.Background()
	for _, pin := range []string{"N/A", "NONE", "TBD", "0", "-", ""} {
		if _, err := svc.Matter(ctx, pin); record.ErrorCode(err) != record.ENOTFOUND {
			t.Errorf("%q: %v, want ENOTFOUND", pin, err)
		}
	}
	long := "12522P0001001R004-12522P0001001R004-12522P0001001R004-12522P0001001R004"
	if _, err := svc.Matter(ctx, long); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("long PIN: %v", err)
	}
	// nothing joins: an explicit not_found with its scope, not an error
	m, err := svc.Matter(ctx, "99999Z9999")
	if err != nil || m.Status != record.NotFound || m.Records() != 0 || len(m.Scope.Sources) == 0 {
		t.Errorf("unknown PIN: %+v %v", m, err)
	}
	// records that cannot be read are unavailable, never empty
	bare := procure.New(searchtest.RecordsDown{Engine: be}, entity.DefaultCrosswalk(), nil)
	if _, err := bare.Matter(ctx, "12522P0001001R004"); record.ErrorCode(err) != record.EUNAVAILABLE {
		t.Errorf("no entries: %v", err)
	}
}

func TestNoticePaymentsSumApart(t *testing.T) {
	ctx := context.Background()
	n, err := be.Get(ctx, "20260624018")
	if err != nil {
		t.Fatal(err)
	}
	j, err := svc.NoticePayments(ctx, n)
	if err != nil || j == nil {
		t.Fatalf("%+v %v", j, err)
	}
	if j.Totals.Contracts.Records != 1 || value(t, j.Totals.Contracts) != 738202 || j.Totals.Payments.Display() != procure.NoPayments {
		t.Errorf("same-procurement totals %+v", j.Totals)
	}
	// three registrations share the base PIN; one more names the notice's
	// request id at the source but carries another PIN
	// (06821P0330013R001): a low lead, summed apart
	if j.Apart.Contracts.Records != 4 || value(t, j.Apart.Contracts) != 2667337+70707033 {
		t.Errorf("apart %+v", j.Apart)
	}
	if len(j.Links) != 5 || !j.Complete {
		t.Fatalf("links %+v", j.Links)
	}
	for _, l := range j.Links {
		if want := l.Row.PIN == "12522P0001001R004"; l.Link.SameProcurement != want || l.Link.Note == "" {
			t.Errorf("%s %s: %+v", l.Row.ContractID, l.Row.PIN, l.Link)
		}
		if l.Row.PIN == "06821P0330013R001" && (l.Link.Method != entity.JoinSource || l.Link.Confidence != entity.ConfidenceLow) {
			t.Errorf("source join with another PIN: %+v", l.Link)
		}
	}
	// a placeholder PIN joins nothing
	n.PIN = "N/A"
	if j, err := svc.NoticePayments(ctx, n); j != nil || err != nil {
		t.Errorf("junk PIN: %+v %v", j, err)
	}
}

func TestSumReadsAbsentAsAbsent(t *testing.T) {
	for _, tc := range []struct {
		s    procure.Sum
		want string
	}{
		{procure.Sum{Absent: procure.NoPaymentsKey}, "no payments held"},
		{procure.Sum{Records: 2, Absent: procure.NoContractsKey}, "no valid amounts held"},
		{procure.Sum{Records: 2, ValidAmounts: 1, Amount: 1234.5}, "$1,234.50"},
		{procure.Sum{Records: 1, ValidAmounts: 1, Amount: 0.004}, "$0.00"},
	} {
		if got := tc.s.Display(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
		if (tc.s.Value() == nil) == tc.s.Held() {
			t.Errorf("%+v: value %v, held %v", tc.s, tc.s.Value(), tc.s.Held())
		}
	}
}

func TestTotalsAndAwards(t *testing.T) {
	ctx := context.Background()
	res, err := svc.Rows(ctx, procure.RowQuery{VendorStems: []string{entity.VendorStem(entity.StemFromSlug("skanska~trevcon-jv"))}, Totals: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	tot := procure.Totals(res, 1)
	// both rows are pending (received, no registration date): counted
	// apart, never registered value
	if tot.Unregistered.Records != 2 || value(t, tot.Unregistered) != 419717845.27 || tot.Contracts.Records != 0 || tot.Contracts.Held() ||
		tot.Payments.Held() || tot.Payroll != nil {
		t.Errorf("totals %+v", tot)
	}
	q := search.Query{AgencyIDs: []string{"transportation"}, NoticeTypes: procure.AwardTypes}
	nt, err := svc.Records.NoticeTotals(ctx, q, []string{search.GroupAgencyID, search.GroupFiscalYear}, 10)
	if err != nil {
		t.Fatal(err)
	}
	a := svc.AwardTotals(nt)
	if a.Total == 0 || len(a.Agencies) != 1 || a.Agencies[0].ID != "transportation" || a.Agencies[0].Name == "transportation" || len(a.ByFiscalYear) == 0 {
		t.Errorf("awards %+v", a)
	}
}

// An award total reads absent data as absent: never $0.00.
func TestAwardSumReadsAbsenceAsAbsent(t *testing.T) {
	for _, c := range []struct {
		count, valid int
		amount       float64
		display      string
		held         bool
	}{
		{0, 0, 0, "no awards held", false},
		{6, 0, 0, "no valid amounts held", false},
		{3, 2, 1500.5, "$1,500.50", true},
	} {
		s := procure.AwardSum(c.count, c.valid, c.amount)
		if s.Display() != c.display || (s.Value() != nil) != c.held {
			t.Errorf("%+v: %q %v", c, s.Display(), s.Value())
		}
	}
}

// Registered vs paid compares only the years holding both: such a year is
// marked, a year with one side only is not, and contract rows without a
// registration date are counted apart, in no year and not in registered
// value.
func TestLedgerMarksTheYearsHoldingBoth(t *testing.T) {
	years := []procure.YearTotal{
		{Kind: procure.RowContract, FiscalYear: 2018, Count: 1, ValidAmounts: 1, Amount: 100},
		{Kind: procure.RowPayment, FiscalYear: 2018, Count: 2, ValidAmounts: 2, Amount: 40},
		{Kind: procure.RowPayment, FiscalYear: 2019, Count: 1, ValidAmounts: 1, Amount: 5},
		{Kind: procure.RowContract, FiscalYear: 0, Count: 2, ValidAmounts: 2, Amount: 1e6},
	}
	l, err := svc.Ledger(context.Background(), procure.RowTotals{ByFiscalYear: years}, procure.JoinedByPayeeKey)
	if err != nil {
		t.Fatal(err)
	}
	both := map[int]bool{}
	for _, y := range l.ByYear {
		both[y.FiscalYear] = y.Both
	}
	if len(l.ByYear) != 2 || !both[2018] || both[2019] || l.ContractsNotRegistered != 2 || l.Registered.Value == nil || *l.Registered.Value != 100 || l.BothNote == "" {
		t.Errorf("ledger %+v", l)
	}
}
