package api

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/meeting"
)

// calendarListIDs are the meeting ids of the calendar page's day list.
var calendarListIDs = regexp.MustCompile(`<li><a href="[^"]*/meetings/([^"?]+)[^"]*" data-verbatim>`)

func pageMeetingIDs(t *testing.T, body []byte) []string {
	t.Helper()
	var ids []string
	for _, m := range calendarListIDs.FindAllSubmatch(body, -1) {
		id, err := url.PathUnescape(html.UnescapeString(string(m[1])))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

var monthNavRE = regexp.MustCompile(`<a href="([^"]*)"[^>]* data-month-nav="(\w+)"`)
var twinRE = regexp.MustCompile(`<a href="([^"]*)" data-twin="(json|ics)"`)

// pageLinks are the month links and twins of a calendar page by role
// (prev, this, next, json, ics): path and query.
func pageLinks(t *testing.T, body []byte) map[string]*url.URL {
	t.Helper()
	out := map[string]*url.URL{}
	for _, re := range []*regexp.Regexp{monthNavRE, twinRE} {
		for _, m := range re.FindAllSubmatch(body, -1) {
			u, err := url.Parse(html.UnescapeString(string(m[1])))
			if err != nil {
				t.Fatal(err)
			}
			out[string(m[2])] = u
		}
	}
	return out
}

// hasLink says whether links holds role at path with exactly query want.
func hasLink(links map[string]*url.URL, role, path string, want url.Values) bool {
	u := links[role]
	return u != nil && u.Path == path && u.Query().Encode() == want.Encode()
}

func apiMeetingIDs(t *testing.T, e *env, query string) (meeting.Page, []string) {
	t.Helper()
	var pg meeting.Page
	res, body := get(t, e, "/api/meetings?"+query)
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &pg) != nil {
		t.Fatalf("/api/meetings?%s: %d %s", query, res.StatusCode, body)
	}
	if pg.NextCursor != "" {
		t.Fatalf("/api/meetings?%s has a next page; the test needs one", query)
	}
	var ids []string
	for _, m := range pg.Meetings {
		ids = append(ids, m.ID)
	}
	slices.Sort(ids)
	return pg, ids
}

// The calendar's month view lists the same meetings as the JSON twin for
// that month, links the adjacent months, and its body filter narrows both
// alike, in English and Spanish.
func TestMeetingsMonthCalendar(t *testing.T) {
	e := newEntityEnv(t, Config{})
	limit := "&limit=" + itoa(meeting.MaxLimit)

	pg, want := apiMeetingIDs(t, e, "month=2026-07"+limit)
	if len(want) == 0 || pg.Applied["from"] != "2026-07-01" || pg.Applied["to"] != "2026-07-31" || pg.Applied["month"] != "2026-07" {
		t.Fatalf("July window: %v, %d meetings", pg.Applied, len(want))
	}
	res, body := get(t, e, "/meetings?month=2026-07")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/meetings?month=2026-07: %d", res.StatusCode)
	}
	if got := pageMeetingIDs(t, body); !slices.Equal(got, want) {
		t.Errorf("page lists %d meetings %v, the API %d %v", len(got), got, len(want), want)
	}
	page := string(body)
	links := pageLinks(t, body)
	if !hasLink(links, "prev", "/meetings", url.Values{"month": {"2026-06"}}) || !hasLink(links, "next", "/meetings", url.Values{"month": {"2026-08"}}) ||
		!hasLink(links, "this", "/meetings", url.Values{"month": {fixedNow.Format("2006-01")}}) ||
		!hasLink(links, "json", "/api/meetings", url.Values{"month": {"2026-07"}}) || !hasLink(links, "ics", "/meetings.ics", url.Values{"month": {"2026-07"}}) ||
		!strings.Contains(page, `<input type="hidden" name="month" value="2026-07">`) {
		t.Errorf("July page's month links, twins or form: %v", links)
	}
	// A from/to spanning a month shows that month's links too.
	if _, body := get(t, e, "/meetings?from=2026-07-01&to=2026-07-31"); !hasLink(pageLinks(t, body), "next", "/meetings", url.Values{"month": {"2026-08"}}) {
		t.Errorf("from/to July page has no link to August")
	}

	// The body filter: the body of July's first meeting narrows both the
	// API and the page to the same meetings, all of that body.
	b := pg.Meetings[0].Body
	bq := "month=2026-07&body=" + url.QueryEscape(b)
	bpg, bwant := apiMeetingIDs(t, e, bq+limit)
	if len(bwant) == 0 || len(bwant) >= len(want) {
		t.Fatalf("body %q: %d of %d July meetings; the filter must narrow", b, len(bwant), len(want))
	}
	for _, m := range bpg.Meetings {
		if meeting.BodyKey(m.Body) != meeting.BodyKey(b) {
			t.Errorf("body filter %q kept %s of %q", b, m.ID, m.Body)
		}
	}
	res, body = get(t, e, "/meetings?"+bq)
	if got := pageMeetingIDs(t, body); res.StatusCode != http.StatusOK || !slices.Equal(got, bwant) {
		t.Errorf("body page: %d lists %v, the API %v", res.StatusCode, got, bwant)
	}
	bpage, blinks := string(body), pageLinks(t, body)
	if !strings.Contains(bpage, `value="`+html.EscapeString(b)+`"`) || !hasLink(blinks, "next", "/meetings", url.Values{"body": {b}, "month": {"2026-08"}}) ||
		!hasLink(blinks, "prev", "/meetings", url.Values{"body": {b}, "month": {"2026-06"}}) || !hasLink(blinks, "json", "/api/meetings", url.Values{"body": {b}, "month": {"2026-07"}}) {
		t.Errorf("body page does not keep the body in its form, month links and JSON twin: %v", blinks)
	}
	if res, body := get(t, e, "/meetings.ics?"+bq); res.StatusCode != http.StatusOK || strings.Count(string(body), "BEGIN:VEVENT") != len(bwant) {
		t.Errorf("body feed: %d, %d events, want %d", res.StatusCode, strings.Count(string(body), "BEGIN:VEVENT"), len(bwant))
	}

	// The kind-of-body filter (community boards, council, agencies):
	// page and API list the same meetings, all of that kind, and some kind
	// narrows July.
	narrowed := false
	for _, kind := range meeting.BodyKinds {
		kq := "month=2026-07&body_kind=" + kind
		kpg, kwant := apiMeetingIDs(t, e, kq+limit)
		for _, m := range kpg.Meetings {
			if m.BodyKind != kind {
				t.Errorf("body_kind %s kept %s of kind %q", kind, m.ID, m.BodyKind)
			}
		}
		res, body := get(t, e, "/meetings?"+kq)
		if got := pageMeetingIDs(t, body); res.StatusCode != http.StatusOK || !slices.Equal(got, kwant) {
			t.Errorf("body_kind %s page: %d lists %v, the API %v", kind, res.StatusCode, got, kwant)
		}
		if !hasLink(pageLinks(t, body), "next", "/meetings", url.Values{"body_kind": {kind}, "month": {"2026-08"}}) {
			t.Errorf("body_kind %s: the next month link drops the filter", kind)
		}
		narrowed = narrowed || (len(kwant) > 0 && len(kwant) < len(want))
	}
	if !narrowed {
		t.Errorf("no kind of body narrows July's %d meetings", len(want))
	}

	// Spanish: the month links keep the language and the words are Spanish.
	res, body = get(t, e, "/meetings?month=2026-07&lang=es")
	es := string(body)
	if got := pageMeetingIDs(t, body); res.StatusCode != http.StatusOK || !slices.Equal(got, want) {
		t.Errorf("Spanish July page: %d lists %d meetings, the API %d", res.StatusCode, len(got), len(want))
	}
	for _, w := range []string{web.Word("es", "meet.month.prev"), web.Word("es", "meet.month.next"), web.Word("es", "meet.filter.body"),
		`<input type="hidden" name="lang" value="es">`} {
		if !strings.Contains(es, w) && !strings.Contains(es, html.EscapeString(w)) {
			t.Errorf("Spanish page lacks %s", w)
		}
	}
	if eslinks := pageLinks(t, body); !hasLink(eslinks, "next", "/meetings", url.Values{"month": {"2026-08"}, "lang": {"es"}}) ||
		!hasLink(eslinks, "prev", "/meetings", url.Values{"month": {"2026-06"}, "lang": {"es"}}) {
		t.Errorf("Spanish month links do not keep the language: %v", eslinks)
	}
	if web.Word("es", "meet.month.prev") == web.Word("en", "meet.month.prev") || !strings.Contains(page, web.Word("en", "meet.month.prev")) {
		t.Errorf("month links are not in each language")
	}

	// Bad months are refused with 400 on every surface.
	for _, bad := range []string{"/api/meetings?month=2026-13", "/api/meetings?month=July", "/api/meetings?month=2026-07&from=2026-07-02",
		"/meetings?month=2026-7x", "/meetings.ics?month=2026-00", "/api/meetings?body_kind=borough", "/meetings?body_kind=x"} {
		if res, body := get(t, e, bad); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", bad, res.StatusCode, body)
		}
	}
	// The iCalendar feed of a month holds that month's meetings.
	if res, body := get(t, e, "/meetings.ics?month=2026-07"); res.StatusCode != http.StatusOK || strings.Count(string(body), "BEGIN:VEVENT") != len(want) {
		t.Errorf("July feed: %d, %d events, want %d", res.StatusCode, strings.Count(string(body), "BEGIN:VEVENT"), len(want))
	}
}

