package crol

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

var (
	corpusOnce sync.Once
	corpus     *Corpus
	corpusErrs []error
)

// sampleCorpus loads the bundled sample once for all tests.
func sampleCorpus(t *testing.T) *Corpus {
	t.Helper()
	corpusOnce.Do(func() { corpus, corpusErrs = Scan(repoRoot, sampleDir, nil) })
	for _, err := range corpusErrs {
		t.Errorf("%v", err)
	}
	return corpus
}

func notice(t *testing.T, id string) record.Notice {
	t.Helper()
	for _, n := range sampleCorpus(t).Notices {
		if n.RequestID == id {
			return n
		}
	}
	t.Fatalf("notice %s not in the sample corpus", id)
	return record.Notice{}
}

// TestLoadDirSample loads the whole bundled corpus: every row of every file,
// one notice per request id, nothing lost.
func TestLoadDirSample(t *testing.T) {
	c := sampleCorpus(t)
	rows := 0
	for _, f := range c.Files {
		rows += f.Rows
		if f.Errors != 0 {
			t.Errorf("%s: %d errors", f.File, f.Errors)
		}
		if strings.Contains(f.File, "/lookups/") {
			t.Errorf("lookup file %s was loaded", f.File)
		}
	}
	if len(c.Files) != 15 {
		t.Errorf("%d files loaded, want 15 (7 psv + 2 DCAS csv + 6 json)", len(c.Files))
	}
	// 972 DCAS 2014 + 482 DCAS 2013 + 188 SODA + 243 Property Disposition
	// rows; two request ids appear in two SODA files each, and 8 of the
	// 2014 Property Disposition notices again in the 243.
	if rows != 1885 || c.Merged != 10 || len(c.Notices) != 1875 {
		t.Fatalf("rows %d merged %d notices %d; want 1885, 10, 1875", rows, c.Merged, len(c.Notices))
	}
	seen := map[string]bool{}
	for _, n := range c.Notices {
		if n.RequestID == "" || seen[n.RequestID] {
			t.Errorf("empty or repeated request id %q", n.RequestID)
		}
		seen[n.RequestID] = true
		if n.Source != record.SourceCROL || n.Lens == "" || n.Lens != n.Lenses[0] || n.AgencyID == "" {
			t.Errorf("%s: source %q lens %q lenses %v agency %q", n.RequestID, n.Source, n.Lens, n.Lenses, n.AgencyID)
		}
		if n.StartDate.IsZero() {
			t.Errorf("%s: no start date", n.RequestID)
		}
		if n.OfficialURL != record.OfficialURL(n.RequestID) || n.OpenDataURL != record.OpenDataURL(n.RequestID) {
			t.Errorf("%s: urls %q %q", n.RequestID, n.OfficialURL, n.OpenDataURL)
		}
	}
	cov := c.Coverage
	if cov.Source != record.SourceCROL || cov.Records != 1875 || cov.FirstSourceDate != "2013-07-22" || cov.LastSourceDate != "2026-08-14" {
		t.Errorf("coverage = %+v", cov)
	}
	if got := cov.ObservedAt.Format("2006-01-02"); got != "2026-08-14" {
		t.Errorf("corpus observed %s, want 2026-08-14", got)
	}
	if cov.Passages < cov.Records/2 {
		t.Errorf("only %d passages", cov.Passages)
	}
	notices, errs := LoadDir(repoRoot, sampleDir, nil)
	if len(errs) != 0 || len(notices) != 1875 {
		t.Errorf("LoadDir: %d notices, %v", len(notices), errs)
	}
}

