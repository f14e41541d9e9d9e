package crol

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"github.com/recordwatch/recordwatch/internal/golden"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// openDataColumns are the dg92-zbpx columns: API name and the display name
// the Open Data CSV export writes in its header.
var openDataColumns = [][2]string{
	{"request_id", "Request ID"}, {"start_date", "Start Date"}, {"end_date", "End Date"},
	{"agency_name", "Agency Name"}, {"type_of_notice_description", "Type of Notice Description"},
	{"category_description", "Category Description"}, {"short_title", "Short Title"},
	{"selection_method_description", "Selection Method Description"}, {"section_name", "Section Name"},
	{"special_case_reason_description", "Special Case Reason Description"}, {"pin", "PIN"},
	{"due_date", "Due Date"}, {"address_to_request", "Address To Request"}, {"contact_name", "Contact Name"},
	{"contact_phone", "Contact Phone"}, {"email", "Email"}, {"contract_amount", "Contract Amount"},
	{"contact_fax", "Contact Fax"}, {"additional_description_1", "Additional Description 1"},
	{"additional_description_2", "Additional Description 2"}, {"additional_description_3", "Additional Description 3"},
	{"other_info_1", "Other Info 1"}, {"other_info_2", "Other Info 2"}, {"other_info_3", "Other Info 3"},
	{"vendor_name", "Vendor Name"}, {"vendor_address", "Vendor Address"},
	{"printout_1", "Printout 1"}, {"printout_2", "Printout 2"}, {"printout_3", "Printout 3"}, {"printout_4", "Printout 4"},
	{"document_links", "Document Links"}, {"event_date", "Event Date"}, {"event_building_name", "Event Building Name"},
	{"event_street_address_1", "Event Street Address 1"}, {"event_street_address_2", "Event Street Address 2"},
	{"event_city", "Event City"}, {"event_state_code", "Event State Code"}, {"event_zip_code", "Event Zip Code"},
}

// toOpenData renames the keys of a sample row to Open Data column keys:
// DCAS AdditionalDescription/OtherInfo/Printout are part 1 of their Open
// Data columns; cityscroll's unprefixed address keys are the event_ ones.
// Columns Open Data does not have (DCAS codes, AddressToSubmit, placeholders,
// cityscroll's source_links) are left out.
var toOpenData = map[string]string{
	"additionaldescription": "additionaldescription1",
	"otherinfo":             "otherinfo1",
	"printout":              "printout1",
	"buildingname":          "eventbuildingname",
	"streetaddress1":        "eventstreetaddress1",
	"streetaddress2":        "eventstreetaddress2",
	"city":                  "eventcity",
	"state":                 "eventstatecode",
	"zipcode":               "eventzipcode",
}

var csvDateKeys = map[string]bool{"startdate": true, "enddate": true, "duedate": true, "eventdate": true}

// csvSourceRows are the real rows the CSV fixture is made from: every row
// of the sample's SODA JSON files, then the DCAS procurement rows of
// testdata/raw (which have line breaks inside fields).
func csvSourceRows(t *testing.T) []Row {
	t.Helper()
	var out []Row
	for _, name := range []string{
		"dg92-zbpx_hearings_with_event_date_cityscroll_asof_2026-08-14_event_2026-08-17_to_2026-09-03.json",
		"dg92-zbpx_pin_chain_rows_cityscroll_2026-08-18.json",
		"socrata_2026/agency_rules_2025-08-19_to_2026-07-22.json",
		"socrata_2026/changes_in_personnel_appointed_2026-05-22.json",
		"socrata_2026/open_solicitations_snapshot_2026-08-03.json",
	} {
		out = append(out, readSample(t, name)...)
	}
	rows, errs := ReadFile(os.DirFS("testdata/raw"), "dcas_procurement.psv")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return append(out, rows...)
}

// csvCell renders one value the way the Open Data CSV export writes it.
func csvCell(key, v string) string {
	if csvDateKeys[key] {
		if d := record.ParseDate(v); !d.IsZero() {
			return d.Format("01/02/2006 03:04:05 PM")
		}
	}
	if key == "documentlinks" && strings.HasPrefix(v, "[") {
		var links []string
		if json.Unmarshal([]byte(v), &links) == nil {
			return strings.Join(links, " ")
		}
	}
	return v
}

