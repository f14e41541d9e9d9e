package link

import (
	"testing"

	"github.com/recordwatch/recordwatch/internal/meeting"
)

// A body is recognized in a notice by its agency (agencies only), its
// name, a community board's usual spellings with its borough, or a
// Council committee written "Committee on <body>".
func TestMeetingBodyMatches(t *testing.T) {
	cb := meeting.Meeting{Body: "Bronx Community Board 10", BodyKind: meeting.BodyCommunityBoard, Agency: &meeting.AgencyRef{ID: "community-boards"}}
	fin := meeting.Meeting{Body: "Finance", BodyKind: meeting.BodyCouncil, Agency: &meeting.AgencyRef{ID: "city-council"}}
	cases := []struct {
		m    meeting.Meeting
		c    candidate
		want bool
	}{
		{cb, candidate{Title: "COMMUNITY BOARD NO. 10 - PUBLIC HEARING", Text: "Bronx, 3165 East Tremont Avenue"}, true},
		{cb, candidate{Title: "CB #10 public hearing", Text: "in the Bronx"}, true},
		{cb, candidate{Title: "COMMUNITY BOARD NO. 10 - PUBLIC HEARING", Text: "Queens Borough Hall"}, false},
		{cb, candidate{Title: "Community Board 1 hearing", Text: "Bronx", AgencyID: "community-boards"}, false}, // the family id is not one board
		{fin, candidate{Title: "City Council hearing", Text: "the Committee on Finance will hold a hearing"}, true},
		{fin, candidate{Title: "Finance hearing", Text: "Department of Finance"}, false},
	}
	for i, c := range cases {
		if got := bodyMatches(c.m, c.c); got != c.want {
			t.Errorf("case %d (%s vs %q): %v, want %v", i, c.m.Body, c.c.Title, got, c.want)
		}
	}
}
