package watch

import (
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

func TestCompile(t *testing.T) {
	now := time.Date(2026, 8, 3, 15, 0, 0, 0, record.NewYork)
	min := 500000.0
	award := Filter{Lens: "money", AnyOf: []string{"construction"}, Exclude: []string{"queens"}, MinAmount: &min}.Compile(now)
	if award.Text != "construction -queens" || !award.ValidAmountOnly || award.Sort != search.SortNewest || award.NoticeTypes[0] != "Award" {
		t.Errorf("award feed %+v", award)
	}
	open := Filter{Lens: "money", Phrases: []string{"pest management"}}.Compile(now)
	if open.Text != `"pest management"` || open.Sort != search.SortDueSoonest || !open.IncludeRolling ||
		!open.DueFrom.Equal(time.Date(2026, 8, 3, 0, 0, 0, 0, record.NewYork)) {
		t.Errorf("open solicitations %+v", open)
	}
	meet := Filter{Lens: "meetings"}.Compile(now)
	if meet.Sort != search.SortEvent || meet.EventFrom.IsZero() {
		t.Errorf("meetings %+v", meet)
	}
	ent := Filter{Lens: LensEntity, Vendors: []string{"SECURUS TECHNOLOGIES"}}.Compile(now)
	if len(ent.Lenses) != 0 || ent.VendorStems[0] != "SECURUS TECHNOLOGIES" {
		t.Errorf("entity %+v", ent)
	}
	if err := (Filter{Lens: LensEntity, Vendors: []string{"AB"}}).Validate(); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("short stem accepted: %v", err)
	}
	if err := (Filter{Lens: "weather"}).Validate(); err == nil {
		t.Error("unknown lens accepted")
	}
}

// The vendor minimum counts characters (entity.MinStemChars), not bytes.
func TestValidateVendorCountsCharacters(t *testing.T) {
	for v, ok := range map[string]bool{"Éa": false, "日本": false, "Éab": true, "日本語": true} {
		err := Filter{Lens: LensEntity, Vendors: []string{v}}.Validate()
		if (err == nil) != ok {
			t.Errorf("vendor %q: %v", v, err)
		}
	}
}
