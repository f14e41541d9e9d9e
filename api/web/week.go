package web

import "github.com/recordwatch/recordwatch/internal/notices"

// WeekLinks are one of the week's lists' links: its full search as JSON
// and on the site, and the feed that follows it ("" when none does).
type WeekLinks struct {
	JSON string `json:"json"`
	View string `json:"view"`
	Feed string `json:"feed,omitempty"`
}

// WeekData is the home page's "this week" (notices.Week) with its links.
type WeekData struct {
	notices.Week
	Links map[string]WeekLinks
}
