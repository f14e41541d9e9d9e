package meetings

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

const sample = "../../../testdata/sample"

func byID(ms []meeting.Meeting) map[string]meeting.Meeting {
	out := map[string]meeting.Meeting{}
	for _, m := range ms {
		out[m.ID] = m
	}
	return out
}

func field(m meeting.Meeting, name string) meeting.ParsedField {
	for _, f := range m.Fields {
		if f.Field == name {
			return f
		}
	}
	return meeting.ParsedField{}
}

// The bundled files: 88 Legistar events, 13 hearing notices, 8 calendar
// texts and 82 minutes documents read (the sample's minutes are the
// documents read from 2023 on or naming an application number; the full
// files and their rejects are TestMinutesFullFiles'); the image-only text
// is rejected with its reason; hand-checked calendar entries carry the
// confidence of each field.
func TestReadSampleFiles(t *testing.T) {
	res, errs := ReadDir(os.DirFS(sample), "meetings")
	if res.Rows[LegistarSource] != 88 || res.Rows[HearingSource] != 13 || res.Rows[CalendarSource] != 8 || res.Rows[MinutesSource] != 82 {
		t.Errorf("rows %v", res.Rows)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "image-only.txt: rejected: no text") {
		t.Errorf("errors %v", errs)
	}
	ms := byID(res.Meetings)
	type want struct {
		date, start, place, attendance string
		startConf, placeConf           string
	}
	cases := map[string]want{
		// grid calendar, month from the vertical letters SEPTEMBER and the year printed alone
		"cb-calendar:bx09-2026-09-01-social-services-committee": {"2026-09-01", "18:30", "Bronx CB9 Office, 1967 Turnbull Ave., Suite 201, Bronx, NY 10473", meeting.InPerson, meeting.High, meeting.Medium},
		// the full board's place is written above its time
		"cb-calendar:bx10-2026-09-17-cb-10-full-board-public-hearing": {"2026-09-17", "19:00", "3077 Cross Bronx Expressway", meeting.InPerson, meeting.High, meeting.Medium},
		// committee place from the calendar's footer sentence
		"cb-calendar:bx10-2026-10-13-housing-zoning": {"2026-10-13", "19:00", "3165 East Tremont Avenue, Bronx, NY 10461", meeting.InPerson, meeting.High, meeting.Low},
		// a press release: two columns repeating the list, the time and place from its sentences
		"cb-calendar:bk01-2027-02-09-board-meeting": {"2027-02-09", "18:00", "Swinging Sixties Senior Center, 211 Ainslie Street, Brooklyn, NY 11211", meeting.InPerson, meeting.Medium, meeting.Medium},
		// a schedule with no time: the start stays unknown, said explicitly ("not stated", high)
		"cb-calendar:qn08-2026-09-09-board-meeting": {"2026-09-09", "", "", meeting.AttendanceUnknown, meeting.High, ""},
		// a 2021 memo: Zoom meetings, one time for all
		"cb-calendar:qn09-2021-03-09-board-meeting": {"2021-03-09", "19:30", "", meeting.Remote, meeting.Medium, ""},
		// an agenda: venue block and a live stream
		"cb-calendar:qn14-2026-06-09-monthly-board-meeting": {"2026-06-09", "19:00", "Knights of Columbus, 333 B. 90th St., Rockaway Beach, NY 11693", meeting.Hybrid, meeting.High, meeting.Medium},
	}
	for id, w := range cases {
		m, ok := ms[id]
		if !ok {
			t.Errorf("%s not read", id)
			continue
		}
		start := ""
		if m.When.StartKnown {
			start = m.When.Start.Format("15:04")
		}
		got := want{m.When.Date, start, m.Place.Text, m.Place.Attendance, field(m, "start").Confidence, field(m, "place").Confidence}
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", id, got, w)
		}
		if m.When.Start != nil && m.When.Start.Location() != record.NewYork {
			t.Errorf("%s: start not in New York time", id)
		}
	}
	if f := field(ms["cb-calendar:bx09-2026-09-01-social-services-committee"], "date"); f.Confidence != meeting.Medium || !strings.Contains(f.How, "SEPTEMBER") {
		t.Errorf("bx09 date field %+v", f)
	}
	if f := field(ms["cb-calendar:qn14-2026-06-09-monthly-board-meeting"], "body"); f.Confidence != meeting.Low {
		t.Errorf("qn14 has no board address: body field %+v", f)
	}
	if m := ms["cb-calendar:bk01-2026-07-14-board-meeting"]; !m.Tentative || ms["cb-calendar:bk01-2026-09-08-board-meeting"].Tentative {
		t.Errorf("only the starred dates are tentative: %+v", m)
	}
	for id := range ms {
		if strings.Contains(id, "labor-day") || strings.Contains(id, "columbus") || strings.Contains(id, "location-is-indicated") {
			t.Errorf("a closure or a footer read as a meeting: %s", id)
		}
	}
	if n := len(res.Meetings); n != 88+13+62+82 {
		t.Errorf("%d meetings", n)
	}
	dining := ms["cityrecord-hearings:20260728028"]
	if dining.Place.Attendance != meeting.Remote || len(dining.Place.RemoteLinks) == 0 || !strings.HasPrefix(dining.Place.RemoteLinks[0].URL, "https://zoom.us/j/91467302621") {
		t.Errorf("the Dining Out hearing is held on Zoom: %+v", dining.Place)
	}
	if pdc := ms["cityrecord-hearings:20260810053"]; pdc.Place.Attendance != meeting.Hybrid {
		t.Errorf("the Design Commission offers in-person or remote testimony: %+v", pdc.Place)
	}
}

