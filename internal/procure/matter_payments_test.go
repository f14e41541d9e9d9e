package procure_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// paymentFixtures are the bundled Checkbook answers plus the two payments
// of testdata/payment_fixtures (README there): copies of the real spending
// answer, one naming the contract of PIN 85015B0065001C021's real
// registration, one stating that PIN. The bundled sample holds no payment
// that joins a PIN.
func paymentFixtures(t testing.TB) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, p := range []string{"contracts_active_expense_citywide", "contracts_pending_expense_citywide", "spending_citywide"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/sample/checkbook", p+".response.xml"))
		if err != nil {
			t.Fatal(err)
		}
		fsys["cb/"+p+".response.xml"] = &fstest.MapFile{Data: b}
	}
	for _, p := range []string{"paid_by_contract", "paid_by_pin"} {
		b, err := os.ReadFile(filepath.Join("testdata/payment_fixtures", p+".response.xml"))
		if err != nil {
			t.Fatal(err)
		}
		fsys["cb/"+p+".response.xml"] = &fstest.MapFile{Data: b}
	}
	return fsys
}

// paymentService is the procurement service over a new index holding the
// bundled Checkbook answers and the payment fixtures, loaded through the
// pipeline (so its link stage writes the joins).
func paymentService(t *testing.T) *procure.Service {
	t.Helper()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	cw := entity.DefaultCrosswalk()
	ix := &indexer.Indexer{Backend: b, Crosswalk: cw, Now: func() time.Time { return fixedNow }}
	if rep, err := ix.LoadCheckbookDir(context.Background(), paymentFixtures(t), "cb"); err != nil || len(rep.Errors) != 0 {
		t.Fatalf("load: %+v %v", rep, err)
	}
	return procure.New(b, cw, func() time.Time { return fixedNow })
}

// A matter whose registration has a Checkbook payment shows it as a step
// linked by contract id; a payment that states the PIN itself is a step
// linked by PIN; both are summed as paid. A matter without any reads "no
// payments held".
func TestMatterShowsJoinedPayments(t *testing.T) {
	ctx := context.Background()
	s := paymentService(t)

	m, err := s.Matter(ctx, "85015B0065001C021")
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != record.Found || m.Counts["contracts"] != 1 || m.Counts["payments"] != 2 || m.Records() != 3 {
		t.Fatalf("counts %v, %d records", m.Counts, m.Records())
	}
	methods := map[string]procure.Link{}
	for _, st := range m.Steps {
		if st.Step == "payment" {
			if st.Row == nil || st.Row.Amount != 35775 || st.Date.Format("2006-01-02") != "2017-07-17" {
				t.Errorf("payment step %+v", st)
			}
			methods[st.Link.Method] = st.Link
		}
	}
	byContract, byPIN := methods[entity.JoinContractID], methods[entity.PINExact]
	if byContract.Confidence != entity.ConfidenceHigh || !byContract.SameProcurement || !strings.Contains(byContract.Note, "CT185020151429177") {
		t.Errorf("payment by contract: %+v", byContract)
	}
	if byPIN.Confidence != entity.ConfidenceHigh || !strings.Contains(byPIN.Note, "states the PIN itself") || !strings.Contains(byPIN.Note, "CT103920171428053") {
		t.Errorf("payment by PIN: %+v", byPIN)
	}
	if got := value(t, m.Totals.Paid); got != 71550 || m.Totals.Paid.Display() != "$71,550.00" {
		t.Errorf("paid %v %q", got, m.Totals.Paid.Display())
	}
	for _, a := range m.Absence {
		if strings.Contains(a, "No payments held") {
			t.Errorf("absence note %q on a matter with payments", a)
		}
	}

	none, err := s.Matter(ctx, "85015P0007001A002")
	if err != nil {
		t.Fatal(err)
	}
	if none.Counts["payments"] != 0 || none.Totals.Paid.Value() != nil || none.Totals.Paid.Display() != procure.NoPayments ||
		!strings.Contains(strings.Join(none.Absence, " "), "No payments held") {
		t.Errorf("matter without payments: %v, paid %q, absence %v", none.Counts, none.Totals.Paid.Display(), none.Absence)
	}
}