// TestMergeKeepsLatestObservation: 20260708002 is in the agency-rules array
// (start_date up to 2026-07-22, with end_date) and in the hearings array
// observed 2026-08-14 (with body and document links, no end_date column).
func TestMergeKeepsLatestObservation(t *testing.T) {
	n := notice(t, "20260708002")
	if n.EndDate.Format("2006-01-02") != "2026-07-15" {
		t.Errorf("end date %v: the older file's column should survive", n.EndDate)
	}
	if !strings.HasPrefix(n.Body, "Title: DSNY Proposed Implementation Dates") {
		t.Errorf("body %q: the newer file's column should be used", n.Body)
	}
	if len(n.DocumentLinks) != 1 || n.EventDate.Format(time.DateTime) != "2026-08-25 10:00:00" {
		t.Errorf("links %v event %v", n.DocumentLinks, n.EventDate)
	}
	if _, ok := n.Raw["sourcelinks"]; ok {
		t.Error("cityscroll's source_links is not a source field")
	}

	// A newer observation wins; a column it was asked for but lacks is
	// dropped; a column it was not asked for is kept.
	old := Row{Fields: map[string]string{"requestid": "1", "duedate": "2026-08-03T10:00:00.000", "pin": "P1", "vendorname": "Acme"},
		ObservedAt: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC), Columns: []string{"requestid", "duedate", "pin", "vendorname"}}
	newer := Row{Fields: map[string]string{"requestid": "1", "duedate": "2026-08-11T10:00:00.000"},
		ObservedAt: time.Date(2026, 8, 3, 0, 0, 0, 0, time.UTC), Columns: []string{"requestid", "duedate", "pin"}}
	rows, folded := MergeRows([]Row{newer, old})
	if folded != 1 || len(rows) != 1 {
		t.Fatalf("rows %d folded %d", len(rows), folded)
	}
	f := rows[0].Fields
	if f["duedate"] != "2026-08-11T10:00:00.000" || f["vendorname"] != "Acme" {
		t.Errorf("merged = %v", f)
	}
	if _, ok := f["pin"]; ok {
		t.Errorf("pin was asked for by the newer observation and is gone: %v", f)
	}
}

// TestNormalizeLenses maps real rows of every section to their lenses.
func TestNormalizeLenses(t *testing.T) {
	for _, tc := range []struct {
		id, section string
		lenses      []string
	}{
		{"20141010018", "Procurement", []string{"money"}},                               // DCAS award
		{"20141112004", "Procurement", []string{"money"}},                               // DCAS solicitation
		{"20141103105", "Agency Public Hearings on Contract Awards", []string{"money"}}, // contract hearing
		{"20140109107", "Property Disposition", []string{"property"}},
		{"20141107102", "Agency Rules", []string{"rules"}},
		{"20141015104", "Public Hearings and Meetings", []string{"meetings", "land"}}, // Board of Standards and Appeals
		{"20141008103", "Public Hearings and Meetings", []string{"meetings"}},         // community board budget and liquor licences
		{"20141008110", "Special Materials", []string{"special-materials"}},
		{"20141007106", "Court Notices", []string{"court-notices"}},
		{"984089", "Changes in Personnel", []string{"people"}}, // section from the wrapper's $where
		{"20260624038", "Procurement", []string{"money"}},      // section from notice type Solicitation
		{"20211028125", "Procurement", []string{"money"}},      // pin chain Award
		{"20260714024", "Agency Rules", []string{"rules"}},
		{"20260810053", "Public Hearings and Meetings", []string{"meetings"}},
	} {
		n := notice(t, tc.id)
		if n.Section != tc.section || strings.Join(n.Lenses, ",") != strings.Join(tc.lenses, ",") || n.Lens != tc.lenses[0] {
			t.Errorf("%s: section %q lenses %v, want %q %v", tc.id, n.Section, n.Lenses, tc.section, tc.lenses)
		}
	}
	// every DCAS section got a known lens or its own slug
	counts := map[string]int{}
	for _, n := range sampleCorpus(t).Notices {
		counts[n.Lens]++
	}
	for _, lens := range []string{"money", "property", "rules", "meetings", "people", "special-materials", "court-notices"} {
		if counts[lens] == 0 {
			t.Errorf("no notice with lens %s (%v)", lens, counts)
		}
	}
	if counts["unsectioned"] != 0 {
		t.Errorf("%d notices without a section", counts["unsectioned"])
	}
}

