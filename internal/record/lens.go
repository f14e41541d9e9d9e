package record

import (
	"regexp"
	"strings"
)

// Lenses: the kinds of record a reader follows.
const (
	LensMoney    = "money"
	LensLand     = "land"
	LensProperty = "property"
	LensRules    = "rules"
	LensMeetings = "meetings"
	LensPeople   = "people"
)

// City Record section names as the source spells them.
const (
	SectionProcurement        = "Procurement"
	SectionContractHearings   = "Agency Public Hearings on Contract Awards"
	SectionPropertyDisp       = "Property Disposition"
	SectionAgencyRules        = "Agency Rules"
	SectionHearingsMeetings   = "Public Hearings and Meetings"
	SectionChangesInPersonnel = "Changes in Personnel"
)

// Slug turns a section name into a lens-style identifier
// ("Special Materials" → "special-materials").
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	return b.String()
}

var landUseRE = regexp.MustCompile(`(?i)\b(ulurp|zoning|rezoning|land use|city planning commission|board of standards and appeals|landmarks preservation|uniform land use|special permit|zoning resolution|zr sections?|[cnm]\d{6}[a-z]{3})\b`)

var landAgencies = map[string]bool{
	"city planning commission":          true,
	"city planning":                     true,
	"department of city planning":       true,
	"board of standards and appeals":    true,
	"landmarks preservation commission": true,
	"landmarks preservation":            true,
}

// LensesFor maps a section to its lenses. The first is the primary lens.
// Procurement and contract-award hearings are money; Property Disposition is
// property; Agency Rules is rules; Public Hearings and Meetings is meetings,
// and land too when the hearing is about land use; Changes in Personnel is
// people; other sections keep their own (slugged) name.
func LensesFor(section, agency, title, text string) []string {
	switch strings.ToLower(strings.TrimSpace(section)) {
	case strings.ToLower(SectionProcurement), strings.ToLower(SectionContractHearings):
		return []string{LensMoney}
	case strings.ToLower(SectionPropertyDisp):
		return []string{LensProperty}
	case strings.ToLower(SectionAgencyRules):
		return []string{LensRules}
	case strings.ToLower(SectionChangesInPersonnel):
		return []string{LensPeople}
	case strings.ToLower(SectionHearingsMeetings):
		if IsLandUse(agency, title, text) {
			return []string{LensMeetings, LensLand}
		}
		return []string{LensMeetings}
	case "":
		return []string{"unsectioned"}
	}
	return []string{Slug(section)}
}

// IsLandUse reports whether a hearing or meeting concerns land use: held by a
// land-use body, or naming ULURP, zoning or a ULURP application number.
func IsLandUse(agency, title, text string) bool {
	if landAgencies[strings.ToLower(strings.TrimSpace(agency))] {
		return true
	}
	return landUseRE.MatchString(title) || landUseRE.MatchString(text)
}

// KnownLenses are the lenses the service offers by name.
var KnownLenses = []string{LensMoney, LensLand, LensProperty, LensRules, LensMeetings, LensPeople}
