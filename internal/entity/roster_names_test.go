package entity

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"
)

// rosterNames are the names the governance-organizations roster (t3jq-9nkf
// and its name crosswalk, bundled in testdata/sample/leaders) gives each
// organization, by NYCGO record id: its name, alphabetized name, acronym,
// alternate or former names and acronyms, and every source system's name.
func rosterNames(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	read := func(path string) [][]string {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r := csv.NewReader(f)
		r.FieldsPerRecord = -1
		rows, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	dir := "../../testdata/sample/leaders/"
	for _, r := range read(dir + "nycgo_name_crosswalk_v1.8.43.csv")[1:] {
		out[r[0]] = append(out[r[0]], r[3])
	}
	rows := read(dir + "t3jq-9nkf_NYCGovernanceOrganizations_v1.8.43_2026-06-12.csv")
	col := map[string]int{}
	for i, h := range rows[0] {
		col[strings.TrimPrefix(h, "\ufeff")] = i
	}
	for _, r := range rows[1:] {
		id := r[col["record_id"]]
		for _, c := range []string{"name", "name_alphabetized", "acronym", "alternate_or_former_names", "alternate_or_former_acronyms"} {
			for _, v := range strings.Split(r[col[c]], ";") {
				if v = strings.TrimSpace(v); v != "" {
					out[id] = append(out[id], v)
				}
			}
		}
	}
	return out
}
