package view

import (
	"net/url"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
)

// FilterSuggestion is a structured filter offered beside a keyword search:
// an agency short form typed as a keyword ("HPD") finds only the notices
// that print it, while the agency filter finds every notice of the agency.
type FilterSuggestion struct {
	Param   string   `json:"param"`
	Values  []string `json:"values"`
	Name    string   `json:"name"`
	Because string   `json:"because"`
	// Search is the JSON search with the filter added and the short form
	// taken out of the keywords.
	Search string `json:"search"`
}

// AgencySuggestions are the agency filters offered for the keywords of a
// search (entity.AgencyShortForms, the one rule), none when the search
// already filters by agency. params are the search's parameters as the API
// names them (q, agency …).
func (l Links) AgencySuggestions(cw *entity.Crosswalk, params url.Values) []FilterSuggestion {
	if params.Get("agency") != "" {
		return nil
	}
	var out []FilterSuggestion
	for _, r := range cw.AgencyShortForms(params.Get("q")) {
		v := url.Values{}
		for k, vs := range params {
			if k != "cursor" {
				v[k] = append([]string(nil), vs...)
			}
		}
		v.Set("q", withoutWord(params.Get("q"), r.Input))
		if v.Get("q") == "" {
			v.Del("q")
		}
		v.Set("agency", strings.Join(r.IDs, ","))
		out = append(out, FilterSuggestion{Param: "agency", Values: r.IDs, Name: r.Name,
			Because: `"` + r.Input + `" is a short form of ` + r.Name + `: as a keyword it finds only notices that print it; the agency filter finds every notice of the agency`,
			Search:  l.Base + "/api/search?" + v.Encode()})
	}
	return out
}

// withoutWord is q without the words that are w (ignoring surrounding
// punctuation).
func withoutWord(q, w string) string {
	var kept []string
	for _, f := range strings.Fields(q) {
		if strings.Trim(f, `()[],.;:!?"“”`) != w {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}
