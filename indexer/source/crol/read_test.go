package crol

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
)

// repoRoot holds testdata/sample, the bundled sample corpus.
var repoRoot = os.DirFS("../../..")

const sampleDir = "testdata/sample/crol"

// readSample reads one sample file and fails the test on any error.
func readSample(t *testing.T, name string) []Row {
	t.Helper()
	rows, errs := ReadFile(repoRoot, path.Join(sampleDir, name))
	for _, err := range errs {
		t.Errorf("%v", err)
	}
	return rows
}

func findRow(t *testing.T, rows []Row, id string) Row {
	t.Helper()
	for _, r := range rows {
		if r.Fields["requestid"] == id {
			return r
		}
	}
	t.Fatalf("request id %s not found", id)
	return Row{}
}

// TestReadDCASExport reads all seven DCAS parts: 972 rows (657 procurement +
// 315 non-procurement), the per-part counts of the shared README, no errors.
func TestReadDCASExport(t *testing.T) {
	want := map[string]int{
		"procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part1.psv": 250,
		"procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part2.psv": 167,
		"procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part3.psv": 144,
		"procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part4.psv": 96,
		"procPublicationRequest_nonprocurement_startdate_2014-01_to_2014-11_part1.psv":        120,
		"procPublicationRequest_nonprocurement_startdate_2014-01_to_2014-11_part2.psv":        165,
		"procPublicationRequest_nonprocurement_startdate_2014-01_to_2014-11_part3.psv":        30,
	}
	files, err := fs.Glob(repoRoot, sampleDir+"/dcas_2014/*.psv")
	if err != nil || len(files) != len(want) {
		t.Fatalf("found %d psv files (%v), want %d", len(files), err, len(want))
	}
	procurement, other := 0, 0
	for _, f := range files {
		rows := readSample(t, strings.TrimPrefix(f, sampleDir+"/"))
		if got := len(rows); got != want[path.Base(f)] {
			t.Errorf("%s: %d rows, want %d", path.Base(f), got, want[path.Base(f)])
		}
		cols := 14
		if strings.Contains(f, "DMSSPortal_procurement") {
			cols = 34
			procurement += len(rows)
		} else {
			other += len(rows)
		}
		for _, r := range rows {
			if len(r.Fields) != cols || len(r.Columns) != cols {
				t.Errorf("%s:%d: %d fields, want %d", r.File, r.Line, len(r.Fields), cols)
			}
			if strings.TrimSpace(r.Fields["requestid"]) == "" {
				t.Errorf("%s:%d: empty request id", r.File, r.Line)
			}
			if r.Format != FormatPSV {
				t.Errorf("format %q", r.Format)
			}
			// ConfirmationNumber always equals RequestID (README quirk)
			if r.Fields["confirmationnumber"] != r.Fields["requestid"] {
				t.Errorf("%s:%d: confirmation %q != request id %q", r.File, r.Line, r.Fields["confirmationnumber"], r.Fields["requestid"])
			}
		}
	}
	if procurement != 657 || other != 315 {
		t.Fatalf("procurement %d, non-procurement %d; want 657 and 315", procurement, other)
	}
}

