package embedded_test

import (
	"context"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// TestVendorFilterFindsLegacyStems moved to indexer
// (TestRelinkRewritesEarlierRuleStems): stems of an earlier rule are now
// rewritten by re-linking the data directory, not widened by the engine.

// A stem that joined initials finds its mentions written with periods.
func TestMentionQueryFindsInitials(t *testing.T) {
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	day := time.Date(2014, 10, 7, 0, 0, 0, 0, record.NewYork)
	text := "RECONSTRUCTION OF BRIDGE - PIN# 84114B0001 - AMT: $1.00 - TO: C.A.C. Industries, Inc., 555 Old Country Road"
	if err := b.Upsert(ctx, []search.Doc{{Notice: record.Notice{RequestID: "1", Source: "crol", Section: "Procurement", Lens: record.LensMoney,
		Lenses: []string{record.LensMoney}, NoticeType: "Award", Title: "RECONSTRUCTION OF BRIDGE", StartDate: day, Body: text, Text: text}}}); err != nil {
		t.Fatal(err)
	}
	q := entity.MentionQuery(entity.VendorStem("C.A.C. INDUSTRIES, INC."))
	res, err := b.Search(ctx, search.Query{Text: q, Limit: 5})
	if err != nil || res.Total != 1 {
		t.Errorf("%s: %d %v", q, res.Total, err)
	}
}
