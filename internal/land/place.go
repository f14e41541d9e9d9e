package land

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// ThirdPartyPlace is the site a third party parsed into a notice's row
// (cityscroll's property_location, kept in Raw as JSON text): its BBLs
// (10 digits only) and boroughs (the five names only).
func ThirdPartyPlace(raw map[string]string) (out struct{ BBLs, Boroughs []string }) {
	v := raw["propertylocation"]
	if v == "" {
		return out
	}
	var pl struct {
		BBLs     []string `json:"bbls"`
		Boroughs []string `json:"boroughs"`
	}
	if json.Unmarshal([]byte(v), &pl) != nil {
		return out
	}
	for _, b := range pl.BBLs {
		if len(b) == 10 && strings.Trim(b, "0123456789") == "" && !slices.Contains(out.BBLs, b) {
			out.BBLs = append(out.BBLs, b)
		}
	}
	for _, b := range pl.Boroughs {
		if _, ok := BoroughOutline(b); ok && !slices.Contains(out.Boroughs, b) {
			out.Boroughs = append(out.Boroughs, b)
		}
	}
	return out
}

// NoticeBBLs are the BBLs of a notice's site: those read from its text
// (entity.ExtractPlaces), then those a third party parsed into its row
// (ThirdPartyPlace), each once. The property-locations view places them
// and the MapPLUTO loader asks for them: one rule for both.
func NoticeBBLs(n record.Notice) (text, thirdParty []string) {
	text = entity.ExtractPlaces(n.Text).BBLs
	for _, b := range ThirdPartyPlace(n.Raw).BBLs {
		if !slices.Contains(text, b) {
			thirdParty = append(thirdParty, b)
		}
	}
	return text, thirdParty
}
