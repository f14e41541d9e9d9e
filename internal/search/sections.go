package search

// SectionCoverage is one record set the service serves: the notices of one
// section of one source. Records counts distinct records (request ids, the
// document ids) in the index; the dates are the first and last publication
// (start) dates among them, as New York days, "" when none is dated.
// Notices without a section are reported under Section "".
type SectionCoverage struct {
	Source          string `json:"source"`
	Section         string `json:"section"`
	Records         int    `json:"records"`
	FirstSourceDate string `json:"first_source_date,omitempty"`
	LastSourceDate  string `json:"last_source_date,omitempty"`
}

// MaxSections bounds the sections a source reports (the City Record has a
// dozen).
const MaxSections = 1000