// renderCSV writes rows as an Open Data CSV export. display picks the
// header style; the display export also has a BOM and CRLF line ends.
func renderCSV(t *testing.T, rows []Row, display bool) []byte {
	t.Helper()
	var b bytes.Buffer
	if display {
		b.WriteString("\uFEFF")
	}
	w := csv.NewWriter(&b)
	w.UseCRLF = display
	header := make([]string, len(openDataColumns))
	for i, c := range openDataColumns {
		header[i] = c[0]
		if display {
			header[i] = c[1]
		}
	}
	_ = w.Write(header)
	for _, r := range rows {
		vals := map[string]string{}
		for k, v := range r.Fields {
			if alt, ok := toOpenData[k]; ok {
				k = alt
			}
			vals[k] = csvCell(k, v)
		}
		rec := make([]string, len(openDataColumns))
		for i, c := range openDataColumns {
			rec[i] = vals[Key(c[0])]
		}
		_ = w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const csvFixture = "testdata/socrata_export.csv"

// TestCSVFixture keeps the committed CSV fixture equal to what the real
// sample rows render to (go test -run TestCSVFixture -update rewrites it).
func TestCSVFixture(t *testing.T) {
	golden.Assert(t, csvFixture, renderCSV(t, csvSourceRows(t), true))
}

// TestReadCSV reads the display-header export and an API-header export of
// the same real rows and checks that they normalize like the source rows.
func TestReadCSV(t *testing.T) {
	src := csvSourceRows(t)
	data, err := os.ReadFile(csvFixture)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\uFEFFRequest ID,Start Date,End Date,Agency Name,Type of Notice Description")) {
		t.Fatalf("fixture header: %.120q", data)
	}
	rows, errs := ReadCSV(bytes.NewReader(data), path.Base(csvFixture))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(rows) != len(src) || len(rows) != 188+6 {
		t.Fatalf("%d CSV rows, %d source rows, want 194", len(rows), len(src))
	}
	api, errs := ReadCSV(bytes.NewReader(renderCSV(t, src, false)), "api.csv")
	if len(errs) > 0 || len(api) != len(rows) {
		t.Fatalf("API-header export: %d rows, %v", len(api), errs)
	}
	for i := range rows {
		if rows[i].Format != FormatCSV || len(rows[i].Columns) != len(openDataColumns) {
			t.Fatalf("row %d: format %q, %d columns", i, rows[i].Format, len(rows[i].Columns))
		}
		for k, v := range rows[i].Fields {
			if api[i].Fields[k] != v {
				t.Errorf("row %d %s: display export %q, API export %q", i, k, v, api[i].Fields[k])
			}
		}
		compareCSVNotice(t, src[i], rows[i])
	}

	// A record with line breaks inside quoted fields: its fields are whole
	// and the next record starts where it should.
	var dell Row
	for i, r := range rows {
		if r.Fields["requestid"] == "20141010018" {
			dell = r
			if next := rows[i+1]; next.Line <= dell.Line+2 {
				t.Errorf("record at line %d, next at %d: the quoted CRLFs were not counted", dell.Line, next.Line)
			}
		}
	}
	if got := dell.Fields["otherinfo1"]; got != "OGS Contract #PT 79518\n\nSuppliers wishing to be considered for a contract with the Office of General Services of New York State are advised to contact the Procurement Services Group, Corning Tower, Room 3711, Empire State Plaza, Albany, NY 12242 or by phone: 518-474-6717." {
		t.Errorf("multi-line field = %q", got)
	}
	if dell.Fields["startdate"] != "10/20/2014 12:00:00 AM" || dell.Fields["vendorname"] != "Dell Marketing, LP" {
		t.Errorf("fields after the multi-line field: %q %q", dell.Fields["startdate"], dell.Fields["vendorname"])
	}
}

// compareCSVNotice checks that a CSV row normalizes like the row it was
// made from. Known differences: encoding/csv reads CRLF inside a quoted
// field as LF; the wrapper's $where defaults and DCAS AddressToSubmit are
// not in a CSV export.
func compareCSVNotice(t *testing.T, srcRow, csvRow Row) {
	t.Helper()
	want, err := Normalize(srcRow, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Normalize(csvRow, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := want.RequestID
	type pair struct {
		name      string
		got, want any
	}
	checks := []pair{
		{"RequestID", got.RequestID, want.RequestID},
		{"Title", got.Title, want.Title},
		{"Category", got.Category, want.Category},
		{"SelectionMethod", got.SelectionMethod, want.SelectionMethod},
		{"AgencyRaw", got.AgencyRaw, want.AgencyRaw},
		{"AgencyID", got.AgencyID, want.AgencyID},
		{"PIN", got.PIN, want.PIN},
		{"AmountRaw", got.AmountRaw, want.AmountRaw},
		{"Amount", got.Amount, want.Amount},
		{"AmountValid", got.AmountValid, want.AmountValid},
		{"VendorName", got.VendorName, want.VendorName},
		{"VendorStem", got.VendorStem, want.VendorStem},
		{"VendorAddress", got.VendorAddress, want.VendorAddress},
		{"Body", got.Body, strings.ReplaceAll(want.Body, "\r\n", "\n")},
		{"Text", got.Text, want.Text},
		{"EventPlace", got.EventPlace, want.EventPlace},
		{"DocumentLinks", strings.Join(got.DocumentLinks, " "), strings.Join(want.DocumentLinks, " ")},
		{"DueRolling", got.DueRolling, want.DueRolling},
		{"ContactName", got.Contact.Name, want.Contact.Name},
		{"ContactEmail", got.Contact.Email, want.Contact.Email},
	}
	for _, d := range []struct {
		name      string
		got, want time.Time
	}{
		{"StartDate", got.StartDate, want.StartDate}, {"EndDate", got.EndDate, want.EndDate},
		{"DueDate", got.DueDate, want.DueDate}, {"EventDate", got.EventDate, want.EventDate},
	} {
		if !d.got.Equal(d.want) {
			t.Errorf("%s %s: CSV %v, source %v", id, d.name, d.got, d.want)
		}
	}
	if len(srcRow.Defaults) == 0 {
		checks = append(checks,
			pair{"Section", got.Section, want.Section},
			pair{"Lenses", strings.Join(got.Lenses, ","), strings.Join(want.Lenses, ",")},
			pair{"NoticeType", got.NoticeType, want.NoticeType})
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s %s: CSV %q, source %q", id, c.name, c.got, c.want)
		}
	}
	// Every non-empty source value is in the CSV row's Raw under its Open
	// Data key (dates reformatted as the export writes them).
	for k, v := range srcRow.Fields {
		if alt, ok := toOpenData[k]; ok {
			k = alt
		}
		if !slices.ContainsFunc(openDataColumns, func(c [2]string) bool { return Key(c[0]) == k }) || strings.TrimSpace(v) == "" {
			continue
		}
		if got.Raw[k] != strings.ReplaceAll(csvCell(k, v), "\r\n", "\n") {
			t.Errorf("%s Raw[%s] = %q, source %q", id, k, got.Raw[k], v)
		}
	}
}
