package link_test

import (
	"testing"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// A payment that states a PIN itself is linked to that PIN without its
// renewal suffix (exact, or renewal when it states a renewal; high), in
// the PIN group a matter reads; payroll rows and placeholder PINs are
// never linked.
func TestJoinPaymentPINs(t *testing.T) {
	ps := []procure.Payment{
		{ID: "p1", PIN: "85015B0065001C021"},
		{ID: "p2", PIN: "12522P0001001R004"},
		{ID: "p3", PIN: "N/A"},
		{ID: "p4", PIN: "85015B0065001", Payroll: true},
		{ID: "p5"},
	}
	got := link.JoinPaymentPINs(ps)
	if len(got) != 2 {
		t.Fatalf("links %+v", got)
	}
	want := []struct{ from, to, method, group string }{
		{"p1", "85015B0065001C021", entity.PINExact, "85015B0065"},
		{"p2", "12522P0001001", entity.PINRenewal, "12522P0001"},
	}
	for i, w := range want {
		l := got[i]
		if l.From != (record.Ref{Kind: record.RefPayment, ID: w.from}) || l.To != (record.Ref{Kind: joins.RefPIN, ID: w.to}) ||
			l.Method != w.method || l.Confidence != entity.ConfidenceHigh || !l.SameProcurement || l.Evidence == "" {
			t.Errorf("link %d: %+v, want %+v", i, l, w)
		}
		if g := joins.Kind.Index(l).Keys[joins.KeyPINGroup]; len(g) != 1 || g[0] != w.group {
			t.Errorf("link %d: PIN group %v, want %s", i, g, w.group)
		}
	}
}