// A contract read carries the payments joined to its rows at index time
// (link records, exact contract id), registered vs paid by fiscal year and
// the coverage of the payments held; a contract without payments reads
// "no payments held" with that coverage, never $0 paid. The matter and the
// notice joins show the same ledger.
func TestContractReadShowsPaymentsByFiscalYear(t *testing.T) {
	ctx := context.Background()
	s := paymentService(t)

	r, err := s.Contract(ctx, "CT185020151429177")
	if err != nil {
		t.Fatal(err)
	}
	p := r.Payments
	if p.Total != 1 || len(p.Payments) != 1 || !p.Complete {
		t.Fatalf("payments %+v", p)
	}
	jp := p.Payments[0]
	if jp.Payment.Amount != 35775 || jp.Link.Method != record.LinkExactContractID || jp.Link.Confidence != entity.ConfidenceHigh || jp.Link.Evidence == "" {
		t.Errorf("joined payment %+v", jp)
	}
	l := p.Ledger
	if l.State != procure.PaymentsHeld || l.Paid.Display != "$35,775.00" || l.JoinedBy != procure.JoinedByContractID {
		t.Errorf("ledger %+v", l)
	}
	var paidYears []int
	for _, y := range l.ByYear {
		if y.Payments > 0 {
			paidYears = append(paidYears, y.FiscalYear)
		}
	}
	if len(paidYears) != 1 || paidYears[0] != 2018 {
		t.Errorf("paid by fiscal year %+v", l.ByYear)
	}
	// the payments held are 3 of one issue day: the coverage says so
	if c := l.Coverage; c.Payments != 3 || c.First != "2017-07-17" || c.Last != c.First || !strings.Contains(c.Note, "extract") {
		t.Errorf("coverage %+v", c)
	}
	if r.MatterPIN != "85015B0065001C021" {
		t.Errorf("matter pin %q", r.MatterPIN)
	}
	m, err := s.Matter(ctx, r.MatterPIN)
	if err != nil {
		t.Fatal(err)
	}
	if m.Ledger.State != procure.PaymentsHeld || m.Ledger.Paid.Display != "$71,550.00" {
		t.Errorf("matter ledger %+v", m.Ledger)
	}

	// a pending contract with no payment: no payments held, not $0
	none, err := s.Contract(ctx, "CTR85020151424706")
	if err != nil {
		t.Fatal(err)
	}
	if nl := none.Payments.Ledger; none.Payments.Total != 0 || nl.State != procure.NoPaymentsHeld || nl.Paid.Value != nil ||
		nl.Paid.Display != procure.NoPayments || !strings.HasPrefix(nl.Note, "No payments held") || nl.Coverage.Payments != 3 {
		t.Errorf("contract without payments: %+v", none.Payments)
	}
}

// The payment that states PIN 85015B0065001C021 itself is joined at index
// time: the link stage wrote its link record to that PIN (method exact,
// confidence high, with evidence) in the PIN group, and the matter finds
// it there, as a step linked by PIN: from another PIN of its 10-character
// base, by prefix (low, summed apart).
func TestMatterReadsPaymentsStatingThePINFromLinkRecords(t *testing.T) {
	ctx := context.Background()
	s := paymentService(t)
	rows, err := s.Rows(ctx, procure.RowQuery{PINs: []string{"85015B0065001C021"}, Kinds: []string{procure.RowPayment}})
	if err != nil || len(rows.Rows) != 1 {
		t.Fatalf("payments stating the PIN: %+v %v", rows.Rows, err)
	}
	pay := record.Ref{Kind: record.RefPayment, ID: rows.Rows[0].ID}
	links, complete, err := s.Links(ctx, []record.Ref{pay}, joins.Pair(record.RefPayment, joins.RefPIN))
	if err != nil || !complete || len(links) != 1 {
		t.Fatalf("link records %+v %v %v", links, complete, err)
	}
	l := links[0]
	if l.From != pay || l.To != (record.Ref{Kind: joins.RefPIN, ID: "85015B0065001C021"}) || l.Method != entity.PINExact ||
		l.Confidence != entity.ConfidenceHigh || !l.SameProcurement || !strings.Contains(l.Evidence, "85015B0065001C021") {
		t.Errorf("link %+v", l)
	}
	m, err := s.Matter(ctx, "85015B0065002")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, st := range m.Steps {
		if st.Row != nil && st.Row.ID == pay.ID {
			found = st.Link.Method == entity.PINPrefix && !st.Link.SameProcurement && strings.Contains(st.Link.Note, "states the PIN itself")
		}
	}
	if !found {
		t.Errorf("matter of another PIN of the base: %+v has no step for payment %s linked by prefix", m.Steps, pay.ID)
	}
}
