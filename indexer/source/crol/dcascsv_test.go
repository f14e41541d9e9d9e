package crol

import (
	"os"
	"strings"
	"testing"
	"time"
)

// The 2013 DCAS export (testdata/sample/crol/dcas_2013): every record of
// both files is read whole, named from the code tables, and normalized.
func TestReadDCAS2013Export(t *testing.T) {
	fsys := os.DirFS("../../../testdata/sample/crol")
	types := map[string]int{}
	sections := map[string]int{}
	var intents, withVendor, multiLine int
	for _, f := range []struct {
		name string
		want int
	}{
		{"dcas_2013/proc_Publication_Request_DmssPortal.csv", 286},
		{"dcas_2013/proc_Publication_Request.csv", 196},
	} {
		rows, errs := ReadFile(fsys, f.name)
		if len(errs) != 0 || len(rows) != f.want {
			t.Fatalf("%s: %d rows, errors %v; want %d rows and none", f.name, len(rows), errs, f.want)
		}
		for _, r := range rows {
			if r.Format != FormatDCASCSV {
				t.Fatalf("format %q", r.Format)
			}
			n, err := NormalizeRaw(r)
			if err != nil {
				t.Fatal(err)
			}
			if n.StartDate.IsZero() || n.StartDate.Year() != 2013 || n.AgencyRaw == "" || n.NoticeType == "" || n.Section == "" {
				t.Fatalf("%s:%d normalized without a 2013 date, agency, type or section: %+v", r.File, r.Line, n)
			}
			if _, ok := n.Raw["requestedby"]; ok {
				t.Fatal("the placeholder Requested_by was kept")
			}
			for _, v := range n.Raw {
				if v == "NULL" {
					t.Fatalf("%s: NULL kept as a value", n.RequestID)
				}
			}
			types[n.NoticeType]++
			sections[n.Section]++
			if strings.Contains(r.Fields["printout"], "\n") {
				multiLine++
			}
			if n.NoticeType == "Intent to Award" {
				intents++
			}
			if n.VendorName != "" {
				withVendor++
			}
		}
	}
	// PROVENANCE.md: 153 solicitations, 104 awards, 29 intents; 98
	// notices, 84 public hearings, 14 meetings.
	if types["Solicitation"] != 153 || types["Award"] != 104 || intents != 29 || types["Notice"] != 98 || types["Public Hearings"] != 84 || types["Meeting"] != 14 {
		t.Fatalf("types = %v", types)
	}
	if sections["Procurement"] != 286 {
		t.Fatalf("sections = %v, want the 286 procurement rows in Procurement", sections)
	}
	if withVendor != 100 || multiLine == 0 {
		t.Fatalf("%d rows with a vendor (want the 100 awards that name one), %d multi-line printouts", withVendor, multiLine)
	}
	// a record's first line and its unquoted multi-line field
	rows, _ := ReadFile(fsys, "dcas_2013/proc_Publication_Request_DmssPortal.csv")
	n, _ := NormalizeRaw(rows[0])
	if n.RequestID != "20130920018" || n.AgencyRaw != "Finance" || n.PIN != "83614N0001." ||
		!n.StartDate.Equal(time.Date(2013, 9, 26, 0, 0, 0, 0, n.StartDate.Location())) ||
		!strings.Contains(n.Body, "This negotiation is between Capital One Bank") || n.Raw["agencycode"] != "836" {
		t.Fatalf("first record = %+v", n)
	}
}

// A record broken by a bare comma or line break is rejected whole with
// its line; the records around it are read.
func TestReadDCASCSVRejectsWhole(t *testing.T) {
	lk := DCASLookups{Agency: map[string]string{"836": "Department of Finance"}, NoticeType: map[string]string{"4": "Intent to Award"}}
	data := "\ufeffReq_ID,Date_first_publ,Agency_Code,Type_of_Notice,Printout\r\n" +
		"20130920018,2013-09-26 00:00:00.000,836,4,first line\r\nsecond line\r\n" +
		"20130920019,2013-09-26 00:00:00.000,836,4,a, stray comma\r\n" +
		"20130920020,2013-09-26 00:00:00.000,999,4,\"quoted, comma\"\r\n"
	rows, errs := ReadDCASCSV([]byte(data), "x.csv", lk)
	if len(rows) != 2 || rows[0].Fields["printout"] != "first line\nsecond line" || rows[1].Fields["printout"] != "quoted, comma" {
		t.Fatalf("rows = %+v", rows)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "x.csv:4: record has 6 fields, header has 5") ||
		!strings.Contains(errs[1].Error(), `agency code "999" is not in the code table`) {
		t.Fatalf("errs = %v", errs)
	}
}

// The slim third-party extracts: Agency Rules over 13 years (dates
// reformatted, body_text cut at 1,200 characters), July 2026 awards
// (fixtures under testdata/slim) and every Property Disposition notice
// (bundled), read by the SODA JSON reader.
func TestReadSlimExtracts(t *testing.T) {
	for _, f := range []struct {
		fsys           string
		name           string
		rows, withBody int
		section        string
	}{
		{"testdata/slim", "dg92-zbpx_agency_rules_cityscroll_slim_start_2013-08-23_to_2026-06-30.json", 3043, 282, "Agency Rules"},
		{"testdata/slim", "qyyg-4tf5_award_rows_cityscroll_start_2026-07-08_to_2026-07-31.json", 279, 0, "Procurement"},
		{"../../../testdata/sample/crol", "dg92-zbpx_property_disposition_all_243_cityscroll_2026-08-03.json", 243, 0, "Property Disposition"},
	} {
		rows, errs := ReadFile(os.DirFS(f.fsys), f.name)
		if len(errs) != 0 || len(rows) != f.rows {
			t.Fatalf("%s: %d rows, errors %v; want %d", f.name, len(rows), errs, f.rows)
		}
		var bodies, withBBLs int
		for _, r := range rows {
			n, err := NormalizeRaw(r)
			if err != nil {
				t.Fatal(err)
			}
			if n.Section != f.section || n.StartDate.IsZero() {
				t.Fatalf("%s: %s section %q, start %v", f.name, n.RequestID, n.Section, n.StartDate)
			}
			if n.Body != "" {
				bodies++
			}
			if strings.Contains(n.Raw["propertylocation"], `"bbls":["`) {
				withBBLs++
			}
		}
		if bodies != f.withBody {
			t.Fatalf("%s: %d bodies, want %d (body_text is the body)", f.name, bodies, f.withBody)
		}
		if f.section == "Property Disposition" && withBBLs != 116 {
			t.Fatalf("%d dispositions carry BBLs, want 116", withBBLs)
		}
	}
}
