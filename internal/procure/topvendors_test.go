package procure_test

import (
	"reflect"
	"testing"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Award totals group by the stored vendor stem; records indexed before a
// stem rule changed keep the earlier rule's stem, so one vendor came back
// as two top vendors ("EEG INC" and "EEG"). The groups meet on the
// current stem, adding counts and valid amounts, and are ordered again;
// different vendors stay apart. Stems as the old and new rules store them
// for names from City Record award rows (see entity's identity rules).
func TestTopVendorsMergeEarlierRuleStems(t *testing.T) {
	b := func(v string, n, valid int, amt float64) search.Bucket {
		return search.Bucket{Value: v, Count: n, ValidAmounts: valid, Amount: amt}
	}
	g := func(v string, n, valid int, amt float64) procure.Group {
		return procure.Group{Value: v, Count: n, ValidAmounts: valid, Amount: amt}
	}
	for _, tc := range []struct {
		name    string
		buckets []search.Bucket // as the engine returns them: amount, count, value
		want    []procure.Group
	}{
		{"short name with a legal suffix (old rule kept it)",
			[]search.Bucket{b("EEG", 3, 3, 900000.10), b("TISHMAN CONSTRUCTION", 2, 2, 800000), b("EEG INC", 2, 1, 150000.25), b("EEG CORP", 1, 1, 50000)},
			[]procure.Group{g("EEG", 6, 5, 1100000.35), g("TISHMAN CONSTRUCTION", 2, 2, 800000)}},
		{"initials spelled apart and a hyphen inside a word",
			[]search.Bucket{b("JP MORGAN CHASE BANK", 4, 4, 500000), b("HO-TRAN", 3, 3, 450000), b("J P MORGAN CHASE BANK", 1, 1, 10000), b("HO TRAN", 1, 0, 0)},
			[]procure.Group{g("JP MORGAN CHASE BANK", 5, 5, 510000), g("HO TRAN", 4, 3, 450000)}},
		{"the old stems outweigh the new: the merged group is ordered again",
			[]search.Bucket{b("CDW - GOVERNMENT", 5, 5, 700000), b("SKANSKA TREVCON JV", 1, 1, 600000), b("CDW GOVERNMENT", 1, 1, 1000)},
			[]procure.Group{g("CDW GOVERNMENT", 6, 6, 701000), g("SKANSKA TREVCON JV", 1, 1, 600000)}},
		{"different vendors stay apart: a base too short to stand alone keeps its suffix",
			[]search.Bucket{b("ABC", 2, 2, 300), b("ABCD", 1, 1, 200), b("AB LLC", 1, 1, 100), b("AB INC", 1, 1, 50)},
			[]procure.Group{g("ABC", 2, 2, 300), g("ABCD", 1, 1, 200), g("AB LLC", 1, 1, 100), g("AB INC", 1, 1, 50)}},
		{"an earlier rule's stem alone reads as the current stem",
			[]search.Bucket{b("CDE INC", 2, 2, 40000)},
			[]procure.Group{g("CDE", 2, 2, 40000)}},
		{"no vendor groups", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := (&procure.Service{}).AwardTotals(search.Totals{Groups: map[string][]search.Bucket{search.GroupVendorStem: tc.buckets}})
			if !reflect.DeepEqual(a.TopVendors, tc.want) {
				t.Errorf("top vendors\n got %+v\nwant %+v", a.TopVendors, tc.want)
			}
		})
	}
}
