package feed

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ical "github.com/emersion/go-ical"
	"github.com/mmcdole/gofeed"
)

var ny, _ = time.LoadLocation("America/New_York")

// tricky is a feed whose text holds everything the encoders must escape:
// XML markup, iCalendar separators, control characters, invalid UTF-8,
// Windows line ends and long multi-byte lines.
func tricky() Feed {
	updated := time.Date(2026, 8, 14, 0, 0, 0, 0, ny)
	long := strings.Repeat("Ñandú “quoted”, semi; colon: back\\slash ", 8)
	return Feed{
		ID:          "tag:rw.test,2026:feed?lens=meetings&q=a+b",
		Title:       "Hearings <b>&</b> meetings",
		Description: "Covers: hearings; meetings, \"quoted\"\r\nsecond line\x01.",
		Rights:      "Public records.",
		HomeURL:     "http://rw.test/#meetings?lens=meetings&q=a+b",
		Self: Links{Atom: "http://rw.test/feed.xml?lens=meetings", JSON: "http://rw.test/feed.json?lens=meetings",
			ICS: "http://rw.test/feed.ics?lens=meetings"},
		Updated:   updated,
		Author:    Author{Name: "Recordwatch", URL: "http://rw.test/"},
		Generator: "Recordwatch",
		TTL:       15 * time.Minute,
		Scope: Scope{Covers: "Hearings, soonest first.", Filter: map[string]string{"lens": "meetings", "q": "a b"},
			Order: "event", Limit: 50, Matched: 3, Items: 3, Events: 2, CorpusObservedAt: updated,
			Sources:      []Source{{Source: "crol", Label: "City Record Online", Records: 10, ObservedAt: updated}},
			AbsenceRules: []string{"No search hits does not mean no record exists."}},
		Items: []Item{
			{ID: "tag:rw.test,2026:notice/1", Title: "Hearing on <zoning> & \"rules\"", Summary: "Sum; mary, here",
				Content: long + "\xff\xfe bad bytes\r\nnext", URL: "http://rw.test/#notice/1", SourceURL: "https://example.test/1",
				Published:  time.Date(2026, 8, 3, 0, 0, 0, 0, ny),
				Categories: []string{"meetings", "Hearing"},
				Event: &Event{UID: "1-event@rw.test", Summary: "Hearing: " + long, Start: time.Date(2026, 8, 17, 10, 30, 0, 0, ny),
					Location: "City Hall, New York; NY", Description: "Line one\nLine two, with comma"},
				Extension: map[string]any{"request_id": "1"}},
			{ID: "tag:rw.test,2026:notice/2", Title: "All-day notice", Summary: "s", URL: "http://rw.test/#notice/2",
				Published: time.Date(2026, 8, 4, 0, 0, 0, 0, ny),
				Event:     &Event{UID: "2-due@rw.test", Summary: "Due: all-day", Start: time.Date(2026, 12, 31, 0, 0, 0, 0, ny), AllDay: true}},
			// a rolling deadline: no date, so no event
			{ID: "tag:rw.test,2026:notice/3", Title: "Rolling", Summary: "no fixed deadline (rolling)", URL: "http://rw.test/#notice/3"},
		},
	}
}

