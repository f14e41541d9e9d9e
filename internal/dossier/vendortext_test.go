package dossier_test

import (
	"context"
	"testing"

	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
)

// A vendor held only through an intent to award whose text names it by a
// counted rule (NYPD's "intends to award a contract to Cleer Medical LLC",
// no vendor field) has its relations: the agency that intends the award,
// and the matter by the PIN printed on the notice.
func TestRelationshipsOfVendorReadFromText(t *testing.T) {
	if !entity.VendorTextCounted(entity.VendorPatternIntentAwardTo) {
		t.Fatal("intent_award_to is not counted (docs/data-sources.md)")
	}
	r, err := svc.Relationships(context.Background(), dossier.KindVendor, "Cleer Medical LLC")
	if err != nil {
		t.Fatal(err)
	}
	var agencies, matters []string
	for _, x := range r.Relations {
		switch x.Type {
		case dossier.AwardedBy:
			agencies = append(agencies, x.TargetID)
		case dossier.PartyToMatter:
			matters = append(matters, x.TargetID)
		}
	}
	if len(agencies) != 1 || agencies[0] != "police-department" || len(matters) != 1 || matters[0] != "056150000975" {
		t.Errorf("relations %+v", r.Relations)
	}
	b, err := svc.Batch(context.Background(), []string{"Cleer Medical LLC"})
	if err != nil || len(b.Items) != 1 || b.Items[0].Awards.Total != 1 || len(b.Items[0].AwardNotices) != 1 || b.Items[0].AwardNotices[0].RequestID != "20141114008" {
		t.Errorf("batch %+v %v", b, err)
	}
}
