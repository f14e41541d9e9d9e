package mcp_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
)

// connectFull connects to Form 1's tools over everything the bundled
// sample holds (registrations and payments too).
func connectFull(t *testing.T) *sdk.ClientSession { return connectFullForm(t, 1) }

// connectFullForm connects to one form's tools over the full sample.
func connectFullForm(t *testing.T, form int) *sdk.ClientSession {
	t.Helper()
	be, err := sampletest.SharedIndex(sampletest.Full, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcp.Handler(depsOver(be, entity.DefaultCrosswalk(), form), form))
	t.Cleanup(ts.Close)
	c := sdk.NewClient(&sdk.Implementation{Name: "recordwatch-test", Version: "1"}, nil)
	s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// "Was it paid?" in one call: get_contract returns the payments joined to
// the contract (none on the bundled sample for this registration: stated
// as no_payments_held with the coverage of the payments held, never $0)
// and the procurement matter of its PIN; get_notice returns the matter of
// the notice's PIN and its payments.
func TestContractAndNoticeReturnPaymentsAndMatter(t *testing.T) {
	s := connectFull(t)
	c := structured[mcp.ContractOut](t, call(t, s, "get_contract", map[string]any{"id": "CT185020151429177"}))
	if c.Status != "found" || c.Payments == nil || c.Matter == nil {
		t.Fatalf("contract %+v", c)
	}
	l := c.Payments.Ledger
	if c.Payments.Total != 0 || l.State != procure.NoPaymentsHeld || l.Paid.Value != nil || l.Coverage.Payments == 0 ||
		!strings.Contains(l.Note, "extract") || len(l.ByYear) != 1 || l.ByYear[0].FiscalYear != 2016 || l.ByYear[0].Contracts != 1 {
		t.Errorf("payments %+v", c.Payments)
	}
	m := c.Matter
	if m.PIN != "85015B0065001C021" || m.Counts["contracts"] == 0 || !strings.HasSuffix(m.Route, "/api/matters/85015B0065001C021") ||
		len(m.Timeline) == 0 || m.Timeline[0].Link.Method == "" || m.Timeline[0].ID == "" || m.Ledger.State != procure.NoPaymentsHeld {
		t.Errorf("matter %+v", m)
	}
	// the brief form is the service's answer with each step's record left out
	for _, st := range m.Timeline {
		if st.Notice != nil || st.Entry != nil {
			t.Errorf("brief matter step %+v carries its record", st)
		}
	}

	n := structured[mcp.NoticeOut](t, call(t, s, "get_notice", map[string]any{"request_id": "20260624018"}))
	if n.Matter == nil || n.Matter.PIN != "12522P0001001R004" || n.Matter.Counts["notices"] != 3 || n.Payments == nil ||
		n.Payments.Totals.Payments.Count != 0 || n.Payments.Totals.Ledger == nil || n.Payments.Totals.Ledger.State != procure.NoPaymentsHeld {
		t.Errorf("notice matter %+v payments %+v", n.Matter, n.Payments)
	}
}

// Form 2 serves no matter or payments route: its get_notice reads the
// notice alone, with no matter or payments pointing at Form 1's routes.
func TestForm2NoticeHasNoMatterOrPayments(t *testing.T) {
	s := connectFullForm(t, 2)
	n := structured[mcp.NoticeOut](t, call(t, s, "get_notice", map[string]any{"request_id": "20260624018"}))
	if n.Status != "found" || n.Matter != nil || n.Payments != nil {
		t.Errorf("Form 2 notice: status %s, matter %v, payments %v", n.Status, n.Matter, n.Payments)
	}
}
