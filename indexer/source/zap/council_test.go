package zap

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The eight real Council land-use items each read exactly the number their
// name and title agree on; a title naming a related application elsewhere
// adds nothing; a name and title that disagree are rejected with the reason.
func TestCouncilItemsPrecision(t *testing.T) {
	want := map[string]string{"0001": "250304PQK", "0002": "250312HAK", "0003": "250313HAK", "0004": "250314HAK",
		"0005": "250315HAK", "0006": "250093XAK", "0007": "260026ZSK", "0008": "260027PPK"}
	dir := "../../../testdata/sample/land/council_land_use_items_LU_0001-0008_2026"
	var first map[string]any
	for n, key := range want {
		data, err := os.ReadFile(filepath.Join(dir, n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		e, err := councilItem(data, n+".json")
		if err != nil || strings.Join(e.ULURPKeys, " ") != key {
			t.Errorf("%s: keys %v err %v, want %s", n, e.ULURPKeys, err, key)
		}
		if n == "0001" {
			json.Unmarshal(data, &first)
		}
	}
	item := func(name, title string) []byte {
		m := map[string]any{}
		for k, v := range first {
			m[k] = v
		}
		m["Name"], m["Title"] = name, title
		b, _ := json.Marshal(m)
		return b
	}
	// a related application in the title's body is not the item's own
	e, err := councilItem(item("Prospect Farm Acquisition (C 250304 PQK).",
		"Application number C 250304 PQK (Prospect Farm Acquisition) … related to the zoning map amendment (C 250305 ZMK) approved earlier."), "x.json")
	if err != nil || strings.Join(e.ULURPKeys, " ") != "250304PQK" {
		t.Errorf("related number read as the item's: %v %v", e.ULURPKeys, err)
	}
	// the title alone gives the number
	e, err = councilItem(item("Prospect Farm Acquisition.", "Application numbers C 250304 PQK and N 250305 ZRK submitted by …"), "x.json")
	if err != nil || strings.Join(e.ULURPKeys, " ") != "250304PQK 250305ZRK" {
		t.Errorf("title numbers: %v %v", e.ULURPKeys, err)
	}
	// name and title disagree: unsure, not read
	if _, err := councilItem(item("Prospect Farm Acquisition (C 250304 PQK).", "Application number C 250399 PQK (Prospect Farm)"), "x.json"); err == nil || !strings.Contains(err.Error(), "unsure") {
		t.Errorf("disagreeing name and title read: %v", err)
	}
	// a number only in a parenthesis in the middle of the title is not the item's
	if _, err := councilItem(item("Prospect Farm Acquisition.", "A resolution concerning the property (C 250304 PQK) and others"), "x.json"); err == nil {
		t.Errorf("a number inside the title's text read as the item's")
	}
}