// TestNormalizeAmounts: placeholders stay raw, real amounts count.
func TestNormalizeAmounts(t *testing.T) {
	for _, tc := range []struct {
		id     string
		raw    string
		valid  bool
		amount float64
	}{
		{"20141008004", "-1", false, 0}, // Parks concession award placeholder
		{"20141031001", "-1", false, 0}, // another of the six
		// Correction inmate-phone contract: the shared README calls 1 a
		// placeholder, but record.ParseAmount's rule (above 0, below
		// $10 billion) accepts it; the rule is record's to change.
		{"20141006012", "1", true, 1},
		{"20141106009", "105800053.25", true, 105800053.25}, // Harlem River Drive viaduct
		{"20141010018", "479543", true, 479543},
		{"20211028125", "2250000", true, 2250000}, // SODA award
		{"20141112004", "", false, 0},             // solicitations have no amount
		{"20260515020", "", false, 0},             // "contract_amount": null
	} {
		n := notice(t, tc.id)
		if n.AmountRaw != tc.raw || n.AmountValid != tc.valid || n.Amount != tc.amount {
			t.Errorf("%s: raw %q valid %v amount %v; want %q %v %v", tc.id, n.AmountRaw, n.AmountValid, n.Amount, tc.raw, tc.valid, tc.amount)
		}
		if tc.raw != "" && n.Raw["contractamount"] != tc.raw {
			t.Errorf("%s: Raw amount %q", tc.id, n.Raw["contractamount"])
		}
	}
	// The README's Police towing revenue contract carries 0; it is not in
	// this development set, so the rule is checked directly.
	if v, ok := record.ParseAmount("0"); ok || v != 0 {
		t.Errorf("ParseAmount(0) = %v, %v", v, ok)
	}
}

// TestRollingDeadlines: no real row here has a due year of 2090 or later
// (DCAS due dates are 2014–2015, SODA 2026), so the rule is checked with
// realistic source values in every date shape the sources use.
func TestRollingDeadlines(t *testing.T) {
	for _, n := range sampleCorpus(t).Notices {
		if n.DueRolling {
			t.Errorf("%s: unexpected rolling deadline", n.RequestID)
		}
	}
	for _, tc := range []struct {
		raw     string
		rolling bool
		date    string
	}{
		{"2099-12-31 00:00:00", true, ""},
		{"2090-01-01T00:00:00.000", true, ""},
		{"12/31/2099 12:00:00 AM", true, ""},
		{"2089-12-31T17:00:00.000", false, "2089-12-31 17:00"},
		{"2014-12-10 11:00:00", false, "2014-12-10 11:00"},     // DCAS
		{"2026-08-03T13:30:00.000", false, "2026-08-03 13:30"}, // SODA
		{"08/03/2026 01:30:00 PM", false, "2026-08-03 13:30"},  // CSV export
		{"", false, ""},
		{"TBD", false, ""},
	} {
		due, rolling := record.ParseDue(tc.raw)
		got := ""
		if !due.IsZero() {
			got = due.Format("2006-01-02 15:04")
		}
		if rolling != tc.rolling || got != tc.date {
			t.Errorf("ParseDue(%q) = %q, %v; want %q, %v", tc.raw, got, rolling, tc.date, tc.rolling)
		}
	}
	n := notice(t, "20141112004")
	if n.DueDate.Format(time.DateTime) != "2015-01-06 12:00:00" || n.DueRolling {
		t.Errorf("due %v rolling %v", n.DueDate, n.DueRolling)
	}
}

// TestVendorStems: real suffix and punctuation variants meet on one stem.
func TestVendorStems(t *testing.T) {
	groups := map[string][]string{ // stem → request ids of real rows
		"EDSAL MACHINE PRODUCTS":          {"20140924037", "20141009007"},                               // Inc. / , Inc.
		"INSIGHT PUBLIC SECTOR":           {"20141009009", "20141010009"},                               // "Inc. " (trailing space) / , Inc.
		"DELL MARKETING":                  {"20141021003", "20141103029", "20141010018", "20141118016"}, // L.P. / LP / , LP
		"DENVILLE LINE PAINTING":          {"20141022030", "20141022026"},                               // , Inc / INC (upper case)
		"INTERNATIONAL BUSINESS MACHINES": {"20141110010", "20141029011"},                               // Corp.. / Corp.
		"CADDELL DRY DOCK AND REPAIR":     {"20141117021", "20141117019"},                               // Co., Inc. / Co. Inc.
		"CAC INDUSTRIES":                  {"20141114017", "20141120008"},                               // C.A.C. INC. / INC. (initials joined)
		"KPMG":                            {"20140926011", "20141029039"},                               // , LLP / , LLP (trailing space)
		"SECURUS TECHNOLOGIES":            {"20141006012", "20211028125"},                               // DCAS "Inc." / SODA "LLC"
		"IMPACT RECOVERY SYSTEMS":         {"20140924036"},                                              // INc.
	}
	for stem, ids := range groups {
		for _, id := range ids {
			n := notice(t, id)
			if n.VendorStem != stem {
				t.Errorf("%s: vendor %q stem %q, want %q", id, n.VendorName, n.VendorStem, stem)
			}
			if n.VendorName != strings.TrimSpace(n.VendorName) {
				t.Errorf("%s: display name %q not trimmed", id, n.VendorName)
			}
		}
	}
	// The raw value keeps its trailing space.
	if got := notice(t, "20141009009").Raw["vendorname"]; got != "Insight Public Sector Inc. " {
		t.Errorf("raw vendor %q", got)
	}
}

