// Package people holds the typed rows of people and organizations (SPEC
// §2.7, §2.10): one row per organization of a dated roster release, and one
// row per person a release names, each kept with the id its source gives,
// its relation states (published, empty or unknown) and the source fields
// exactly as read. Display names never create identity: a person row is
// identified by the roster record and release that print the name, so two
// people with one name in two organizations stay two rows until a source
// says they are one.
//
// The service (service.go) reads them through the search.Records seam:
// one exact row, bounded snapshots, the leader nodes of an agency and the
// attributed disagreements between the crosswalk and the roster.
package people

import (
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Row types.
const (
	TypePerson       = "person"
	TypeOrganization = "organization"
)

// Record kinds: one family, two members.
const (
	KindFamily       = "people"
	KindPerson       = "people.person"
	KindOrganization = "people.organization"
)

// Relation states (SPEC §2.10).
const (
	Published = "published" // the source prints a value
	Empty     = "empty"     // the source has the field and prints no value
	Unknown   = "unknown"   // the source does not have the field, or no source row is held
)

// Release date kinds: a roster file names the date it was published; a
// live read knows only the day it was fetched.
const (
	DatePublished = "published"
	DateFetched   = "fetched"
	DateUnknown   = "unknown"
)

// Keys of people records (exact-match keywords).
const (
	KeyRowType     = "row_type"     // person | organization
	KeyRowID       = "row_id"       // the row id exactly as given
	KeyOrgID       = "org_id"       // the roster record id of the organization (a person's: the one that names them)
	KeyRelease     = "release_date" // YYYY-MM-DD of the release ("unknown" when the source gives none)
	KeyToken       = "token"        // lower-case words of names and acronyms, for exact token filters
	KeyOrgType     = "org_type"     // organization_type as printed, lower-cased
	KeyAgencyID    = "agency_id"    // search.KeyAgencyID: the crosswalk agency the organization is
	KeyOfficerName = "officer"      // whether a release prints a principal officer name: yes | no
)

// Release is one dated release of a roster.
type Release struct {
	Dataset  string `json:"dataset"`           // t3jq-9nkf
	Version  string `json:"version,omitempty"` // v1.8.43
	Date     string `json:"date,omitempty"`    // YYYY-MM-DD
	DateKind string `json:"date_kind"`         // published | fetched | unknown
	File     string `json:"file,omitempty"`    // file or page the rows were read from
}

// AsOf is how a release dates what it says: "as of 2026-06-12", never
// "current".
func (r Release) AsOf() string { return r.AsOfKey().String() }

// AsOfKey is AsOf as a note.
func (r Release) AsOfKey() record.Note {
	if r.Date == "" {
		return record.N("people.as_of.unknown")
	}
	if r.DateKind == DateFetched {
		return record.N("people.as_of.fetched", r.Date)
	}
	return record.N("people.as_of", r.Date)
}

// Key is the release's key value.
func (r Release) Key() string {
	if r.Date == "" {
		return DateUnknown
	}
	return r.Date
}

// Relation is one relation of a row and its state: published (Value or
// Values hold what the source prints; TargetID the row it points at, when
// the source names one), empty or unknown.
type Relation struct {
	Name     string   `json:"name"`
	State    string   `json:"state"`
	Value    string   `json:"value,omitempty"`
	Values   []string `json:"values,omitempty"`
	TargetID string   `json:"target_id,omitempty"`
	Note     string   `json:"note,omitempty"`
	// NoteKey is Note as a note (nil on a row stored before the notes).
	NoteKey *record.Note `json:"note_key,omitempty"`
}

// Say sets the relation's note to n.
func (r *Relation) Say(n record.Note) { r.Note, r.NoteKey = n.String(), &n }

// NameVariant is a spelling of an organization in the roster's official
// name crosswalk (Ops, CPO, Greenbook lists).
type NameVariant struct {
	System string `json:"source_system"`
	Column string `json:"source_column"`
	Name   string `json:"name"`
}

// Row is one typed row: a person or an organization, in one release.
type Row struct {
	Type string `json:"type"`
	// ID is the row id: an organization's record id exactly as the source
	// gives it (encoded text included); a person's is built from the
	// record id that names them, their role and the release date
	// (PersonID), never from the name.
	ID string `json:"id"`
	// Name is the display name as printed; it identifies nothing.
	Name    string  `json:"name"`
	Release Release `json:"release"`

	Source      string    `json:"source"`
	SourceLabel string    `json:"source_label"`
	ObservedAt  time.Time `json:"observed_at,omitzero"`

	// OrgID is the organization's record id (a person's: the record that
	// names them); OrgName its name as printed.
	OrgID   string `json:"organization_id"`
	OrgName string `json:"organization_name,omitempty"`
	// Role is a person's title as printed (principal_officer_title).
	Role string `json:"role,omitempty"`
	// OrgType and Status are an organization's organization_type and
	// operational_status as printed.
	OrgType string `json:"organization_type,omitempty"`
	Status  string `json:"operational_status,omitempty"`
	// AgencyID is the crosswalk agency this organization is (a person's:
	// the agency whose record names them), tied by the crosswalk's NYC
	// Governance Organizations id (exact); empty when the crosswalk holds
	// no agency with this record id.
	AgencyID  string        `json:"agency_id,omitempty"`
	Acronym   string        `json:"acronym,omitempty"`
	Variants  []NameVariant `json:"name_variants,omitempty"`
	Relations []Relation    `json:"relations"`
	// Fields are the source fields exactly as read: text as printed, and
	// for JSON sources non-text values as their JSON text.
	Fields map[string]string `json:"source_fields"`
}

// Relation returns the relation named name (state unknown when the row has
// none).
func (r Row) Relation(name string) Relation {
	for _, x := range r.Relations {
		if x.Name == name {
			return x
		}
	}
	return Relation{Name: name, State: Unknown}
}

// Relation names.
const (
	RelPrincipalOfficer = "principal_officer" // organization → person
	RelPrincipalTitle   = "principal_officer_title"
	RelReportsTo        = "reports_to" // free text, not a record id
	RelAlternateNames   = "alternate_names"
	RelLeads            = "leads" // person → organization
	RelURL              = "url"
)

// RolePrincipalOfficer is the role segment of a principal officer's row id.
const RolePrincipalOfficer = "principal-officer"

// PersonID is the id of the person a release prints in a role of an
// organization: the record id as given, the role and the release date.
func PersonID(orgID, role string, rel Release) string {
	return orgID + "/" + role + "/" + rel.Key()
}

// storeID is the record id a row is held under: rows of several releases
// share an id, so the release makes the record unique.
func storeID(r Row) string { return r.ID + "@" + r.Release.Key() }

// Kind is the typed record kind of people rows, declared once.
var Kind = search.Kind[Row]{
	Name:    KindFamily,
	Members: []string{KindOrganization, KindPerson},
	Index:   index,
}

// index is the envelope of a row: its kind by type; keys row_type, row_id
// (as given), org_id, release_date, tokens, organization type and agency
// id; the release date (when known) as its date.
func index(r Row) search.Record {
	kind := KindOrganization
	switch r.Type {
	case TypePerson:
		kind = KindPerson
	case TypeOrganization:
	default:
		kind = KindFamily + ".untyped" // not a member: Encode refuses it
	}
	keys := map[string][]string{}
	set := func(k string, vs ...string) {
		for _, v := range vs {
			if v != "" && len(keys[k]) < search.MaxKeyValues {
				keys[k] = append(keys[k], v)
			}
		}
	}
	set(KeyRowType, r.Type)
	set(KeyRowID, r.ID)
	set(KeyOrgID, r.OrgID)
	set(KeyRelease, r.Release.Key())
	set(KeyOrgType, strings.ToLower(strings.TrimSpace(r.OrgType)))
	set(KeyAgencyID, r.AgencyID)
	if r.Type == TypeOrganization {
		set(search.KeyAgencyRaw, r.Name) // the roster's spelling (GET /agencies)
	}
	set(KeyToken, Tokens(r)...)
	if r.Type == TypeOrganization {
		if r.Relation(RelPrincipalOfficer).State == Published {
			set(KeyOfficerName, "yes")
		} else {
			set(KeyOfficerName, "no")
		}
	}
	rec := search.Record{Kind: kind, ID: storeID(r), Source: r.Source, SourceLabel: r.SourceLabel, ObservedAt: r.ObservedAt,
		Keys: keys, Title: r.Name}
	if r.ID == "" {
		rec.ID = ""
	}
	if d, err := time.ParseInLocation("2006-01-02", r.Release.Date, record.NewYork); err == nil {
		rec.Date, rec.DateLabel = d, "roster release"
	}
	return rec
}

// Token is the form of a token filter: lower case, letters and digits only.
func Token(s string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s))
}

