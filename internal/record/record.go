// Package record holds Recordwatch's domain types: notices, passages, scope,
// read results, lenses and error codes. It depends on the standard library only;
// every adapter (search engines, sources, the API) speaks in these types.
package record

import (
	"time"
)

// Source names used in coverage and on every record.
const (
	SourceCROL = "crol" // City Record Online (NYC Open Data dg92-zbpx and the DCAS export)
)

// Notice is one City Record notice, normalized. RequestID is the exact RequestID
// of the official notice and never changes. Raw source values that fail
// validation (amounts, rolling deadlines) are kept in Raw, never displayed as
// if they were valid.
type Notice struct {
	RequestID string `json:"request_id"`
	Source    string `json:"source"`

	Section         string   `json:"section"`
	Lens            string   `json:"lens"`
	Lenses          []string `json:"lenses"`
	NoticeType      string   `json:"notice_type,omitempty"`
	Category        string   `json:"category,omitempty"`
	SelectionMethod string   `json:"selection_method,omitempty"`

	AgencyRaw      string `json:"agency_raw"`
	AgencyID       string `json:"agency_id"`
	AgencyName     string `json:"agency_name"`
	AgencyDivision string `json:"agency_division,omitempty"`

	Title string `json:"title"`
	PIN   string `json:"pin,omitempty"`

	StartDate time.Time `json:"start_date,omitzero"`
	EndDate   time.Time `json:"end_date,omitzero"`

	// DueDate is zero when the notice has no deadline or when the deadline is
	// a rolling placeholder (DueRolling); a rolling deadline is never a date.
	DueDate    time.Time `json:"due_date,omitzero"`
	DueRolling bool      `json:"due_rolling"`

	// Amount is set only when AmountValid; the source text is in AmountRaw.
	Amount      float64 `json:"amount,omitempty"`
	AmountValid bool    `json:"amount_valid"`
	AmountRaw   string  `json:"amount_raw,omitempty"`

	VendorName    string `json:"vendor_name,omitempty"`
	VendorStem    string `json:"vendor_stem,omitempty"`
	VendorAddress string `json:"vendor_address,omitempty"`

	// Body is the full text as the source gave it (it may hold HTML);
	// Text is the same content as plain text. Passage offsets point into Body.
	Body string `json:"body,omitempty"`
	Text string `json:"text,omitempty"`

	DocumentLinks []string  `json:"document_links,omitempty"`
	EventDate     time.Time `json:"event_date,omitzero"`
	EventPlace    string    `json:"event_place,omitempty"`

	Contact Contact `json:"contact,omitzero"`

	OfficialURL string `json:"official_url"`
	OpenDataURL string `json:"open_data_url"`

	// Raw keeps every non-empty source field exactly as read (keys are the
	// normalized column names), so nothing the source said is lost.
	Raw map[string]string `json:"raw,omitempty"`

	// Brief is set on a notice read for a result list (search.Query.Brief,
	// search.BriefNotice): its Body and Raw were not read, nor its Text
	// unless the list reads a vendor from it, and Brief says what a list
	// shows of them. The zero value is a whole notice's.
	Brief Brief `json:"-"`
}

// Contact is who to ask and where to submit, as printed in the notice.
type Contact struct {
	Name            string `json:"name,omitempty"`
	Phone           string `json:"phone,omitempty"`
	Fax             string `json:"fax,omitempty"`
	Email           string `json:"email,omitempty"`
	AddressRequest  string `json:"address_to_request,omitempty"`
	AddressToSubmit string `json:"address_to_submit,omitempty"`
}

// Year is the publication year used for facets ("" when undated).
func (n Notice) Year() string {
	if n.StartDate.IsZero() {
		return ""
	}
	return n.StartDate.Format("2006")
}

// Passage is a citable span of a notice's text. ID is stable across runs
// ("<request_id>#p<n>", n from 1). Start and End are character (Unicode code
// point) offsets into the notice's Body, End exclusive.
type Passage struct {
	ID        string    `json:"id"`
	RequestID string    `json:"request_id"`
	Seq       int       `json:"seq"`
	Start     int       `json:"start"`
	End       int       `json:"end"`
	Text      string    `json:"text"`
	Source    string    `json:"source"`
	Section   string    `json:"section"`
	Lenses    []string  `json:"lenses"`
	AgencyID  string    `json:"agency_id"`
	Title     string    `json:"title"`
	StartDate time.Time `json:"start_date,omitzero"`
	SourceURL string    `json:"source_url"`
}

// OfficialURL is the City Record Online page of a notice.
func OfficialURL(requestID string) string {
	return "https://a856-cityrecord.nyc.gov/RequestDetail/" + requestID
}

// OpenDataURL is the NYC Open Data row of a notice.
func OpenDataURL(requestID string) string {
	return "https://data.cityofnewyork.us/resource/dg92-zbpx.json?request_id=" + requestID
}
