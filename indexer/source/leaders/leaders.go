// Package leaders reads the NYC Agencies and Governance Organizations
// roster (NYC Open Data t3jq-9nkf, published by OTI/MODA): its CSV export,
// its Socrata JSON rows (files or the live SODA API, live.go) and its
// official name crosswalk. Each roster row becomes one organization row
// (people.Row, id = record_id exactly as given) and, when the row prints a
// principal officer, one person row identified by the record, the role and
// the release date, never by the name.
//
// The roster is dated: a release says who was listed as of its date, not
// who holds a role now. The release date is read from the file name
// (…_v1.8.43_2026-06-12.csv, the date the release was published) or, for a
// live read, is the day it was fetched. Two releases of different dates
// are two sets of rows; both stay.
package leaders

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Source names the roster in records and coverage.
const (
	Source  = "leaders"
	Dataset = "t3jq-9nkf"
	Label   = "NYC Agencies and Governance Organizations roster (NYC Open Data t3jq-9nkf, OTI/MODA), dated releases"
)

// Columns are the roster's columns as the CSV export names them.
var Columns = []string{"record_id", "name", "name_alphabetized", "operational_status", "organization_type", "url",
	"alternate_or_former_names", "acronym", "alternate_or_former_acronyms", "principal_officer_full_name",
	"principal_officer_first_name", "principal_officer_last_name", "principal_officer_title",
	"principal_officer_contact_url", "reports_to", "in_org_chart", "listed_in_nyc_gov_agency_directory"}

// jsonAliases are the Socrata JSON names of CSV columns that differ.
var jsonAliases = map[string]string{
	"principal_officer_contact": "principal_officer_contact_url",
	"listed_in_nyc_gov_agency":  "listed_in_nyc_gov_agency_directory",
}

var releaseRE = regexp.MustCompile(`_(v\d+(?:\.\d+)*)_(\d{4}-\d{2}-\d{2})(?:[._]|$)`)
var versionRE = regexp.MustCompile(`_(v\d+(?:\.\d+)*)(?:[._]|$)`)

// ReleaseOf reads the release a roster file holds from its name: the
// version and the date it was published; date kind unknown when the name
// gives no date.
func ReleaseOf(file string) people.Release {
	base := path.Base(file)
	r := people.Release{Dataset: Dataset, DateKind: people.DateUnknown, File: base}
	if m := releaseRE.FindStringSubmatch(base); m != nil {
		if _, err := time.Parse("2006-01-02", m[2]); err == nil {
			r.Version, r.Date, r.DateKind = m[1], m[2], people.DatePublished
			return r
		}
	}
	if m := versionRE.FindStringSubmatch(base); m != nil {
		r.Version = m[1]
	}
	return r
}

// Batch is what a read of roster files gives.
type Batch struct {
	Rows   []people.Row
	Read   int // source rows read (roster rows and name-crosswalk rows)
	Merged int // roster rows of a release already read from another file
}

// raw is one roster row as read: its fields by CSV column name (values as
// normalized for reading), the fields exactly as read, and which columns
// the source has.
type raw struct {
	line    int
	fields  map[string]string
	asRead  map[string]string
	columns map[string]bool
}

// ReadDir reads every roster file (.csv roster exports, .json Socrata
// rows) and name-crosswalk file (.csv with RecordID, SourceSystem …) under
// dir. A bad row is rejected with its reason; a bad file with its reason.
func ReadDir(fsys fs.FS, dir string) (Batch, []error) {
	var out Batch
	var errs []error
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return out, []error{err}
	}
	type rosterFile struct {
		rel  people.Release
		rows []raw
	}
	var rosters []rosterFile
	variants := map[string]map[string][]people.NameVariant{} // version → record id → variants
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := e.Name()
		p := path.Join(dir, name)
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		data = bytes.TrimPrefix(data, []byte("\ufeff"))
		switch strings.ToLower(path.Ext(name)) {
		case ".csv":
			if bytes.HasPrefix(data, []byte("RecordID,")) {
				n, vs, ferrs := readNameCrosswalk(data, name)
				out.Read += n
				errs = append(errs, ferrs...)
				v := ReleaseOf(name).Version
				if variants[v] == nil {
					variants[v] = map[string][]people.NameVariant{}
				}
				for id, x := range vs {
					variants[v][id] = append(variants[v][id], x...)
				}
				continue
			}
			rows, err := readCSV(data)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
				continue
			}
			rosters = append(rosters, rosterFile{ReleaseOf(name), rows})
		case ".json":
			rows, err := readJSON(data)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
				continue
			}
			rosters = append(rosters, rosterFile{ReleaseOf(name), rows})
		}
	}
	seen := map[string]bool{}
	for _, f := range rosters {
		out.Read += len(f.rows)
		rows, merged, ferrs := Build(f.rows, f.rel, variants[f.rel.Version], seen)
		out.Rows = append(out.Rows, rows...)
		out.Merged += merged
		errs = append(errs, ferrs...)
	}
	return out, errs
}

