package leaders

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/recordwatch/recordwatch/internal/people"
)

const (
	csvName  = "t3jq-9nkf_NYCGovernanceOrganizations_v1.8.43_2026-06-12.csv"
	jsonName = "t3jq-9nkf_NYCGovernanceOrganizations_v1.8.43_2026-06-12.socrata.json"
	xwName   = "nycgo_name_crosswalk_v1.8.43.csv"
)

func realFS(t *testing.T, files map[string]string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, from := range files {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		fsys["d/"+name] = &fstest.MapFile{Data: data}
	}
	return fsys
}

func byID(rows []people.Row) map[string]people.Row {
	out := map[string]people.Row{}
	for _, r := range rows {
		out[r.ID] = r
	}
	return out
}

// The real v1.8.43 release, CSV: 307 organizations, a person row for each
// of the 238 rows that print a principal officer (full or derived name),
// relation states as printed, source fields as read, the release date
// from the file name.
func TestReadRosterCSV(t *testing.T) {
	fsys := realFS(t, map[string]string{csvName: "../../../testdata/sample/leaders/" + csvName, xwName: "../../../testdata/sample/leaders/" + xwName})
	b, errs := ReadDir(fsys, "d")
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	orgs, persons := 0, 0
	for _, r := range b.Rows {
		switch r.Type {
		case people.TypeOrganization:
			orgs++
		case people.TypePerson:
			persons++
		}
		if r.Release.Date != "2026-06-12" || r.Release.Version != "v1.8.43" || r.Release.DateKind != people.DatePublished {
			t.Fatalf("release of %s: %+v", r.ID, r.Release)
		}
	}
	if orgs != 307 || persons != 238 || b.Read != 307+558 {
		t.Fatalf("orgs %d persons %d read %d; want 307, 238, 865", orgs, persons, b.Read)
	}
	rows := byID(b.Rows)
	acs := rows["NYC_GOID_000002"]
	if acs.Name != "Administration for Children's Services" || acs.Fields["name_alphabetized"] != "Children's Services, Administration for" ||
		acs.Fields["in_org_chart"] != "True" || acs.Acronym != "ACS" {
		t.Fatalf("ACS row: %+v", acs)
	}
	po := acs.Relation(people.RelPrincipalOfficer)
	if po.State != people.Published || po.Value != "Rebecca Jones Gaston" || po.TargetID != "NYC_GOID_000002/principal-officer/2026-06-12" {
		t.Fatalf("ACS principal officer: %+v", po)
	}
	if p := rows[po.TargetID]; p.Type != people.TypePerson || p.Role != "Commissioner" || p.OrgID != "NYC_GOID_000002" {
		t.Fatalf("person row: %+v", p)
	}
	var greenbook bool
	for _, v := range acs.Variants {
		greenbook = greenbook || (v.System == "Greenbook" && strings.Contains(v.Name, "Administration for"))
	}
	if !greenbook {
		t.Errorf("ACS name variants: %+v", acs.Variants)
	}
	// a title without a name: the officer is empty, the title said
	cau := rows["NYC_GOID_000001"]
	for _, r := range b.Rows {
		if r.Name == "Mayor's Community Affairs Unit" {
			cau = r
		}
	}
	if st := cau.Relation(people.RelPrincipalOfficer); st.State != people.Empty || !strings.Contains(st.Note, "Commissioner") {
		t.Errorf("title-only officer: %+v", st)
	}
	// a full name with empty derived names is still published
	if st := rows["NYC_GOID_100007"].Relation(people.RelPrincipalOfficer); st.State != people.Published || st.Value != "Anna Bahr" {
		t.Errorf("NYC_GOID_100007 officer: %+v", st)
	}
	// reports_to is empty on many rows and free text otherwise
	if st := rows["NYC_GOID_000008"].Relation(people.RelReportsTo); st.State != people.Empty {
		t.Errorf("reports_to of an advisory council: %+v", st)
	}
}

