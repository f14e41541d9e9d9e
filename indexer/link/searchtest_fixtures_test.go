package link_test

import (
	"encoding/json"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// The engine contract suite (internal/search/searchtest) applies no
// identity rule: its fixtures carry the fields the link stage derives,
// precomputed. They are the link stage's: a notice's agency id and name
// (no crosswalk) and vendor stem; a source record's agency id (the default
// crosswalk), vendor stem, PIN key and base; and the values its queries
// ask by. Moved here with the derivations (from searchtest's fixtures,
// which called internal/entity).
func TestSearchtestFixturesCarryTheLinkStagesFields(t *testing.T) {
	for _, d := range searchtest.Fixtures() {
		n := d.Notice
		x := n
		link.Linker{}.Notice(&x)
		if x.AgencyID != n.AgencyID || x.AgencyName != n.AgencyName {
			t.Errorf("notice %s: agency %q %q, the link stage gives %q %q", n.RequestID, n.AgencyID, n.AgencyName, x.AgencyID, x.AgencyName)
		}
		if n.VendorName != "" && x.VendorStem != n.VendorStem {
			t.Errorf("notice %s: vendor stem %q, the link stage gives %q", n.RequestID, n.VendorStem, x.VendorStem)
		}
	}
	cw := entity.DefaultCrosswalk()
	key := func(r search.Record, k string) string {
		if v := r.Keys[k]; len(v) == 1 {
			return v[0]
		}
		return ""
	}
	for _, r := range searchtest.SourceRecordFixtures() {
		var raw struct{ Agency, Vendor, PIN string }
		if err := json.Unmarshal(r.Body, &raw); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{search.KeyVendorStem: "", search.KeyAgencyID: "", search.KeyPIN: "", search.KeyPINBase: ""}
		if raw.Agency != "" {
			want[search.KeyAgencyID] = cw.Resolve(raw.Agency).ID
		}
		if raw.Vendor != "" {
			want[search.KeyVendorStem] = entity.VendorStem(raw.Vendor)
		}
		if raw.PIN != "" {
			want[search.KeyPIN], want[search.KeyPINBase] = entity.PINKeys(raw.PIN)
		}
		for k, v := range want {
			if got := key(r, k); got != v {
				t.Errorf("record %s: %s %q, the link stage gives %q", r.ID, k, got, v)
			}
		}
	}
	// the values the suite's queries ask by
	for in, want := range map[string]string{
		entity.NormalizePIN("85013b0017001c237"):        "85013B0017001C237",
		entity.NormalizePIN("12522P0001001R004"):        "12522P0001001R004",
		entity.VendorStem("Skanska-Trevcon JV"):         "SKANSKA TREVCON JV",
		entity.VendorStem("Securus Technologies, Inc."): "SECURUS TECHNOLOGIES",
	} {
		if in != want {
			t.Errorf("derived %q, the suite asks by %q", in, want)
		}
	}
}
