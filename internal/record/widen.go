package record

// ListWidening is the nearest non-empty answer to an empty list of records
// (a browse of meetings or land projects: issue 49, item 4): the same
// question with one of its constraints left out (or, for a window of
// dates, moved to the nearest days that hold records), how many records
// that holds, and the widened question as the list's own parameters, so
// every surface can offer it as a link. It is given only when the list is
// empty and the widened question matches something; the empty answer
// keeps its own scope.
type ListWidening struct {
	// Without names the constraint left out or moved (each service lists
	// its own: "time", "body", "status", "word", "later" …).
	Without string `json:"without"`
	// Matched counts the records the widened question matches.
	Matched int `json:"matched"`
	// Filters are the widened question's parameters, as the list reads
	// them (name → value).
	Filters map[string]string `json:"filters"`
	Note    string            `json:"note"`
}