// readCSV reads a roster CSV export (BOM already removed).
func readCSV(data []byte) ([]raw, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("no header: %w", err)
	}
	cols := map[string]bool{}
	for _, h := range header {
		cols[h] = true
	}
	if !cols["record_id"] {
		return nil, fmt.Errorf("not a roster export: no record_id column")
	}
	var out []raw
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, fmt.Errorf("line %d: %w", line, err)
		}
		x := raw{line: line, fields: map[string]string{}, asRead: map[string]string{}, columns: cols}
		for i, h := range header {
			if i < len(rec) {
				x.fields[h], x.asRead[h] = rec[i], rec[i]
			}
		}
		out = append(out, x)
	}
	return out, nil
}

// readJSON reads roster rows in Socrata JSON shape: an array of objects
// whose empty fields are left out (so every roster column is known, and an
// absent one is empty), URL columns as {"url": …} objects, booleans as
// JSON booleans, and the directory flag under its cut-short name.
func readJSON(data []byte) ([]raw, error) {
	var objs []map[string]json.RawMessage
	if err := json.Unmarshal(data, &objs); err != nil {
		return nil, fmt.Errorf("not a JSON array of roster rows: %w", err)
	}
	cols := map[string]bool{}
	for _, c := range Columns {
		cols[c] = true
	}
	out := make([]raw, 0, len(objs))
	for i, o := range objs {
		x := raw{line: i + 1, fields: map[string]string{}, asRead: map[string]string{}, columns: cols}
		for k, v := range o {
			var s string
			if err := json.Unmarshal(v, &s); err == nil {
				x.asRead[k] = s
			} else {
				var c bytes.Buffer
				if json.Compact(&c, v) == nil {
					x.asRead[k] = c.String()
				} else {
					x.asRead[k] = string(v)
				}
				var u struct {
					URL string `json:"url"`
				}
				var b bool
				switch {
				case json.Unmarshal(v, &u) == nil && u.URL != "":
					s = u.URL
				case json.Unmarshal(v, &b) == nil:
					s = strconv.FormatBool(b)
				default:
					s = x.asRead[k]
				}
			}
			col := k
			if a, ok := jsonAliases[k]; ok {
				col = a
			}
			x.fields[col] = s
		}
		out = append(out, x)
	}
	return out, nil
}

// readNameCrosswalk reads the official name crosswalk: RecordID,
// SourceSystem, SourceColumn, SourceName.
func readNameCrosswalk(data []byte, name string) (int, map[string][]people.NameVariant, []error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return 0, nil, []error{fmt.Errorf("%s: %w", name, err)}
	}
	out := map[string][]people.NameVariant{}
	var errs []error
	for i, rec := range recs[1:] {
		if len(rec) < 4 || strings.TrimSpace(rec[0]) == "" || strings.TrimSpace(rec[3]) == "" {
			errs = append(errs, fmt.Errorf("%s line %d rejected: a name-crosswalk row needs RecordID, SourceSystem, SourceColumn and SourceName", name, i+2))
			continue
		}
		out[rec[0]] = append(out[rec[0]], people.NameVariant{System: rec[1], Column: rec[2], Name: rec[3]})
	}
	return len(recs) - 1, out, errs
}

// Build turns roster rows of one release into organization and person
// rows. seen holds the record ids already built per release (a release
// read from two files, CSV and JSON, counts its rows once: merged).
func Build(rows []raw, rel people.Release, variants map[string][]people.NameVariant, seen map[string]bool) ([]people.Row, int, []error) {
	var out []people.Row
	var errs []error
	merged := 0
	inFile := map[string]int{}
	for _, x := range rows {
		id := x.fields["record_id"]
		where := fmt.Sprintf("%s row %d", rel.File, x.line)
		if strings.TrimSpace(id) == "" {
			errs = append(errs, fmt.Errorf("%s rejected: no record_id", where))
			continue
		}
		if strings.TrimSpace(x.fields["name"]) == "" {
			errs = append(errs, fmt.Errorf("%s rejected: record %s has no name", where, id))
			continue
		}
		if l, ok := inFile[id]; ok {
			errs = append(errs, fmt.Errorf("%s rejected: record_id %s repeats row %d of the same release file", where, id, l))
			continue
		}
		inFile[id] = x.line
		key := rel.Key() + "\x00" + id
		if seen[key] {
			merged++
			continue
		}
		seen[key] = true
		org, person := rowsOf(x, rel, variants[id])
		out = append(out, org)
		if person != nil {
			out = append(out, *person)
		}
	}
	return out, merged, errs
}