func TestFiscalYear(t *testing.T) {
	for _, tc := range []struct {
		day  string
		want int
	}{
		{"2026-06-30", 2026}, {"2026-07-01", 2027}, {"2014-10-07", 2015}, {"2014-01-02", 2014},
	} {
		d := record.ParseDate(tc.day)
		if got := record.FiscalYear(d); got != tc.want {
			t.Errorf("FiscalYear(%s) = %d, want %d", tc.day, got, tc.want)
		}
	}
	if got := record.FiscalYear(notice(t, "20141010018").StartDate); got != 2015 {
		t.Errorf("award of 2014-10-20 in FY%d", got)
	}
}

// TestNormalizeBodies: DCAS procurement text joins its three columns; the
// non-procurement HTML stays raw in Body and becomes text in Text.
func TestNormalizeBodies(t *testing.T) {
	part1 := readSample(t, "dcas_2014/procPublicationRequestDMSSPortal_procurement_startdate_2014-01_to_2014-11_part1.psv")
	dell := findRow(t, part1, "20141010018")
	n := notice(t, "20141010018")
	if n.Body != dell.Fields["otherinfo"]+"\n\n"+dell.Fields["printout"] {
		t.Errorf("award body = %q", n.Body) // AdditionalDescription is empty here
	}
	cuny := notice(t, "20141112004")
	if !strings.HasPrefix(cuny.Body, "The expected construction cost range") || !strings.Contains(cuny.Body, "contract number.\n\nCOLLEGE OF STATEN ISLAND BUILDING 2M – SOUTH WING") {
		t.Errorf("solicitation body = %.200q", cuny.Body)
	}

	bsa := notice(t, "20141015104")
	if !strings.HasPrefix(bsa.Body, "<p>  &nbsp;</p> <p align=\"center\">  <strong>NOVEMBER 18, 2014, 10:00 A.M.</strong></p>") {
		t.Errorf("HTML body not raw: %.120q", bsa.Body)
	}
	// (record.PlainText turns the inline </u> before the comma into a space.)
	if !strings.HasPrefix(bsa.Text, "NOVEMBER 18, 2014, 10:00 A.M.\n\nNOTICE IS HEREBY GIVEN of a public hearing, Tuesday morning, November 18, 2014, 10:00 A.M., in Spector Hall, 22 Reade Street, New York, N.Y. 10007, on the following matters:") {
		t.Errorf("text = %.300q", bsa.Text)
	}
	if !strings.Contains(bsa.Text, "APPLICANT –Vassalotti Associates Architects, LLP, for Zonar LLC, owner.") || strings.ContainsAny(bsa.Text, "<>") || strings.Contains(bsa.Text, "&nbsp;") {
		t.Errorf("text not plain: %.600q", bsa.Text)
	}

	personnel := notice(t, "984089")
	if personnel.Body != "Effective Date: 05/10/2026; Provisional Status: Yes; Title Code: 70810; Reason For Change: APPOINTED; Salary: 40480.00; Employee Name: ROSE,CHANILE V." || personnel.Title != "APPOINTED" {
		t.Errorf("personnel body %q title %q", personnel.Body, personnel.Title)
	}

	// Passages point into Body and carry the notice's labels.
	rules := notice(t, "20141107102")
	ps := Passages(rules)
	if len(ps) < 2 {
		t.Fatalf("%d passages", len(ps))
	}
	body := []rune(rules.Body)
	for i, p := range ps {
		if p.ID != rules.RequestID+"#p"+string(rune('1'+i)) || p.Source != "crol" || p.Section != "Agency Rules" ||
			strings.Join(p.Lenses, ",") != "rules" || p.AgencyID != rules.AgencyID || p.Title != rules.Title ||
			!p.StartDate.Equal(rules.StartDate) || p.SourceURL != rules.OfficialURL {
			t.Errorf("passage %d = %+v", i, p)
		}
		if p.Start < 0 || p.End > len(body) || p.Start >= p.End {
			t.Errorf("passage %d span %d-%d of %d", i, p.Start, p.End, len(body))
		}
	}
}

