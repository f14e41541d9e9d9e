package crol

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// procurementTypes are the notice types published in the Procurement
// section (DCAS notice codes 1–5), used when a row does not name its section.
var procurementTypes = map[string]bool{
	"solicitation":        true,
	"award":               true,
	"intent to award":     true,
	"vendor list":         true,
	"intent to negotiate": true,
}

// Placeholder columns left out of Notice.Raw: RequestedBy and
// PhoneRequested are anonymized on every DCAS row (someuser / 5511234567);
// ConfirmationNumber is dropped when it repeats the RequestID; source_links
// was added by a third party (cityscroll) and is not a source column.
var (
	placeholderColumns = map[string]bool{"requestedby": true, "phonerequested": true, "sourcelinks": true}
)

// bodyGroups are the text columns of a notice in Body order. Within a group
// the numbered columns are consecutive parts of one text (Open Data splits
// long text over additional_description_1..3 and printout_1..4) and are
// concatenated as they are; groups are separated by a blank line.
var bodyGroups = []string{"additionaldescription", "otherinfo", "printout", "bodytext"}

// Event place columns: Open Data names them event_building_name,
// event_street_address_1 …; some caches drop the event_ prefix.
var (
	placeBuilding = []string{"eventbuildingname", "buildingname"}
	placeStreet1  = []string{"eventstreetaddress1", "streetaddress1"}
	placeStreet2  = []string{"eventstreetaddress2", "streetaddress2"}
	placeCity     = []string{"eventcity", "city"}
	placeState    = []string{"eventstatecode", "eventstate", "statecode", "state"}
	placeZip      = []string{"eventzipcode", "eventzip", "zipcode", "zip"}
)

// ErrNoRequestID is wrapped by the error Normalize returns for a row
// without a request id.
var ErrNoRequestID = errors.New("row has no request id")

// ErrBadRequestID is wrapped by the error Normalize returns for a row whose
// request id is not a RequestID (record.ValidRequestID): its permalink and
// notice endpoint would refuse it, so it is not indexed.
var ErrBadRequestID = errors.New("request id is not a City Record RequestID")

// Normalize is NormalizeRaw followed by the link stage (indexer/link: the
// agency id and name from the crosswalk, the vendor stem, the lenses a
// canonical agency name adds), for callers outside the indexer pipeline.
// cw may be nil: every agency keeps its own id.
func Normalize(row Row, cw *entity.Crosswalk) (record.Notice, error) {
	n, err := NormalizeRaw(row)
	if err == nil {
		link.Linker{Crosswalk: cw}.Notice(&n)
	}
	return n, err
}

// NormalizeRaw maps one raw row to a record.Notice with the fields the
// source gives; the derived ones (agency id and name, vendor stem) are the
// link stage's. It is a pure function of the row. A row without a request id, or whose id is not a RequestID
// (record.ValidRequestID), is an error: ErrNoRequestID or ErrBadRequestID.
//
//   - Section comes from the row, else from the wrapper's predicate
//     (Row.Defaults), else from the notice type (Solicitation, Award, Intent
//     to Award, Vendor List and Intent to Negotiate are Procurement).
//   - Lenses come from record.LensesFor; Lens is the first.
//   - Amount is set only when record.ParseAmount says it is valid; AmountRaw
//     is always the source text. Due dates in 2090 or later are rolling.
//   - AgencyRaw is the exact source string; AgencyID and AgencyName are
//     left to the link stage, which may add lenses under the canonical name.
//   - Body is the notice text as the source gave it (HTML included); Text is
//     record.PlainText(Body).
//   - Raw holds every non-empty source field, exactly as read, except the
//     anonymized placeholders (see placeholderColumns).
func NormalizeRaw(row Row) (record.Notice, error) {
	get := func(keys ...string) string { return row.value(keys...) }

	id := strings.TrimSpace(row.Fields["requestid"])
	if id == "" {
		return record.Notice{}, &RowError{File: row.File, Line: row.Line, Err: ErrNoRequestID}
	}
	if !record.ValidRequestID(id) {
		return record.Notice{}, &RowError{File: row.File, Line: row.Line, Err: fmt.Errorf("%w: %q", ErrBadRequestID, clipID(id))}
	}
	n := record.Notice{
		RequestID:       id,
		Source:          record.SourceCROL,
		NoticeType:      clean(get("typeofnoticedescription")),
		Category:        clean(get("categorydescription")),
		SelectionMethod: clean(get("selectionmethoddescription")),
		AgencyDivision:  clean(get("agencydivision")),
		Title:           clean(get("shorttitle")),
		PIN:             clean(get("pin")),
		StartDate:       record.ParseDate(get("startdate")),
		EndDate:         record.ParseDate(get("enddate")),
		EventDate:       record.ParseDate(get("eventdate")),
		VendorName:      clean(get("vendorname")),
		VendorAddress:   clean(get("vendoraddress")),
		Contact: record.Contact{
			Name:            clean(get("contactname")),
			Phone:           clean(get("contactphone")),
			Fax:             clean(get("contactfax")),
			Email:           clean(get("email", "contactemail")),
			AddressRequest:  clean(get("addresstorequest")),
			AddressToSubmit: clean(get("addresstosubmit")),
		},
		OfficialURL: record.OfficialURL(id),
		OpenDataURL: record.OpenDataURL(id),
	}

	n.AgencyRaw = get("agencyname")

	n.Section = clean(get("sectionname"))
	if n.Section == "" && procurementTypes[strings.ToLower(n.NoticeType)] {
		n.Section = record.SectionProcurement
	}

	n.DueDate, n.DueRolling = record.ParseDue(get("duedate"))

	if raw := get("contractamount"); raw != "" {
		n.AmountRaw = raw
		if v, ok := record.ParseAmount(raw); ok {
			n.Amount, n.AmountValid = v, true
		}
	}

	n.Body = row.body()
	n.Text = record.PlainText(n.Body)

	n.Lenses = record.LensesFor(n.Section, n.AgencyRaw, n.Title, n.Text)
	n.Lens = n.Lenses[0]

	n.EventPlace = row.place()
	n.DocumentLinks = DocumentLinks(get("documentlinks"))

	n.Raw = make(map[string]string, len(row.Fields))
	for k, v := range row.Fields {
		if v == "" || placeholderColumns[k] {
			continue
		}
		if k == "confirmationnumber" && strings.TrimSpace(v) == id {
			continue
		}
		n.Raw[k] = v
	}
	return n, nil
}