// The borough filter is one filter on every surface of the calendar: the
// JSON twin, the page (its form shows the borough chosen and keeps it in
// the month links) and the ICS feed list the same meetings, all of a
// board of that borough; the five boroughs and citywide_or_unknown split
// July's meetings with none left over; an unknown borough is a 400.
func TestMeetingsBoroughFilterOnEverySurface(t *testing.T) {
	e := newEntityEnv(t, Config{})
	limit := "&limit=" + itoa(meeting.MaxLimit)
	_, all := apiMeetingIDs(t, e, "month=2026-07"+limit)
	sum, narrowed := 0, false
	for _, b := range meeting.Boroughs {
		q := "month=2026-07&borough=" + b
		pg, want := apiMeetingIDs(t, e, q+limit)
		sum += len(want)
		narrowed = narrowed || (len(want) > 0 && len(want) < len(all))
		for _, m := range pg.Meetings {
			if got := meeting.BoroughOf(m); got != b {
				t.Errorf("borough %s kept %s (%s), placed %s", b, m.ID, m.Body, got)
			}
		}
		res, body := get(t, e, "/meetings?"+q)
		if got := pageMeetingIDs(t, body); res.StatusCode != http.StatusOK || !slices.Equal(got, want) {
			t.Errorf("borough %s page: %d lists %v, the API %v", b, res.StatusCode, got, want)
		}
		if !strings.Contains(string(body), `<option value="`+b+`" selected>`) || !hasLink(pageLinks(t, body), "next", "/meetings", url.Values{"borough": {b}, "month": {"2026-08"}}) {
			t.Errorf("borough %s: the form or the next month link drops the borough", b)
		}
		if res, body := get(t, e, "/meetings.ics?"+q); res.StatusCode != http.StatusOK || strings.Count(string(body), "BEGIN:VEVENT") != len(want) {
			t.Errorf("borough %s feed: %d, %d events, want %d", b, res.StatusCode, strings.Count(string(body), "BEGIN:VEVENT"), len(want))
		}
	}
	if sum != len(all) || !narrowed {
		t.Errorf("the boroughs hold %d of July's %d meetings (narrowed: %v)", sum, len(all), narrowed)
	}
	for _, path := range []string{"/api/meetings?borough=atlantis", "/meetings?borough=atlantis", "/meetings.ics?borough=atlantis"} {
		if res, _ := get(t, e, path); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", path, res.StatusCode)
		}
	}
}
