package land

import (
	"net/url"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/record"
)

// HearingsFeed is a project's hearings as a calendar feed (the project's
// iCalendar feed): one event per dated hearing, past ones kept, timed in
// America/New_York when the source states the time and all-day
// otherwise; a cancelled hearing is STATUS:CANCELLED. An event's UID is
// its record's own in every calendar of the service: a City Record
// notice's event is noticeUID(request id) (the notice feeds' UID), a
// meeting's "<meeting id>@recordwatch" (the meetings calendar's), so a
// client that holds both keeps one event. base is the site's address.
func HearingsFeed(base string, r ProjectRead, noticeUID func(requestID string) string) feed.Feed {
	page := base + "/land-projects/" + url.PathEscape(r.Project.ID)
	self := page + "/hearings.ics"
	f := feed.Feed{ID: self, Title: "Hearings of " + r.Project.Name + " (" + r.Project.ID + ")",
		Description: HearingsNote + " Not the official calendar of any body.",
		HomeURL:     page, Self: feed.Links{ICS: self},
		Scope: feed.Scope{Covers: "land project hearings", Filter: map[string]string{"project": r.Project.ID}, Order: "next first, then later, then past",
			Matched: len(r.Hearings)}}
	for _, h := range r.Hearings {
		if h.Date == "" {
			continue
		}
		uid := h.SourceID + "@recordwatch" // the meetings calendar's
		if h.Notice != "" {
			uid = noticeUID(h.Notice) // the notice feeds': one event, whichever record it is read from
		}
		title := h.Body + " hearing: " + r.Project.Name
		if h.Status == HearingCancelled {
			title = "Cancelled: " + title
		}
		lines := []string{h.Title, "When: " + h.WhenText(), "Place: " + orNotStated(h.Place)}
		if h.Time == "" {
			lines[1] += " (time not stated)"
		}
		if h.HowToTestify != "" {
			lines = append(lines, "How to take part: "+h.HowToTestify)
		}
		lines = append(lines, "Source: "+h.Source, "Linked by: "+h.LinkMethod+" ("+h.LinkConfidence+")", "", "On Recordwatch: "+page)
		if h.URL != "" {
			lines = append(lines, "Official record: "+h.URL)
		}
		desc := strings.Join(lines, "\n")
		it := feed.Item{ID: page + "#hearing-" + h.ID, Title: title, URL: page, SourceURL: h.URL, Summary: h.Body + " · " + h.WhenText(),
			Content: desc, Categories: []string{"Hearing", "Land use"}}
		it.Event = &feed.Event{UID: uid, Summary: title, Location: h.Place, Categories: []string{"Hearing"},
			Start: h.Start, AllDay: h.Time == "", Description: desc, Cancelled: h.Status == HearingCancelled}
		f.Items = append(f.Items, it)
		f.Scope.Events++
	}
	f.Scope.Items = len(f.Items)
	if len(f.Items) == 0 { // an empty calendar says why
		f.Scope.AbsenceType = record.NoneFound
		f.Scope.AbsenceNote = "No dated hearing or meeting held here names one of the project's application numbers or its id; one may still be set."
	}
	for _, c := range r.Sources { // updated when a source behind the project was last observed
		if c.ObservedAt.After(f.Updated) {
			f.Updated = c.ObservedAt
		}
		f.Scope.Sources = append(f.Scope.Sources, feed.Source{Source: c.Source, Label: c.Label, ObservedAt: c.ObservedAt,
			FirstSourceDate: c.FirstSourceDate, LastSourceDate: c.LastSourceDate, Records: c.Records})
	}
	if f.Updated.IsZero() {
		f.Updated = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return f
}

func orNotStated(s string) string {
	if s == "" {
		return "not stated"
	}
	return s
}