// One person's name printed for two organizations (Neil Matthew: FISA and
// the Office of Payroll Administration) makes two person rows: display
// names never create identity.
func TestSameNameTwoOrganizationsStaysTwo(t *testing.T) {
	fsys := realFS(t, map[string]string{csvName: "../../../testdata/sample/leaders/" + csvName})
	b, _ := ReadDir(fsys, "d")
	var ids []string
	for _, r := range b.Rows {
		if r.Type == people.TypePerson && r.Name == "Neil Matthew" {
			ids = append(ids, r.ID+" "+r.OrgName)
		}
	}
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("Neil Matthew rows: %v; want two rows, one per organization", ids)
	}
}

// The Socrata JSON of the same release reads the same rows: URL objects,
// JSON booleans and the cut-short directory flag are read, the values as
// read are kept, and absent (null) fields are empty, not unknown. Read
// with the CSV, the release's rows are counted once (merged).
func TestReadRosterJSON(t *testing.T) {
	fsys := realFS(t, map[string]string{jsonName: "testdata/" + jsonName})
	b, errs := ReadDir(fsys, "d")
	if len(errs) != 0 || len(b.Rows) != 307+238 {
		t.Fatalf("rows %d errors %v", len(b.Rows), errs)
	}
	acs := byID(b.Rows)["NYC_GOID_000002"]
	if acs.Fields["url"] != `{"url":"https://www.nyc.gov/site/acs/index.page"}` || acs.Fields["listed_in_nyc_gov_agency"] != "true" {
		t.Fatalf("fields as read: %v", acs.Fields)
	}
	if u := acs.Relation(people.RelURL); u.State != people.Published || u.Value != "https://www.nyc.gov/site/acs/index.page" {
		t.Fatalf("url: %+v", u)
	}
	if st := acs.Relation(people.RelAlternateNames); st.State != people.Empty {
		t.Errorf("absent field in SODA JSON: %+v; want empty", st)
	}
	both := realFS(t, map[string]string{jsonName: "testdata/" + jsonName, csvName: "../../../testdata/sample/leaders/" + csvName})
	b, errs = ReadDir(both, "d")
	if len(errs) != 0 || len(b.Rows) != 307+238 || b.Merged != 307 {
		t.Fatalf("CSV and JSON of one release: rows %d merged %d errors %v", len(b.Rows), b.Merged, errs)
	}
}

// A bad row is rejected with its reason, the others read; a CSV without
// a column makes its relation unknown, not empty.
func TestRejectedRowsAndUnknownColumns(t *testing.T) {
	data := "\ufeffrecord_id,name,principal_officer_full_name\n" +
		"NYC_GOID_000002,Administration for Children's Services,Rebecca Jones Gaston\n" +
		",No id,\n" +
		"NYC_GOID_X%2F1,,\n" +
		"NYC_GOID_000002,Again,\n" +
		"NYC_GOID_X%2F2,Encoded id,\n"
	b, errs := ReadDir(fstest.MapFS{"d/roster_v1.0.0_2025-01-02.csv": {Data: []byte(data)}}, "d")
	if len(errs) != 3 || !strings.Contains(errs[0].Error(), "no record_id") || !strings.Contains(errs[1].Error(), "no name") || !strings.Contains(errs[2].Error(), "repeats row 2") {
		t.Fatalf("errors: %v", errs)
	}
	rows := byID(b.Rows)
	if _, ok := rows["NYC_GOID_X%2F2"]; !ok {
		t.Fatalf("an encoded id is kept exactly as given: %v", rows)
	}
	if st := rows["NYC_GOID_000002"].Relation(people.RelReportsTo); st.State != people.Unknown {
		t.Errorf("a column the file lacks: %+v; want unknown", st)
	}
	if r := rows["NYC_GOID_000002"]; r.Release.Date != "2025-01-02" {
		t.Errorf("release: %+v", r.Release)
	}
}
