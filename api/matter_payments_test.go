package api

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The matter JSON twin shows a joined payment as a step with its link
// method, and a matter without one reads "no payments held". The bundled
// sample holds no payment that joins a PIN, so the two payments of
// internal/procure/testdata/payment_fixtures (copies of the real spending
// answer: one naming the contract of PIN 85015B0065001C021's real
// registration, one stating the PIN; README there) are loaded on top.
func TestMatterPaymentsJSON(t *testing.T) {
	e := newEntityEnv(t, Config{})
	fsys := fstest.MapFS{}
	for _, p := range []string{"paid_by_contract", "paid_by_pin"} {
		b, err := os.ReadFile("../internal/procure/testdata/payment_fixtures/" + p + ".response.xml")
		if err != nil {
			t.Fatal(err)
		}
		fsys["cb/"+p+".response.xml"] = &fstest.MapFile{Data: b}
	}
	ix := &indexer.Indexer{Backend: e.be, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }}
	if rep, err := ix.LoadCheckbookDir(context.Background(), fsys, "cb"); err != nil || rep.Indexed != 2 {
		t.Fatalf("fixtures: %+v %v", rep, err)
	}

	res, b := get(t, e, "/api/matters/85015B0065001C021")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, b)
	}
	m := decode[matterAnswer](t, b)
	methods := map[string]string{}
	for _, st := range m.Timeline {
		if st.Record == "payment" {
			if st.Entry == nil || st.Amount == nil || st.Date != "2017-07-17" || st.Link.Note == "" {
				t.Errorf("payment step %+v", st)
			}
			methods[st.Entry.ID] = st.Link.Method + "/" + st.Link.Confidence
		}
	}
	if methods["checkbook:payment:20180011164-1-DSB-AD-BYCONTRACT"] != entity.JoinContractID+"/"+entity.ConfidenceHigh ||
		methods["checkbook:payment:20180011164-1-DSB-AD-BYPIN"] != entity.PINExact+"/"+entity.ConfidenceHigh || m.Counts["payments"] != 2 {
		t.Errorf("payment steps %v, counts %v", methods, m.Counts)
	}
	if m.Totals.Paid.Value == nil || *m.Totals.Paid.Value != 71550 {
		t.Errorf("paid %+v", m.Totals.Paid)
	}

	if l := m.Ledger; l.State != procure.PaymentsHeld || l.Paid.Display != "$71,550.00" {
		t.Errorf("matter registered vs paid %+v", l)
	}

	// the contract read, JSON and page: its payment joined by exact
	// contract id, registered vs paid by fiscal year, its matter
	_, b = get(t, e, "/api/contracts/CT185020151429177")
	c := decode[ContractView](t, b)
	if c.Payments.Total != 1 || len(c.Payments.Payments) != 1 || c.Payments.Payments[0].Link.Method != record.LinkExactContractID ||
		!strings.HasSuffix(c.Matter, "/api/matters/85015B0065001C021") {
		t.Errorf("contract payments %+v, matter %q", c.Payments, c.Matter)
	}
	paidIn := map[int]string{}
	for _, y := range c.Payments.Ledger.ByYear {
		paidIn[y.FiscalYear] = y.Paid.Display
	}
	if c.Payments.Ledger.State != procure.PaymentsHeld || paidIn[2018] != "$35,775.00" {
		t.Errorf("contract registered vs paid %+v", c.Payments.Ledger)
	}
	res, b = get(t, e, "/contracts/CT185020151429177")
	if page := string(b); res.StatusCode != 200 || !strings.Contains(page, "Registered vs paid") || !strings.Contains(page, "FY2018") ||
		!strings.Contains(page, "$35,775.00") || !strings.Contains(page, web.Label("en", "method", record.LinkExactContractID)) {
		t.Errorf("contract page: %d, no registered vs paid", res.StatusCode)
	}

	// a matter without payments: the paid total and the notes say so
	_, b = get(t, e, "/api/matters/81626W0043001")
	m = decode[matterAnswer](t, b)
	if m.Counts["payments"] != 0 || m.Totals.Paid.Value != nil || m.Totals.Paid.Display != "no payments held" ||
		!strings.Contains(strings.Join(m.Absence, " "), "No payments held") {
		t.Errorf("matter without payments: paid %+v, notes %v", m.Totals.Paid, m.Absence)
	}
}