// TestReadDCASWindows1252 checks that single-byte cp1252 punctuation comes
// out as the right UTF-8 characters.
func TestReadDCASWindows1252(t *testing.T) {
	part1 := readSample(t, "dcas_2014/procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part1.psv")
	cuny := findRow(t, part1, "20141112004")
	if got, want := cuny.Fields["shorttitle"], "COLLEGE OF STATEN ISLAND BUILDING 2M – SOUTH WING RENOVATIONS"; got != want {
		t.Errorf("en dash title = %q, want %q", got, want)
	}
	for _, want := range []string{
		"from the “Doing Business With STV/CUNY Bid Opportunities” section",
		"Proper identification such as Driver’s License or Passport",
		"designated business hours of 10:00AM – 3:00PM.",
	} {
		if !strings.Contains(cuny.Fields["additionaldescription"], want) {
			t.Errorf("AdditionalDescription lacks %q", want)
		}
	}
	if cuny.Line != 62 {
		t.Errorf("line = %d, want 62", cuny.Line)
	}

	part3 := readSample(t, "dcas_2014/procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part3.psv")
	cafe := findRow(t, part3, "20141008004")
	if got, want := cafe.Fields["shorttitle"], "NOTICE OF AWARD FOR THE OPERATION OF AN OUTDOOR CAFÉ AT HUDSON BEACH AND WEST 105TH STREET IN RIVERSIDE PARK"; got != want {
		t.Errorf("É title = %q, want %q", got, want)
	}
	for _, rows := range [][]Row{part1, part3} {
		for _, r := range rows {
			for k, v := range r.Fields {
				if strings.ContainsRune(v, '\uFFFD') || strings.ContainsAny(v, "\u0080\u0093\u0094\u0096") {
					t.Errorf("%s:%d %s holds an undecoded byte: %q", r.File, r.Line, k, v)
				}
			}
		}
	}
}

// TestReadDCASMultiLine checks real records that span several physical
// lines: the CRLFs inside a field are kept, the fields after them are right.
func TestReadDCASMultiLine(t *testing.T) {
	part1 := readSample(t, "dcas_2014/procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part1.psv")
	dell := findRow(t, part1, "20141010018")
	if dell.Line != 163 {
		t.Errorf("record starts on line %d, want 163", dell.Line)
	}
	want := map[string]string{
		"otherinfo":      "OGS Contract #PT 79518\r\n\r\nSuppliers wishing to be considered for a contract with the Office of General Services of New York State are advised to contact the Procurement Services Group, Corning Tower, Room 3711, Empire State Plaza, Albany, NY 12242 or by phone: 518-474-6717.",
		"vendorname":     "Dell Marketing, LP",
		"vendoraddress":  "One Dell Way, Round Rock, TX 78682",
		"contractamount": "479543",
		"pin":            "8571500123",
		"printout":       "NYS CONTR. FOR MISC. SOFTWARE-DOITT - Intergovernmental Purchase - PIN# 8571500123 - AMT: $479,543.00 - TO: Dell Marketing, LP, One Dell Way, Round Rock, TX 78682.  OGS Contract #PT 79518  Suppliers wishing to be considered for a contract with the Office of General Services of New York State are advised to contact the Procurement Services Group, Corning Tower, Room 3711, Empire State Plaza, Albany, NY 12242 or by phone: 518-474-6717.",
	}
	for k, v := range want {
		if dell.Fields[k] != v {
			t.Errorf("%s = %q, want %q", k, dell.Fields[k], v)
		}
	}
	// the next record starts right after the three physical lines
	for i, r := range part1 {
		if r.Fields["requestid"] == "20141010018" && i+1 < len(part1) && part1[i+1].Line != 166 {
			t.Errorf("next record starts on line %d, want 166", part1[i+1].Line)
		}
	}

	// a multi-line record with cp1252 punctuation
	part2 := readSample(t, "dcas_2014/procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part2.psv")
	ddc := findRow(t, part2, "20141030008")
	if got, want := ddc.Fields["otherinfo"], "VENDOR SOURCE ID: 87458\r\n\r\nThis bid solicitation includes M/WBE Participation Goal(s). For the MWBE goals, please visit our website at www.nyc.gov/buildnyc see “Bid Opportunities”. To find out more about M/WBE certification visit www.nyc.gov/getcertified or call the DSBS certification helpline at (212) 513-6311."; got != want {
		t.Errorf("OtherInfo = %q", got)
	}
	if ddc.Fields["duedate"] != "2014-12-10 11:00:00" || ddc.Fields["vendorname"] != "" {
		t.Errorf("fields after the multi-line field are off: due %q vendor %q", ddc.Fields["duedate"], ddc.Fields["vendorname"])
	}
}

