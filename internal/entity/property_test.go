package entity_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The real Property Disposition notices of the bundled sample.
func propertyNotices(t *testing.T) map[string]record.Notice {
	t.Helper()
	c, errs := crol.Scan(os.DirFS("../../testdata/sample"), "crol", entity.DefaultCrosswalk())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := map[string]record.Notice{}
	for _, n := range c.Notices {
		if n.Section == record.SectionPropertyDisp {
			out[n.RequestID] = n
		}
	}
	return out
}

func TestExtractPlacesFromRealPropertyDispositions(t *testing.T) {
	ns := propertyNotices(t)
	// HPD's sale of Clinton Site 7: addresses in a Block/Lots table, one
	// borough in scope, a hearing venue and two offices that are not the site
	hpd := entity.ExtractPlaces(ns["20141022109"].Text)
	js, _ := json.MarshalIndent(hpd, "", " ")
	if len(hpd.Boroughs) != 1 || hpd.Boroughs[0] != "Manhattan" {
		t.Errorf("boroughs %v", hpd.Boroughs)
	}
	if len(hpd.BBLs) != 1 || hpd.BBLs[0] != "1010810001" {
		t.Errorf("bbls %v\n%s", hpd.BBLs, js)
	}
	want := []string{"538 - 548 West 53rd Street", "530 - 536 West 53rd Street", "543-551 West 52nd Street"}
	if len(hpd.Addresses) != len(want) {
		t.Fatalf("addresses %+v", hpd.Addresses)
	}
	for i, a := range hpd.Addresses {
		if a.Text != want[i] || a.Borough != "Manhattan" {
			t.Errorf("address %d = %+v, want %q in Manhattan", i, a, want[i])
		}
	}
	for _, lot := range hpd.TaxLots {
		if lot.Block != 1081 || lot.Lot != 1 || !lot.PartOfLot || lot.BBL != "1010810001" {
			t.Errorf("tax lot %+v", lot)
		}
	}
	aside := map[string]bool{}
	for _, s := range hpd.SetAside {
		aside[s.Text] = true
	}
	for _, venue := range []string{"22 Reade Street", "100 Gold Street", "253 Broadway"} {
		if !aside[venue] {
			t.Errorf("%s (venue or contact) not set aside: %+v", venue, hpd.SetAside)
		}
	}
	if !aside["Block 1081, Lots 1001 through 1008"] {
		t.Errorf("privately owned lots not set aside: %+v", hpd.SetAside)
	}

	// Police property clerk: every address is an office to ask at
	police := entity.ExtractPlaces(ns["20130621104"].Text)
	if len(police.Addresses) != 0 || len(police.BBLs) != 0 || len(police.SetAside) < 5 {
		t.Errorf("police: %+v", police)
	}
	// DCAS surplus sale online: the storehouse and office are where to bid
	dcas := entity.ExtractPlaces(ns["20140109107"].Text)
	if len(dcas.Addresses) != 0 || len(dcas.SetAside) != 2 {
		t.Errorf("dcas: %+v", dcas)
	}
	// DEP timber sale upstate: no NYC site address, the bid office is set aside
	dep := entity.ExtractPlaces(ns["20141125101"].Text)
	if len(dep.Addresses) != 0 || len(dep.BBLs) != 0 || len(dep.Boroughs) != 0 {
		t.Errorf("dep: %+v", dep)
	}
}

func TestExtractPlacesRules(t *testing.T) {
	cases := []struct {
		text  string
		bbls  []string
		notes int
	}{
		{"The premises known as BBL 3-01234-0056 will be sold.", []string{"3012340056"}, 0},
		{"Disposition of BBL: 4021790006 in Queens.", []string{"4021790006"}, 0},
		// two boroughs in scope: a block and lot gives no BBL
		{"Sites in the Borough of Brooklyn and the Borough of Queens: Block 100, Lot 2.", nil, 1},
		{"Property in the Borough of the Bronx, Tax Block 2360, Tax Lots 1 and 3.", []string{"2023600001", "2023600003"}, 0},
		// the hearing venue's borough is not in scope
		{"Property located at Block 50, Lot 7 in the Borough of Staten Island. A public hearing will be held at 22 Reade Street, Manhattan.", []string{"5000500007"}, 0},
		// precision first: what the parser is unsure of is not published, the reason is kept
		// a range it does not expand yields no lot (neither end is a lot of its own)
		{"Property in the Borough of Queens, Block 200, Lots 1 through 500.", nil, 1},
		{"Property in the Borough of Queens, Block 200, Lots 40 through 12 and 7.", []string{"4002000007"}, 1},
		// lot 0 is no tax lot
		{"Property in the Borough of Queens, Block 200, Lot 0.", nil, 1},
		{"The premises known as BBL 3-01234-0000 will be sold.", nil, 1},
		// an explicit BBL in another borough than the one the notice names
		{"The Brooklyn premises known as BBL 4-01234-0056 will be sold.", nil, 1},
	}
	for _, c := range cases {
		p := entity.ExtractPlaces(c.text)
		if len(p.BBLs) != len(c.bbls) || len(p.Notes) != c.notes {
			t.Errorf("%q: bbls %v notes %v, want %v", c.text, p.BBLs, p.Notes, c.bbls)
			continue
		}
		for i := range c.bbls {
			if p.BBLs[i] != c.bbls[i] {
				t.Errorf("%q: bbls %v, want %v", c.text, p.BBLs, c.bbls)
			}
		}
	}
}