// TestNormalizeFields checks the remaining mappings on real rows.
func TestNormalizeFields(t *testing.T) {
	cuny := notice(t, "20141112004")
	want := record.Contact{
		Name: "Jeanny Cheung", Phone: "2126143377", Email: "jeanny.cheung@stvinc.com",
		AddressRequest:  "STV Construction, Inc., 225 Park Avenue South, 5th Floor, New York, NY 10003",
		AddressToSubmit: "STV C/O CUNY 555 West 57th Street, 16th Floor, New York, NY, 10019",
	}
	if cuny.Contact != want || cuny.PIN != "CITYW-CUCF-01-09-08" || cuny.NoticeType != "Solicitation" ||
		cuny.Category != "Construction/Construction Services" || cuny.SelectionMethod != "Competitive Sealed Bids" ||
		cuny.AgencyDivision != "Facilities Planning, Construction and Management" || cuny.AgencyRaw != "City University" {
		t.Errorf("fields: %+v", cuny)
	}
	for _, k := range []string{"requestedby", "phonerequested", "confirmationnumber", "vendorname", "contractamount"} {
		if _, ok := cuny.Raw[k]; ok {
			t.Errorf("Raw has %s", k)
		}
	}
	if cuny.Raw["agencycode"] != "N26" || cuny.Raw["shorttitle"] != "COLLEGE OF STATEN ISLAND BUILDING 2M – SOUTH WING RENOVATIONS" || len(cuny.Raw) != 24 {
		t.Errorf("Raw (%d) = %v", len(cuny.Raw), cuny.Raw)
	}

	// DCAS short titles keep trailing spaces in Raw only.
	ddc := notice(t, "20141030008")
	if ddc.Title != "WATER MAIN WORK IN VARIOUS LOCATIONS IN JEWEL AVENUE AREA - BOROUGH OF QUEENS" || !strings.HasSuffix(ddc.Raw["shorttitle"], "QUEENS ") {
		t.Errorf("title %q raw %q", ddc.Title, ddc.Raw["shorttitle"])
	}

	// Event place and document links from SODA rows.
	pdc := notice(t, "20260810053")
	if pdc.EventPlace != "City Hall, City Hall Park, New York, NY 10007" || pdc.EventDate.Format(time.DateTime) != "2026-08-17 09:10:00" {
		t.Errorf("place %q event %v", pdc.EventPlace, pdc.EventDate)
	}
	if p := notice(t, "20260730025").EventPlace; p != "55 Water Street, 9th\u00a0Floor, New York, NY 10041" {
		t.Errorf("place %q", p)
	}
	if l := notice(t, "20260727031").DocumentLinks; len(l) != 1 || l[0] != "https://a856-cityrecord.nyc.gov/Search/GetFile?sectionId=1&requestId=20260727031&requestStatus=Current&documentId=44332" {
		t.Errorf("links %v", l)
	}

	// U+001A, where the source lost a dash, is a space in the title and
	// kept in Raw.
	for _, n := range sampleCorpus(t).Notices {
		if strings.ContainsRune(n.Title, '\u001a') {
			t.Errorf("%s: control character in title %q", n.RequestID, n.Title)
		}
	}

	// Crosswalk: AgencyRaw is the exact string, the id is canonical.
	cw := entity.NewCrosswalk([]string{"Department of Homeless Services"}, map[string]string{"DEPT. OF HOMELESS SERVICES": "Department of Homeless Services"})
	rows := readSample(t, "socrata_2026/changes_in_personnel_appointed_2026-05-22.json")
	n, err := Normalize(findRow(t, rows, "984089"), cw)
	if err != nil {
		t.Fatal(err)
	}
	if n.AgencyRaw != "DEPT. OF HOMELESS SERVICES" || n.AgencyID != "department-of-homeless-services" || n.AgencyName != "Department of Homeless Services" {
		t.Errorf("agency %q %q %q", n.AgencyRaw, n.AgencyID, n.AgencyName)
	}
	r := Row{Fields: map[string]string{"requestid": "1", "agencyname": " Police "}}
	if n, _ := Normalize(r, nil); n.AgencyRaw != " Police " || n.AgencyID != "police" {
		t.Errorf("agency raw %q id %q", n.AgencyRaw, n.AgencyID)
	}
}

