package watch

import (
	"regexp"
	"strings"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Boroughs are the five boroughs by their usual names.
var Boroughs = []string{"Manhattan", "Brooklyn", "Queens", "Bronx", "Staten Island"}

// boroughWords are the words a record may use for each borough: its name,
// and its county (New York County, Kings, Queens, Bronx, Richmond).
var boroughWords = map[string]*regexp.Regexp{
	"Manhattan":     regexp.MustCompile(`(?i)\b(manhattan|new york county)\b`),
	"Brooklyn":      regexp.MustCompile(`(?i)\b(brooklyn|kings county)\b`),
	"Queens":        regexp.MustCompile(`(?i)\bqueens\b`),
	"Bronx":         regexp.MustCompile(`(?i)\bbronx\b`),
	"Staten Island": regexp.MustCompile(`(?i)\b(staten island|richmond county)\b`),
}

// BoroughName returns the usual name of a borough spelled any common way
// ("the bronx", "BK", "staten-island"), or "" when s is not a borough.
func BoroughName(s string) string {
	k := strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}), " ")
	k = strings.TrimPrefix(k, "the ")
	switch k {
	case "manhattan", "new york county":
		return "Manhattan"
	case "brooklyn", "kings county", "bklyn":
		return "Brooklyn"
	case "queens", "queens county":
		return "Queens"
	case "bronx", "bronx county":
		return "Bronx"
	case "staten island", "richmond county":
		return "Staten Island"
	}
	return ""
}

// Keep reports whether a notice returned by the compiled query also meets
// the parts of the filter the query cannot carry: when categories are
// named, the notice is filed under one of them (or under none and its words
// say one); when special requirements are named, its text mentions one;
// when boroughs are named, the notice's title, text, event place or vendor
// address names one of them.
func (f Filter) Keep(n record.Notice) bool {
	if !keepCategory(f.Categories, n) || !keepRequirement(f.Requirements, n) {
		return false
	}
	if len(f.Boroughs) == 0 {
		return true
	}
	text := strings.Join([]string{n.Title, n.Text, n.EventPlace, n.VendorAddress, n.AgencyName}, "\n")
	for _, b := range f.Boroughs {
		if re := boroughWords[BoroughName(b)]; re != nil && re.MatchString(text) {
			return true
		}
	}
	return false
}

// Readers are what a filter reads: the engine's notices and records, and
// the people and meeting services main.go builds.
type Readers struct {
	Search   search.NoticesAndRecords
	People   *people.Service
	Meetings *meeting.Service
	// Procure and Land read the matters, contracts and land projects a
	// follow watch follows (nil: those follows answer unavailable).
	Procure *procure.Service
	Land    *land.Service
}