func TestAtomParses(t *testing.T) {
	b := Atom(tricky())
	if !utf8.Valid(b) {
		t.Fatal("invalid UTF-8")
	}
	f, err := gofeed.NewParser().ParseString(string(b))
	if err != nil {
		t.Fatalf("gofeed: %v\n%s", err, b)
	}
	if f.FeedType != "atom" || f.Title != "Hearings <b>&</b> meetings" || len(f.Items) != 3 {
		t.Fatalf("feed %q %q %d", f.FeedType, f.Title, len(f.Items))
	}
	it := f.Items[0]
	if it.GUID != "tag:rw.test,2026:notice/1" || it.Title != `Hearing on <zoning> & "rules"` || it.Link != "http://rw.test/#notice/1" {
		t.Errorf("item %q %q %q", it.GUID, it.Title, it.Link)
	}
	if !strings.Contains(it.Content, "Ñandú") || strings.ContainsRune(it.Content, '\r') {
		t.Errorf("content %q", it.Content)
	}
	if it.PublishedParsed == nil || !it.PublishedParsed.Equal(time.Date(2026, 8, 3, 0, 0, 0, 0, ny)) {
		t.Errorf("published %v", it.PublishedParsed)
	}
	// an item without a source date still has an updated date: the feed's
	if f.Items[2].UpdatedParsed == nil || !f.Items[2].UpdatedParsed.Equal(tricky().Updated) {
		t.Errorf("undated item updated %v", f.Items[2].UpdatedParsed)
	}
	sc := f.Extensions["rw"]["scope"]
	if len(sc) != 1 || sc[0].Children["covers"][0].Value != "Hearings, soonest first." ||
		sc[0].Children["absenceRule"][0].Value != "No search hits does not mean no record exists." {
		t.Errorf("scope extension %+v", sc)
	}
	if strings.Contains(string(b), "\x01") || bytes.Contains(b, []byte{0xff}) {
		t.Error("control characters or invalid bytes written")
	}
}

func TestJSONFeedParses(t *testing.T) {
	b, err := JSON(tricky())
	if err != nil {
		t.Fatal(err)
	}
	f, err := gofeed.NewParser().ParseString(string(b))
	if err != nil {
		t.Fatalf("gofeed: %v", err)
	}
	if f.FeedType != "json" || f.FeedVersion != JSONFeedVersion || len(f.Items) != 3 || f.FeedLink != "http://rw.test/feed.json?lens=meetings" {
		t.Fatalf("feed %q %q %d %q", f.FeedType, f.FeedVersion, len(f.Items), f.FeedLink)
	}
	var raw struct {
		Version   string `json:"version"`
		Extension struct {
			About string `json:"about"`
			Scope
		} `json:"_recordwatch"`
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Version != JSONFeedVersion || raw.Extension.About == "" || raw.Extension.Covers == "" || raw.Extension.Matched != 3 {
		t.Errorf("extension %+v", raw.Extension)
	}
	for _, it := range raw.Items {
		if it["content_text"] == "" || it["content_text"] == nil || it["id"] == "" {
			t.Errorf("item without id or content: %v", it)
		}
	}
	if raw.Items[0]["_recordwatch"].(map[string]any)["request_id"] != "1" {
		t.Errorf("item extension %v", raw.Items[0]["_recordwatch"])
	}
	// an empty feed keeps "items": []
	empty := tricky()
	empty.Items = nil
	b, _ = JSON(empty)
	if !bytes.Contains(b, []byte(`"items": []`)) {
		t.Errorf("empty feed: %s", b)
	}
}

func TestICSWellFormed(t *testing.T) {
	b := ICS(tricky())
	checkICSLines(t, b)
	cal, err := ical.NewDecoder(bytes.NewReader(b)).Decode()
	if err != nil {
		t.Fatalf("go-ical: %v", err)
	}
	events := cal.Events()
	if len(events) != 2 {
		t.Fatalf("%d events, want 2 (the rolling item is not an event)", len(events))
	}
	e := events[0]
	start, err := e.DateTimeStart(nil)
	if err != nil || !start.Equal(time.Date(2026, 8, 17, 10, 30, 0, 0, ny)) {
		t.Errorf("start %v %v", start, err)
	}
	if p := e.Props.Get(ical.PropDateTimeStart); p.Params.Get(ical.ParamTimezoneID) != TZID {
		t.Errorf("DTSTART params %v", p.Params)
	}
	sum, _ := e.Props.Text(ical.PropSummary)
	if !strings.HasPrefix(sum, "Hearing: Ñandú “quoted”, semi; colon: back\\slash") {
		t.Errorf("summary round trip %q", sum)
	}
	desc, _ := e.Props.Text(ical.PropDescription)
	if desc != "Line one\nLine two, with comma" {
		t.Errorf("description round trip %q", desc)
	}
	loc, _ := e.Props.Text(ical.PropLocation)
	if loc != "City Hall, New York; NY" {
		t.Errorf("location %q", loc)
	}
	if e.Props.Get(ical.PropDateTimeStamp) == nil || e.Props.Get(ical.PropUID) == nil {
		t.Error("event without DTSTAMP or UID")
	}
	allDay := events[1]
	if p := allDay.Props.Get(ical.PropDateTimeStart); p.ValueType() != ical.ValueDate || p.Value != "20261231" {
		t.Errorf("all-day start %+v", p)
	}
	if end, _ := allDay.DateTimeEnd(nil); end.Format("20060102") != "20270101" {
		t.Errorf("all-day end %v", end)
	}
	var tz int
	for _, c := range cal.Children {
		if c.Name == ical.CompTimezone {
			tz++
		}
	}
	if tz != 1 {
		t.Errorf("%d VTIMEZONE", tz)
	}
	// with no dated items the calendar is still valid: VTIMEZONE is its component
	empty := tricky()
	empty.Items = empty.Items[2:]
	b = ICS(empty)
	checkICSLines(t, b)
	if cal, err := ical.NewDecoder(bytes.NewReader(b)).Decode(); err != nil || len(cal.Events()) != 0 {
		t.Errorf("empty calendar: %v", err)
	}
}

// checkICSLines checks RFC 5545 §3.1: CRLF line ends, lines of at most 75
// octets, continuation lines starting with one space, valid UTF-8 (no
// character split by folding).
func checkICSLines(t *testing.T, b []byte) {
	t.Helper()
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		t.Error("does not end in CRLF")
	}
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\r\n")), []byte("\r\n"))
	for i, l := range lines {
		if len(l) > 75 {
			t.Errorf("line %d is %d octets", i+1, len(l))
		}
		if bytes.ContainsAny(l, "\r\n") {
			t.Errorf("line %d holds a bare CR or LF: %q", i+1, l)
		}
		if !utf8.Valid(l) {
			t.Errorf("line %d splits a character: %q", i+1, l)
		}
		if len(l) == 0 {
			t.Errorf("line %d is empty", i+1)
		}
	}
}

