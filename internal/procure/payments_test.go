package procure_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// allPayments reads every payment held, page by page.
func allPayments(t *testing.T, b search.Engine) []procure.Payment {
	t.Helper()
	var out []procure.Payment
	q := search.RecordQuery{Kinds: []string{procure.KindPayment}, Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
	for {
		p, err := search.Find(context.Background(), b, procure.PaymentKind, q)
		if err != nil {
			t.Fatalf("payments: %v", err)
		}
		out = append(out, p.Items...)
		if p.NextCursor == "" {
			if len(out) != p.Total {
				t.Fatalf("read %d payments of %d", len(out), p.Total)
			}
			return out
		}
		q.Cursor = p.NextCursor
	}
}

// joinRate counts the spending payments held that name a contract id and
// how many of them the link stage joined to a registration held.
func joinRate(t *testing.T, b search.Engine) (withContract, joined int) {
	t.Helper()
	ctx := context.Background()
	s := procure.New(b, entity.DefaultCrosswalk(), nil)
	var refs []record.Ref
	for _, x := range allPayments(t, b) {
		if x.ContractID != "" {
			withContract++
			refs = append(refs, record.Ref{Kind: record.RefPayment, ID: x.ID})
		}
	}
	links, complete, err := s.Links(ctx, refs, record.RefContract+"-"+record.RefPayment)
	if err != nil || !complete {
		t.Fatalf("links: %v (complete %v)", err, complete)
	}
	paid := map[string]bool{}
	for _, l := range links {
		if l.Method != record.LinkExactContractID {
			t.Errorf("a payment joined by %s: %+v", l.Method, l)
		}
		paid[l.To.ID] = true
	}
	return withContract, len(paid)
}

// The join rate of payments to registrations, measured on the bundled
// sample (which holds the 1,000 real spending rows of 2018-05-02 beside
// its registrations). docs/data-sources.md states the figure; this test
// fails when it changes. Redacted payees get no vendor stem, so they are
// never joined or counted by name.
func TestPaymentJoinRate(t *testing.T) {
	with, joined := joinRate(t, be)
	held := allPayments(t, be)
	redacted := 0
	for _, p := range held {
		if link.RedactedPayee(p.VendorName) {
			redacted++
			if p.VendorStem != "" {
				t.Errorf("redacted payee %s has stem %q", p.ID, p.VendorStem)
			}
		}
	}
	// every spending row is a payment of its own (repeated lines of one
	// document are numbered), so the 1,000 rows of 2018 and the one older
	// bundled payment are all held
	if len(held) != 1001 || redacted == 0 {
		t.Errorf("%d payments held, %d with a redacted payee; want 1001, some redacted", len(held), redacted)
	}
	if with < 700 {
		t.Errorf("%d of the payments held name a contract id (was the contract_ID tag read?)", with)
	}
	t.Logf("bundled: %d of %d payments that name a contract id joined; %d of %d payments redacted", joined, with, redacted, len(held))

	doc, err := os.ReadFile("../../docs/data-sources.md")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("bundled sample: %d of %d payments that name a contract id join a registration held", joined, with)
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), want) {
		t.Errorf("docs/data-sources.md does not state the measured join rate %q", want)
	}
}
