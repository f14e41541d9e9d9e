package watch

import (
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Choices are the values a structured watch accepts for its agency,
// category and requirement fields, as a form offers them: the very lists
// Build and Filter.Validate check against (CategoryNames,
// RequirementNames, the agency crosswalk), so a form built from them can
// say nothing a structured request is refused for.
type Choices struct {
	// Categories are the procurement categories a watch may name.
	Categories []string `json:"categories"`
	// Requirements are the special requirements a watch may name.
	Requirements []string `json:"requirements"`
	// Agencies are the canonical agencies (id and name), former ones
	// too (a watch takes them); a watch names one by either.
	Agencies []ChoiceAgency `json:"agencies"`
	// ProcurementLens is the one lens categories, requirements and
	// bids apply to.
	ProcurementLens string `json:"procurement_lens"`
	// MaxValues bounds each list of a watch (agencies, categories …).
	MaxValues int `json:"max_values"`
}

// ChoiceAgency is one agency a watch may name.
type ChoiceAgency struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Inactive: the agency no longer exists (its records stay).
	Inactive bool `json:"inactive,omitempty"`
}

// StructuredChoices lists what a structured watch accepts, agencies from cw.
func StructuredChoices(cw *entity.Crosswalk) Choices {
	out := Choices{Categories: append([]string{}, CategoryNames...), Requirements: append([]string{}, RequirementNames...),
		Agencies: []ChoiceAgency{}, ProcurementLens: record.LensMoney, MaxValues: MaxValues}
	for _, a := range cw.Agencies() {
		out.Agencies = append(out.Agencies, ChoiceAgency{ID: a.ID, Name: a.Name, Inactive: a.Inactive})
	}
	return out
}
