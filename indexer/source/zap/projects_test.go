package zap

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/recordwatch/recordwatch/internal/land"
)

// A bad row is rejected with its reason; the rest of the file is read.
func TestReadLandRejectsBadRows(t *testing.T) {
	real, err := os.ReadFile("../../../testdata/sample/land/4j6i-9rmr_bp_ulurp_recommendations_rows_2018-01_to_2020-12.json")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		"d/bp.json":   {Data: real},
		"d/rows.json": {Data: []byte(`[{"project_id": "not an id", "project_name": "x"}, {"ulurp_number_s": "none here"}, {"other": 1}]`)},
		"d/bbls.csv":  {Data: []byte("project_id,bbl,validated\n2022M0258,123,true\n2022M0258,1017670067,true\n")},
	}
	l, errs := ReadLand(fsys, "d")
	if len(errs) != 4 || l.Rows != 75+3+2 {
		t.Fatalf("rows %d, errors %v", l.Rows, errs)
	}
	for i, want := range []string{"not a BBL", `"not an id" is not a ZAP project id`, "no application number", "not a land row"} {
		found := false
		for _, e := range errs {
			found = found || strings.Contains(e.Error(), want)
		}
		if !found {
			t.Errorf("%d: no error %q in %v", i, want, errs)
		}
	}
	// the 75 Brooklyn rows are events; rows naming several numbers keep them all
	if len(l.Events) != 75 || len(l.Projects) != 1 || l.Projects[0].Lots[0].BBL != "1017670067" {
		t.Errorf("%d events, projects %+v", len(l.Events), l.Projects)
	}
	var multi land.Event
	for _, e := range l.Events {
		if len(e.ULURPKeys) == 4 && e.ULURPKeys[0] == "190160HAK" {
			multi = e
		}
	}
	if strings.Join(multi.ULURPKeys, " ") != "190160HAK 190161ZMK 190162ZRK 190163HUK" || multi.Source != SrcBKBP || multi.Date.IsZero() {
		t.Errorf("multi-number row %+v", multi)
	}
}

func TestULURPKey(t *testing.T) {
	for in, want := range map[string]string{
		"C 240046 HAM": "240046HAM", "C240046HAM": "240046HAM", "240139ZMX": "240139ZMX", "N 170359 ZRM (A)": "170359ZRM(A)",
		"C\u00a0130208 ZMM": "130208ZMM", "M 821257D ZAM": "821257DZAM", "ghjkl": "", "": "",
	} {
		_, keys := land.ULURPKeys(in)
		got := strings.Join(keys, ",")
		if got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"BK03": "K03", "MN01": "M01", "Mn12": "M12", "K13": "K13", "2": "", "ghjkl;'": "", "CD01": ""} {
		if got := land.CommunityDistrict(in); got != want {
			t.Errorf("district %q → %q, want %q", in, got, want)
		}
	}
}