// value returns the first of keys that the row has with a non-blank value,
// exactly as read; when the row has none, the first such default.
func (r Row) value(keys ...string) string {
	for _, k := range keys {
		if v := r.Fields[k]; strings.TrimSpace(v) != "" {
			return v
		}
	}
	for _, k := range keys {
		if v := r.Defaults[k]; strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// body joins the text columns: additional description, other information,
// printout. Numbered parts of one column are concatenated; columns are
// separated by a blank line; blank columns are skipped.
func (r Row) body() string {
	var groups []string
	for _, g := range bodyGroups {
		var b strings.Builder
		if v := r.Fields[g]; strings.TrimSpace(v) != "" {
			b.WriteString(v)
		}
		for i := 1; i <= 9; i++ {
			if v := r.Fields[g+strconv.Itoa(i)]; strings.TrimSpace(v) != "" {
				b.WriteString(v)
			}
		}
		if b.Len() > 0 {
			groups = append(groups, b.String())
		}
	}
	return strings.Join(groups, "\n\n")
}

// place formats the event venue: building, street lines, city, "state zip".
func (r Row) place() string {
	var parts []string
	for _, keys := range [][]string{placeBuilding, placeStreet1, placeStreet2, placeCity} {
		if v := clean(r.Fields[first(r.Fields, keys)]); v != "" {
			parts = append(parts, v)
		}
	}
	stateZip := strings.TrimSpace(clean(r.Fields[first(r.Fields, placeState)]) + " " + clean(r.Fields[first(r.Fields, placeZip)]))
	if stateZip != "" {
		parts = append(parts, stateZip)
	}
	return strings.Join(parts, ", ")
}

func first(f map[string]string, keys []string) string {
	for _, k := range keys {
		if strings.TrimSpace(f[k]) != "" {
			return k
		}
	}
	return ""
}

// clean makes a one-line display value: control characters (such as the
// U+001A the source leaves where it lost a dash or apostrophe) become
// spaces, and surrounding white space is trimmed. Inner spacing is kept.
func clean(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		s = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return ' '
			}
			return r
		}, s)
	}
	return strings.TrimSpace(s)
}

var urlRE = regexp.MustCompile(`https?://[^\s"'<>\]\[,;]+`)

// DocumentLinks reads a document_links value: a JSON list of URLs (or of
// {"url": …} objects), a single {"url": …} object, or text holding URLs.
// Duplicates are dropped; order is kept.
func DocumentLinks(raw string) []string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(u string) {
		u = strings.TrimRight(strings.TrimSpace(u), ".)")
		if u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	fromText := func(s string) {
		for _, u := range urlRE.FindAllString(s, -1) {
			add(u)
		}
	}
	switch raw[0] {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal([]byte(raw), &items) == nil {
			for _, it := range items {
				var s string
				var obj struct {
					URL string `json:"url"`
				}
				if json.Unmarshal(it, &s) == nil {
					fromText(s)
				} else if json.Unmarshal(it, &obj) == nil {
					fromText(obj.URL)
				}
			}
			return out
		}
	case '{':
		var obj struct {
			URL string `json:"url"`
		}
		if json.Unmarshal([]byte(raw), &obj) == nil {
			fromText(obj.URL)
			return out
		}
	}
	fromText(raw)
	return out
}

// Passages splits a notice's Body into citable passages
// (record.SplitPassages) and labels each with the notice's source, section,
// lenses, agency, title, start date and official URL.
func Passages(n record.Notice) []record.Passage {
	ps := record.SplitPassages(n.RequestID, n.Body)
	for i := range ps {
		ps[i].Source = n.Source
		ps[i].Section = n.Section
		ps[i].Lenses = append([]string(nil), n.Lenses...)
		ps[i].AgencyID = n.AgencyID
		ps[i].Title = n.Title
		ps[i].StartDate = n.StartDate
		ps[i].SourceURL = n.OfficialURL
	}
	return ps
}

// clipID bounds a refused id quoted in an error.
func clipID(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
