package procure_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A matter reads the notices and registrations that its PIN does not
// carry itself (the award before the renewals, the registrations sharing
// the base PIN) from the link records the link stage wrote for its PIN
// group, each with its method and confidence; without those link records
// it holds only the records that carry the PIN (or the PIN without its
// renewal suffixes).
func TestMatterReadsItsJoinsFromLinkRecords(t *testing.T) {
	ctx := context.Background()
	be := sampletest.Copy(t, sampletest.Full, fixedNow)
	s := procure.New(be, entity.DefaultCrosswalk(), func() time.Time { return fixedNow })
	const pin = "12522P0001001R004"
	m, err := s.Matter(ctx, pin)
	if err != nil {
		t.Fatal(err)
	}
	if m.Counts["notices"] != 3 || m.Counts["contracts"] != 4 {
		t.Fatalf("counts %v", m.Counts)
	}
	p, err := search.Find(ctx, be, joins.Kind, search.RecordQuery{
		Keys: map[string][]string{joins.KeyPINGroup: {joins.PINGroup(pin)}}, Sort: search.RecordSortID, Limit: search.MaxRecordLimit})
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string]int{}
	var ids []string
	for _, l := range p.Items {
		pairs[l.From.Kind+"-"+l.To.Kind]++
		ids = append(ids, l.ID)
		if l.Method == "" || l.Confidence == "" || l.Evidence == "" {
			t.Errorf("link %+v says no method, confidence or evidence", l)
		}
	}
	// 3 notices: 3 notice pairs; 4 registrations: 6 pairs; 3 × 4 notice → contract
	if pairs["notice-notice"] != 3 || pairs["contract-contract"] != 6 || pairs["notice-contract"] != 12 {
		t.Errorf("links of group %s by pair: %v", joins.PINGroup(pin), pairs)
	}
	renewal := p.Items[0]
	for _, l := range p.Items {
		if l.ID == "notice:20220706041→notice:20240705012" {
			renewal = l
		}
	}
	if renewal.Method != entity.PINRenewal || renewal.Confidence != entity.ConfidenceHigh || !renewal.SameProcurement {
		t.Errorf("renewal notice link %+v", renewal)
	}
	if err := be.DeleteRecords(ctx, joins.Kind.Name, ids); err != nil {
		t.Fatal(err)
	}
	bare, err := s.Matter(ctx, pin)
	if err != nil {
		t.Fatal(err)
	}
	// the notices carrying the PIN or the PIN without renewals (the award
	// of 12522P0001001 and renewal R004), the registration of R004
	if bare.Status != record.Found || bare.Counts["notices"] != 2 || bare.Counts["contracts"] != 1 || bare.Totals.Apart.Records != 0 {
		t.Errorf("without the links of its group the matter holds %v (apart %d), want only the records carrying %s",
			bare.Counts, bare.Totals.Apart.Records, pin)
	}
}

// A matter whose PIN group holds more link records than one answer reads
// says so: the steps joined through the group are the first ones only.
func TestMatterSaysWhenItsGroupWasCut(t *testing.T) {
	ctx := context.Background()
	be := sampletest.Copy(t, sampletest.Full, fixedNow)
	s := procure.New(be, entity.DefaultCrosswalk(), func() time.Time { return fixedNow })
	const pin = "12522P0001001R004"
	m, err := s.Matter(ctx, pin)
	if err != nil || !m.LinksComplete || m.LinksNote != "" {
		t.Fatalf("whole group: complete %v, note %q (%v)", m.LinksComplete, m.LinksNote, err)
	}
	defer func(n int) { joins.MaxRead = n }(joins.MaxRead)
	joins.MaxRead = 1 // 5 pages of 1 link, of the group's 21
	cut, err := s.Matter(ctx, pin)
	if err != nil {
		t.Fatal(err)
	}
	if cut.LinksComplete || !strings.Contains(cut.LinksNote, "Incomplete") || cut.Records() >= m.Records() {
		t.Errorf("cut group: complete %v, note %q, %d steps (whole: %d)", cut.LinksComplete, cut.LinksNote, cut.Records(), m.Records())
	}
}