// Tokens are the exact tokens a row is found by: the words of its name,
// acronym, alternate names and name variants (Token form, deduplicated).
func Tokens(r Row) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' }) {
			t := Token(w)
			if t != "" && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	add(r.Name)
	add(r.Acronym)
	for _, v := range r.Relation(RelAlternateNames).Values {
		add(v)
	}
	for _, v := range r.Variants {
		add(v.Name)
	}
	if len(out) > 200 {
		out = out[:200]
	}
	return out
}

// AgenciesByRecordID maps the roster record ids the crosswalk holds
// (Agency.NYCGOID) to agency ids: the one rule that ties a roster row to
// an agency, by exact id.
func AgenciesByRecordID(cw *entity.Crosswalk) map[string]string {
	out := map[string]string{}
	for _, a := range cw.Agencies() {
		if a.NYCGOID != "" {
			out[a.NYCGOID] = a.ID
		}
	}
	return out
}

// Follow is how to follow a row's appearances in notices: the people lens
// (Changes in Personnel) of the agency the row is, or whose record names
// the person. Names are never matched: notices print them in another form.
type Follow struct {
	Lens   string `json:"lens"`
	Agency string `json:"agency"`
	Feed   string `json:"feed"`
	JSON   string `json:"json_feed"`
	Note   string `json:"note"`
	// NoteKeys is Note as notes.
	NoteKeys record.Notes `json:"note_keys"`
}

// followNotes are the notes of every follow.
var followNotes = record.Notes{record.N("people.follow.lens"), record.N("people.follow.names")}

// FollowOf is the follow of a row; nil when the row is no crosswalk
// agency's (there is no agency to follow).
func FollowOf(r Row) *Follow {
	if r.AgencyID == "" {
		return nil
	}
	q := "?lens=people&agency=" + url.QueryEscape(r.AgencyID)
	return &Follow{Lens: "people", Agency: r.AgencyID, Feed: "/feed.xml" + q, JSON: "/feed.json" + q,
		Note: followNotes.String(), NoteKeys: followNotes.Clone()}
}