func TestFolding(t *testing.T) {
	w := &icsWriter{}
	w.line("DESCRIPTION:" + strings.Repeat("é", 100))
	checkICSLines(t, w.b.Bytes())
	unfolded := strings.ReplaceAll(w.b.String(), "\r\n ", "")
	if unfolded != "DESCRIPTION:"+strings.Repeat("é", 100)+"\r\n" {
		t.Errorf("unfolded %q", unfolded)
	}
	if got := text("a,b;c\\d\ne\r\nf"); got != `a\,b\;c\\d\ne\nf` {
		t.Errorf("text escape %q", got)
	}
	if got := duration(15 * time.Minute); got != "PT15M" {
		t.Errorf("duration %q", got)
	}
}

func TestDeterministic(t *testing.T) {
	a1, a2 := Atom(tricky()), Atom(tricky())
	j1, _ := JSON(tricky())
	j2, _ := JSON(tricky())
	if !bytes.Equal(a1, a2) || !bytes.Equal(j1, j2) || !bytes.Equal(ICS(tricky()), ICS(tricky())) {
		t.Error("the same feed rendered twice differs")
	}
}

// A lower-bound count (more than 10,000 matches, record.CapCount) says so
// in every format; an exact count states no relation.
func TestMatchedLowerBound(t *testing.T) {
	f := tricky()
	f.Scope.Matched, f.Scope.MatchedRelation = 10000, "gte"
	for name, want := range map[string]string{
		"atom": `<rw:matched relation="gte">10000</rw:matched>`,
		"ics":  "X-RECORDWATCH-MATCHED;X-RELATION=gte:10000\r\n",
		"json": `"matched_relation": "gte"`,
	} {
		var got []byte
		switch name {
		case "atom":
			got = Atom(f)
		case "ics":
			got = ICS(f)
		case "json":
			got, _ = JSON(f)
		}
		if !strings.Contains(string(got), want) {
			t.Errorf("%s: no %q in\n%s", name, want, got)
		}
	}
	exact := tricky()
	js, _ := JSON(exact)
	for name, b := range map[string][]byte{"atom": Atom(exact), "ics": ICS(exact), "json": js} {
		if strings.Contains(strings.ToLower(string(b)), "relation") {
			t.Errorf("%s: an exact count states a relation:\n%s", name, b)
		}
	}
}
