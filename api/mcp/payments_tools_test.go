package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
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

// get_contract answers a contract ID whose registration is not held but
// which payments name: found, registration not_held, every payment (the
// count read from the sample file itself), their payees and
// registered_vs_paid, and the row list that pages them.
func TestGetContractAnswersPaymentsWithoutRegistration(t *testing.T) {
	const id = "DO185720181820782"
	b, err := os.ReadFile("../../testdata/sample/checkbook/checkbook_spending_api_issue_date_2018-05-02_records_page.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, r := range raw {
		if r["contract_ID"] == id {
			want++
		}
	}
	s := connectFull(t)
	// the answer is cut at 64 KiB: its continuations carry the rest of
	// the payments
	seen := map[string]bool{}
	var c mcp.ContractOut
	for cursor, i := "", 0; i == 0 || cursor != ""; i++ {
		args := map[string]any{"id": id}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res := call(t, s, "get_contract", args)
		part := structured[mcp.ContractOut](t, res)
		if i == 0 {
			c = part
		}
		if part.Payments != nil {
			for _, p := range part.Payments.Payments {
				seen[p.Payment.ID] = true
			}
		}
		var cont struct {
			Continuation *struct {
				Cursor string `json:"cursor"`
			} `json:"continuation"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &cont)
		cursor = ""
		if cont.Continuation != nil {
			cursor = cont.Continuation.Cursor
		}
		if i > 20 {
			t.Fatal("the continuations do not end")
		}
	}
	if want == 0 || c.Status != "found" || c.Registration != procure.RegistrationNotHeld || c.Contract != nil || c.Payments == nil ||
		c.Payments.Total != want || len(seen) != want || c.Payments.Ledger.State != procure.PaymentsHeld ||
		len(c.Payees) == 0 || !strings.Contains(c.RegistrationNote, "registration not held") || !strings.Contains(c.PaymentRows, "contract_id="+id) {
		t.Fatalf("get_contract %s (want %d payments): status %s registration %q total %d, %d payments read, payees %+v rows %q",
			id, want, c.Status, c.Registration, c.Payments.Total, len(seen), c.Payees, c.PaymentRows)
	}
}