// TestReadPSVMalformed: a record that cannot be completed is reported with
// its file and line, and the records around it are kept.
func TestReadPSVMalformed(t *testing.T) {
	in := "A|B|C\r\n1|x|y\r\n2|too|many|pipes\r\n3|multi\r\nline|z\r\n44444444|short\r\n55555555|a|b\r\n66666666|unterminated\r\n"
	rows, errs := ReadPSV(strings.NewReader(in), "t.psv")
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.Fields["a"])
	}
	if strings.Join(ids, ",") != "1,3,55555555" {
		t.Errorf("rows = %v", ids)
	}
	if rows[1].Fields["b"] != "multi\r\nline" || rows[1].Line != 4 {
		t.Errorf("multi-line row = %+v", rows[1])
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	want := []string{
		"t.psv:3: record has 4 fields, header has 3",
		"t.psv:6: record has 2 fields, header has 3",
		"t.psv:8: file ends inside a record (2 of 3 fields)",
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
}

// countJSONRows counts row objects in a SODA JSON file independently of
// the reader under test.
func countJSONRows(t *testing.T, name string) int {
	t.Helper()
	data, err := fs.ReadFile(repoRoot, path.Join(sampleDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	switch x := v.(type) {
	case []any:
		return len(x)
	case map[string]any:
		for _, k := range []string{"notices", "rows"} {
			if l, ok := x[k].([]any); ok {
				return len(l)
			}
		}
	}
	t.Fatalf("%s: no rows", name)
	return 0
}

// TestReadSODAJSON reads every SODA JSON file of the sample, losing no row.
func TestReadSODAJSON(t *testing.T) {
	files := map[string]int{ // rows per file, as the shared README states
		"socrata_2026/agency_rules_2025-08-19_to_2026-07-22.json":                                           47,
		"socrata_2026/changes_in_personnel_appointed_2026-05-22.json":                                       80,
		"socrata_2026/open_solicitations_snapshot_2026-08-03.json":                                          40,
		"dg92-zbpx_hearings_with_event_date_cityscroll_asof_2026-08-14_event_2026-08-17_to_2026-09-03.json": 13,
		"dg92-zbpx_pin_chain_rows_cityscroll_2026-08-18.json":                                               8,
	}
	total := 0
	for name, want := range files {
		rows := readSample(t, name)
		if n := countJSONRows(t, name); n != want || len(rows) != want {
			t.Errorf("%s: read %d rows, file holds %d, want %d", name, len(rows), n, want)
		}
		total += len(rows)
		for _, r := range rows {
			if strings.TrimSpace(r.Fields["requestid"]) == "" {
				t.Errorf("%s:%d: empty request id", r.File, r.Line)
			}
			if r.ObservedAt.IsZero() {
				t.Errorf("%s:%d: no observation time", r.File, r.Line)
			}
		}
	}
	if total != 188 {
		t.Errorf("total SODA rows %d, want 188", total)
	}

	// Wrapper defaults from query.$where; $select as the columns.
	personnel := readSample(t, "socrata_2026/changes_in_personnel_appointed_2026-05-22.json")
	r := findRow(t, personnel, "984089")
	if r.Defaults["sectionname"] != "Changes in Personnel" || r.Defaults["shorttitle"] != "APPOINTED" {
		t.Errorf("defaults = %v", r.Defaults)
	}
	if strings.Join(r.Columns, ",") != "requestid,startdate,agencyname,shorttitle,additionaldescription1" {
		t.Errorf("columns = %v", r.Columns)
	}
	if got := r.ObservedAt.UTC().Format("2006-01-02T15:04:05.000Z"); got != "2026-08-03T20:08:29.261Z" {
		t.Errorf("observed %s", got)
	}
	if r.Line != 19 {
		t.Errorf("line = %d, want 19 (the row's opening brace)", r.Line)
	}
	open := readSample(t, "socrata_2026/open_solicitations_snapshot_2026-08-03.json")
	if d := findRow(t, open, "20260624038").Defaults; len(d) != 1 || d["typeofnoticedescription"] != "Solicitation" {
		t.Errorf("defaults = %v (the due_date range is not an equality)", d)
	}

	// "event_date": null is left out; lists are kept as JSON text.
	rules := readSample(t, "socrata_2026/agency_rules_2025-08-19_to_2026-07-22.json")
	if _, ok := findRow(t, rules, "20260714024").Fields["eventdate"]; ok {
		t.Error("null event_date should be absent")
	}
	hearings := readSample(t, "dg92-zbpx_hearings_with_event_date_cityscroll_asof_2026-08-14_event_2026-08-17_to_2026-09-03.json")
	if got := findRow(t, hearings, "20260727031").Fields["documentlinks"]; got != `["https://a856-cityrecord.nyc.gov/Search/GetFile?sectionId=1&requestId=20260727031&requestStatus=Current&documentId=44332"]` {
		t.Errorf("document_links = %q", got)
	}
	// The pin-chain wrapper (rows under "rows", nulls as null).
	chain := readSample(t, "dg92-zbpx_pin_chain_rows_cityscroll_2026-08-18.json")
	sol := findRow(t, chain, "20260515020")
	if _, ok := sol.Fields["contractamount"]; ok {
		t.Error("null contract_amount should be absent")
	}
	if got := sol.ObservedAt.Format("2006-01-02"); got != "2026-08-05" {
		t.Errorf("pin chain observed %s, want the bulk snapshot date 2026-08-05", got)
	}
}

func TestReadJSONErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"notices": [{"request_id": "1"}], "count": 2}`, "x.json: wrapper says count=2 but holds 1 rows"},
		{`{"data": []}`, "x.json: wrapper object has no row list (looked for notices, rows)"},
		{"[\n{\"request_id\": \"1\"},\n{\"request_id\": \"2\", \"RequestID\": \"2\"}\n]", `x.json:3: fields "request_id" and "RequestID" are the same column`},
		{"[\n{\"request_id\": \"1\"},\n null]", "x.json:3: row is null, not an object"},
	} {
		_, errs := ReadJSON(strings.NewReader(tc.in), "x.json")
		if len(errs) != 1 {
			t.Errorf("%s: errors %v", tc.in, errs)
			continue
		}
		got := errs[0].Error()
		if strings.Contains(tc.want, "same column") {
			// map order decides which name is seen first
			if !strings.HasPrefix(got, "x.json:3: fields ") || !strings.HasSuffix(got, "are the same column") {
				t.Errorf("got %q", got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestWhereDefaults(t *testing.T) {
	for _, tc := range []struct {
		where string
		want  map[string]string
	}{
		{"section_name='Changes in Personnel' AND short_title='APPOINTED'", map[string]string{"sectionname": "Changes in Personnel", "shorttitle": "APPOINTED"}},
		{"type_of_notice_description='Solicitation' AND due_date > '2026-08-03'", map[string]string{"typeofnoticedescription": "Solicitation"}},
		{"agency_name='Admin for Children''s Svcs' and pin='X AND Y'", map[string]string{"agencyname": "Admin for Children's Svcs", "pin": "X AND Y"}},
		{"section_name='Procurement' OR section_name='Agency Rules'", nil},
		{"short_title='A OR B'", map[string]string{"shorttitle": "A OR B"}},
		{"start_date >= '2026-08-01T00:00:00'", nil},
	} {
		got := WhereDefaults(tc.where)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.where, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %v, want %v", tc.where, got, tc.want)
			}
		}
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"RequestID":                "requestid",
		"request_id":               "requestid",
		"Request ID":               "requestid",
		"AdditionalDescription1":   "additionaldescription1",
		"additional_description_1": "additionaldescription1",
		"Additional Description 1": "additionaldescription1",
		"\uFEFFRequest ID":         "requestid",
		"PIN":                      "pin",
	} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}