// state is the relation state of a column: unknown when the source lacks
// the column, empty when it prints nothing.
func (x raw) state(col string) (string, string) {
	if !x.columns[col] {
		return people.Unknown, ""
	}
	v := strings.TrimSpace(x.fields[col])
	if v == "" {
		return people.Empty, ""
	}
	return people.Published, v
}

// freeText is the note of a relation the roster prints as free text.
var freeText = record.N("people.relation.free_text")

func rowsOf(x raw, rel people.Release, variants []people.NameVariant) (people.Row, *people.Row) {
	f := x.fields
	org := people.Row{Type: people.TypeOrganization, ID: f["record_id"], Name: strings.TrimSpace(f["name"]), Release: rel,
		Source: Source, SourceLabel: Label, OrgID: f["record_id"], OrgName: strings.TrimSpace(f["name"]),
		OrgType: strings.TrimSpace(f["organization_type"]), Status: strings.TrimSpace(f["operational_status"]),
		Acronym: strings.TrimSpace(f["acronym"]), Variants: variants, Fields: x.asRead}
	rel2 := func(name, col string, note *record.Note) people.Relation {
		st, v := x.state(col)
		r := people.Relation{Name: name, State: st, Value: v}
		if st == people.Published && note != nil {
			r.Say(*note)
		}
		return r
	}
	// principal officer: the full name; else the derived first and last
	// names; a title without a name is empty, with the title said
	full := strings.TrimSpace(f["principal_officer_full_name"])
	first, last := strings.TrimSpace(f["principal_officer_first_name"]), strings.TrimSpace(f["principal_officer_last_name"])
	title := strings.TrimSpace(f["principal_officer_title"])
	po := people.Relation{Name: people.RelPrincipalOfficer}
	switch st, _ := x.state("principal_officer_full_name"); {
	case full != "":
		po.State, po.Value = people.Published, full
	case first != "" || last != "":
		po.State, po.Value = people.Published, strings.TrimSpace(first+" "+last)
		po.Say(record.N("people.relation.derived_names"))
	default:
		po.State = st
		if st == people.Empty && title != "" {
			po.Say(record.N("people.relation.title_no_name", strconv.Quote(title)))
		}
	}
	var person *people.Row
	if po.State == people.Published {
		po.TargetID = people.PersonID(org.ID, people.RolePrincipalOfficer, rel)
		leads := people.Relation{Name: people.RelLeads, State: people.Published, Value: org.Name, TargetID: org.ID}
		printedAs := record.N("people.relation.leads")
		printedAs.Inner = []record.Part{record.PartOf(rel.AsOfKey())}
		leads.Say(printedAs)
		p := people.Row{Type: people.TypePerson, ID: po.TargetID, Name: po.Value, Release: rel, Source: Source, SourceLabel: Label,
			OrgID: org.ID, OrgName: org.Name, Role: title, Fields: map[string]string{}}
		for k, v := range x.asRead {
			if strings.HasPrefix(k, "principal_officer") {
				p.Fields[k] = v
			}
		}
		p.Relations = []people.Relation{
			leads,
			rel2(people.RelPrincipalTitle, "principal_officer_title", nil),
		}
		person = &p
	}
	alt := rel2(people.RelAlternateNames, "alternate_or_former_names", nil)
	if alt.State == people.Published {
		for _, v := range strings.Split(alt.Value, ";") {
			if v = strings.TrimSpace(v); v != "" {
				alt.Values = append(alt.Values, v)
			}
		}
		alt.Value = ""
	}
	org.Relations = []people.Relation{
		po,
		rel2(people.RelPrincipalTitle, "principal_officer_title", nil),
		rel2(people.RelReportsTo, "reports_to", &freeText),
		alt,
		rel2(people.RelURL, "url", nil),
	}
	sort.SliceStable(org.Variants, func(i, j int) bool { return org.Variants[i].System < org.Variants[j].System })
	return org, person
}