// rawOf turns an event file back into the Legistar Web API shape its
// writer renamed (jehiah/legislator drops the Event prefix and merges
// EventDate and EventTime): the replay serves the real events as the API
// would.
func rawOf(t *testing.T, path string) map[string]any {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	raw := map[string]any{}
	for k, v := range ev {
		switch k {
		case "Items", "Date", "LastModified", "AgendaLastPublished", "MinutesLastPublished":
		case "ID":
			raw["EventId"] = v
		case "GUID":
			raw["EventGuid"] = v
		case "BodyID":
			raw["EventBodyId"] = v
		default:
			raw["Event"+k] = v
		}
	}
	d, err := time.Parse(time.RFC3339, ev["Date"].(string))
	if err != nil {
		t.Fatal(err)
	}
	d = d.In(record.NewYork)
	raw["EventDate"] = d.Format("2006-01-02") + "T00:00:00"
	raw["EventTime"] = d.Format("3:04 PM")
	raw["EventLastModifiedUtc"] = strings.TrimSuffix(ev["LastModified"].(string), "Z")
	return raw
}

func TestLegistarLiveReplay(t *testing.T) {
	files, _ := filepath.Glob(sample + "/meetings/legistar/*.json")
	var events []map[string]any
	for _, f := range files {
		events = append(events, rawOf(t, f))
	}
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		queries = append(queries, q.Get("$filter"))
		if r.URL.Path != "/events" || q.Get("token") != "tok" {
			http.Error(w, "bad request", 400)
			return
		}
		top, _ := strconv.Atoi(q.Get("$top"))
		skip, _ := strconv.Atoi(q.Get("$skip"))
		end := min(skip+top, len(events))
		json.NewEncoder(w).Encode(events[min(skip, end):end])
	}))
	defer srv.Close()
	at := time.Date(2026, 8, 20, 12, 0, 0, 0, time.UTC)
	var progress []int
	f := &LegistarFetcher{Client: fetch.New(), BaseURL: srv.URL, Token: "tok", PageSize: 30, Now: func() time.Time { return at },
		Progress: func(n int) { progress = append(progress, n) }}
	ms, read, rejected, err := f.Fetch(context.Background(), time.Date(2026, 7, 1, 0, 0, 0, 0, record.NewYork), time.Date(2026, 12, 31, 0, 0, 0, 0, record.NewYork))
	if err != nil || read != 88 || len(rejected) != 0 || len(ms) != 88 {
		t.Fatalf("read %d, meetings %d, rejected %v, err %v", read, len(ms), rejected, err)
	}
	if !slices.Equal(progress, []int{30, 60, 88}) || !strings.Contains(queries[0], "EventDate ge datetime'2026-07-01' and EventDate lt datetime'2027-01-01'") {
		t.Errorf("progress %v, filter %q", progress, queries[0])
	}
	got := byID(ms)
	d := got["legistar:22525"]
	if d.Held.State != meeting.NotHeld || d.When.Start.Format(time.RFC3339) != "2026-07-07T11:00:00-04:00" || d.Observed.Date != "2026-08-20" {
		t.Errorf("22525 live: held %+v when %+v observed %+v", d.Held, d.When, d.Observed)
	}
	if h := got["legistar:22593"]; h.Held.State != meeting.Held || h.Minutes.State != meeting.MinutesPublished {
		t.Errorf("22593 live: %+v %+v", h.Held, h.Minutes)
	}
}