func TestNormalizeNoRequestID(t *testing.T) {
	_, err := Normalize(Row{Fields: map[string]string{"requestid": "  ", "shorttitle": "x"}, File: "f.json", Line: 7}, nil)
	if !errors.Is(err, ErrNoRequestID) || err.Error() != "f.json:7: row has no request id" {
		t.Errorf("err = %v", err)
	}
}

// hearingsFile is a real SODA JSON file of the sample.
const hearingsFile = "dg92-zbpx_hearings_with_event_date_cityscroll_asof_2026-08-14_event_2026-08-17_to_2026-09-03.json"

// A real row whose request id is mutated into something the notice
// endpoint refuses is not normalized: its permalink could never open.
func TestNormalizeRefusesMalformedRequestID(t *testing.T) {
	row := findRow(t, readSample(t, hearingsFile), "20260805006")
	if n, err := Normalize(row, entity.DefaultCrosswalk()); err != nil || n.RequestID != "20260805006" {
		t.Fatalf("the real row: %v %q", err, n.RequestID)
	}
	for _, id := range []string{"20260805006/1", "2026 0805006", "../20260805006", "20260805006?x=1", "2026080500６",
		"20260805006#p1", "20260805006.", strings.Repeat("2", 41)} {
		mutated := row
		mutated.Fields = map[string]string{}
		for k, v := range row.Fields {
			mutated.Fields[k] = v
		}
		mutated.Fields["requestid"] = id
		_, err := Normalize(mutated, entity.DefaultCrosswalk())
		var re *RowError
		if !errors.Is(err, ErrBadRequestID) || !errors.As(err, &re) || re.File != row.File || re.Line != row.Line {
			t.Errorf("%q: err = %v", id, err)
		}
	}
	// surrounding blanks are trimmed, as before
	padded := row
	padded.Fields = map[string]string{}
	for k, v := range row.Fields {
		padded.Fields[k] = v
	}
	padded.Fields["requestid"] = " 20260805006 "
	if n, err := Normalize(padded, nil); err != nil || n.RequestID != "20260805006" {
		t.Errorf("padded id: %v %q", err, n.RequestID)
	}
}

// Scanning a real file in which one row's id is malformed reports that row
// and loads every other one.
func TestScanSkipsMalformedRequestID(t *testing.T) {
	data, err := fs.ReadFile(repoRoot, path.Join(sampleDir, hearingsFile))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(data, []byte(`"request_id": "20260805006"`), []byte(`"request_id": "20260805006/1"`), 1)
	if bytes.Equal(bad, data) {
		t.Fatal("the row to mutate is not in the file")
	}
	want := countJSONRows(t, hearingsFile)
	c, errs := Scan(fstest.MapFS{"crol/h.json": {Data: bad}}, "crol", nil)
	if len(errs) != 1 || !errors.Is(errs[0], ErrBadRequestID) || !strings.HasPrefix(errs[0].Error(), "crol/h.json:") {
		t.Fatalf("errors %v", errs)
	}
	if len(c.Notices) != want-1 {
		t.Errorf("%d notices, want %d", len(c.Notices), want-1)
	}
	for _, n := range c.Notices {
		if !record.ValidRequestID(n.RequestID) || strings.HasPrefix(n.RequestID, "20260805006") {
			t.Errorf("loaded %q", n.RequestID)
		}
	}
}

func TestDocumentLinks(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`["https://a856-cityrecord.nyc.gov/Search/GetFile?sectionId=1&requestId=20260727031&requestStatus=Current&documentId=44332"]`,
			[]string{"https://a856-cityrecord.nyc.gov/Search/GetFile?sectionId=1&requestId=20260727031&requestStatus=Current&documentId=44332"}},
		{`{"url":"https://www1.nyc.gov/assets/a.pdf"}`, []string{"https://www1.nyc.gov/assets/a.pdf"}},
		{`[{"url":"https://x.nyc.gov/a.pdf"},"https://x.nyc.gov/b.pdf"]`, []string{"https://x.nyc.gov/a.pdf", "https://x.nyc.gov/b.pdf"}},
		{"See https://x.nyc.gov/a.pdf and http://x.nyc.gov/b.pdf.\nhttps://x.nyc.gov/a.pdf", []string{"https://x.nyc.gov/a.pdf", "http://x.nyc.gov/b.pdf"}},
		{"", nil},
		{"none", nil},
	} {
		got := DocumentLinks(tc.in)
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("DocumentLinks(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