func TestHearingsLiveReplay(t *testing.T) {
	data, err := os.ReadFile(sample + "/meetings/hearings/dg92-zbpx_hearings_with_event_date_cityscroll_asof_2026-08-14_event_2026-08-17_to_2026-09-03.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	var wheres []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		wheres = append(wheres, q.Get("$where"))
		limit, _ := strconv.Atoi(q.Get("$limit"))
		off, _ := strconv.Atoi(q.Get("$offset"))
		end := min(off+limit, len(rows))
		json.NewEncoder(w).Encode(rows[min(off, end):end])
	}))
	defer srv.Close()
	at := time.Date(2026, 8, 15, 9, 0, 0, 0, time.UTC)
	ms, n, rejected, err := FetchHearings(context.Background(), crol.Fetcher{Client: fetch.New(), BaseURL: srv.URL, PageSize: 5, Now: func() time.Time { return at }},
		time.Date(2026, 8, 17, 0, 0, 0, 0, record.NewYork))
	if err != nil || n != 13 || len(ms) != 13 || len(rejected) != 0 {
		t.Fatalf("n %d meetings %d rejected %v err %v", n, len(ms), rejected, err)
	}
	if len(wheres) != 3 || !strings.Contains(wheres[0], "event_date IS NOT NULL") || !strings.Contains(wheres[0], "event_date >= '2026-08-17T00:00:00'") {
		t.Errorf("pages %d, where %q", len(wheres), wheres[0])
	}
	got := byID(ms)
	lpc := got["cityrecord-hearings:20260727031"]
	if lpc.Notice.State != meeting.NoticeLinked || lpc.Observed.Date != "2026-08-15" || len(lpc.Docs) != 2 || lpc.When.Start.Format("15:04") != "09:00" {
		t.Errorf("LPC hearing live: %+v", lpc)
	}
}

// Calendar texts served live are parsed as the files are; a PDF and an
// image-only text are rejected with their reasons.
func TestCalendarsLiveReplay(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".pdf") {
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF-1.7\n"))
			return
		}
		b, err := os.ReadFile(sample + "/meetings/calendars" + r.URL.Path)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(b)
	}))
	defer srv.Close()
	at := time.Date(2026, 8, 25, 12, 0, 0, 0, time.UTC)
	var done []int
	f := &CalendarFetcher{Client: fetch.New(), Now: func() time.Time { return at }, Progress: func(n int) { done = append(done, n) },
		URLs: []string{srv.URL + "/bronx-cb-10-september-2026.txt", srv.URL + "/image-only.txt", srv.URL + "/bronx-cb-10-september-2026.pdf"}}
	ms, read, rejected := f.Fetch(context.Background())
	if read != 3 || len(rejected) != 2 || !slices.Equal(done, []int{1, 2, 3}) {
		t.Fatalf("read %d rejected %v progress %v", read, rejected, done)
	}
	if !strings.Contains(rejected[0].Error(), "no text") || !strings.Contains(rejected[1].Error(), "a PDF") {
		t.Errorf("reasons %v", rejected)
	}
	got := byID(ms)
	m, ok := got["cb-calendar:bx10-2026-09-17-cb-10-full-board-public-hearing"]
	if !ok || m.Observed.Date != "2026-08-25" || !m.When.StartKnown || len(ms) != 8 {
		t.Errorf("%d meetings; full board %+v", len(ms), m)
	}
}
